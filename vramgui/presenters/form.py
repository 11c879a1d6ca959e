"""The input form as data: field keys, ranges, defaults, and the form -> Scenario conversion.

The view reports raw values (text from line edits, ints from spin boxes, bools, choice values); this module
parses them into a ``Scenario`` and collects every problem as a ``FieldError`` keyed by the field, so the view
can show each message beside its field. Range checks that need the whole scenario (TP x PP dividing the GPUs,
heads dividing the hidden size...) are the core's job (``InputError``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from PySide6.QtCore import QCoreApplication

from vramgui.core.architecture import FAMILIES, Architecture
from vramgui.core.specs import (
    ATTENTION,
    CONVENTIONS,
    DTYPES,
    IMPLEMENTATIONS,
    OPTIMIZERS,
    RECIPES,
    RECOMPUTE,
    HardwareSpec,
    ModelSpec,
    OffloadSpec,
    ParallelSpec,
    PrecisionSpec,
    Scenario,
    TrainingSpec,
)
from vramgui.core.units import GB, GiB, MiB, parse_bytes, parse_count
from vramgui.presenters.view_models import FieldError

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

MODEL_MODES = ("preset", "params", "architecture")
CUSTOM = "custom"  # the choice value of "custom GPU"
IMPORTED = "@imported"  # the choice value of a model imported from a config.json


@dataclass(frozen=True)
class IntRange:
    low: int
    high: int

    def text(self) -> str:
        return f"{self.low:,} - {self.high:,}"


# Ranges of the integer fields: wide enough for any real run, narrow enough to catch typos.
INT_RANGES: dict[str, IntRange] = {
    "arch.num_layers": IntRange(1, 1_000),
    "arch.hidden_size": IntRange(1, 1_000_000),
    "arch.num_heads": IntRange(1, 10_000),
    "arch.num_kv_heads": IntRange(1, 10_000),
    "arch.ffn_size": IntRange(1, 10_000_000),
    "arch.vocab_size": IntRange(1, 10_000_000),
    "training.micro_batch": IntRange(1, 65_536),
    "training.seq_len": IntRange(1, 10_000_000),
    "training.global_batch": IntRange(1, 100_000_000),
    "hardware.gpus_per_node": IntRange(1, 64),
    "hardware.nodes": IntRange(1, 16_384),
    "parallel.tp": IntRange(1, 1_024),
    "parallel.pp": IntRange(1, 1_024),
}
PARAMS_RANGE = IntRange(1, 10**15)
MEMORY_RANGE = IntRange(10**6, 10**14)  # 1 MB .. 100 TB per GPU
RESERVE_RANGE = (0.0, 95.0)  # percent

CHOICE_VALUES: dict[str, tuple[str, ...]] = {
    "model.mode": MODEL_MODES,
    "arch.family": FAMILIES,
    "precision.dtype": DTYPES,
    "precision.recipe": RECIPES,
    "precision.optimizer": OPTIMIZERS,
    "training.recompute": RECOMPUTE,
    "training.attention": ATTENTION,
    "training.implementation": IMPLEMENTATIONS,
    "parallel.zero_stage": ("0", "1", "2", "3"),
    "convention": CONVENTIONS,
}

ARCH_FIELDS = (
    "arch.family",
    "arch.num_layers",
    "arch.hidden_size",
    "arch.num_heads",
    "arch.num_kv_heads",
    "arch.ffn_size",
    "arch.vocab_size",
)

# The seed's worked example: 7B parameters, fp16 + Adam, 8 x 80 GB, 20 % reserve, ZeRO-2 -> 26.25 GB.
DEFAULT_FORM: dict[str, object] = {
    "model.mode": "params",
    "model.preset": "",
    "model.params": "7B",
    "precision.dtype": "fp16",
    "precision.recipe": "mixed",
    "precision.optimizer": "adam",
    "training.micro_batch": 1,
    "training.seq_len": 2048,
    "training.global_batch": "",
    "training.recompute": "none",
    "training.attention": "flash",
    "training.implementation": "hf",
    "hardware.gpu": CUSTOM,
    "hardware.gpu_memory": "80GB",
    "hardware.gpus_per_node": 8,
    "hardware.nodes": 1,
    "hardware.reserve": 20.0,
    "parallel.zero_stage": "2",
    "parallel.tp": 1,
    "parallel.pp": 1,
    "parallel.sp": False,
    "offload.optimizer": False,
    "offload.params": False,
    "convention": "paper",
}


def default_form() -> dict[str, object]:
    """The start-up form: the seed's example, with the architecture fields showing a Llama-style default."""
    return {**DEFAULT_FORM, **arch_form_values(Architecture())}


def arch_form_values(arch: Architecture) -> dict[str, object]:
    return {
        "arch.family": arch.family,
        "arch.num_layers": arch.num_layers,
        "arch.hidden_size": arch.hidden_size,
        "arch.num_heads": arch.num_heads,
        "arch.num_kv_heads": arch.kv_heads,
        "arch.ffn_size": arch.ffn_size,
        "arch.vocab_size": arch.vocab_size,
    }


class _Collector:
    """Parses raw values, recording a FieldError per bad field instead of stopping at the first."""

    def __init__(self, form: Mapping[str, object]) -> None:
        self.form = form
        self.errors: list[FieldError] = []

    def fail(self, key: str, message: str) -> None:
        self.errors.append(FieldError(key, message))

    def int_(self, key: str, optional: bool = False) -> int | None:
        raw = self.form.get(key, "")
        text = str(raw).strip().replace(",", "").replace("_", "")
        rng = INT_RANGES[key]
        if text == "" and optional:
            return None
        try:
            value = int(text)
        except ValueError:
            self.fail(key, translate("Form", "a whole number from {0}").format(rng.text()))
            return None
        if not rng.low <= value <= rng.high:
            self.fail(key, translate("Form", "must be from {0}").format(rng.text()))
            return None
        return value

    def choice(self, key: str) -> str:
        value = str(self.form.get(key, ""))
        allowed = CHOICE_VALUES[key]
        if value not in allowed:
            self.fail(key, translate("Form", "choose one of {0}").format(", ".join(allowed)))
            return allowed[0]
        return value

    def flag(self, key: str) -> bool:
        return bool(self.form.get(key, False))

    def params(self) -> int | None:
        text = str(self.form.get("model.params", "")).strip()
        try:
            value = parse_count(text)
        except ValueError:
            self.fail("model.params", translate("Form", "a parameter count such as 7B, 124M or 7.5e9"))
            return None
        if not PARAMS_RANGE.low <= value <= PARAMS_RANGE.high:
            self.fail("model.params", translate("Form", "must be from 1 to 1e15 parameters"))
            return None
        return value

    def memory(self) -> int | None:
        text = str(self.form.get("hardware.gpu_memory", "")).strip()
        if not text:
            return None  # no GPU memory: the fit is not judged
        try:
            value = parse_bytes(text)
        except ValueError:
            self.fail("hardware.gpu_memory", translate("Form", "a memory size such as 80GB, 80GiB or 24576MiB"))
            return None
        if not MEMORY_RANGE.low <= value <= MEMORY_RANGE.high:
            self.fail("hardware.gpu_memory", translate("Form", "must be from 1 MB to 100 TB"))
            return None
        return value

    def reserve(self) -> float:
        raw = self.form.get("hardware.reserve", 0.0)
        try:
            value = float(str(raw).strip().rstrip("%") or 0)
        except ValueError:
            self.fail("hardware.reserve", translate("Form", "a percentage from 0 to 95"))
            return 0.0
        if not RESERVE_RANGE[0] <= value <= RESERVE_RANGE[1]:
            self.fail("hardware.reserve", translate("Form", "a percentage from 0 to 95"))
            return 0.0
        return value / 100.0


def build_scenario(
    form: Mapping[str, object], model_base: ModelSpec, gpu_name: str | None
) -> tuple[Scenario | None, list[FieldError]]:
    """The scenario the form describes, or ``None`` and every field error found."""
    c = _Collector(form)
    mode = c.choice("model.mode")
    if mode == "params":
        params = c.params()
        model = ModelSpec(name="custom", params=params) if params is not None else None
    elif mode == "architecture":
        base = model_base.architecture or Architecture()
        values = {
            "family": c.choice("arch.family"),
            "num_layers": c.int_("arch.num_layers"),
            "hidden_size": c.int_("arch.hidden_size"),
            "num_heads": c.int_("arch.num_heads"),
            "num_kv_heads": c.int_("arch.num_kv_heads"),
            "ffn_size": c.int_("arch.ffn_size"),
            "vocab_size": c.int_("arch.vocab_size"),
        }
        if any(v is None for v in values.values()):
            model = None
        else:
            if values["family"] != base.family:
                # switching family changes the block style: start from that family's defaults
                norm = "layernorm" if values["family"] == "gpt" else "rmsnorm"
                base = replace(Architecture(), family=values["family"], norm=norm)
            same_width = values["hidden_size"] == base.hidden_size
            head_dim = base.head_dim if base.head_dim is not None and same_width else None
            if head_dim is None and values["num_heads"] and values["hidden_size"] % values["num_heads"]:
                message = translate("Form", "must divide the hidden size {0}")
                c.fail("arch.num_heads", message.format(values["hidden_size"]))
            arch = replace(base, head_dim=head_dim, **values)
            name = model_base.name if model_base.architecture is not None else "custom"
            model = ModelSpec(name=name if arch == model_base.architecture else f"{name} (edited)", architecture=arch)
    else:
        model = model_base

    precision = PrecisionSpec(
        dtype=c.choice("precision.dtype"),
        recipe=c.choice("precision.recipe"),
        optimizer=c.choice("precision.optimizer"),
    )
    micro = c.int_("training.micro_batch")
    seq = c.int_("training.seq_len")
    global_batch = c.int_("training.global_batch", optional=True)
    training_kw = {
        "recompute": c.choice("training.recompute"),
        "attention": c.choice("training.attention"),
        "implementation": c.choice("training.implementation"),
    }
    per_node = c.int_("hardware.gpus_per_node")
    nodes = c.int_("hardware.nodes")
    memory = c.memory()
    reserve = c.reserve()
    stage = int(c.choice("parallel.zero_stage"))
    tp = c.int_("parallel.tp")
    pp = c.int_("parallel.pp")
    sp = c.flag("parallel.sp")
    offload = OffloadSpec(
        optimizer="cpu" if c.flag("offload.optimizer") else "none",
        params="cpu" if c.flag("offload.params") and stage == 3 else "none",
    )
    convention = c.choice("convention")
    if c.errors or model is None or None in (micro, seq, per_node, nodes, tp, pp):
        return None, c.errors
    scenario = Scenario(
        model=model,
        precision=precision,
        training=TrainingSpec(micro_batch=micro, seq_len=seq, global_batch=global_batch, **training_kw),
        parallel=ParallelSpec(num_gpus=per_node * nodes, gpus_per_node=per_node, zero_stage=stage, tp=tp, pp=pp, sp=sp),
        offload=offload,
        hardware=HardwareSpec(gpu_name=gpu_name, gpu_memory=memory, reserve=reserve),
        convention=convention,
    )
    return scenario, []


def form_from_scenario(scenario: Scenario) -> dict[str, object]:
    """Form values showing ``scenario`` (used when a scenario file is opened)."""
    par, tr_, hw = scenario.parallel, scenario.training, scenario.hardware
    per_node = par.gpus_per_node if par.gpus_per_node and par.num_gpus % par.gpus_per_node == 0 else par.num_gpus
    form: dict[str, object] = {
        "precision.dtype": scenario.precision.dtype,
        "precision.recipe": scenario.precision.recipe,
        "precision.optimizer": scenario.precision.optimizer,
        "training.micro_batch": tr_.micro_batch,
        "training.seq_len": tr_.seq_len,
        "training.global_batch": "" if tr_.global_batch is None else str(tr_.global_batch),
        "training.recompute": tr_.recompute,
        "training.attention": tr_.attention,
        "training.implementation": tr_.implementation,
        "hardware.gpu_memory": "" if hw.gpu_memory is None else memory_text(hw.gpu_memory),
        "hardware.gpus_per_node": per_node,
        "hardware.nodes": par.num_gpus // per_node,
        "hardware.reserve": round(hw.reserve * 100.0, 4),
        "parallel.zero_stage": str(par.zero_stage),
        "parallel.tp": par.tp,
        "parallel.pp": par.pp,
        "parallel.sp": par.sp,
        "offload.optimizer": scenario.offload.optimizer == "cpu",
        "offload.params": scenario.offload.params == "cpu",
        "convention": scenario.convention,
    }
    return form


def memory_text(n: int) -> str:
    """An exact, re-parsable text for ``n`` bytes: whole GB or GiB when it is one, else bytes."""
    if n % GB == 0:
        return f"{n // GB}GB"
    if n % GiB == 0:
        return f"{n // GiB}GiB"
    if n % MiB == 0:
        return f"{n // MiB}MiB"
    return f"{n}B"
