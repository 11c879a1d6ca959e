"""Comparison files: the Compare tab's pinned scenarios as one JSON document, read (capped, regular files only) and
written (atomically) with the same care as scenario files (``vramgui.io.scenario_files``).

Layout::

    {
      "schema": "vramgui.comparison",
      "schema_version": 1,
      "app_version": "0.1.0",
      "pinned": [ {scenario document}, ... ]
    }

Each entry of ``pinned`` is a complete scenario document exactly as a scenario file holds it (``"schema":
"vramgui.scenario"`` header, every section; ``vramgui.core.documents.scenario``), its ``"name"`` the pin's own name
when the user gave one (absent: the app names the pin by what differs from the others). Every entry is read by the
scenario reader (its migrations, the field registry's ranges, unknown fields refused), so a comparison holds
exactly what scenario files can, and an old entry is brought up to date the same way.

Any problem is a ``ComparisonError`` naming it (the file, and for entries their positions and field paths) and
nothing is returned: a bad file is never applied in part. The session keeps its pins as the same text
(``vramgui.settings``). No Qt here: ``ComparisonError.msg`` is a code of the one catalogue, which the GUI renders in the
user's language; ``str()`` is the English text for logs and the command line.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from vramgui import __version__
from vramgui.core.documents.json_text import JsonError, decode_text, loads_json
from vramgui.core.documents.scenario import SCHEMA as SCENARIO_SCHEMA
from vramgui.core.documents.scenario import ScenarioError, document_from_dict, scenario_to_dict
from vramgui.core.scenario.specs import Scenario
from vramgui.core.text.message import Msg, Param, render
from vramgui.io.files import FileReadError, FileTooLargeError, atomic_write_text, read_regular_file

SCHEMA = "vramgui.comparison"
SCHEMA_VERSION = 1
MAX_FILE_BYTES = 1_000_000  # a scenario is ~3 kB; a comparison of a few of them is far below this
MAX_DEPTH = 34  # a scenario's depth (32 at most) inside the list inside the document
MAX_ITEMS = 200_000
_KEYS = ("schema", "schema_version", "app_version", "pinned")
_SCENARIO_KEYS = frozenset(f.name for f in dataclasses.fields(Scenario))  # a scenario's sections

@dataclass(frozen=True)
class ComparisonEntry:
    scenario: Scenario
    name: str | None = None  # the pin's own name; None: named by what differs from the others


class ComparisonError(ValueError):
    """A comparison that cannot be used: ``msg`` says why (an ``error.comparison_*`` code of the one catalogue,
    ``vramgui.core.text.message``), ``source`` is the file, and for ``error.comparison_entries`` every bad entry is
    ``(position from 1, its ScenarioError)``. ``str()`` is the English text (logs, the command line)."""

    def __init__(self, msg: Msg, source: str | os.PathLike[str] | None = None, *,
                 entries: Sequence[tuple[int, ScenarioError]] = ()) -> None:
        self.msg = msg
        self.source = None if source is None else os.fspath(source)
        self.entries = tuple(entries)
        lines = [f"{self.source + ': ' if self.source else ''}{render(msg)}"]
        lines += [f"  scenario {i}: {err}" for i, err in self.entries]
        super().__init__("\n".join(lines))


def _error(code: str, source: str | os.PathLike[str] | None = None, *,
           entries: Sequence[tuple[int, ScenarioError]] = (), **params: Param) -> ComparisonError:
    return ComparisonError(Msg.of(f"error.comparison_{code}", **params), source, entries=entries)


# ----------------------------------------------------------------------------------------------- writing


def to_dict(entries: Sequence[ComparisonEntry]) -> dict[str, Any]:
    return {"schema": SCHEMA, "schema_version": SCHEMA_VERSION, "app_version": __version__,
            "pinned": [scenario_to_dict(e.scenario, name=e.name) for e in entries]}


def dumps(entries: Sequence[ComparisonEntry], *, indent: int | None = 2) -> str:
    """The comparison as JSON text (non-ASCII names stay readable); ``indent=None``: one line (the session's)."""
    text = json.dumps(to_dict(entries), indent=indent, ensure_ascii=False, allow_nan=False)
    return text + "\n" if indent is not None else text


def save_comparison(path: str | os.PathLike[str], entries: Sequence[ComparisonEntry]) -> None:
    """Write atomically (``vramgui.io.files.atomic_write_text``); raises OSError, the old file untouched."""
    atomic_write_text(path, dumps(entries))


# ----------------------------------------------------------------------------------------------- reading


def loads(text: str, source: str | os.PathLike[str] | None = None, *, max_entries: int) -> tuple[ComparisonEntry, ...]:
    """Parse and validate a comparison (every entry; all problems reported at once); ``ComparisonError``."""
    try:
        data = loads_json(text, max_depth=MAX_DEPTH, max_items=MAX_ITEMS, what="comparison")
    except JsonError as err:
        raise _error("not_json", source, reason=err.reason_msg) from None
    return from_dict(data, source, max_entries=max_entries)


def from_dict(data: Any, source: str | os.PathLike[str] | None = None, *,
              max_entries: int) -> tuple[ComparisonEntry, ...]:
    if not isinstance(data, dict):
        raise _error("not_object", source)
    schema = data.get("schema")
    if schema == SCENARIO_SCHEMA or (schema is None and "pinned" not in data and _SCENARIO_KEYS & set(data)):
        raise _error("is_scenario", source)
    if schema != SCHEMA and not (schema is None and "pinned" in data):  # hand-written: no header needed
        raise _error("schema", source, found="null" if schema is None else repr(schema), expected=repr(SCHEMA))
    unknown = sorted(str(k) for k in data if k not in _KEYS)
    if unknown:
        raise _error("unknown_keys", source, names=", ".join(unknown), known=", ".join(_KEYS))
    version = data.get("schema_version", SCHEMA_VERSION)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise _error("bad_version", source)
    if version > SCHEMA_VERSION:
        raise _error("newer", source, version=version, supported=SCHEMA_VERSION)
    pinned = data.get("pinned")
    if not isinstance(pinned, list):
        raise _error("no_list", source)
    if len(pinned) > max_entries:
        raise _error("too_many", source, count=len(pinned), limit=max_entries)
    entries: list[ComparisonEntry] = []
    bad: list[tuple[int, ScenarioError]] = []
    for i, item in enumerate(pinned, start=1):
        try:
            document = document_from_dict(item)
        except ScenarioError as err:
            bad.append((i, err))
            continue
        entries.append(ComparisonEntry(document.scenario, (document.name or "").strip() or None))
    if bad:
        raise _error("entries", source, entries=bad, count=len(bad))
    return tuple(entries)


def load_comparison(path: str | os.PathLike[str], *, max_entries: int) -> tuple[ComparisonEntry, ...]:
    """Read and validate a comparison file; every failure (missing, not a regular file, too big, unreadable, not
    UTF-8, not JSON, not a comparison, a bad scenario in it) is a ``ComparisonError``."""
    try:
        raw = read_regular_file(path, MAX_FILE_BYTES, what="comparison file")
    except FileTooLargeError:
        raise _error("too_large", path, limit=f"{MAX_FILE_BYTES:,}") from None
    except FileReadError as err:
        reason = err.reason.removeprefix("cannot open: ").removeprefix("cannot read: ")
        raise ComparisonError(Msg.of("error.cannot_read_file", reason=reason), path) from None
    try:
        text = decode_text(raw)
    except JsonError:
        raise _error("not_utf8", path) from None
    return loads(text, path, max_entries=max_entries)


__all__ = ["MAX_FILE_BYTES", "SCHEMA", "SCHEMA_VERSION", "ComparisonEntry", "ComparisonError", "dumps",
           "from_dict", "load_comparison", "loads", "save_comparison", "to_dict"]
