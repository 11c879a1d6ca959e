"""Why no model fits at any number of GPUs: the largest-model solve's empty answer, with its reason.

When ``max_params`` is 0 for every strategy and GPU count, the step peak of a one-parameter model is already over
the usable memory. What no model size lowers is the floor of the step (``FLOOR_KEYS``: one micro-batch's
activations and loss gradient, the CUDA context, the fixed terms), and more GPUs do not shard it either; the
reason says which part of it is to blame, so a front end can say what would lower it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from vramgui.core.estimate import Estimate

FLOOR_KEYS = ("activations", "loss_gradient", "cuda_context", "other")  # step bytes no smaller model lowers
REASONS = ("activations", "floor", "step")


@dataclass(frozen=True)
class NoModelFits:
    """``reason``: "activations" (they alone exceed ``usable``), "floor" (with the loss gradient, the CUDA context
    and the fixed terms they do: ``floor``, made of ``floor_parts``) or "step" (what else a step holds whatever the
    model's size - communication buckets, ZeRO-3 gathered parameters - tips it over)."""

    reason: str  # one of REASONS
    activations: int  # the largest activations of any moment of the step
    floor: int  # the FLOOR_KEYS bytes at the moment where they are largest
    floor_parts: tuple[tuple[str, int], ...]  # (component key, bytes): the non-zero parts, in FLOOR_KEYS order
    usable: int
    seq_len: int
    micro_batch: int


def no_model_fits(est: Estimate, largest: Iterable[int | None]) -> NoModelFits | None:
    """The reason no model fits, given ``est`` (the scenario's estimate) and the largest-model answers across
    strategies and GPU counts (None: not solved); None when some model fits, or nothing was solved."""
    answers = [n for n in largest if n is not None]
    if not answers or any(answers) or est.peak is None or est.usable is None:
        return None
    moment = max(est.peak.phases, key=lambda p: sum(p.get(k) for k in FLOOR_KEYS))
    floor = sum(moment.get(k) for k in FLOOR_KEYS)
    activations = max(p.get("activations") for p in est.peak.phases)
    reason = "activations" if activations > est.usable else "floor" if floor > est.usable else "step"
    t = est.scenario.training
    return NoModelFits(reason, activations, floor, tuple((k, moment.get(k)) for k in FLOOR_KEYS if moment.get(k)),
                       est.usable, t.seq_len, t.micro_batch)


PLAN_REASONS = ("no_layout", "memory", "cutoff")


@dataclass(frozen=True)
class NoPlanFits:
    """Why the fastest-plan search on ``gpus`` GPUs has no answer. ``reason``: "no_layout" (no layout of that many
    GPUs takes the global batch ``batch``: dp must divide it, and the world group tile the GPUs), "memory" (even the
    most frugal plan of every layout, full recompute with the most sharded and offloaded strategy, has a step peak
    over the usable memory; ``least`` is the estimate with the smallest peak seen) or "cutoff" (plans fit, but none
    is faster than the step time the caller asked to beat)."""

    reason: str  # one of PLAN_REASONS
    gpus: int
    batch: int
    layouts: int
    least: Estimate | None
