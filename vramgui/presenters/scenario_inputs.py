"""A scenario's inputs as short texts in the reader's language: what differs between pinned scenarios (their
automatic names, "ZeRO-3, seq 8k, 16 GPUs") and the inputs listed under an exported chart.

Driven by the field registry (``vramgui.core.fields.registry``): every field except free text changes the
result, so a field added to the registry appears in names, captions and the comparison CSV the day it is added -
with its translated registry label ("Expert parallel: 2"), a choice with the words its row says it in
("selective recomputation"), unless ``_special`` below gives it a shorter form. A field the scenario ignores
(``fields.inactive_reason``: parameter offload below ZeRO-3, the architecture's fields without one) is left out,
and the four fields that make the training strategy (ZeRO stage, the two offloads, Megatron's distributed
optimizer) are one text, the strategy's name (``vramgui.core.scenario.strategy``). Choice values are words here,
never the registry's ids, so a Chinese caption holds no English ("选择性重计算", not "recompute: selective").
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from PySide6.QtCore import QCoreApplication

from vramgui.core.fields import registry as fields
from vramgui.core.parallel.layout import num_nodes, ranks_per_node
from vramgui.core.scenario.specs import Scenario
from vramgui.core.scenario.strategy import Strategy
from vramgui.core.text.units import format_bytes, format_count
from vramgui.presenters.messages import qt_translate

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

STRATEGY = "strategy"  # the key of the strategy's one text
STRATEGY_PATHS = ("parallel.zero_stage", "offload.optimizer", "offload.params", "parallel.distributed_optimizer")
LABEL_PATHS = ("model.name", "hardware.gpu_name")  # what the user calls the model and the GPU: no bytes change
ARCH = "model.architecture."
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
    paths = [f.path for f in fields.fields() if f.kind != "text" or f.path in LABEL_PATHS]
    model = [p for p in paths if p.startswith("model.")]
    rest = [p for p in paths if not p.startswith("model.") and p not in STRATEGY_PATHS]
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
    if key == STRATEGY:
        return Strategy.of(scenario)
    if key.startswith(ARCH) and scenario.model.architecture is None:
        return INACTIVE
    if key not in LABEL_PATHS and fields.inactive_reason(scenario, key) is not None:
        return INACTIVE
    return fields.get(scenario, key)


# ------------------------------------------------------------------------------------------------ texts


def model_label(name: str) -> str:
    return translate("Inputs", "custom model") if name == "custom" else name


def text(key: str, v: Any, scenario: Scenario, short: bool = True) -> str | None:
    """One input as a reader sees it ("seq 8k", "selective recomputation", "Expert parallel: 2"); None: nothing to
    show (an ignored field; in a caption, one that is not given). ``short``: the form for a pin's name."""
    if v is INACTIVE:
        return None
    if key == STRATEGY:
        return v.label(qt_translate)
    if key == "model.name":
        return model_label(v)
    if key == "hardware.gpu_name":
        return v or None
    f = fields.field(key)
    label = qt_translate("Fields", f.label)
    if key == "training.global_batch" and short:
        return translate("Inputs", "no global batch") if v is None else translate("Inputs", "global batch {0}").format(
            f"{v:,}")
    if v is None:
        return translate("Inputs", "{0}: not given").format(label) if short else None
    special = _special(key, v, scenario, short)
    if special is not None:
        return special
    said = f.words_of(v).said if f.kind == "choice" else ""
    if said:
        return qt_translate("Fields", said)
    return translate("Fields", "{0}: {1}").format(label, _value_text(f, v))


def _value_text(f: fields.Field, v: Any) -> str:
    if f.kind == "bool":
        return translate("Inputs", "on") if v else translate("Inputs", "off")
    if f.kind == "bytes":
        return size_text(v)
    if f.kind == "count":
        return format_count(v)
    if f.kind == "fraction":
        return f"{v:g}"
    return f"{v:,}" if isinstance(v, int) else str(v)


def size_text(n: int) -> str:
    """A size as typed ("80 GB", "80 GiB", "532 MiB", "500 MB"), exact; else in GB."""
    for unit, factor in (("GB", 10**9), ("GiB", 2**30), ("MB", 10**6), ("MiB", 2**20)):
        if n and n % factor == 0:
            return f"{n // factor:,} {unit}"
    return f"{n:,} B" if n < 10**6 else format_bytes(n, "GB")


def count_text(n: int) -> str:
    """A compact count: 7B, 8.03B, 124M."""
    for suffix, factor in (("T", 10**12), ("B", 10**9), ("M", 10**6), ("K", 10**3)):
        if n >= factor:
            return f"{n / factor:.3g}{suffix}"
    return str(n)


def tokens_text(n: int) -> str:
    """A sequence length as people say it: 8k for 8,192 (k = 1,024: lengths are powers of two); else exact."""
    return f"{n // 1024}k" if n >= 1024 and n % 1024 == 0 else f"{n:,}"


def _special(key: str, v: Any, scenario: Scenario, short: bool) -> str | None:
    """Shorter forms than "label: value" for the inputs every scenario has."""
    if key == "model.params":
        return translate("Results", "{params} parameters").format(params=count_text(v) if short else format_count(v))
    if key == "training.micro_batch":
        return translate("Inputs", "micro-batch {0}").format(f"{v:,}")
    if key == "training.seq_len":
        return translate("Inputs", "seq {0}").format(tokens_text(v) if short else f"{v:,}")
    if key == "parallel.num_gpus":
        if short:
            return translate("Inputs", "{0} GPUs").format(f"{v:,}")
        par = scenario.parallel
        return translate("Results", "{n} GPUs ({nodes} × {per})").format(n=v, nodes=num_nodes(par),
                                                                         per=ranks_per_node(par))
    if key == "parallel.gpus_per_node":
        return translate("Inputs", "{0} GPUs per node").format(f"{v:,}") if short else ""  # "" : in the GPUs' text
    if key in ("parallel.tp", "parallel.pp", "parallel.cp", "parallel.ep", "parallel.etp", "parallel.vpp"):
        return f"{key.rsplit('.', 1)[1].upper()} {v:,}"  # the names Megatron-LM and the papers use, in any language
    if key == "parallel.sp" and v:
        return "SP"
    if key == "hardware.gpu_memory":
        return translate("Results", "{total} per GPU").format(total=size_text(v))
    if key == "hardware.reserve":
        return translate("Results", "reserve {r:g} %").format(r=v * 100)
    if key == "finetune.lora_targets" and v not in ("attention", "all-linear"):
        return translate("Inputs", "LoRA on {0}").format(v)
    return None


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
        if key == "model.params" and v is None:
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
    if "model.name" in out and all(len(specs) == 1 for specs in specs_by_name.values()):
        out = [k for k in out if k == "model.name" or not k.startswith("model.")]
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
