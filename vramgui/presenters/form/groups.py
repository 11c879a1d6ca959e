"""The input form as data: which registry fields the window shows, in which group, and how each value is shown.

The form is no second copy of the scenario. Its keys ARE the field registry's dotted paths
(``vramgui.core.fields.registry``: ``parallel.tp``, ``hardware.gpu_memory``, ``model.architecture.num_layers``...);
ranges, choices, units, labels and tooltips come from the registry. The presenter holds the ``Scenario``; this module
only converts between a field's value and what its editor shows (text for a line edit, an int for a spin box, a
percentage for the reserve, a tick for an offload choice) and back, through ``fields.parse`` / ``fields.check``, so an
edit is exactly ``fields.with_value(scenario, path, parse_input(field, raw))``.

Three keys are UI state, not scenario fields: how the model is defined, the model preset and the GPU preset; they
and the hints under fields are declared in ``vramgui.core.fields.form_rows`` (``UI_ROWS``, ``HINTS``).
"""

from __future__ import annotations

from typing import Any

from vramgui.core.documents.catalog import hardware_with_gpu
from vramgui.core.fields import registry as fields
from vramgui.core.fields.form_rows import HINTS as HINT_ROWS
from vramgui.core.fields.form_rows import MODEL_MODE as MODEL_MODE
from vramgui.core.fields.form_rows import MODEL_MODES as MODEL_MODES
from vramgui.core.fields.form_rows import MODEL_PRESET as MODEL_PRESET
from vramgui.core.fields.form_rows import UI_KEYS as UI_KEYS
from vramgui.core.fields.form_rows import UI_ROWS
from vramgui.core.fields.paths import ARCH_PREFIX
from vramgui.core.fields.registry import Field, Widget
from vramgui.core.fields.table import ESSENTIALS as ESSENTIALS
from vramgui.core.fields.table import FORM_GROUPS
from vramgui.core.scenario.choices import DType, Optimizer, Recipe
from vramgui.core.scenario.specs import HardwareSpec, ModelSpec, ParallelSpec, PrecisionSpec, Scenario
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg
from vramgui.core.text.units import require_size_unit
from vramgui.presenters import catalog_access

CUSTOM = "custom"  # the GPU preset choice "custom memory"
IMPORTED = "@imported"  # the model preset choice of a model imported from a config.json (or opened from a file)

ARCH = ARCH_PREFIX  # every architecture field's path starts with it


def _groups() -> dict[str, tuple[str, ...]]:
    """The form's groups, top to bottom, each field where its registry row puts it (``form``, ``order``)."""
    rows = sorted((f for f in fields.fields() if f.form), key=lambda f: (FORM_GROUPS.index(f.form), f.order))
    return {group: tuple(f.path for f in rows if f.form == group) for group in FORM_GROUPS}


# The groups of the form, top to bottom; every field of a Scenario is in exactly one of them.
GROUPS: dict[str, tuple[str, ...]] = _groups()
FORM_PATHS = tuple(path for group in GROUPS.values() for path in group)
# The architecture fields shown by default (two to a row); the others (``detail``) sit in a collapsible section.
ARCH_MAIN = tuple(p for p in GROUPS["model"] if p.startswith(ARCH) and not fields.field(p).detail)
ARCH_DETAILS = tuple(p for p in GROUPS["model"] if p.startswith(ARCH) and fields.field(p).detail)

# The groups that open on demand (folded until opened; the window remembers which are open), and the group of each
# row, a field's or a UI row's: an error on a row opens its group.
FOLDING = tuple(group for group in GROUPS if group != ESSENTIALS)
GROUP_OF: dict[str, str] = {**{row.key: row.form for row in UI_ROWS},
                            **{path: group for group, paths_ in GROUPS.items() for path in paths_}}

Editor = Widget

# The read-only texts the presenter sets beside the fields ("≈ 8.03B", "= 85.90 GB", "2 nodes"): hint -> (the field
# it sits under, the fields whose value it describes; a key ending in "." stands for every field under it).
HINTS: dict[str, tuple[str, tuple[str, ...]]] = {h.key: (h.under, h.describes) for h in HINT_ROWS}


def editor_kind(f: Field) -> Editor:
    """The editor a field gets (its registry row's ``widget``)."""
    assert f.widget is not None  # the registry fills in every row's
    return f.widget


def display(f: Field, value: Any) -> object:
    """What the editor of ``f`` shows for ``value``."""
    kind = editor_kind(f)
    if kind == "check":
        return value == f.ticked if f.ticked is not None else bool(value)
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
    if f.ticked is not None and isinstance(raw, bool):  # a two-valued choice shown as a check box
        other = next(c for c in f.choices if c != f.ticked)
        return f.ticked if raw else other
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
        require_size_unit(text, f.path, f.low, f.high, f.allowed())  # proposes only sizes in range
    return fields.parse(f, text)


def default_scenario() -> Scenario:
    """The start-up scenario, the seed's worked example: 7B parameters, fp16 mixed-precision Adam, 8 GPUs of
    80 GB in one node, ZeRO-2 -> 26.25 GB per GPU; the reserve is the registry's default (``HardwareSpec.reserve``,
    10 %), the CLI's too, so window and CLI give one verdict (the seed's own table keeps its 20 %: ``compare``)."""
    return Scenario(
        model=ModelSpec(name="custom", params=7 * 10**9),
        precision=PrecisionSpec(dtype=DType.FP16, recipe=Recipe.MIXED, optimizer=Optimizer.ADAM),
        parallel=ParallelSpec(num_gpus=8, gpus_per_node=8, zero_stage=2),
        hardware=HardwareSpec(gpu_memory=80 * 10**9),
    )


# The window's first screen (no scenario kept from a last session): a model a newcomer names, with its architecture,
# so the activations are estimated, on the node people fine-tune it on. Llama-3-8B is the most fine-tuned open
# model of its size and the one the web calculators open with; 8 x H100 SXM 80 GB is a DGX H100 node. The rest is
# the registry's defaults (bf16 mixed precision, sequence 2,048, micro-batch 1, the 10 % reserve), the CLI's too,
# with AdamW (Hugging Face Trainer's default ``adamw_torch``, the same bytes as Adam) and ZeRO-2 (the seed's
# example): ``vramgui estimate --preset llama-3-8b --gpu h100-sxm --gpus 8 --stage 2 --optimizer adamw`` is the
# same scenario. Llama-3-8B, QLoRA, one RTX 4090 is three edits away: the method, the GPU, the count.
FIRST_MODEL, FIRST_GPU, FIRST_GPUS, FIRST_STAGE = "llama-3-8b", "h100-sxm", 8, 2


def first_scenario() -> Scenario:
    """The window's first-run scenario (``FIRST_MODEL`` on ``FIRST_GPUS`` x ``FIRST_GPU``, ZeRO-``FIRST_STAGE``);
    the seed's example (:func:`default_scenario`) when the catalog lacks either preset."""
    model, gpu = catalog_access.model_presets().get(FIRST_MODEL), catalog_access.gpu_presets().get(FIRST_GPU)
    if model is None or gpu is None:
        return default_scenario()
    return Scenario(
        model=model.spec,
        precision=PrecisionSpec(optimizer=Optimizer.ADAMW),
        parallel=ParallelSpec(num_gpus=FIRST_GPUS, zero_stage=FIRST_STAGE),
        hardware=hardware_with_gpu(HardwareSpec(), gpu),
    )
