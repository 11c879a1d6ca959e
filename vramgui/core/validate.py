"""Input validation: one ``InputError`` naming the field and the allowed range, before any arithmetic.

Single values are checked against the field registry (``vramgui.core.fields``: type, range, choices); the rules
that relate fields (tp × pp divides the GPUs, the global batch is a multiple of micro-batch × N_d, offload
needs a ZeRO stage...) are here. Every bound keeps the byte counts finite and non-negative; Python ints never
overflow, so the caps are there to catch typos (a 10^18-parameter model is a slip of the finger, not a plan).
"""

from __future__ import annotations

from functools import lru_cache

from vramgui.core import fields
from vramgui.core.architecture import Architecture
from vramgui.core.errors import InputError
from vramgui.core.fields import MAX_LAYERS
from vramgui.core.messages import Msg
from vramgui.core.parallel import ceil_div, data_parallel_size
from vramgui.core.specs import Scenario

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


def check_fields(s: Scenario) -> None:
    """Every field's value against the registry (architecture fields only when there is one)."""
    for f in fields.fields():
        if f.group == "architecture" and s.model.architecture is None:
            continue
        if f.group == "architecture":
            continue  # checked once per frozen architecture below
        fields.check(f, fields.get(s, f.path))
    if s.model.architecture is not None:
        _check_architecture(s.model.architecture)


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
    if arch.num_kv_heads is not None and arch.num_kv_heads > arch.num_heads:
        raise InputError(_ARCH + "num_kv_heads", Msg.of("error.out_of_range", value=f"{arch.num_kv_heads:,}"),
                         Msg.of("allowed.range", low="1", high=f"{arch.num_heads:,}"))


def validate_scenario(s: Scenario) -> Scenario:
    """Raise ``InputError`` for the first bad field; return the scenario unchanged when it is valid."""
    m = s.model
    if m.params is None and m.architecture is None:
        raise InputError("model.params", Msg.of("error.params_or_architecture"), fields.field("model.params").allowed())
    check_fields(s)
    if m.largest_layer is not None and m.params is not None and m.largest_layer > m.params:
        raise InputError("model.largest_layer", Msg.of("error.out_of_range", value=f"{m.largest_layer:,}"),
                         Msg.of("allowed.range", low="0", high=f"{m.params:,}"))

    t, p = s.training, s.parallel
    for name in ("tp", "pp"):
        value = getattr(p, name)
        if value > p.num_gpus:
            raise InputError(f"parallel.{name}", Msg.of("error.out_of_range", value=f"{value:,}"),
                             Msg.of("allowed.range", low="1", high=f"{p.num_gpus:,}"))
    if p.num_gpus % (p.tp * p.pp):
        raise InputError("parallel.num_gpus", Msg.of("error.gpus_not_divisible", gpus=p.num_gpus, group=p.tp * p.pp),
                         Msg.of("allowed.multiple_of_group", nearest=_nearest_text(p.num_gpus, p.tp * p.pp)))
    if m.architecture is not None and p.pp > m.architecture.num_layers:
        raise InputError("parallel.pp", Msg.of("error.pp_over_layers", pp=p.pp, layers=m.architecture.num_layers),
                         Msg.of("allowed.range", low="1", high=f"{m.architecture.num_layers:,}"))
    n_d = data_parallel_size(p)

    if t.global_batch is not None:
        step = t.micro_batch * n_d
        if t.global_batch % step:
            raise InputError("training.global_batch",
                             Msg.of("error.global_batch_multiple", global_batch=t.global_batch, micro=t.micro_batch,
                                    n_d=n_d, step=step),
                             Msg.of("allowed.multiple_nearest", step=step, nearest=_nearest_text(t.global_batch, step)))

    o = s.offload
    if s.convention == "megatron" and (o.optimizer != "none" or o.params != "none"):
        name = "offload.optimizer" if o.optimizer != "none" else "offload.params"
        raise InputError(name, Msg.of("error.megatron_no_offload"), Msg.of("allowed.none"))
    if o.params != "none" and p.zero_stage != 3:
        raise InputError("offload.params", Msg.of("error.param_offload_stage3"), Msg.of("allowed.none_below_stage3"))
    if o.optimizer != "none" and p.zero_stage == 0 and s.convention != "megatron":
        raise InputError("offload.optimizer", Msg.of("error.optimizer_offload_stage"), Msg.of("allowed.none_at_stage0"))
    if o.params != "none" and o.optimizer == "none" and s.convention == "deepspeed":
        raise InputError("offload.params", Msg.of("error.deepspeed_param_offload"),
                         Msg.of("allowed.none_unless_optimizer_offload"))
    return s
