"""Scenario files: a small, human-readable JSON document with a schema name and version.

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

Reading validates every field (type, allowed values, range) and reports ALL problems at once with their dotted
field paths in one ``ScenarioError``; unknown fields are problems too, so a typo never silently falls back to a
default. Cross-field consistency (e.g. GPUs divisible by TP x PP) is the estimate's job, so that every scenario the
editor can hold round-trips. Fields are serialised generically from ``dataclasses.fields`` so new defaulted fields
(e.g. in ``Architecture``) need no change here. Pure Python: no Qt (the CLI reads scenarios too).
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import math
import os
import tempfile
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vramgui import __version__
from vramgui.core import specs
from vramgui.core.architecture import FAMILIES, Architecture
from vramgui.core.specs import Scenario

SCHEMA = "vramgui.scenario"
SCHEMA_VERSION = 1
MAX_FILE_BYTES = 1_000_000  # a scenario is ~1 kB; anything this big is not one
_HEADER_KEYS = ("schema", "schema_version", "app_version", "name", "preset")
_PRESET_KEYS = ("model", "gpu")

# Allowed values / ranges per (dataclass, field). Fields not listed get type checks only (new fields stay readable).
_CHOICES: dict[tuple[type, str], tuple] = {
    (specs.PrecisionSpec, "dtype"): specs.DTYPES,
    (specs.PrecisionSpec, "recipe"): specs.RECIPES,
    (specs.PrecisionSpec, "optimizer"): specs.OPTIMIZERS,
    (specs.TrainingSpec, "recompute"): specs.RECOMPUTE,
    (specs.TrainingSpec, "attention"): specs.ATTENTION,
    (specs.TrainingSpec, "implementation"): specs.IMPLEMENTATIONS,
    (specs.ParallelSpec, "zero_stage"): specs.ZERO_STAGES,
    (specs.OffloadSpec, "optimizer"): specs.OFFLOAD,
    (specs.OffloadSpec, "params"): specs.OFFLOAD,
    (Scenario, "convention"): specs.CONVENTIONS,
    (Architecture, "family"): FAMILIES,
    (Architecture, "norm"): ("rmsnorm", "layernorm"),
}
_AT_LEAST_ONE = {
    specs.ModelSpec: ("params", "largest_layer"),
    specs.TrainingSpec: ("micro_batch", "seq_len", "global_batch"),
    specs.ParallelSpec: ("num_gpus", "gpus_per_node", "tp", "pp"),
    specs.HardwareSpec: ("gpu_memory",),
    Architecture: ("num_layers", "hidden_size", "num_heads", "num_kv_heads", "head_dim", "ffn_size",
                   "vocab_size", "moe_ffn_size"),
}
_AT_LEAST_ZERO = {
    specs.OverheadSpec: ("cuda_context", "comm_buffers", "zero3_live_params", "extra"),
    Architecture: ("max_position_embeddings", "num_experts", "experts_per_token", "shared_experts",
                   "dense_layers"),
}


class ScenarioError(ValueError):
    """A scenario document that cannot be used. ``problems`` lists every ``(field_path, message)`` found;
    ``source`` is the file it came from (if any). ``str()`` is a complete message for a dialog or stderr."""

    def __init__(self, problems: list[tuple[str, str]], source: str | os.PathLike | None = None) -> None:
        self.problems = list(problems)
        self.source = None if source is None else str(source)
        head = f"{self.source}: " if self.source else ""
        if len(self.problems) == 1:
            path, message = self.problems[0]
            text = f"{head}{path + ': ' if path else ''}{message}"
        else:
            lines = [f"{head}{len(self.problems)} problems in the scenario:"]
            lines += [f"  {path or '(document)'}: {message}" for path, message in self.problems]
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


def scenario_to_dict(scenario: Scenario, *, name: str | None = None, preset: PresetRef | None = None) -> dict:
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


def save_scenario(path: str | os.PathLike, scenario: Scenario, *, name: str | None = None,
                  preset: PresetRef | None = None) -> None:
    """Write atomically (for the CLI; the GUI uses QSaveFile with ``dumps``)."""
    atomic_write_text(path, dumps(scenario, name=name, preset=preset))


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Write to a temp file in the same folder, fsync, then ``os.replace``: a crash or a full disk leaves the
    previous file untouched and never a half-written one. Keeps the old file's permissions."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            mode = target.stat().st_mode & 0o7777
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


# ----------------------------------------------------------------------------------------------- reading


def _type_name(tp: Any) -> str:
    names = {int: "an integer", float: "a number", str: "a string", bool: "true or false"}
    if dataclasses.is_dataclass(tp):
        return "an object"
    return names.get(tp, getattr(tp, "__name__", str(tp)))


def _convert(value: Any, tp: Any, path: str, problems: list[tuple[str, str]]) -> Any:
    """``value`` (parsed JSON) as type ``tp``; appends a problem and returns None when it is not one."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if value is None and len(args) < len(typing.get_args(tp)):
            return None
        if len(args) == 1:
            return _convert(value, args[0], path, problems)
        problems.append((path, f"unsupported field type {tp}"))
        return None
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            problems.append((path, f"must be an object {{...}}, not {_json_kind(value)}"))
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
    elif tp is str:
        if isinstance(value, str):
            return value
    else:
        problems.append((path, f"unsupported field type {tp}"))
        return None
    problems.append((path, f"must be {_type_name(tp)}, not {_json_kind(value)}"))
    return None


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {value!r}" if len(value) <= 40 else "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _check_value(cls: type, name: str, value: Any, path: str, problems: list[tuple[str, str]]) -> bool:
    choices = _CHOICES.get((cls, name))
    if choices is not None and value not in choices:
        problems.append((path, f"{value!r} is not one of {', '.join(map(str, choices))}"))
        return False
    if value is None or isinstance(value, bool):
        return True
    if name in _AT_LEAST_ONE.get(cls, ()) and value < 1:
        problems.append((path, f"must be at least 1, not {value}"))
        return False
    if name in _AT_LEAST_ZERO.get(cls, ()) and value < 0:
        problems.append((path, f"must not be negative, not {value}"))
        return False
    if (cls, name) == (specs.HardwareSpec, "reserve") and not 0.0 <= value < 1.0:
        problems.append((path, f"must be a fraction from 0 up to (not including) 1, not {value}"))
        return False
    return True


def _build(cls: type, data: dict, prefix: str, problems: list[tuple[str, str]], skip: tuple[str, ...] = ()):
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for key in data:
        if key not in fields and key not in skip:
            close = difflib.get_close_matches(str(key), list(fields), n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"known fields here: {', '.join(fields)}"
            problems.append((f"{prefix}{key}", f"unknown field ({hint})"))
    kwargs: dict[str, Any] = {}
    before = len(problems)
    for name in fields:
        if name not in data:
            continue  # the dataclass default
        path = f"{prefix}{name}"
        n = len(problems)
        value = _convert(data[name], hints[name], path, problems)
        if len(problems) == n and _check_value(cls, name, value, path, problems):
            kwargs[name] = value
    if len(problems) > before:
        return None
    return cls(**kwargs)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in a scenario (numbers must be finite)")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise ValueError(f"the field {key!r} appears twice")
        data[key] = value
    return data


def document_from_dict(data: Any, source: str | os.PathLike | None = None) -> ScenarioDocument:
    """Validate a parsed document; raise ``ScenarioError`` listing every problem."""
    if not isinstance(data, dict):
        raise ScenarioError([("", f"a scenario must be a JSON object {{...}}, not {_json_kind(data)}")], source)
    schema = data.get("schema")
    if schema is None and ("model_type" in data or "architectures" in data):
        raise ScenarioError([("", "this is a Hugging Face model config.json, not a vramgui scenario; "
                                  "import it as a model instead")], source)
    if schema is not None and schema != SCHEMA:
        raise ScenarioError([("schema", f"{schema!r} is not a vramgui scenario (expected {SCHEMA!r})")], source)
    version = data.get("schema_version", SCHEMA_VERSION)
    if isinstance(version, bool) or not isinstance(version, int):
        raise ScenarioError([("schema_version", f"must be an integer, not {_json_kind(version)}")], source)
    if version > SCHEMA_VERSION:
        writer = data.get("app_version")
        by = f" by vramgui {writer}" if isinstance(writer, str) else ""
        raise ScenarioError([("schema_version", f"this file was written{by} in scenario format {version}; this "
                              f"vramgui ({__version__}) reads format {SCHEMA_VERSION} and older - please update")],
                            source)
    if version < 1:
        raise ScenarioError([("schema_version", f"must be at least 1, not {version}")], source)

    problems: list[tuple[str, str]] = []
    name = _header_str(data, "name", problems)
    app_version = _header_str(data, "app_version", problems)
    preset = _convert(data.get("preset"), PresetRef | None, "preset", problems)
    scenario = _build(Scenario, data, "", problems, skip=_HEADER_KEYS)
    if problems:
        raise ScenarioError(problems, source)
    return ScenarioDocument(scenario=scenario, name=name, preset=preset, app_version=app_version,
                            schema_version=version)


def _header_str(data: dict, key: str, problems: list[tuple[str, str]]) -> str | None:
    value = data.get(key)
    if value is None or isinstance(value, str):
        return value
    problems.append((key, f"must be a string, not {_json_kind(value)}"))
    return None


def scenario_from_dict(data: Any) -> Scenario:
    return document_from_dict(data).scenario


def loads_document(text: str, source: str | os.PathLike | None = None) -> ScenarioDocument:
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_reject_constant)
    except json.JSONDecodeError as err:
        raise ScenarioError([("", f"not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}")],
                            source) from None
    except ValueError as err:
        raise ScenarioError([("", str(err))], source) from None
    return document_from_dict(data, source)


def loads(text: str) -> Scenario:
    return loads_document(text).scenario


def load_document(path: str | os.PathLike) -> ScenarioDocument:
    """Read and validate a scenario file; every failure (missing, unreadable, not UTF-8, not JSON, invalid
    fields) is a ``ScenarioError`` with a message fit for the user."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as err:
        raise ScenarioError([("", f"cannot read the file: {err.strerror or err}")], path) from None
    if len(raw) > MAX_FILE_BYTES:
        raise ScenarioError([("", f"the file is larger than {MAX_FILE_BYTES:,} bytes: not a scenario")], path)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ScenarioError([("", "the file is not UTF-8 text: not a scenario")], path) from None
    return loads_document(text, path)


def load_scenario(path: str | os.PathLike) -> Scenario:
    """The ``Scenario`` in a scenario file (``vramgui estimate --scenario FILE``)."""
    return load_document(path).scenario
