"""Scenario files on disk: read (capped, regular files only) and write (atomically) the documents of
``vramgui.core.documents.scenario``, which holds the format and its validation."""

from __future__ import annotations

import os

from vramgui.core.documents.json_text import JsonError, decode_text
from vramgui.core.documents.scenario import PresetRef, ScenarioDocument, ScenarioError, dumps, loads_document
from vramgui.core.scenario.specs import Scenario
from vramgui.core.text.message import Msg
from vramgui.io.files import FileReadError, FileTooLargeError, atomic_write_text, read_regular_file

MAX_FILE_BYTES = 1_000_000  # a scenario is ~1 kB; anything this big is not one


def load_document(path: str | os.PathLike[str]) -> ScenarioDocument:
    """Read and validate a scenario file; every failure (missing, not a regular file, too big, unreadable, not
    UTF-8, not JSON, invalid fields) is a ``ScenarioError`` with a message fit for the user."""
    try:
        raw = read_regular_file(path, MAX_FILE_BYTES, what="scenario file")
    except FileTooLargeError:
        raise ScenarioError([("", Msg.of("error.scenario_too_large", limit=f"{MAX_FILE_BYTES:,}"))], path) from None
    except FileReadError as err:
        reason = err.reason.removeprefix("cannot open: ").removeprefix("cannot read: ")
        raise ScenarioError([("", Msg.of("error.cannot_read_file", reason=reason))], path) from None
    try:
        text = decode_text(raw)
    except JsonError:
        raise ScenarioError([("", Msg.of("error.scenario_not_utf8"))], path) from None
    return loads_document(text, path)


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    """The ``Scenario`` in a scenario file (``vramgui estimate --scenario FILE``)."""
    return load_document(path).scenario


def save_scenario(path: str | os.PathLike[str], scenario: Scenario, *, name: str | None = None,
                  preset: PresetRef | None = None) -> None:
    """Write atomically (``vramgui.io.files.atomic_write_text``); raises OSError, the old file untouched."""
    atomic_write_text(path, dumps(scenario, name=name, preset=preset))
