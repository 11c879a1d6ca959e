"""A scenario's inputs as short texts in the reader's language: what differs between pinned scenarios (their
automatic names, "ZeRO-3, seq 8k, 16 GPUs") and the inputs listed under an exported chart.

Driven by the field registry (``vramgui.core.fields.registry``): every field except free text changes the
result, so a field added to the registry appears in names, captions and the comparison CSV the day it is added -
with its translated registry label ("Expert parallel: 2"), a choice with the words its row says it in
("selective recomputation"), unless its row has a shorter caption form (``Field.caption``,
``vramgui.core.fields.captions``: "micro-batch 4", "seq 8k", "TP 2"). A field the scenario ignores
(``fields.inactive_reason``: parameter offload below ZeRO-3, the architecture's fields without one) is left out,
and the four fields that make the training strategy (ZeRO stage, the two offloads, Megatron's distributed
optimizer: ``strategy.FIELDS``) are one text, the strategy's name (``vramgui.core.scenario.strategy``). No field is
named here: what a field is (its words, its caption form, what it names) is its registry row. Choice values
are words here, never the registry's ids, so a Chinese caption holds no English ("选择性重计算", not
"recompute: selective").
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from PySide6.QtCore import QCoreApplication

from vramgui.core.fields import paths
from vramgui.core.fields import registry as fields
from vramgui.core.scenario.specs import Scenario
from vramgui.core.scenario.strategy import FIELDS as STRATEGY_PATHS
from vramgui.core.scenario.strategy import Strategy
from vramgui.core.text.message import render
from vramgui.core.text.units import format_count, format_rate, typed_size_text
from vramgui.presenters.messages import qt_translate

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

STRATEGY = "strategy"  # the key of the strategy's one text
# what the user calls the model and the GPU (the rows that name something): no bytes change
LABEL_PATHS = tuple(f.path for f in fields.fields() if f.names)
MODEL_NAME = next(f.path for f in fields.fields() if f.names == "model")
MODEL_SECTION = MODEL_NAME.partition(".")[0] + "."  # a model name stands for the fields beside it
# listed under every exported chart (the rows marked ``essential``, and the strategy); any other input only where
# it is not at its default (docs/comparisons.md)
ESSENTIAL = frozenset({STRATEGY, *(f.path for f in fields.fields() if f.essential)})


class _Inactive:
    def __repr__(self) -> str:
        return "INACTIVE"


INACTIVE = _Inactive()  # the value of a field the scenario ignores


@cache
def _ordered() -> tuple[str, ...]:
    """The model, the strategy, then the registry's order (precision, training, parallelism, hardware, overheads,
    convention, fine-tuning); the labels (model and GPU names) included."""
    shown = [f.path for f in fields.fields() if f.kind != "text" or f.path in LABEL_PATHS]
    model = [p for p in shown if p.startswith(MODEL_SECTION)]
    rest = [p for p in shown if not p.startswith(MODEL_SECTION) and p not in STRATEGY_PATHS]
    return (*model, STRATEGY, *rest)


def keys() -> tuple[str, ...]:
    """Every input that can change the result, in the order texts show them."""
    return tuple(k for k in _ordered() if k not in LABEL_PATHS)


def result_paths() -> tuple[str, ...]:
    """The registry paths of every input that can change the result (the comparison CSV's columns): all but free
    text (the model's and the GPU's names, the Hugging Face model type)."""
    return tuple(f.path for f in fields.fields() if f.kind != "text")


def value(scenario: Scenario, key: str) -> Any:
    """What ``key`` holds in ``scenario`` (a ``Strategy`` for ``STRATEGY``), ``INACTIVE`` where it has no effect."""
    if key == STRATEGY:  # ignored where each of its fields is (the Serve mode)
        ignored = all(fields.inactive_reason(scenario, p) is not None for p in STRATEGY_PATHS)
        return INACTIVE if ignored else Strategy.of(scenario)
    if fields.field(key).group == "architecture" and scenario.model.architecture is None:
        return INACTIVE
    if key not in LABEL_PATHS and fields.inactive_reason(scenario, key) is not None:
        return INACTIVE
    return fields.get(scenario, key)


# ------------------------------------------------------------------------------------------------ texts


def model_label(name: str) -> str:
    """The model's name as captions say it ("custom model" for the form's own)."""
    return _said(fields.field(MODEL_NAME), name, None, True) or name


def _said(f: fields.Field, v: Any, scenario: Scenario | None, short: bool) -> str | None:
    """``v`` in the caption form of its row, translated; None where the row has none for it."""
    said = None if f.caption is None else f.caption(f, v, scenario, short)
    return None if said is None else render(said, qt_translate)


def text(key: str, v: Any, scenario: Scenario, short: bool = True) -> str | None:
    """One input as a reader sees it ("seq 8k", "selective recomputation", "Expert parallel: 2"); None: nothing to
    show (an ignored field; in a caption, one that is not given). ``short``: the form for a pin's name."""
    if v is INACTIVE:
        return None
    if key == STRATEGY:
        return v.label(qt_translate)
    f = fields.field(key)
    special = _said(f, v, scenario, short)  # the row's caption form: "micro-batch 4", "seq 8k", "TP 2"
    if special is not None:
        return special
    label = qt_translate("Fields", f.label)
    if v is None:
        return translate("Inputs", "{0}: not given").format(label) if short else None
    said = f.words_of(v).said if f.kind == "choice" else ""
    if said:
        return qt_translate("Fields", said)
    return translate("Fields", "{0}: {1}").format(label, _value_text(f, v))


def _value_text(f: fields.Field, v: Any) -> str:
    if f.kind == "bool":
        return translate("Inputs", "on") if v else translate("Inputs", "off")
    if f.kind == "bytes":
        return typed_size_text(v)
    if f.kind == "count":
        return format_count(v)
    if f.kind == "fraction":
        return f"{v:g}"
    if f.kind == "rate":  # bytes per second, as datasheets quote them: "3.35 TB/s", "450.0 GB/s"
        return format_rate(v)
    return f"{v:,}" if isinstance(v, int) else str(v)


# ------------------------------------------------------------------------------------------------ lists


def export_caption(scenario: Scenario, est: Any = None) -> str:
    """The caption under an exported chart of one scenario: every input that changes its result (" · " between);
    ``est`` (its ``Estimate``) gives the parameter count of a model defined by its architecture."""
    return " · ".join(caption_parts(scenario, params=getattr(est, "params", None)))


def caption_parts(scenario: Scenario, skip: frozenset[str] = frozenset(), params: int | None = None) -> list[str]:
    """Every input that changes ``scenario``'s result, for the caption under an exported chart: the essential ones
    always, any other where it is not at its registry default; ``skip``: keys said elsewhere; ``params``: the
    count the core found for a model given by its architecture (``model.params`` empty)."""
    parts = []
    for key in keys():
        if key in skip:
            continue
        v = value(scenario, key)
        if key == paths.PARAMS and v is None:
            v = params
        if key not in ESSENTIAL and key != STRATEGY and v == fields.field(key).default:
            continue
        shown = text(key, v, scenario, short=False)
        if shown:
            parts.append(shown)
    return parts


def differing_keys(scenarios: Sequence[Scenario]) -> list[str]:
    """The keys whose values are not the same in every scenario where they count. A model name that stands for one
    model (each name always with the same ``ModelSpec``) stands for its parameters and architecture too."""
    if len(scenarios) < 2:
        return []
    # a field the scenarios hold in one way where it counts, and ignore elsewhere, follows from another difference
    out = [k for k in _ordered()
           if len({_hashable(v) for s in scenarios if (v := value(s, k)) is not INACTIVE}) > 1]
    specs_by_name: dict[str, set] = {}
    for s in scenarios:
        specs_by_name.setdefault(s.model.name, set()).add(s.model)
    if MODEL_NAME in out and all(len(specs) == 1 for specs in specs_by_name.values()):
        out = [k for k in out if k == MODEL_NAME or not k.startswith(MODEL_SECTION)]
    return out


def differing_parts(scenarios: Sequence[Scenario]) -> list[list[str]]:
    """For each scenario, the texts of the inputs in which the scenarios differ (its name when none is given)."""
    diff = differing_keys(scenarios)
    return [[t for k in diff if (t := text(k, value(s, k), s))] for s in scenarios]


def _hashable(v: Any) -> Any:
    try:
        hash(v)
    except TypeError:
        return repr(v)
    return v


def list_text(parts: Sequence[str]) -> str:
    """ "ZeRO-3, seq 8k, 16 GPUs": the parts with the language's list separator (Chinese: "，")."""
    return translate("Inputs", ", ").join(parts)


def pin_names(scenarios: Sequence[Scenario], given: Sequence[str | None]) -> list[str]:
    """Each pin's shown name: the user's own (``given``), else what differs from the other pins ("ZeRO-3, seq 8k,
    16 GPUs"), else (one pin, or all alike) "model · GPUs · strategy"; an automatic name that repeats another gets
    " (2)"."""
    differing = differing_parts(scenarios)
    taken = {g for g in given if g is not None}
    out = []
    for scenario, own, parts in zip(scenarios, given, differing, strict=True):
        if own is not None:
            out.append(own)
            continue
        name = unique(list_text(parts) if parts else default_name(scenario), taken)
        taken.add(name)
        out.append(name)
    return out


def default_name(scenario: Scenario) -> str:
    """ "model · 8× A100 · ZeRO-2": a pin's name while nothing sets it apart."""
    gpus = f"{scenario.parallel.num_gpus}× {scenario.hardware.gpu_name or 'GPU'}"
    parts = [model_label(scenario.model.name), gpus, Strategy.of(scenario).label(qt_translate)]
    return " · ".join(part for part in parts if part)


def unique(name: str, taken: set[str]) -> str:
    """``name``, or ``name (2)``, ``name (3)``... where it is taken."""
    if name not in taken:
        return name
    n = 2
    while f"{name} ({n})" in taken:
        n += 1
    return f"{name} ({n})"
