"""Input validation: one ``InputError`` naming the field and the allowed range, before any arithmetic.

Every bound keeps the byte counts finite and non-negative; Python ints never overflow, so the caps are
there to catch typos (a 10^18-parameter model is a slip of the finger, not a plan).
"""

from __future__ import annotations

import math
from functools import lru_cache

from vramgui.core.errors import InputError
from vramgui.core.specs import (
    ATTENTION, CONVENTIONS, DTYPES, IMPLEMENTATIONS, OFFLOAD, OPTIMIZERS, RECIPES, RECOMPUTE, ZERO_STAGES, Scenario,
)

MAX_PARAMS = 10**15
MAX_GPUS = 10**6
MAX_BATCH = 10**7
MAX_SEQ = 10**8
MAX_BYTES = 10**18
MAX_LAYERS = 10_000  # the deepest published LLMs have ~100-200 blocks; per-stage activation sums loop over layers
MAX_WIDTH = 10**8  # hidden, heads, FFN and vocabulary sizes


def check_int(field: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(field, f"expected a whole number, got {value!r}", f"{low:,} to {high:,}")
    if not low <= value <= high:
        raise InputError(field, f"{value:,} is out of range", f"{low:,} to {high:,}")
    return value


def check_choice(field: str, value: object, choices: tuple) -> None:
    if value not in choices:
        raise InputError(field, f"unknown value {value!r}", ", ".join(str(c) for c in choices))


def check_fraction(field: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise InputError(field, f"expected a number, got {value!r}", "0 <= value < 1")
    if not 0 <= value < 1:
        raise InputError(field, f"{value} is out of range", "0 <= value < 1")
    return float(value)


def nearest_multiples(value: int, step: int) -> tuple[int, ...]:
    """The multiples of ``step`` either side of ``value`` (only the positive ones)."""
    low, high = (value // step) * step, -(-value // step) * step
    return tuple(sorted({v for v in (low, high) if v > 0}))


def _validate_architecture(s: Scenario) -> None:
    if s.model.architecture is not None:
        _check_architecture(s.model.architecture)


@lru_cache(maxsize=256)  # frozen architectures: check each once (a failed check raises and is not cached)
def _check_architecture(arch) -> None:
    layers = arch.num_layers
    if isinstance(layers, int) and not isinstance(layers, bool) and layers > MAX_LAYERS:
        raise InputError("model.architecture.num_layers",
                         f"{layers:,} layers is more than vramgui's limit of MAX_LAYERS = {MAX_LAYERS:,}",
                         f"1 to {MAX_LAYERS:,}")
    check_int("model.architecture.num_layers", layers, 1, MAX_LAYERS)
    for name in ("hidden_size", "num_heads", "ffn_size", "vocab_size"):
        check_int(f"model.architecture.{name}", getattr(arch, name), 1, MAX_WIDTH)
    if arch.num_kv_heads is not None:
        check_int("model.architecture.num_kv_heads", arch.num_kv_heads, 1, arch.num_heads)
    if arch.head_dim is not None:
        check_int("model.architecture.head_dim", arch.head_dim, 1, 10**6)
    check_int("model.architecture.num_experts", arch.num_experts, 0, 10**5)


def validate_scenario(s: Scenario) -> Scenario:
    """Raise ``InputError`` for the first bad field; return the scenario unchanged when it is valid."""
    check_choice("convention", s.convention, CONVENTIONS)
    check_choice("precision.dtype", s.precision.dtype, DTYPES)
    check_choice("precision.recipe", s.precision.recipe, RECIPES)
    check_choice("precision.optimizer", s.precision.optimizer, OPTIMIZERS)

    m = s.model
    if m.params is None and m.architecture is None:
        raise InputError("model.params", "give a parameter count or an architecture", f"1 to {MAX_PARAMS:,}")
    if m.params is not None:
        check_int("model.params", m.params, 1, MAX_PARAMS)
    _validate_architecture(s)
    if m.largest_layer is not None:
        check_int("model.largest_layer", m.largest_layer, 0, m.params if m.params is not None else MAX_PARAMS)

    t = s.training
    check_int("training.micro_batch", t.micro_batch, 1, MAX_BATCH)
    check_int("training.seq_len", t.seq_len, 1, MAX_SEQ)
    check_choice("training.recompute", t.recompute, RECOMPUTE)
    check_choice("training.attention", t.attention, ATTENTION)
    check_choice("training.implementation", t.implementation, IMPLEMENTATIONS)

    p = s.parallel
    check_int("parallel.num_gpus", p.num_gpus, 1, MAX_GPUS)
    check_int("parallel.gpus_per_node", p.gpus_per_node, 1, 4096)
    check_choice("parallel.zero_stage", p.zero_stage, ZERO_STAGES)
    check_int("parallel.tp", p.tp, 1, p.num_gpus)
    check_int("parallel.pp", p.pp, 1, p.num_gpus)
    if p.num_gpus % (p.tp * p.pp):
        raise InputError("parallel.num_gpus", f"{p.num_gpus} GPUs do not divide into tp × pp = {p.tp * p.pp}",
                         "a multiple of tp × pp: " + ", ".join(map(str, nearest_multiples(p.num_gpus, p.tp * p.pp))))
    if m.architecture is not None and p.pp > m.architecture.num_layers:
        raise InputError("parallel.pp", f"{p.pp} pipeline stages for {m.architecture.num_layers} layers",
                         f"1 to {m.architecture.num_layers}")
    n_d = p.num_gpus // (p.tp * p.pp)

    if t.global_batch is not None:
        check_int("training.global_batch", t.global_batch, 1, MAX_BATCH * MAX_GPUS)
        step = t.micro_batch * n_d
        if t.global_batch % step:
            near = ", ".join(map(str, nearest_multiples(t.global_batch, step)))
            raise InputError("training.global_batch",
                             f"{t.global_batch} is not a multiple of micro_batch × N_d = {t.micro_batch} × {n_d} = {step}",
                             f"a multiple of {step}, nearest: {near}")

    o = s.offload
    check_choice("offload.optimizer", o.optimizer, OFFLOAD)
    check_choice("offload.params", o.params, OFFLOAD)
    if s.convention == "megatron" and (o.optimizer != "none" or o.params != "none"):
        field = "offload.optimizer" if o.optimizer != "none" else "offload.params"
        raise InputError(field, "the megatron convention models no CPU offload", "none")
    if o.params != "none" and p.zero_stage != 3:
        raise InputError("offload.params", "parameter offload needs ZeRO stage 3", "none below stage 3")
    if o.optimizer != "none" and p.zero_stage == 0 and s.convention != "megatron":
        raise InputError("offload.optimizer", "optimizer offload needs ZeRO stage 1, 2 or 3", "none at stage 0")
    if o.params != "none" and o.optimizer == "none" and s.convention == "deepspeed":
        raise InputError("offload.params", "DeepSpeed's estimator has no case for parameter offload without "
                         "optimizer offload", "none unless offload.optimizer is cpu")

    h = s.hardware
    if h.gpu_memory is not None:
        check_int("hardware.gpu_memory", h.gpu_memory, 1, MAX_BYTES)
    check_fraction("hardware.reserve", h.reserve)

    ov = s.overhead
    for name in ("cuda_context", "comm_buffers", "extra"):
        check_int(f"overhead.{name}", getattr(ov, name), 0, MAX_BYTES)
    check_int("overhead.zero3_live_params", ov.zero3_live_params, 0, MAX_PARAMS)
    return s
