"""The seed tutorial's functions, with its signatures and semantics: decimal GB, billions of parameters.

Source: the seed text (06. VRAM Calculation and ZeRO Practice), Parts 1-3 and the suggested Part 3.2
extension. ``zero_stage`` is ``'ddp'`` or 0, 1, 2, 3. Bytes per parameter: model and gradient in the dtype,
optimizer K = 12 (Adam: fp32 master + two fp32 moments) or 4 (SGD: fp32 master), for every dtype, as the seed
counts them. Bad input raises ``InputError`` (a ``ValueError``, as the seed raises).
"""

from __future__ import annotations

import math

from vramgui.core.accumulation import steps_for
from vramgui.core.model_states.precision import SEED_MODEL_BYTES, SEED_OPTIMIZER_BYTES
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg


def _bytes(model_dtype: str, optimizer: str) -> tuple[int, int, int]:
    if model_dtype not in SEED_MODEL_BYTES:
        raise InputError("model_dtype", Msg.of("error.unknown_dtype", value=repr(model_dtype)),
                         Msg.of("allowed.choices", choices=", ".join(SEED_MODEL_BYTES)))
    if optimizer not in SEED_OPTIMIZER_BYTES:
        raise InputError("optimizer", Msg.of("error.unknown_optimizer", value=repr(optimizer)),
                         Msg.of("allowed.choices", choices=", ".join(SEED_OPTIMIZER_BYTES)))
    model = SEED_MODEL_BYTES[model_dtype]
    return model, model, SEED_OPTIMIZER_BYTES[optimizer]


def _number(value: object) -> float | None:
    """``value`` when it is a finite int or float (not a bool), else None. The seed functions take whatever a
    caller passes, so the checks look at the value, not at the annotation."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return value


def _positive(field: str, value: object) -> float:
    number = _number(value)
    if number is None or number <= 0:
        raise InputError(field, Msg.of("error.not_positive", value=repr(value)), Msg.of("allowed.positive"))
    return number


def _gpu_count(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError("num_gpus", Msg.of("error.not_gpu_count", value=repr(value)),
                         Msg.of("allowed.at_least_one"))
    return value


def _stage(zero_stage: object) -> int:
    if zero_stage == "ddp" or (zero_stage == 0 and not isinstance(zero_stage, bool)):
        return 0
    if zero_stage in (1, 2, 3) and not isinstance(zero_stage, bool):
        return int(zero_stage)
    raise InputError("zero_stage", Msg.of("error.unknown_stage", value=repr(zero_stage)), Msg.of("allowed.seed_stages"))


def _bytes_per_param(zero_stage: object, num_gpus: int, model_dtype: str, optimizer: str) -> float:
    model, grad, opt = _bytes(model_dtype, optimizer)
    stage = _stage(zero_stage)
    num_gpus = _gpu_count(num_gpus)
    if stage == 0:
        return model + grad + opt
    if stage == 1:
        return model + grad + opt / num_gpus
    if stage == 2:
        return model + grad / num_gpus + opt / num_gpus
    return (model + grad + opt) / num_gpus


def calculate_ddp_memory(num_params_b: float, model_dtype: str = "fp16", optimizer: str = "adam") -> float:
    """GB per GPU under DDP (seed Part 1): Φ x (model + gradient + optimizer bytes). 7B fp16 Adam -> 112."""
    _positive("num_params_b", num_params_b)
    model, grad, opt = _bytes(model_dtype, optimizer)
    return num_params_b * (model + grad + opt)


def calculate_zero_memory(num_params_b: float, zero_stage: object, num_gpus: int, model_dtype: str = "fp16",
                          optimizer: str = "adam") -> float:
    """GB per GPU under ZeRO (seed Part 2). 7B on 8 GPUs: ZeRO-1 38.5, ZeRO-2 26.25, ZeRO-3 14."""
    _positive("num_params_b", num_params_b)
    return num_params_b * _bytes_per_param(zero_stage, num_gpus, model_dtype, optimizer)


def max_trainable_params(gpu_memory_gb: float, num_gpus: int, zero_stage: object, overhead_ratio: float = 0.2,
                         model_dtype: str = "fp16", optimizer: str = "adam") -> float:
    """Largest model in billions of parameters (seed 2.2): GPU GB x (1 - overhead) / bytes per parameter."""
    _positive("gpu_memory_gb", gpu_memory_gb)
    ratio = _number(overhead_ratio)
    if ratio is None or not 0 <= ratio < 1:
        raise InputError("overhead_ratio", Msg.of("error.out_of_range", value=repr(overhead_ratio)),
                         Msg.of("allowed.overhead_ratio"))
    available_memory = gpu_memory_gb * (1 - overhead_ratio)
    return available_memory / _bytes_per_param(zero_stage, num_gpus, model_dtype, optimizer)


def calculate_accumulation_steps(global_batch: int, micro_batch: int, num_gpus: int) -> int:
    """Gradient-accumulation steps = global_batch / (micro_batch x num_gpus) (seed 3.2 extension).

    Rejects a global batch that is not a multiple, naming the nearest valid global batches.
    """
    return steps_for(global_batch, micro_batch, num_gpus)


SEED_STRATEGIES = (("DDP", "ddp"), ("ZeRO-1", 1), ("ZeRO-2", 2), ("ZeRO-3", 3))


def seed_compare_table(gpu_memory: float = 80, num_gpus: int = 8, overhead_ratio: float = 0.2,
                       model_dtype: str = "fp16", optimizer: str = "adam") -> list[tuple[str, float]]:
    """The seed's Part 3 table: (strategy, max billions of parameters) for DDP and ZeRO-1/2/3."""
    return [(name, max_trainable_params(gpu_memory, num_gpus, stage, overhead_ratio, model_dtype, optimizer))
            for name, stage in SEED_STRATEGIES]
