"""Input validation: one ``InputError`` naming the field and the allowed range, before any arithmetic.

Single values are checked against the field registry (``vramgui.core.fields.registry``: type, range, choices); the rules
that relate fields (tp × pp divides the GPUs, the global batch is a multiple of micro-batch × N_d, offload
needs a ZeRO stage...) are here. Every bound keeps the byte counts finite and non-negative; Python ints never
overflow, so the caps are there to catch typos (a 10^18-parameter model is a slip of the finger, not a plan).
"""

from __future__ import annotations

import math
from functools import cache, lru_cache

from vramgui.core.fields import registry as fields
from vramgui.core.fields.registry import MAX_LAYERS
from vramgui.core.fields.table import Field
from vramgui.core.memo import Seen
from vramgui.core.parallel import world
from vramgui.core.parallel.layout import batch_parallel_size, ceil_div, stage_layer_counts
from vramgui.core.scenario.architecture import FULL, SLIDING, Architecture
from vramgui.core.scenario.choices import Attention, Offload
from vramgui.core.scenario.convention import convention_of
from vramgui.core.scenario.specs import Scenario
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg

_ARCH = "model.architecture."


def check_int(field: str, value: object, low: int, high: int) -> int:
    """A whole number in ``low..high`` for a value that is not a scenario field (a seed argument, a bound)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(field, Msg.of("error.whole_number", value=repr(value)),
                         Msg.of("allowed.range", low=f"{low:,}", high=f"{high:,}"))
    if not low <= value <= high:
        raise InputError(field, Msg.of("error.out_of_range", value=f"{value:,}"),
                         Msg.of("allowed.range", low=f"{low:,}", high=f"{high:,}"))
    return value


def nearest_multiples(value: int, step: int) -> tuple[int, ...]:
    """The multiples of ``step`` either side of ``value`` (only the positive ones)."""
    low, high = (value // step) * step, ceil_div(value, step) * step
    return tuple(sorted({v for v in (low, high) if v > 0}))


def _nearest_text(value: int, step: int) -> str:
    return ", ".join(f"{v:,}" for v in nearest_multiples(value, step))


@cache
def _sections() -> dict[str, tuple[Field, ...]]:
    """The scenario's fields by section ("" for top-level fields such as convention), architecture excluded."""
    out: dict[str, list[Field]] = {}
    for f in fields.fields():
        if f.group != "architecture":
            out.setdefault(f.path.rpartition(".")[0], []).append(f)
    return {k: tuple(v) for k, v in out.items()}


@cache
def _section_names() -> dict[str, tuple[str, ...]]:
    """The attribute names of each section's fields, in ``_sections`` order."""
    return {k: tuple(f.name for f in group) for k, group in _sections().items()}


# frozen objects found valid, by identity (vramgui.core.memo): a changed copy is a new object, checked again
_VALID_SCENARIOS = Seen(4096)  # whole scenarios that passed validate_scenario
_VALID_SECTIONS = Seen(4096)  # sections that passed check_fields (a sweep changes one section, keeps the others)
_LAST_VALID: dict[str, object] = {}  # per section, the last one that passed check_fields (checked against it)


def check_fields(s: Scenario) -> None:
    """Every field's value against the registry (architecture fields only when there is one). A section is a
    frozen dataclass: each distinct one is checked once (an estimate sweep repeats the same sections): by identity
    first, then by value."""
    names = _section_names()
    valid = _VALID_SECTIONS.objects
    for section, group in _sections().items():
        if not section:
            for f in group:
                fields.check(f, getattr(s, f.name))
            continue
        value = getattr(s, section)
        if valid.get(id(value)) is value:
            continue
        last = _LAST_VALID.get(section)
        if last is not None and type(last) is type(value):
            # a copy of the last valid section (``dataclasses.replace`` keeps the values it does not change, as a
            # sweep over GPU counts or an edit of one field does): only the fields holding another object are asked
            for f, name in zip(group, names[section], strict=True):
                v = getattr(value, name)
                if v is not getattr(last, name):
                    fields.check(f, v)
        else:
            # the value types are part of the key: True == 1 and 1.0 == 1 hash alike, and only one of them is valid
            types = tuple([type(getattr(value, name)) for name in names[section]])
            try:
                _check_section(section, value, types)
            except TypeError:  # an unhashable value built in code: check it without the cache
                _check_values(group, value)
        _VALID_SECTIONS.add(value)
        _LAST_VALID[section] = value
    arch = s.model.architecture
    if arch is not None and arch not in _VALID_SECTIONS:
        _check_architecture(arch)
        _VALID_SECTIONS.add(arch)


def _check_values(group: tuple[Field, ...], value: object) -> None:
    for f in group:
        fields.check(f, getattr(value, f.name))


@lru_cache(maxsize=1024)  # a failed check raises and is not cached
def _check_section(section: str, value: object, types: tuple[type, ...]) -> None:
    _check_values(_sections()[section], value)


@lru_cache(maxsize=256)  # frozen architectures: check each once (a failed check raises and is not cached)
def _check_architecture(arch: Architecture) -> None:
    layers: object = arch.num_layers  # any JSON value until checked
    if isinstance(layers, int) and not isinstance(layers, bool) and layers > MAX_LAYERS:
        raise InputError(_ARCH + "num_layers", Msg.of("error.layers_over_limit", layers=f"{layers:,}",
                                                      limit=f"MAX_LAYERS = {MAX_LAYERS:,}"),
                         fields.field(_ARCH + "num_layers").allowed())
    for f in fields.fields():
        if f.group == "architecture":
            fields.check(f, getattr(arch, f.name))
    _check_layer_types(arch)
    if arch.num_kv_heads is not None and arch.num_kv_heads > arch.num_heads:
        raise InputError(_ARCH + "num_kv_heads", Msg.of("error.out_of_range", value=f"{arch.num_kv_heads:,}"),
                         Msg.of("allowed.range", low="1", high=f"{arch.num_heads:,}"))


def _check_layer_types(arch: Architecture) -> None:
    """``layer_types`` is a pattern of ``s`` and ``f`` no longer than the model, with a window for its ``s``."""
    pattern, path = arch.layer_types, _ARCH + "layer_types"
    shown = repr(pattern) if len(pattern) <= 40 else repr(pattern[:18] + "…" + pattern[-18:])
    allowed = Msg.of("allowed.layer_types", layers=f"{arch.num_layers:,}")
    if set(pattern) - {SLIDING, FULL} or len(pattern) > arch.num_layers:
        raise InputError(path, Msg.of("error.layer_types", value=shown), allowed)
    if SLIDING in pattern and arch.sliding_window is None:
        raise InputError(path, Msg.of("error.layer_types_no_window", value=shown), allowed)


def validate_scenario(s: Scenario) -> Scenario:
    """Raise ``InputError`` for the first bad field; return the scenario unchanged when it is valid. A scenario
    found valid is remembered by identity (it is frozen): asking again about the same object costs one lookup,
    so every arithmetic entry point can validate without paying for it twice."""
    if s in _VALID_SCENARIOS:
        return s
    _validate(s)
    _VALID_SCENARIOS.add(s)
    return s


def forget_validated() -> None:
    """Forget which scenarios and sections were found valid (bench: time a validation that is not a hit)."""
    _VALID_SCENARIOS.clear()
    _VALID_SECTIONS.clear()
    _LAST_VALID.clear()


def _validate(s: Scenario) -> None:
    m = s.model
    if m.params is None and m.architecture is None:
        raise InputError("model.params", Msg.of("error.params_or_architecture"), fields.field("model.params").allowed())
    check_fields(s)
    if m.largest_layer is not None and m.params is not None and m.largest_layer > m.params:
        raise InputError("model.largest_layer", Msg.of("error.out_of_range", value=f"{m.largest_layer:,}"),
                         Msg.of("allowed.range", low="0", high=f"{m.params:,}"))

    t, p = s.training, s.parallel
    for name in ("tp", "pp", "ep", "etp", "cp", "vpp"):
        value = getattr(p, name)
        if value is not None and value > p.num_gpus and name != "vpp":
            raise InputError(f"parallel.{name}", Msg.of("error.out_of_range", value=f"{value:,}"),
                             Msg.of("allowed.range", low="1", high=f"{p.num_gpus:,}"))
    model = world.model_grid(p)
    if p.num_gpus % model:
        raise InputError("parallel.num_gpus", Msg.of("error.gpus_not_divisible", gpus=p.num_gpus, group=model),
                         Msg.of("allowed.multiple_of_group", nearest=_nearest_text(p.num_gpus, model)))
    if m.architecture is not None and p.pp > m.architecture.num_layers:
        raise InputError("parallel.pp", Msg.of("error.pp_over_layers", pp=p.pp, layers=m.architecture.num_layers),
                         Msg.of("allowed.range", low="1", high=f"{m.architecture.num_layers:,}"))
    validate_parallel(s)
    n_d = batch_parallel_size(p)

    if t.global_batch is not None:
        step = t.micro_batch * n_d
        if t.global_batch % step:
            raise InputError("training.global_batch",
                             Msg.of("error.global_batch_multiple", global_batch=t.global_batch, micro=t.micro_batch,
                                    n_d=n_d, step=step),
                             Msg.of("allowed.multiple_nearest", step=step, nearest=_nearest_text(t.global_batch, step)))

    o = s.offload
    rules = convention_of(s)
    if not rules.models_offload and (o.optimizer != Offload.NONE or o.params != Offload.NONE):
        name = "offload.optimizer" if o.optimizer != Offload.NONE else "offload.params"
        raise InputError(name, Msg.of("error.megatron_no_offload"), Msg.of("allowed.none"))
    if o.params != Offload.NONE and p.zero_stage != 3:
        raise InputError("offload.params", Msg.of("error.param_offload_stage3"), Msg.of("allowed.none_below_stage3"))
    if o.optimizer != Offload.NONE and p.zero_stage == 0 and rules.uses_zero_stage:
        raise InputError("offload.optimizer", Msg.of("error.optimizer_offload_stage"), Msg.of("allowed.none_at_stage0"))
    if o.params != Offload.NONE and o.optimizer == Offload.NONE and rules.refuses_param_offload_alone:
        raise InputError("offload.params", Msg.of("error.deepspeed_param_offload"),
                         Msg.of("allowed.none_unless_optimizer_offload"))


def validate_parallel(s: Scenario) -> None:
    """Expert, context and pipeline-layout rules (Megatron-Core's own asserts), each error naming valid sizes."""
    p, t, arch = s.parallel, s.training, s.model.architecture
    group, context = world.group_size(s), world.context_grid(p)  # each grid's own message, in Megatron's order
    if p.cp > 1 and p.num_gpus % context:
        raise InputError("parallel.num_gpus", Msg.of("error.gpus_not_divisible_cp", gpus=p.num_gpus, group=context),
                         Msg.of("allowed.gpu_counts", group=group, nearest=_nearest_text(p.num_gpus, group)))
    if (p.ep > 1 or p.etp not in (None, p.tp)) and not world.has_experts(s):
        name = "parallel.ep" if p.ep > 1 else "parallel.etp"
        raise InputError(name, Msg.of("error.ep_needs_moe"), Msg.of("allowed.sizes", sizes="1"))
    if arch is not None and arch.is_moe:
        if arch.num_experts % p.ep:  # moe_layer.py: num_local_experts = num_moe_experts // ep (asserted)
            sizes = ", ".join(str(d) for d in range(1, arch.num_experts + 1) if arch.num_experts % d == 0)
            raise InputError("parallel.ep", Msg.of("error.experts_over_ep", experts=arch.num_experts, ep=p.ep),
                             Msg.of("allowed.sizes", sizes=sizes))
        expert_grid = world.expert_grid(p)
        if p.num_gpus % expert_grid:
            raise InputError("parallel.num_gpus",
                             Msg.of("error.expert_gpus_not_divisible", gpus=p.num_gpus, group=expert_grid),
                             Msg.of("allowed.gpu_counts", group=group, nearest=_nearest_text(p.num_gpus, group)))
    if p.cp > 1:  # the sequence is cut into 2·cp chunks (causal load balancing); under SP each is split over tp
        step = math.lcm(2 * p.cp, p.cp * p.tp) if p.sp else 2 * p.cp
        if t.seq_len % step:
            raise InputError("training.seq_len", Msg.of("error.cp_splits_sequence", cp=p.cp, chunks=2 * p.cp),
                             Msg.of("allowed.multiple_nearest", step=step, nearest=_nearest_text(t.seq_len, step)))
        if arch is not None and t.attention == Attention.EAGER:
            raise InputError("training.attention", Msg.of("error.cp_needs_flash"),
                             Msg.of("allowed.choices", choices="flash"))
    _validate_stages(s)


def _validate_stages(s: Scenario) -> None:
    """Megatron-Core ``get_num_layers_to_build``: uneven first/last stages need pp > 1, the layers left over must
    split evenly over the other stages; interleaving needs pp > 1 and each stage's layers split into vpp chunks."""
    p, arch = s.parallel, s.model.architecture
    if p.pp == 1:
        if p.vpp != 1:
            raise InputError("parallel.vpp", Msg.of("error.needs_pipeline"), Msg.of("allowed.sizes", sizes="1"))
        for name in ("first_stage_layers", "last_stage_layers"):
            if getattr(p, name) is not None:
                raise InputError(f"parallel.{name}", Msg.of("error.needs_pipeline"), Msg.of("allowed.none"))
    if arch is None or p.pp == 1:
        return
    first, last, total = p.first_stage_layers, p.last_stage_layers, arch.num_layers
    if first is not None or last is not None:
        given = (first or 0) + (last or 0)
        name = "parallel.first_stage_layers" if first is not None else "parallel.last_stage_layers"
        if given > total:
            raise InputError(name, Msg.of("error.stage_layers_over", layers=given, total=total),
                             Msg.of("allowed.range", low="1", high=f"{total:,}"))
        middle = p.pp - (first is not None) - (last is not None)
        rest = total - given
        if middle == 0 and rest:
            raise InputError(name, Msg.of("error.middle_layers_left", rest=rest),
                             Msg.of("allowed.sizes", sizes=f"{total - (last or 0) if first is not None else total}"))
        if middle and rest % middle:
            raise InputError(name, Msg.of("error.middle_layers_uneven", rest=rest, stages=middle),
                             Msg.of("allowed.multiple_of", n=middle))
    if p.vpp > 1:
        counts = stage_layer_counts(total, p)
        common = math.gcd(*counts)
        for stage, count in enumerate(counts):
            if count % p.vpp or count == 0:
                sizes = ", ".join(str(v) for v in range(1, common + 1) if common % v == 0) or "1"
                raise InputError("parallel.vpp", Msg.of("error.vpp_layers", layers=count, stage=stage + 1,
                                                        vpp=p.vpp), Msg.of("allowed.sizes", sizes=sizes))
