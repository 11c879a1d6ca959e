"""Scenario documents: a small, human-readable JSON document with a schema name and version.

Layout (every section optional when written by hand; missing fields take the dataclass defaults)::

    {
      "schema": "vramgui.scenario",
      "schema_version": 1,
      "app_version": "0.1.0",
      "name": "Llama-3-8B on 8 x A100",            (optional label)
      "preset": {"model": "llama-3-8b", "gpu": null},  (optional catalog keys it started from)
      "model": {...}, "precision": {...}, "training": {...}, "parallel": {...},
      "offload": {...}, "hardware": {...}, "overhead": {...}, "convention": "paper"
    }

Reading first brings an older document to the current layout (``MIGRATIONS``, in order), then validates every field -
its JSON type here, its allowed values and range by the field registry (``vramgui.core.fields.registry.check``, the same
rule as the form and the CLI flags) - and reports ALL problems at once with their dotted field paths in one
``ScenarioError``; unknown fields are problems too, so a typo never silently falls back to a default. Cross-field
consistency (e.g. GPUs divisible by TP x PP) is the estimate's job, so that every scenario the editor can hold
round-trips. Fields are serialised generically from ``dataclasses.fields`` so new defaulted fields (e.g. in
``Architecture``) need no change here. Pure Python: no Qt, no file access (the CLI reads scenarios too); reading and
writing the files is ``vramgui.io.scenario_files``.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vramgui import __version__
from vramgui.core.documents.json_text import JsonError, loads_json
from vramgui.core.fields import registry as field_registry
from vramgui.core.scenario.specs import Scenario
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg, render

if TYPE_CHECKING:
    from os import PathLike

SCHEMA = "vramgui.scenario"
SCHEMA_VERSION = 2
MAX_DEPTH = 32  # a scenario nests three levels (model.architecture.num_layers)
MAX_ITEMS = 100_000  # a scenario holds about a hundred values
_HEADER_KEYS = ("schema", "schema_version", "app_version", "name", "preset")

# Migrations: MIGRATIONS[v] turns a version-v document (a plain dict, header included) into a version v + 1 one.
# They run in order from the file's version up to SCHEMA_VERSION, before validation, so the checks below only
# ever see the current layout. Every version below SCHEMA_VERSION has one
# (tests/core/documents/test_scenario_versions.py).
# A new field whose default keeps old results needs none; a renamed field, or one whose meaning or default
# changed, does: bump SCHEMA_VERSION and add the converter here, and say what it does in docs/scenarios.md.
Migration = Callable[[dict[str, Any]], dict[str, Any]]


def _v1_to_v2(doc: dict[str, Any]) -> dict[str, Any]:
    """Version 2 (the training-step peak): the CUDA context, the communication buffers and the ZeRO-3 live
    parameters became optional, empty meaning "the step peak's documented default". Version 1 wrote 0 for "not
    given" (its default), so a 0 there becomes empty; any other value stays as the user's own."""
    out = copy.deepcopy(doc)
    overhead = out.get("overhead")
    if isinstance(overhead, dict):
        for key in ("cuda_context", "comm_buffers", "zero3_live_params"):
            if key in overhead and overhead[key] == 0 and not isinstance(overhead[key], bool):
                overhead[key] = None
    out["schema_version"] = 2
    return out


MIGRATIONS: dict[int, Migration] = {1: _v1_to_v2}

Problem = tuple[str, Msg | str]  # (dotted field path, "" for the whole document; the message id, or plain text)


class ScenarioError(ValueError):
    """A scenario document that cannot be used. ``problems`` lists every ``(field_path, message)`` found, the
    message a ``Msg`` (a plain string only for text that comes from elsewhere, e.g. the JSON reader's reason);
    ``source`` is the file it came from (if any). ``str()`` is a complete English message for stderr; the GUI
    renders the problems in the user's language (``vramgui.presenters.messages.scenario_error_text``)."""

    def __init__(self, problems: list[Problem], source: str | PathLike[str] | None = None) -> None:
        self.problems = list(problems)
        self.source = None if source is None else str(source)
        head = f"{self.source}: " if self.source else ""
        if len(self.problems) == 1:
            path, message = self.problems[0]
            text = f"{head}{path + ': ' if path else ''}{render(message)}"
        else:
            lines = [f"{head}{len(self.problems)} problems in the scenario:"]
            lines += [f"  {path or '(document)'}: {render(message)}" for path, message in self.problems]
            text = "\n".join(lines)
        super().__init__(text)


@dataclass(frozen=True)
class PresetRef:
    """The catalog entries a scenario started from (informational; the numbers live in the scenario)."""

    model: str | None = None
    gpu: str | None = None


@dataclass(frozen=True)
class ScenarioDocument:
    scenario: Scenario
    name: str | None = None
    preset: PresetRef | None = None
    app_version: str | None = None  # the version that wrote the file (None when written by hand)
    schema_version: int = SCHEMA_VERSION


# ----------------------------------------------------------------------------------------------- writing


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def scenario_to_dict(scenario: Scenario, *, name: str | None = None, preset: PresetRef | None = None) -> dict[str, Any]:
    """The JSON-ready document for ``scenario`` (header first, then every field of every section)."""
    data: dict[str, Any] = {"schema": SCHEMA, "schema_version": SCHEMA_VERSION, "app_version": __version__}
    if name is not None:
        data["name"] = name
    if preset is not None and (preset.model is not None or preset.gpu is not None):
        data["preset"] = _plain(preset)
    data.update(_plain(scenario))
    return data


def dumps(scenario: Scenario, *, name: str | None = None, preset: PresetRef | None = None,
          indent: int | None = 2) -> str:
    """Scenario as JSON text (UTF-8 friendly: non-ASCII names stay readable). ``indent=None``: one line."""
    text = json.dumps(scenario_to_dict(scenario, name=name, preset=preset), indent=indent, ensure_ascii=False,
                      allow_nan=False)
    return text + "\n" if indent is not None else text


# ----------------------------------------------------------------------------------------------- reading


_MUST_BE = {int: "error.must_be_integer", float: "error.must_be_number", str: "error.must_be_string",
            bool: "error.must_be_true_false"}


def _convert(value: Any, tp: Any, path: str, problems: list[Problem]) -> Any:
    """``value`` (parsed JSON) as type ``tp``; appends a problem and returns None when it is not one."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if value is None and len(args) < len(typing.get_args(tp)):
            return None
        if len(args) == 1:
            return _convert(value, args[0], path, problems)
        problems.append((path, Msg.of("error.unsupported_type", type=str(tp))))
        return None
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            problems.append((path, Msg.of("error.must_be_object", kind=_json_kind(value))))
            return None
        return _build(tp, value, f"{path}.", problems)
    if tp is bool:
        if isinstance(value, bool):
            return value
    elif tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, float) and math.isfinite(value) and value.is_integer():
            return int(value)  # 7e9 written by hand
    elif tp is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            return float(value)
    elif isinstance(tp, type) and issubclass(tp, str):  # a choice (a StrEnum): the registry's check makes the member
        if isinstance(value, str):
            return value
    else:
        problems.append((path, Msg.of("error.unsupported_type", type=str(tp))))
        return None
    problems.append((path, Msg.of(_MUST_BE[str if tp is not bool and issubclass(tp, str) else tp],
                                  kind=_json_kind(value))))
    return None


def _json_kind(value: Any) -> Msg | str:
    """What a JSON value is, for "must be X, not <kind>": JSON's own words (null, true, false) as they are."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        text = repr(value)  # a 4,000-digit integer is not echoed whole
        return Msg.of("kind.number", text=text if len(text) <= 40 else text[:18] + "…" + text[-18:])
    if isinstance(value, str):
        return Msg.of("kind.string", text=repr(value)) if len(value) <= 40 else Msg.of("kind.long_string")
    if isinstance(value, list):
        return Msg.of("kind.list")
    return Msg.of("kind.object")


def _checked(path: str, value: Any, problems: list[Problem]) -> tuple[bool, Any]:
    """The field registry's rule for the value at ``path`` (range, choices; ``vramgui.core.fields.registry.check``):
    (True, the value) or (False, None) with the problem appended. A field the registry does not list has
    type checks only (a defaulted field added to a spec stays readable)."""
    f = field_registry.registry().get(path)
    if f is None:
        return True, value
    try:
        return True, field_registry.check(f, value)
    except InputError as err:
        message = err.msg
        if err.allowed_msg is not None and render(err.allowed_msg):
            message = Msg.of("error.with_allowed", message=err.msg, allowed=err.allowed_msg)
        problems.append((path, message))
        return False, None


def _build(cls: type, data: dict[str, Any], prefix: str, problems: list[Problem],
           skip: tuple[str, ...] = ()) -> Any:
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for key in data:
        if key not in fields and key not in skip:
            import difflib  # only for a key the schema does not know

            close = difflib.get_close_matches(str(key), list(fields), n=1)
            hint = (Msg.of("error.did_you_mean", name=repr(close[0])) if close
                    else Msg.of("error.known_fields", names=", ".join(fields)))
            problems.append((f"{prefix}{key}", Msg.of("error.unknown_field", hint=hint)))
    kwargs: dict[str, Any] = {}
    before = len(problems)
    for name in fields:
        if name not in data:
            continue  # the dataclass default
        path = f"{prefix}{name}"
        n = len(problems)
        value = _convert(data[name], hints[name], path, problems)
        if len(problems) == n:
            ok, value = _checked(path, value, problems)
            if ok:
                kwargs[name] = value
    if len(problems) > before:
        return None
    return cls(**kwargs)


def document_from_dict(data: Any, source: str | PathLike[str] | None = None) -> ScenarioDocument:
    """Validate a parsed document; raise ``ScenarioError`` listing every problem."""
    if not isinstance(data, dict):
        raise ScenarioError([("", Msg.of("error.scenario_not_object", kind=_json_kind(data)))], source)
    schema = data.get("schema")
    if schema is None and ("model_type" in data or "architectures" in data):
        raise ScenarioError([("", Msg.of("error.scenario_is_hf_config"))], source)
    if schema is None and "per_gpu" in data and ("strategy_key" in data or "fits" in data):
        raise ScenarioError([("", Msg.of("error.scenario_is_estimate"))], source)  # Estimate.to_dict()'s keys
    sections = tuple(f.name for f in dataclasses.fields(Scenario))
    if schema is None and data and not set(data) & {*sections, *_HEADER_KEYS}:  # one line, not one per key
        raise ScenarioError([("", Msg.of("error.scenario_unrecognised", sections=", ".join(sections)))], source)
    if schema is not None and schema != SCHEMA:
        raise ScenarioError([("schema", Msg.of("error.scenario_schema", schema=repr(schema), expected=repr(SCHEMA)))],
                            source)
    version = data.get("schema_version", SCHEMA_VERSION)
    if isinstance(version, bool) or not isinstance(version, int):
        raise ScenarioError([("schema_version", Msg.of("error.must_be_integer", kind=_json_kind(version)))], source)
    if version > SCHEMA_VERSION:
        writer = data.get("app_version")
        newer = (Msg.of("error.scenario_newer_by", writer=writer, version=version, app_version=__version__,
                        supported=SCHEMA_VERSION) if isinstance(writer, str)
                 else Msg.of("error.scenario_newer", version=version, app_version=__version__,
                             supported=SCHEMA_VERSION))
        raise ScenarioError([("schema_version", newer)], source)
    if version < 1:
        raise ScenarioError([("schema_version", Msg.of("error.must_be_at_least_one", value=version))], source)
    data = migrate(data, version)

    problems: list[Problem] = []
    name = _header_str(data, "name", problems)
    app_version = _header_str(data, "app_version", problems)
    preset = _convert(data.get("preset"), PresetRef | None, "preset", problems)
    scenario = _build(Scenario, data, "", problems, skip=_HEADER_KEYS)
    if problems:
        raise ScenarioError(problems, source)
    return ScenarioDocument(scenario=scenario, name=name, preset=preset, app_version=app_version,
                            schema_version=version)


def migrate(data: dict[str, Any], version: int) -> dict[str, Any]:
    """``data`` (a version-``version`` document) brought to ``SCHEMA_VERSION`` by ``MIGRATIONS``, in order.
    The caller's dict is not changed."""
    if version == SCHEMA_VERSION:
        return data
    data = copy.deepcopy(data)
    for v in range(version, SCHEMA_VERSION):
        data = MIGRATIONS[v](data)
        data["schema_version"] = v + 1
    return data


def _header_str(data: dict[str, Any], key: str, problems: list[Problem]) -> str | None:
    value = data.get(key)
    if value is None or isinstance(value, str):
        return value
    problems.append((key, Msg.of("error.must_be_string", kind=_json_kind(value))))
    return None


def loads_document(text: str, source: str | PathLike[str] | None = None) -> ScenarioDocument:
    """Parse (``loads_json``: no duplicate keys, no NaN/Infinity, bounded depth and size) and validate."""
    try:
        data = loads_json(text, max_depth=MAX_DEPTH, max_items=MAX_ITEMS, what="scenario")
    except JsonError as err:
        raise ScenarioError([("", err.reason_msg)], source) from None
    return document_from_dict(data, source)


def loads(text: str) -> Scenario:
    return loads_document(text).scenario
