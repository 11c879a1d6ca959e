"""Gradient accumulation (the seed's Part 3.2 extension): steps = global batch / (micro-batch x N_d).

Accumulation does not change per-step memory; it sets how many micro-batches make one optimizer step.
"""

from __future__ import annotations

from vramgui.core.fields.validate import check_int, nearest_multiples
from vramgui.core.scenario.specs import TrainingSpec
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg


def steps_for(global_batch: int, micro_batch: int, data_parallel: int) -> int:
    """Accumulation steps; raises ``InputError`` naming the nearest valid global batches."""
    check_int("global_batch", global_batch, 1, 10**13)
    check_int("micro_batch", micro_batch, 1, 10**7)
    check_int("num_gpus", data_parallel, 1, 10**6)
    step = micro_batch * data_parallel
    if global_batch % step:
        near = [str(n) for n in nearest_multiples(global_batch, step)]
        nearest: Msg | str = Msg.of("allowed.either", first=near[0], second=near[1]) if len(near) == 2 else near[0]
        raise InputError("global_batch",
                         Msg.of("error.global_batch_gpus", global_batch=global_batch, micro=micro_batch,
                                gpus=data_parallel, step=step),
                         Msg.of("allowed.multiple_nearest_batches", step=step, nearest=nearest))
    return global_batch // step


def accumulation_steps(training: TrainingSpec, data_parallel: int) -> int:
    if training.global_batch is None:
        return 1
    return steps_for(training.global_batch, training.micro_batch, data_parallel)


def tokens_per_step(training: TrainingSpec, data_parallel: int) -> int:
    """Tokens consumed per optimizer step: global batch x sequence length."""
    batch = training.global_batch if training.global_batch is not None else training.micro_batch * data_parallel
    return batch * training.seq_len
