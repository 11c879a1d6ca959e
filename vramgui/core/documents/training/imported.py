"""What a training config gave: the taken values with the key each came from, the ignored and the unresolved keys.

``Reader`` collects them while a format's reader walks its document; ``Imported`` is the frozen result. Values are
checked against the field registry as they are taken (``fields.check``), so a file value out of range is an
``InputError`` on the field that names the file's key, exactly as a flag would be refused.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from vramgui.core.fields import registry as fields
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg


@dataclass(frozen=True)
class Taken:
    """``path`` (a registry field, or ``model.preset`` / ``model.config``) set to ``value`` from ``key``."""

    path: str
    value: Any
    key: str
    note: Msg | None = None  # how the value was derived ("auto" filled, a tool's default)


@dataclass(frozen=True)
class Left:
    """A key not taken, its value as written (shortened) and why."""

    key: str
    value: str
    reason: Msg


@dataclass(frozen=True)
class Include:
    """A file the document points to (``deepspeed: ds.json``): read by io/ and merged by ``kind``."""

    key: str
    target: str
    kind: str = "deepspeed"


@dataclass(frozen=True)
class Batch:
    """DeepSpeed's three batch numbers (deepspeed/runtime/config.py ``_set_batch_related_parameters``): any two
    give the third through train_batch_size = micro × accumulation × data-parallel size. Each is (value, key)."""

    micro: tuple[int, str] | None = None
    accumulation: tuple[int, str] | None = None
    total: tuple[int, str] | None = None
    micro_note: Msg | None = None  # the micro-batch is a tool's default, not written in the file


@dataclass(frozen=True)
class Imported:
    format: str
    taken: tuple[Taken, ...] = ()
    ignored: tuple[Left, ...] = ()
    unresolved: tuple[Left, ...] = ()
    includes: tuple[Include, ...] = ()
    batch: Batch = field(default_factory=Batch)
    hidden_autos: tuple[str, ...] = ()  # DeepSpeed keys set to "auto" that transformers fills from hidden_size
    model: tuple[str, str] | None = None  # (name as written, key) of the model the file names


def shown(value: Any) -> str:
    """A value as the file wrote it, short enough for one line."""
    text = value if isinstance(value, str) else repr(value)
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def as_int(value: Any) -> int | None:
    """A whole number as JSON or YAML wrote it: 8, 8.0, 1e9 (a float in JSON, a string in PyYAML's YAML 1.1)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and _NUMBER.match(value.strip()) and len(value) < 40:
        value = float(value)
    if isinstance(value, float) and math.isfinite(value) and value == int(value):
        return int(value)
    return None


def as_bool(value: Any) -> bool | None:
    """True/false as the tools read it: a YAML/JSON boolean, or "true"/"false" text (accelerate's str_to_bool)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "yes", "1", "false", "no", "0"):
        return value.strip().lower() in ("true", "yes", "1")
    return None


def is_auto(value: Any) -> bool:
    return isinstance(value, str) and value.strip().lower() == "auto"


@dataclass
class Reader:
    """Collects what a format's reader decides about each key; ``what`` names the file in errors."""

    format: str
    what: str = "the training config"
    taken: list[Taken] = field(default_factory=list)
    ignored: list[Left] = field(default_factory=list)
    unresolved: list[Left] = field(default_factory=list)
    includes: list[Include] = field(default_factory=list)
    hidden_autos: list[str] = field(default_factory=list)
    model: tuple[str, str] | None = None
    micro: tuple[int, str] | None = None
    accumulation: tuple[int, str] | None = None
    total: tuple[int, str] | None = None
    micro_note: Msg | None = None

    def take(self, path: str, value: Any, key: str, note: Msg | None = None) -> None:
        """``value`` for ``path``, checked by the registry; a later take of the same path replaces an earlier one
        (a nested file's concrete value over the outer file's, as the tools merge them)."""
        try:
            value = fields.check(fields.field(path), value)
        except InputError as err:
            raise InputError(path, Msg.of("error.training_config_value", file=self.what, key=key, problem=err.msg),
                             err.allowed_msg) from None
        self.taken = [t for t in self.taken if t.path != path]
        self.taken.append(Taken(path, value, key, note))

    def ignore(self, key: str, value: Any, reason: str = "imported.no_memory_effect", **params: Any) -> None:
        self.ignored.append(Left(key, shown(value), Msg.of(reason, **params)))

    def unresolve(self, key: str, value: Any, reason: str = "imported.no_input", **params: Any) -> None:
        self.unresolved.append(Left(key, shown(value), Msg.of(reason, **params)))

    def bad_value(self, key: str, value: Any) -> None:
        """A value the tool would read but vramgui cannot (an unknown name, a wrong type): unresolved."""
        self.unresolve(key, value, "imported.unknown_value")

    def whole(self, key: str, value: Any, low: int = 0) -> int | None:
        """``value`` as a whole number >= ``low`` (0 or 1; below it: an ``InputError`` naming the key); an ``"auto"``
        or a value that is no number is reported unresolved."""
        n = as_int(value)
        if n is not None and n < low:
            problem = Msg.of("error.out_of_range", value=str(n))
            raise InputError("training_config", Msg.of("error.training_config_value", file=self.what, key=key,
                                                       problem=problem),
                             Msg.of("allowed.at_least_one" if low == 1 else "allowed.at_least_zero"))
        if n is not None:
            return n
        if is_auto(value):
            self.unresolve(key, value, "imported.auto_unfilled")
        else:
            self.bad_value(key, value)
        return None

    def result(self) -> Imported:
        return Imported(self.format, tuple(self.taken), tuple(self.ignored), tuple(self.unresolved),
                        tuple(self.includes), Batch(self.micro, self.accumulation, self.total, self.micro_note),
                        tuple(self.hidden_autos), self.model)


def walk(doc: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """Every leaf of a nested mapping as (dotted key, value); lists are leaves."""
    out: list[tuple[str, Any]] = []
    for k, v in doc.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict) and v:
            out.extend(walk(v, key + "."))
        else:
            out.append((key, v))
    return out
