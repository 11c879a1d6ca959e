"""The field registry: every input of a ``Scenario`` once, by its dotted path.

The dataclasses in ``vramgui.core.scenario.specs`` and ``vramgui.core.scenario.architecture`` declare each field's
type and default; the rows (``table.py`` and the per-section tables beside it) add what everything else needs: the
allowed range or choices, the unit, the CLI flag, every word about the field (label, tooltip, choice words, check-box
text, placeholder, explanation, marked for translation), its place in the window's form and its editor, and the
rule for when it does nothing (``rules.py``). Validation of single values, the scenario reader, the CLI parser,
the window's form, its word tables, pin names and captions, the error-to-field mapping and the range tooltips are
all derived from here, so adding an input is its spec field, its row here, its messages and its formula.

Cross-field rules (tp × pp divides the GPUs, the global batch is a multiple of micro-batch × N_d...) are in
``vramgui.core.fields.validate``; single-value rules are here and only here.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Any

from vramgui.core.fields import captions, paths, rules
from vramgui.core.fields.architecture import ARCH_TABLE
from vramgui.core.fields.finetune import FINETUNE_TABLE, OPEN_CHOICES, targets_syntax_ok
from vramgui.core.fields.fp8 import FP8_TABLE
from vramgui.core.fields.overhead import OVERHEAD_TABLE
from vramgui.core.fields.parallel import PARALLEL_TABLE
from vramgui.core.fields.serve import SERVE_TABLE
from vramgui.core.fields.strategy import STRATEGY_TABLE
from vramgui.core.fields.table import (
    MAX_BATCH,
    MAX_BYTES,
    MAX_EXPERTS,
    MAX_GPUS,
    MAX_GPUS_PER_NODE,
    MAX_LAYERS,
    MAX_PARAMS,
    MAX_SEQ,
    MAX_WIDTH,
    TABLE,
    Field,
    Kind,
    Widget,
    Words,
)
from vramgui.core.fields.time import TIME_TABLE
from vramgui.core.fields.training import TRAINING_TABLE
from vramgui.core.memo import replaced
from vramgui.core.scenario import specs
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg
from vramgui.core.text.units import (
    parse_bytes_exact,
    parse_count_exact,
    parse_rate_exact,
    rate_text,
    without_digit_separators,
)

__all__ = [
    "MAX_BATCH", "MAX_BYTES", "MAX_EXPERTS", "MAX_GPUS", "MAX_GPUS_PER_NODE", "MAX_LAYERS", "MAX_PARAMS",
    "MAX_SEQ", "MAX_WIDTH", "Field", "Kind", "Widget", "Words",
]


# ------------------------------------------------------------------------------- types and defaults


def _leaf_types(cls: type, prefix: str) -> dict[str, tuple[Any, Any]]:
    """Dotted path -> (type hint, default) of every leaf field under ``cls`` (nested dataclasses walked)."""
    out: dict[str, tuple[Any, Any]] = {}
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        tp = hints[f.name]
        inner = _dataclass_in(tp)
        if inner is not None:
            out.update(_leaf_types(inner, f"{prefix}{f.name}."))
            continue
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[operator]
        out[prefix + f.name] = (tp, default)
    return out


def _dataclass_in(tp: Any) -> type | None:
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return tp
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        for arg in typing.get_args(tp):
            if dataclasses.is_dataclass(arg) and isinstance(arg, type):
                return arg
    return None


def _is_optional(tp: Any) -> bool:
    return typing.get_origin(tp) in (typing.Union, types.UnionType) and type(None) in typing.get_args(tp)


@cache
def registry() -> dict[str, Field]:
    """Every field by path, with its dataclass default and optionality filled in."""
    leaves = _leaf_types(specs.Scenario, "")
    table = {f.path: f for f in (*TABLE, *TRAINING_TABLE, *STRATEGY_TABLE, *OVERHEAD_TABLE, *ARCH_TABLE,
                                     *FINETUNE_TABLE, *PARALLEL_TABLE, *FP8_TABLE, *SERVE_TABLE, *TIME_TABLE)}
    missing, extra = set(leaves) - set(table), set(table) - set(leaves)
    if missing or extra:  # pragma: no cover - caught by tests/core/fields/test_registry.py
        raise RuntimeError(f"field registry out of step with the dataclasses: missing {missing}, extra {extra}")
    named = set(paths.ALL) | set(captions.CAPTIONS) | set(captions.NAMES) | set(captions.STRATEGY)
    if named - set(table):  # pragma: no cover - caught by tests/core/fields/test_registry.py
        raise RuntimeError(f"a path named by the core is no field: {sorted(named - set(table))}")
    out = {}
    for path, (tp, default) in leaves.items():
        f = dataclasses.replace(table[path], default=default, optional=_is_optional(tp),
                                caption=captions.CAPTIONS.get(path), names=captions.NAMES.get(path, ""))
        out[path] = f if f.widget is not None else dataclasses.replace(f, widget=default_widget(f))
    return out


def default_widget(f: Field) -> Widget:
    """The editor a row that names none gets: check boxes for flags, combo boxes for choices, a percentage for a
    fraction (an optional one, a dropout whose empty is the family's default, is typed as text), spin boxes for
    whole numbers (a line edit when empty means "derived"), line edits for sizes, counts and text."""
    if f.kind == "bool":
        return "check"
    if f.kind == "choice":
        return "combo"
    if f.kind == "fraction":
        return "line" if f.optional else "percent"
    if f.kind == "int" and not f.optional:
        return "spin"
    return "line"


def field(path: str) -> Field:
    return registry()[path]


def fields() -> tuple[Field, ...]:
    return tuple(registry().values())


def flag_of(path: str) -> str | None:
    """The CLI flag that sets ``path`` (also for a path below a field, e.g. ``model.architecture.*``)."""
    f = registry().get(path)
    return None if f is None else f.flag


# ------------------------------------------------------------------------------- reading and writing values


def get(scenario: specs.Scenario, path: str) -> Any:
    """The value at ``path`` (None below a missing architecture)."""
    value: Any = scenario
    for part in path.split("."):
        if value is None:
            return None
        value = getattr(value, part)
    return value


def with_value(obj: Any, path: str, value: Any) -> Any:
    """A copy of the frozen dataclass ``obj`` with ``path`` set (an absent architecture starts from defaults;
    ``memo.replaced``: the solves and the adviser set fields thousands of times per question)."""
    head, _, rest = path.partition(".")
    if not rest:
        return replaced(obj, **{head: value})
    child = getattr(obj, head)
    if child is None:
        child = Architecture() if head == "architecture" else None
    return replaced(obj, **{head: with_value(child, rest, value)})


def check(f: Field, value: Any) -> Any:
    """``value`` if it is valid for ``f`` on its own (type, range, choices); else ``InputError`` naming it."""
    if value is None:
        if f.optional:
            return None
        raise InputError(f.path, Msg.of("error.unknown_value", value="null"), f.allowed())
    if f.kind == "bool":
        if not isinstance(value, bool):
            raise InputError(f.path, Msg.of("error.true_false", value=_show(value)), f.allowed())
        return value
    if f.kind == "text":
        if not isinstance(value, str):
            raise InputError(f.path, Msg.of("error.text", value=_show(value)))
        return value
    if f.kind == "choice" and f.path in OPEN_CHOICES:
        return _open_choice(f, value)
    if f.kind == "choice":
        if isinstance(value, bool) or value not in f.choices:
            raise InputError(f.path, Msg.of("error.unknown_value", value=_show(value)), f.allowed())
        return _member(f, value)
    if f.kind in ("fraction", "number"):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value in (
                float("inf"), float("-inf")):
            raise InputError(f.path, Msg.of("error.number", value=_show(value)), f.allowed())
        assert f.low is not None and f.high is not None
        if not (f.low <= value < f.high if f.high_open else f.low <= value <= f.high):
            raise InputError(f.path, Msg.of("error.out_of_range", value=_show(value)), f.allowed())
        return float(value) + 0.0  # -0.0 is 0 (it would print as "-0%")
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f.path, Msg.of("error.whole_number", value=_show(value)), f.allowed())
    assert f.low is not None and f.high is not None
    if not f.low <= value <= f.high:
        raise InputError(f.path, Msg.of("error.out_of_range", value=_show(value)), f.allowed())
    return value


def is_open_choice(path: str) -> bool:
    """A choice field that also takes other values of a given form (the LoRA targets' comma list of module names):
    the window shows it as an editable combo box."""
    return path in OPEN_CHOICES


def _member(f: Field, value: Any) -> Any:
    """The choice ``value`` names: the enum member for a text (so a scenario holds members), else ``value``."""
    return next(c for c in f.choices if c == value) if isinstance(value, str) else value


def _open_choice(f: Field, value: Any) -> Any:
    if isinstance(value, str) and (value in f.choices or targets_syntax_ok(value)):
        return _member(f, value.strip()) if value.strip() in f.choices else ",".join(p.strip() for p in value.split(",")
                                                                         if p.strip())
    raise InputError(f.path, Msg.of("error.lora_targets", value=_show(value)), Msg.of("allowed.lora_target_syntax"))


def _show(value: Any) -> str:
    """A value as it appears in a message: short (a 4,000-digit number is not echoed whole)."""
    text = f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else repr(value)
    return text if len(text) <= 40 else text[:18] + "…" + text[-18:]


def parse(f: Field, text: str) -> Any:
    """A value for ``f`` from what a person typed (form or command line), checked with ``check``.
    Empty text is None for an optional field. Sizes and counts are exact (no float rounding)."""
    raw = text.strip()
    if raw == "" and f.optional:
        return None
    if f.kind == "text":
        return check(f, text)
    if f.kind == "bool":
        low = raw.lower()
        if low in ("true", "yes", "on", "1"):
            return True
        if low in ("false", "no", "off", "0"):
            return False
        raise InputError(f.path, Msg.of("error.true_false", value=_show(raw)), f.allowed())
    if f.kind == "choice" and f.path in OPEN_CHOICES:
        return _open_choice(f, raw)
    if f.kind == "choice":
        for choice in f.choices:
            if str(choice) == raw:
                return choice
        raise InputError(f.path, Msg.of("error.unknown_value", value=_show(raw)), f.allowed())
    if f.kind in ("fraction", "number"):
        try:
            number = float(raw if f.kind == "fraction" else (without_digit_separators(raw) or "x"))
        except ValueError:
            raise InputError(f.path, Msg.of("error.number", value=_show(raw)), f.allowed()) from None
        return check(f, number)
    if f.kind == "rate":
        return check(f, parse_rate_exact(raw, f.path))
    if f.kind in ("bytes", "count"):
        parser = parse_bytes_exact if f.kind == "bytes" else parse_count_exact
        try:
            value = parser(raw, f.path)
        except InputError as err:
            if err.allowed_msg is None:  # a number too large to compute: the field's range says what fits
                raise InputError(f.path, err.msg, f.allowed()) from None
            magnitude = _magnitude(parser, raw[1:], f.path) if raw[:1] == "-" else None
            if magnitude is None:
                raise
            if magnitude:  # "-1GB" reads as a size: one below the range
                raise InputError(f.path, Msg.of("error.out_of_range", value=_show(raw)), f.allowed()) from None
            value = 0  # "-0"
        return check(f, value)
    cleaned = without_digit_separators(raw)
    try:
        if cleaned is None or not cleaned.isascii() or len(cleaned) > 40:  # "1,5" is not 15; "١٢" is no input
            raise ValueError(raw)
        number = int(cleaned)
    except ValueError:
        raise InputError(f.path, Msg.of("error.whole_number", value=_show(raw)), f.allowed()) from None
    return check(f, number)  # outside the try: its InputError is a ValueError too, and says "out of range"


def _magnitude(parser: Any, text: str, path: str) -> int | None:
    """What ``text`` (a size or count after its minus sign) reads as: None when it does not read as one, 1 for a
    number too large to compute."""
    try:
        return int(parser(text, path))
    except InputError as err:
        return 1 if err.allowed_msg is None else None


def format_value(f: Field, value: Any) -> str:
    """An exact, re-parsable text for ``value`` (``parse(f, format_value(f, v)) == v``)."""
    if value is None:
        return ""
    if f.kind == "bytes":
        return memory_text(value)
    if f.kind in ("fraction", "number"):
        return repr(float(value))
    if f.kind == "rate":
        return rate_text(value)
    if f.kind == "bool":
        return "true" if value else "false"
    return str(value)


def memory_text(n: int) -> str:
    """Whole GB, GiB or MiB when ``n`` is one (``80GB``, ``80GiB``), else bytes (``123B``)."""
    for unit, factor in (("GB", 10**9), ("GiB", 2**30), ("MiB", 2**20)):
        if n and n % factor == 0:
            return f"{n // factor}{unit}"
    return f"{n}B"



# ------------------------------------------------------------------------------- fields a choice makes moot


def serving_reads(path: str) -> bool:
    """Whether serving (``vramgui serve``, the window's Serve mode) reads ``path``: the model's architecture and
    name, the GPU, the ``serve.*`` section and ``paths.SERVING_ALSO``; not Φ or the largest layer, which it counts
    from the architecture."""
    f = registry()[path]
    if f.group in ("model", "architecture"):
        return path not in (paths.PARAMS, paths.LARGEST_LAYER)
    return f.group == "serve" or path in paths.SERVING_ALSO or path == paths.GPU_NAME


def inactive_reason(scenario: specs.Scenario, path: str) -> Msg | None:
    """Why ``path`` has no effect on ``scenario`` (the window disables it with this tooltip), or None: in Serve
    mode every input serving does not read (``rules.training_only``), else the rule of its row
    (``vramgui.core.fields.rules``)."""
    if not serving_reads(path):
        reason = rules.training_only(scenario)
        if reason is not None:
            return reason
    return registry()[path].inactive(scenario)
