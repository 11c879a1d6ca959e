"""The input form as data: which registry fields the window shows, in which group, and how each value is shown.

The form is no second copy of the scenario. Its keys ARE the field registry's dotted paths
(``vramgui.core.fields.registry``: ``parallel.tp``, ``hardware.gpu_memory``, ``model.architecture.num_layers``...);
ranges,
choices, units, labels and tooltips come from the registry. The presenter holds the ``Scenario``; this module only
converts between a field's value and what its editor shows (text for a line edit, an int for a spin box, a
percentage for the reserve, a tick for an offload choice) and back, through ``fields.parse`` / ``fields.check``, so
an edit is exactly ``fields.with_value(scenario, path, parse_input(field, raw))``.

Three keys are UI state, not scenario fields: how the model is defined (``model.mode``), the model preset
(``model.preset``) and the GPU preset (``hardware.gpu``).
"""

from __future__ import annotations

from typing import Any, Literal

from vramgui.core.fields import registry as fields
from vramgui.core.fields.registry import Field
from vramgui.core.scenario.choices import DType, Optimizer, Recipe
from vramgui.core.scenario.specs import HardwareSpec, ModelSpec, ParallelSpec, PrecisionSpec, Scenario
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg
from vramgui.core.text.units import require_size_unit

MODEL_MODES = ("preset", "params", "architecture")
CUSTOM = "custom"  # the GPU preset choice "custom memory"
IMPORTED = "@imported"  # the model preset choice of a model imported from a config.json (or opened from a file)
UI_KEYS = ("model.preset", "model.mode", "hardware.gpu")

ARCH = "model.architecture."
# The architecture fields shown by default (two to a row); the others sit in a collapsible "details" section.
ARCH_MAIN = tuple(ARCH + name for name in ("family", "num_layers", "hidden_size", "num_heads", "num_kv_heads",
                                          "ffn_size", "vocab_size"))
ARCH_DETAILS = tuple(f.path for f in fields.fields() if f.group == "architecture" and f.path not in ARCH_MAIN)
ARCH_FIELDS = ARCH_MAIN + ARCH_DETAILS

# The groups of the form, top to bottom; every field of a Scenario is in exactly one of them.
GROUPS: dict[str, tuple[str, ...]] = {
    "model": ("model.name", "model.params", *ARCH_MAIN, "model.largest_layer", *ARCH_DETAILS),
    "training": ("precision.dtype", "precision.recipe", "precision.optimizer", "precision.optimizer_impl",
                 "precision.fp8", "training.micro_batch", "training.seq_len", "training.global_batch",
                 "training.recompute", "training.attention", "training.implementation", "training.loss",
                 "training.moe_capacity_percent", "training.moe_imbalance_percent"),
    "finetune": ("finetune.method", "finetune.lora_rank", "finetune.lora_targets", "finetune.lora_dropout",
                 "finetune.base_dtype", "finetune.double_quant", "finetune.adapter_dtype"),
    "hardware": ("hardware.gpu_name", "hardware.gpu_memory", "parallel.num_gpus", "parallel.gpus_per_node",
                 "hardware.reserve"),
    "strategy": ("convention", "parallel.zero_stage", "parallel.tp", "parallel.pp", "parallel.sp", "parallel.ep",
                 "parallel.etp", "parallel.cp", "parallel.vpp", "parallel.first_stage_layers",
                 "parallel.last_stage_layers", "parallel.distributed_optimizer", "parallel.ddp_bucket_view",
                 "offload.optimizer", "offload.params", "offload.zero_init"),
    "overheads": ("overhead.cuda_context", "overhead.comm_buffers", "overhead.zero3_live_params",
                  "overhead.zero3_prefetch", "overhead.reduce_bucket", "overhead.extra"),
}
FORM_PATHS = tuple(path for group in GROUPS.values() for path in group)

# Two-valued choices shown as a check box: ticked is this value, unticked the other one.
TICKED: dict[str, str] = {"offload.optimizer": "cpu", "offload.params": "cpu"}

Editor = Literal["spin", "line", "check", "combo", "open", "percent"]


def editor_kind(f: Field) -> Editor:
    """The editor a field gets: spin boxes for whole numbers (a line edit when empty means "derived"), line edits
    for sizes, counts and text, check boxes for flags, combo boxes for choices (an editable one, "open", for a
    choice that also takes typed values: the LoRA targets' module list), a percentage for the reserve."""
    if f.path in TICKED or f.kind == "bool":
        return "check"
    if f.kind == "choice" and fields.is_open_choice(f.path):
        return "open"
    if f.kind == "choice":
        return "combo"
    if f.kind == "fraction":  # an optional one (a dropout: empty = the family's default) is typed as text
        return "line" if f.optional else "percent"
    if f.kind == "int" and not f.optional:
        return "spin"
    return "line"


def display(f: Field, value: Any) -> object:
    """What the editor of ``f`` shows for ``value``."""
    kind = editor_kind(f)
    if kind == "check":
        return value == TICKED[f.path] if f.path in TICKED else bool(value)
    if kind in ("combo", "open"):
        return str(value)
    if kind == "percent":
        return round(float(value) * 100.0, 10)
    if kind == "spin":
        return int(value)
    return fields.format_value(f, value)


def parse_input(f: Field, raw: object) -> Any:
    """The field value an editor reported (``raw`` as :func:`display` gives it, or typed text); raises
    ``InputError`` naming ``f.path`` with the registry's allowed range. Stricter than ``fields.parse`` in one
    way, as the CLI's flags are: a size other than 0 typed without a unit is an error, not a count of bytes."""
    kind = editor_kind(f)
    if f.path in TICKED and isinstance(raw, bool):
        other = next(c for c in f.choices if c != TICKED[f.path])
        return TICKED[f.path] if raw else other
    if kind == "percent":
        try:
            percent = float(str(raw).strip().rstrip("%").strip())
        except ValueError:
            raise InputError(f.path, Msg.of("error.number", value=repr(str(raw))), f.allowed()) from None
        if percent != percent or percent in (float("inf"), float("-inf")):
            raise InputError(f.path, Msg.of("error.number", value=repr(str(raw))), f.allowed())
        return fields.check(f, round(percent / 100.0, 12))
    if isinstance(raw, bool):
        return fields.check(f, raw) if f.kind == "bool" else fields.parse(f, str(raw).lower())
    if isinstance(raw, int) and f.kind == "int":
        return fields.check(f, raw)
    text = "" if raw is None else str(raw)
    if f.kind == "bytes":  # "80" is 80 GB to a person, 80 bytes to the parser: asked for its unit, before the range
        require_size_unit(text, f.path)
    return fields.parse(f, text)


def default_scenario() -> Scenario:
    """The start-up scenario, the seed's worked example: 7B parameters, fp16 mixed-precision Adam, 8 GPUs of
    80 GB in one node, 20 % reserve, ZeRO-2 -> 26.25 GB per GPU."""
    return Scenario(
        model=ModelSpec(name="custom", params=7 * 10**9),
        precision=PrecisionSpec(dtype=DType.FP16, recipe=Recipe.MIXED, optimizer=Optimizer.ADAM),
        parallel=ParallelSpec(num_gpus=8, gpus_per_node=8, zero_stage=2),
        hardware=HardwareSpec(gpu_memory=80 * 10**9, reserve=0.2),
    )
