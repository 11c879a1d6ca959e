"""Gradient accumulation (the seed's Part 3.2 extension): steps = global batch / (micro-batch x N_d).

Accumulation does not change per-step memory; it sets how many micro-batches make one optimizer step.
"""

from __future__ import annotations

from vramgui.core.errors import InputError
from vramgui.core.specs import TrainingSpec
from vramgui.core.validate import check_int, nearest_multiples


def steps_for(global_batch: int, micro_batch: int, data_parallel: int) -> int:
    """Accumulation steps; raises ``InputError`` naming the nearest valid global batches."""
    check_int("global_batch", global_batch, 1, 10**13)
    check_int("micro_batch", micro_batch, 1, 10**7)
    check_int("num_gpus", data_parallel, 1, 10**6)
    step = micro_batch * data_parallel
    if global_batch % step:
        near = " or ".join(map(str, nearest_multiples(global_batch, step)))
        raise InputError("global_batch",
                         f"{global_batch} is not a multiple of micro_batch × GPUs = {micro_batch} × {data_parallel} = {step}",
                         f"a multiple of {step}; nearest valid global batches: {near}")
    return global_batch // step


def accumulation_steps(training: TrainingSpec, data_parallel: int) -> int:
    if training.global_batch is None:
        return 1
    return steps_for(training.global_batch, training.micro_batch, data_parallel)


def tokens_per_step(training: TrainingSpec, data_parallel: int) -> int:
    """Tokens consumed per optimizer step: global batch x sequence length."""
    batch = training.global_batch if training.global_batch is not None else training.micro_batch * data_parallel
    return batch * training.seq_len
