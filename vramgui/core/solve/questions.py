"""Reverse solves over ``estimate``: largest model, micro-batch or sequence that fits, fewest GPUs,
cheapest strategy.

Every per-GPU figure is monotone in the quantity solved for (more parameters, a larger micro-batch or a longer
sequence never need less memory; more GPUs never need more), so integer bisection finds the exact boundary in
O(log n) estimates.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache

from vramgui.core.estimate import Estimate, estimate
from vramgui.core.fields import paths
from vramgui.core.fields import registry as fields
from vramgui.core.fields.registry import MAX_BATCH, MAX_GPUS, MAX_PARAMS, MAX_SEQ
from vramgui.core.parallel import world
from vramgui.core.scenario.choices import Convention, FinetuneMethod
from vramgui.core.scenario.convention import convention_of
from vramgui.core.scenario.specs import ModelSpec, ParallelSpec, Scenario
from vramgui.core.scenario.strategy import Strategy
from vramgui.core.solve import search
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg

# in the order they are tried: lowest ZeRO stage without offload, then with CPU offload
ZERO_VARIANTS = (
    Strategy(0), Strategy(1), Strategy(2), Strategy(3),
    Strategy(2, offload_optimizer=True), Strategy(3, offload_optimizer=True),
    Strategy(3, offload_optimizer=True, offload_params=True),
)
MEGATRON_VARIANTS = (Strategy(convention=Convention.MEGATRON, distributed_optimizer=False),
                     Strategy(convention=Convention.MEGATRON, distributed_optimizer=True))


def with_value(scenario: Scenario, path: str, value: object) -> Scenario:
    """``with_value(s, "parallel.num_gpus", 16)``: a copy with one nested field replaced (the field registry's
    ``with_value``, typed for a whole scenario)."""
    changed: Scenario = fields.with_value(scenario, path, value)
    return changed


def without_global_batch(s: Scenario) -> Scenario:
    """The scenario without its global batch: a solve varies what the batch must divide by."""
    return s if s.training.global_batch is None else with_value(s, "training.global_batch", None)


# what a global batch must divide by: a solve for one of these drops the batch (each value would need its own)
# What each reverse solve varies (the command line's `solve QUESTION` reads its flag from the field's row).
QUESTION_FIELDS = {
    "max-micro-batch": paths.MICRO_BATCH,
    "max-seq-len": paths.SEQ_LEN,
    "min-gpus": paths.NUM_GPUS,
    "cheapest-strategy": paths.ZERO_STAGE,
    "max-lora-rank": paths.LORA_RANK,
}

_BATCH_DIVISORS = ("training.micro_batch", "parallel.num_gpus")


def solve_base(s: Scenario, path: str) -> Scenario:
    """The scenario a solve for ``path`` varies: as given, without its global batch only when the batch must
    divide by the solved value (micro-batch, GPU count). Elsewhere the batch stays, and with it the later
    micro-batches of gradient accumulation, which hold the accumulated gradients (part of the step peak)."""
    return without_global_batch(s) if path in _BATCH_DIVISORS else s


def _need_memory(s: Scenario) -> None:
    if s.hardware.gpu_memory is None:
        raise InputError("hardware.gpu_memory", Msg.of("error.needs_gpu_memory"), Msg.of("allowed.size_or_preset"))


def _fits(s: Scenario) -> bool:
    return bool(estimate(s).fits)


def _aimed(at: Callable[[int], Estimate], x1: int, x2: int, low: int, high: int) -> int:
    """Largest n in [low, high] whose step fits (``Estimate.fits``: the peak within the usable memory), ``at(n)``
    the estimate with n: aimed from the peaks at ``x1`` and ``x2`` (the line through them,
    ``search.aimed_guess``), then searched outward from there (``search.largest_near``). Each value is estimated
    once; the usable memory is the first probe's own."""
    peaks: dict[int, int] = {}

    def peak(n: int) -> int:
        if n not in peaks:
            step = at(n).peak
            assert step is not None  # estimate() always computes it
            peaks[n] = step.bytes
        return peaks[n]

    first = at(x1)
    assert first.usable is not None and first.peak is not None  # _need_memory: the GPU memory is known
    usable = first.usable
    peaks[x1] = first.peak.bytes

    def fits(n: int) -> bool:
        return peak(n) <= usable

    guess = None
    xa, xb = x1, x2
    for _ in range(_SECANT_STEPS):  # the peak is piecewise affine (its phase can change): follow the secant
        if xa == xb:
            break
        aimed = search.aimed_guess(xa, peak(xa), xb, peak(xb), usable)
        if aimed is None:
            break
        guess = min(max(aimed, low), high)
        if guess in peaks or abs(guess - xb) <= _NEAR:
            break
        xa, xb = xb, guess
    if guess is None:  # the peak does not grow here (everything offloaded): often every value fits
        return high if fits(high) else search.largest(fits, low, high)
    return search.largest_near(fits, guess, low, high)


_SECANT_STEPS = 8  # at most this many estimates aim before the search from the last guess
_NEAR = 256  # a guess this close to the previous one is where the search starts (shard rounding moves it a little)


@dataclass(frozen=True)
class MaxParams:
    """The largest parameter count that fits, with what the search knew (as ``vramgui solve`` reports it).

    ``at_bound``: every count up to vramgui's limit (``bound``, MAX_PARAMS) fits, so the answer is where the
    search stopped, not a boundary (full offload can put every model state on the host)."""

    answer: int  # 0 when not even one parameter fits
    bound: int = MAX_PARAMS

    @property
    def found(self) -> bool:
        return self.answer > 0

    @property
    def at_bound(self) -> bool:
        return self.answer >= self.bound


def max_params(scenario: Scenario) -> int:
    """Largest parameter count whose training step fits (``Estimate.fits``: the step peak); 0 if none.
    ``max_params_result`` says too whether the search stopped at its bound."""
    return max_params_result(scenario).answer


def max_params_result(scenario: Scenario) -> MaxParams:
    """Largest parameter count whose training step fits, judged as ``fits`` is: by the step peak.

    The architecture, when given, still sizes activations and DeepSpeed's largest layer; only the count varies.
    """
    _need_memory(scenario)
    base = solve_base(scenario, "model.params")
    model = base.model

    def at(n: int) -> Estimate:
        return estimate(replace(base, model=replace(model, params=n, largest_layer=_ll(model, n))))

    # The step peak is affine in Φ up to rounding of shards: aimed with two probes, then searched from the guess.
    return MaxParams(_aimed(at, 10**9, 2 * 10**9, 1, MAX_PARAMS))


def _ll(model: ModelSpec, n: int) -> int | None:
    return None if model.largest_layer is None else min(model.largest_layer, n)


def _need_activations(s: Scenario, code: str) -> None:
    if s.model.architecture is None:
        raise InputError("model.architecture", Msg.of(code), Msg.of("allowed.preset_or_config"))


def max_micro_batch(scenario: Scenario, using: Callable[[Scenario], Estimate] = estimate) -> int:
    """Largest micro-batch that fits (0 if even 1 does not); ``using``: what estimates (the adviser's memo)."""
    _need_memory(scenario)
    _need_activations(scenario, "error.micro_batch_needs_architecture")
    base = solve_base(scenario, "training.micro_batch")
    return _aimed(lambda b: using(with_value(base, "training.micro_batch", b)), 1, 2, 1, MAX_BATCH)


def seq_len_step(p: ParallelSpec) -> int:
    """The lengths a scenario accepts are the multiples of this (validate.py): under SP a multiple of tp; with
    context parallelism 2·cp chunks, each split over tp under SP. The solvers try only those."""
    if p.cp > 1:
        return math.lcm(2 * p.cp, p.cp * p.tp) if p.sp else 2 * p.cp
    return p.tp if p.sp else 1


def max_seq_len(scenario: Scenario, using: Callable[[Scenario], Estimate] = estimate) -> int:
    """Largest sequence length that fits (0 if even 1 does not); ``using`` as for ``max_micro_batch``."""
    _need_memory(scenario)
    _need_activations(scenario, "error.seq_len_needs_architecture")
    base = solve_base(scenario, "training.seq_len")
    step = seq_len_step(base.parallel)
    top = MAX_SEQ // step
    here = min(max(base.training.seq_len // step, 1), top)  # aimed at the length given and twice it
    k = _aimed(lambda n: using(with_value(base, "training.seq_len", n * step)), here, min(2 * here, top), 1, top)
    return k * step


def max_lora_rank(scenario: Scenario) -> int:
    """Largest LoRA rank that fits (0 if even rank 1 does not); the scenario must fine-tune with LoRA or QLoRA.
    The step peak grows with the rank (adapters, their states and intermediates), so bisection finds it."""
    from vramgui.core.fields.finetune import MAX_LORA_RANK

    _need_memory(scenario)
    if scenario.finetune.method == FinetuneMethod.FULL:
        raise InputError("finetune.method", Msg.of("inactive.full_finetune"),
                         Msg.of("allowed.choices", choices="lora, qlora"))
    _need_activations(scenario, "error.finetune_needs_architecture")
    base = solve_base(scenario, "finetune.lora_rank")
    return search.largest(lambda r: _fits(with_value(base, "finetune.lora_rank", r)), 1, MAX_LORA_RANK)


def min_gpus(scenario: Scenario, limit: int = 65536, using: Callable[[Scenario], Estimate] = estimate,
             at_least: int = 1) -> int | None:
    """Fewest GPUs that fit, among the counts the layout accepts (``world.accepted_counts``: the multiples of
    lcm(tp·cp·pp, etp·ep·pp), which both of Megatron-Core's grids tile), or None when even ``limit`` GPUs do not
    (``using`` as for ``max_micro_batch``). With ``at_least``: max(that count, ``at_least``), found without
    searching below ``at_least`` (the adviser asks for more GPUs than there are: how many fewer fit is not asked)."""
    _need_memory(scenario)
    base = solve_base(scenario, "parallel.num_gpus")
    counts = world.accepted_counts(base, max(min(limit, MAX_GPUS), world.group_size(base)))  # one group at least

    peaks: dict[int, int] = {}

    def at(i: int) -> Estimate:
        est = using(with_value(base, "parallel.num_gpus", counts[i]))
        assert est.peak is not None  # estimate() always computes it
        peaks[i] = est.peak.bytes
        return est

    last = len(counts) - 1
    usable = at(last).usable
    assert usable is not None  # _need_memory: the GPU memory is known
    if peaks[last] > usable:
        return None

    def short(i: int) -> bool:  # per-GPU memory never rises with more GPUs: True up to the answer, then False
        if i not in peaks:
            at(i)
        return peaks[i] > usable

    below = bisect.bisect_right(counts, at_least) - 1  # the most GPUs up to at_least
    if below > 0 and not short(below):  # at_least or fewer fit (the peak never rises with the count)
        return at_least
    if not short(0):
        return max(counts[0], at_least)
    # the sharded states make the peak close to a + b/n: the curve through both ends aims at the answer
    guess = last - 1
    n0, n1, p0, p1 = counts[0], counts[last], peaks[0], peaks[last]
    if n1 > n0 and p0 > p1:
        b = (p0 - p1) / (1 / n0 - 1 / n1)
        a = p1 - b / n1
        if usable > a:
            guess = min(max(math.ceil(b / (usable - a) / n0) - 2, 0), last - 1)  # counts[i] = n0·(i + 1)
    return max(counts[search.largest_near(short, guess, 0, last - 1) + 1], at_least)


def strategy_variants(scenario: Scenario) -> list[tuple[Strategy, Scenario]]:
    """(strategy, scenario) for DDP, ZeRO-1, ZeRO-2, ZeRO-3, then the offload variants (megatron: without and
    with the distributed optimizer). ``str(strategy)`` is its English label, ``strategy.key`` a stable id."""
    return [(v, v.apply(scenario)) for v in strategies(scenario)]


def strategies(scenario: Scenario) -> tuple[Strategy, ...]:
    """The strategies of ``strategy_variants``, in its order, without their scenarios (``Strategy.apply`` makes
    one: it reads the stage, offload and distributed optimizer, never the strategy's convention)."""
    if not convention_of(scenario).uses_zero_stage:
        return MEGATRON_VARIANTS
    return _named(scenario.convention)


@cache
def _named(convention: Convention) -> tuple[Strategy, ...]:
    return tuple(replace(v, convention=convention) for v in ZERO_VARIANTS)


def cheapest_strategy(scenario: Scenario, using: Callable[[Scenario], Estimate] = estimate,
                      ) -> tuple[Strategy, Scenario, Estimate] | None:
    """The first variant that fits, in order: lowest ZeRO stage without offload, then with offload (``using`` as
    for ``max_micro_batch``)."""
    _need_memory(scenario)
    for strategy in strategies(scenario):  # each variant made when it is asked about: the first that fits ends it
        variant = strategy.apply(scenario)
        est = using(variant)
        if est.fits:
            return strategy, variant, est
    return None
