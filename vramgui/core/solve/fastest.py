"""The plan that fits and finishes first: ``fastest(scenario, gpus)`` and ``cheapest(scenario, max_gpus)``.

Every plan of ``plans.layouts`` × recompute level × strategy is judged by ``estimate``: it fits when its step peak
does (``Estimate.fits``) and is ranked by ``time.step_seconds`` (ties: the smaller peak, then ``Plan.order``). The
search does not estimate the whole space:

1. Each layout is first estimated once at its most frugal plan (full recompute, the most sharded strategy with
   everything offloaded). When that does not fit, no plan of the layout does (less recompute keeps more
   activations, a lower stage or less offload keeps more model states), nor any larger micro-batch of the same
   family (the peak grows with the micro-batch). The same estimate bounds every plan of the layout from below
   (``lower_bound``): its compute, pipeline sends, context and expert exchanges do not depend on the strategy or the
   recompute level, and its tensor-parallel traffic and bubble only grow with recomputation.
2. The layouts are visited in the order of their bounds; a layout whose bound is above the time of the
   ``keep``-th best fitting plan found (or the caller's ``cutoff``) cannot hold an answer or an alternative, and
   neither can any after it. Inside a layout, each strategy's recompute levels are tried from full down to none and
   stop at the first that does not fit.

tests/core/solve/test_fastest.py checks the answer against a brute-force search of small spaces (hypothesis).
"""

from __future__ import annotations

import bisect
import gc
import heapq
import math
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from vramgui.core.estimate import Estimate, estimate
from vramgui.core.scenario.choices import Recompute
from vramgui.core.scenario.specs import Scenario
from vramgui.core.scenario.strategy import Strategy
from vramgui.core.solve.nothing_fits import NoPlanFits
from vramgui.core.solve.plans import Layout, Plan, layouts, recompute_levels, target_batch
from vramgui.core.solve.questions import strategies, without_global_batch
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg

_PAUSED = threading.Lock()  # one search pauses the collector at a time


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off inside, as it was after. A search allocates hundreds of thousands of
    estimates that form no cycles (reference counting frees them; a collection afterwards finds nothing), yet they
    set off full collections: about 40 % of a Mixtral 8x7B search on 64 GPUs (1.00 s with the collector, 0.60 s
    without), and in the window each held the interpreter lock for 0.1-0.4 s (the UI thread's 10 ms timer missed up
    to 440 ms). The CLI's ``solve fastest``/``cheapest`` and the window's Plans worker search inside it."""
    with _PAUSED:
        was = gc.isenabled()
        gc.disable()
        try:
            yield
        finally:
            if was:
                gc.enable()

ALTERNATIVES = 5  # the next best plans an answer lists

# (done, in all) -> keep going: the layouts surveyed of all of them, then (layouts + candidates refined, layouts +
# candidates) while the layouts that fit are refined best-first (that phase may stop early, at the bound)
Progress = Callable[[int, int], bool]


@dataclass(frozen=True)
class Point:
    """One estimated plan: what the plan chart draws (peak against step time; fitting ones marked)."""

    plan: Plan
    estimate: Estimate

    @property
    def seconds(self) -> float:
        assert self.estimate.time is not None  # the search needs the step time (need_time)
        return self.estimate.time.step_seconds

    @property
    def peak(self) -> int:
        assert self.estimate.peak is not None  # estimate() always computes it
        return self.estimate.peak.bytes

    @property
    def fits(self) -> bool:
        return bool(self.estimate.fits)

    @property
    def cost(self) -> float | None:
        assert self.estimate.time is not None
        return self.estimate.time.cost

    @property
    def rank(self) -> tuple[object, ...]:
        return (self.seconds, self.peak, self.plan.order)


@dataclass(frozen=True)
class PlanSearch:
    """The answer of one search: ``best`` (None: ``nothing`` says why), the next best, and what was estimated."""

    gpus: int
    batch: int
    best: Point | None
    alternatives: tuple[Point, ...]
    points: tuple[Point, ...] = field(repr=False)  # every plan estimated, in the order it was
    layouts: int = 0  # layouts in the space (validation may still refuse some)
    estimated: int = 0  # layouts estimated beyond their frugal plan
    nothing: NoPlanFits | None = None

    @property
    def found(self) -> bool:
        return self.best is not None


def need_time(est: Estimate) -> None:
    """A plan is ranked by its step time: the GPU's compute figures must be known."""
    if est.usable is None:
        raise InputError("hardware.gpu_memory", Msg.of("error.needs_gpu_memory"), Msg.of("allowed.size_or_preset"))
    if est.time is None:
        raise InputError("hardware.tflops_16bit", Msg.of("error.plan_needs_time"), Msg.of("allowed.gpu_figures"))


def frugal_strategies(s: Scenario) -> tuple[Strategy, ...]:
    """The strategies with the smallest model states, most frugal first: ZeRO-3 with everything offloaded, then
    ZeRO-3 (offloaded parameters are gathered whole under FSDP's rules, so offload is not always smaller); under
    the megatron convention the distributed optimizer."""
    variants = strategies(s)  # (without building each variant's scenario)
    return tuple(reversed([st for st in variants if st.stage == 3 or st.megatron][-2:]))


def lower_bound(point: Point) -> float:
    """A time no plan of ``point``'s layout beats (``point``: the layout's frugal plan, at full recompute).

    From vramgui.core.time.step: compute (m·(t_fwd + t_bwd)), pp_comm, cp_comm and ep_comm are the same for every
    recompute level and strategy of a layout; tp_comm counts 4 collectives per block without recompute and 6 with
    full (SP: 6 all-gathers + 4 reduce-scatters against 8 + 6), so 2/3 of the full-recompute traffic is below any
    level's; the bubble is (p − 1)/v of a micro-batch's work, at least its compute. With --achieved-tflops the time is
    the hardware FLOPs at that rate, at least the model FLOPs'."""
    est = point.estimate
    t = est.time
    assert t is not None
    s = est.scenario
    if s.hardware.achieved_tflops is not None:
        return t.model_flops_per_step / (s.parallel.num_gpus * s.hardware.achieved_tflops * 1e12)
    c = {k: t.seconds_of(k) for k in ("compute", "pp_comm", "cp_comm", "ep_comm", "tp_comm")}
    tp = c["tp_comm"] * (2 / 3 if s.training.recompute == Recompute.FULL else 1.0)
    p, v = s.parallel.pp, s.parallel.vpp
    bubble = (p - 1) / v * c["compute"] / max(est.accumulation_steps, 1)
    return c["compute"] + c["pp_comm"] + c["cp_comm"] + c["ep_comm"] + tp + bubble


def _try(s: Scenario, plan: Plan, batch: int) -> Point | None:
    try:
        return Point(plan, estimate(plan.apply(s, batch)))
    except InputError:  # validation refuses this layout (a rule the prefilter does not know)
        return None


def _least_level(s: Scenario, frugal: Plan, levels: tuple[Recompute, ...], batch: int,
                 points: list[Point]) -> Point:
    """The frugal plan at the least recompute level that fits (the layout's memory floor at each level: no strategy
    fits with less recompute than this); its recompute seconds are the same under every strategy."""
    found: Point | None = None
    for level in levels[:-1]:
        pt = _try(s, replace(frugal, recompute=level), batch)
        if pt is not None:
            points.append(pt)
            if pt.fits:
                found = pt
                break
    return found if found is not None else Point(frugal, estimate(frugal.apply(s, batch)))


def fastest(scenario: Scenario, gpus: int, keep: int = ALTERNATIVES, cutoff: float = math.inf,
            progress: Progress | None = None) -> PlanSearch:
    """The fitting plan with the shortest step time on ``gpus`` GPUs at the scenario's global batch
    (``plans.target_batch``), with the ``keep`` next best; only plans faster than ``cutoff`` seconds are looked for.
    Raises ``InputError`` without a GPU memory or compute figures (or for an invalid scenario)."""
    batch = target_batch(scenario)  # kept by every plan; the scenario's own layout need not take it
    base = estimate(without_global_batch(scenario))
    need_time(base)
    s = base.scenario
    levels = recompute_levels(s)
    frugal = frugal_strategies(s)
    others = list(strategies(s))
    points: list[Point] = []
    all_layouts = list(layouts(s, gpus, batch))
    failed: set[tuple[int, bool, int, int, int, int]] = set()
    least: Point | None = None
    candidates: list[tuple[float, Layout, Point]] = []
    for i, lay in enumerate(all_layouts):
        if progress is not None and not progress(i, len(all_layouts)):
            break
        if lay.family in failed:
            continue
        seen = None
        for st in frugal:
            pt = _try(s, Plan(gpus, lay, levels[-1], st), batch)
            if pt is None:
                break
            points.append(pt)
            if least is None or pt.peak < least.peak:
                least = pt
            if pt.fits:
                seen = pt
                break
        if seen is None:
            failed.add(lay.family)
            continue
        candidates.append((lower_bound(seen), lay, seen))
    heap = [(bound, lay, False, seen) for bound, lay, seen in candidates]
    heapq.heapify(heap)
    fitting: list[Point] = []
    times: list[float] = []
    estimated = 0
    while heap:
        if progress is not None and not progress(len(all_layouts) + estimated, len(all_layouts) + len(candidates)):
            break
        bound, lay, refined, seen = heapq.heappop(heap)
        limit = times[keep] if len(times) > keep else math.inf
        if bound > min(limit, cutoff):
            break  # every layout left is bounded above it
        if not refined:  # the least recompute its most frugal strategy fits with: at least that level's recompute
            least_level = _least_level(s, Plan(gpus, lay, levels[-1], seen.plan.strategy), levels, batch, points)
            heapq.heappush(heap, (bound + least_level.estimate.time.seconds_of("recompute")  # type: ignore[union-attr]
                                  if least_level is not seen else bound, lay, True, seen))
            continue
        estimated += 1
        for st in others:
            for level in reversed(levels):
                plan = Plan(gpus, lay, level, st)
                pt = seen if plan == seen.plan else _try(s, plan, batch)
                if pt is None or not pt.fits:
                    break  # less recompute only keeps more
                if pt is not seen:
                    points.append(pt)
                if pt.seconds <= cutoff:
                    fitting.append(pt)
                    bisect.insort(times, pt.seconds)
    fitting.sort(key=lambda p: p.rank)
    nothing = None
    if not fitting:
        reason = "no_layout" if not points else "memory" if not candidates else "cutoff"
        nothing = NoPlanFits(reason, gpus, batch, len(all_layouts), None if least is None else least.estimate)
    return PlanSearch(gpus, batch, fitting[0] if fitting else None, tuple(fitting[1:keep + 1]), tuple(points),
                      len(all_layouts), estimated, nothing)


def need_cost(s: Scenario) -> None:
    """The cheapest plan is ranked by the run's cost: its tokens, the price of a GPU-hour and the global batch (which
    every GPU count keeps) must be given."""
    if s.training.train_tokens is None:
        raise InputError("training.train_tokens", Msg.of("error.cheapest_needs"), Msg.of("allowed.tokens_example"))
    if s.hardware.gpu_hour_price is None:
        raise InputError("hardware.gpu_hour_price", Msg.of("error.cheapest_needs"), Msg.of("allowed.price_example"))
    if s.training.global_batch is None:  # the samples per step every GPU count must keep (else it follows the count)
        raise InputError("training.global_batch", Msg.of("error.cheapest_needs"), Msg.of("allowed.at_least_one"))


def gpu_counts(s: Scenario, max_gpus: int) -> tuple[list[int], list[int]]:
    """(whole nodes, part of a node): the node multiples up to ``max_gpus``, then the divisors of a node below it;
    only counts some layout can split into a dp that divides the global batch: dp divides both, so the model grid
    is at least n / gcd(n, batch), and ``plans.layouts`` makes it at most a node (tp × cp) × the layers (pp)."""
    gpn = s.parallel.gpus_per_node
    batch = target_batch(s)
    arch = s.model.architecture
    grid = gpn * (arch.num_layers if arch is not None else max_gpus)

    def possible(n: int) -> bool:
        return n // math.gcd(n, batch) <= grid

    whole = [n for n in range(gpn, max_gpus + 1, gpn) if possible(n)]
    part = [d for d in range(1, min(gpn, max_gpus + 1)) if gpn % d == 0 and possible(d)]
    return whole, part


@dataclass(frozen=True)
class CostSearch:
    """The cheapest plan over the GPU counts, the next cheapest (each the best of another count), and per count
    what its search found."""

    best: Point | None
    alternatives: tuple[Point, ...]
    searches: tuple[PlanSearch, ...]
    counts: tuple[int, ...]

    @property
    def found(self) -> bool:
        return self.best is not None


def _cost_rank(pt: Point) -> tuple[object, ...]:
    cost = pt.cost
    assert cost is not None  # need_cost
    return (cost, pt.seconds, pt.peak, pt.plan.order)


def cheapest(scenario: Scenario, max_gpus: int, keep: int = ALTERNATIVES) -> CostSearch:
    """The fitting plan with the lowest cost of the whole run (GPUs × step time × steps × price), searched over
    whole nodes up to ``max_gpus`` (parts of one node only when no whole node fits or ``max_gpus`` is less than a
    node); equal costs go to the shorter run. A count's search looks only for plans cheaper than the
    ``keep + 1``-th cheapest found: cost / (GPUs × price per second × steps) is the step time to beat."""
    base = estimate(without_global_batch(scenario))
    need_time(base)
    need_cost(scenario)
    s = scenario
    whole, part = gpu_counts(s, max_gpus)
    best_by_count: list[Point] = []
    searches: list[PlanSearch] = []
    searched: list[int] = []
    for counts in (whole, part):
        if best_by_count:
            break
        for n in counts:
            costs = sorted(_cost_rank(p) for p in best_by_count)
            cutoff = math.inf
            if len(costs) > keep:
                worst = next(p for p in best_by_count if _cost_rank(p) == costs[keep])
                cutoff = worst.seconds * worst.plan.gpus / n  # the same cost on n GPUs
            found = fastest(s, n, keep=0, cutoff=cutoff)
            searches.append(found)
            searched.append(n)
            if found.best is not None:
                best_by_count.append(found.best)
    ranked = sorted(best_by_count, key=_cost_rank)
    return CostSearch(ranked[0] if ranked else None, tuple(ranked[1:keep + 1]), tuple(searches), tuple(searched))
