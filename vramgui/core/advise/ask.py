"""What every finder of the adviser shares: the question it answers (``Ask``: the scenario, the peak a way out may
have) and the few ways of trying a change (one estimate each, the cheapest strategy that fits with it, the fewest GPUs
that fit with it, in whole nodes).

A change is a tuple of (field path, value), applied with ``fields.with_value`` as the form or the command line would
set it; a suggestion holds only if the changed scenario is valid and its step peak is at most ``Ask.target``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from vramgui.core.advise.estimates import Estimates
from vramgui.core.advise.suggestion import Suggestion
from vramgui.core.estimate import Estimate
from vramgui.core.fields import registry as fields
from vramgui.core.fields.registry import MAX_GPUS
from vramgui.core.memo import replaced
from vramgui.core.parallel import world
from vramgui.core.scenario.specs import Scenario
from vramgui.core.scenario.strategy import FIELDS as STRATEGY_PATHS
from vramgui.core.scenario.strategy import Strategy
from vramgui.core.solve import questions as solve
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg

LOW_HEADROOM = 0.05  # advise below 5 % of usable memory free; a suggestion leaves that free where it can
GPU_SEARCH = 4096  # the most GPUs a suggestion asks for (or 4 x the scenario's own count, if that is more)
MAX_TRIES = 4  # values tried per kind when the solver's answer does not hold with the scenario's global batch
FULL_RECOMPUTE: tuple[tuple[str, Any], ...] = (("training.recompute", "full"),)

Changes = tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class Ask:
    scenario: Scenario  # as given (validated)
    strict: Scenario  # what the solvers solve: the scenario, its reserve raised by the margin (or not: just fits),
    # untimed: the solvers judge memory alone
    target: int  # the highest peak a suggestion may have
    base: Estimate
    estimates: Estimates = field(default_factory=Estimates, compare=False)  # this advice's, each scenario's once

    def estimate(self, s: Scenario) -> Estimate:
        """``estimate(s)``, from this advice's memory when an equal scenario's bytes were estimated before."""
        return self.estimates.of(s)

    @cached_property
    def untimed(self) -> Scenario:
        """``untimed(scenario)``, made once."""
        return untimed(self.scenario)

    def apply(self, s: Scenario, changes: Changes) -> Scenario:
        """``apply(s, changes)``, once per advice for the same ``s`` and changes."""
        return self.estimates.applied(s, changes, apply)

    def gpu_limit(self) -> int:
        return min(MAX_GPUS, max(GPU_SEARCH, 4 * self.scenario.parallel.num_gpus))

    def just_fits(self) -> Ask:
        """The same question without the margin: the step peak within the usable memory."""
        assert self.base.usable is not None  # advise(): the fit is judged
        return Ask(self.scenario, untimed(self.scenario), self.base.usable, self.base, self.estimates)


def untimed(s: Scenario) -> Scenario:
    """The scenario without the GPU's compute peak: its estimate has the same bytes and no step time, which half
    of an estimate's cost goes to (``time.rates.compute_figures_known``); what only tells whether a change fits
    is asked this way, and each suggestion's own estimate has its time."""
    return s if s.hardware.tflops_16bit is None else replace(s, hardware=replace(s.hardware, tflops_16bit=None))


def strict(s: Scenario) -> Scenario:
    reserve = 1 - (1 - LOW_HEADROOM) * (1 - s.hardware.reserve)
    return untimed(replace(s, hardware=replace(s.hardware, reserve=reserve)))


def target(s: Scenario) -> int:
    memory = s.hardware.gpu_memory
    assert memory is not None  # needs_advice: the fit is judged
    return int(memory * (1 - s.hardware.reserve) * (1 - LOW_HEADROOM))


def apply(s: Scenario, changes: Changes) -> Scenario:
    """``s`` with each change set in turn by ``fields.with_value`` (a later value of a path wins): each section
    copied once with all its changes (a strategy and a layout change four or five fields of two sections), the
    sections not changed kept as they are (validation knows them by identity)."""
    if len(changes) == 1:
        return fields.with_value(s, *changes[0])  # type: ignore[no-any-return]
    sections: dict[str, dict[str, Any]] = {}
    for path, value in changes:
        head, _, rest = path.partition(".")
        if not rest or "." in rest or getattr(s, head) is None:  # not a field of a section: one at a time
            for one, v in changes:
                s = fields.with_value(s, one, v)
            return s
        sections.setdefault(head, {})[rest] = value
    changed: Scenario = replaced(s, **{head: replaced(getattr(s, head), **values) for head, values in sections.items()})
    return changed


def attempt(ask: Ask, kind: str, changes: Changes, msg: Msg) -> Suggestion | None:
    """The suggestion, if the changed scenario is valid and its step peak leaves the margin free."""
    changes = tuple((p, v) for p, v in changes if fields.get(ask.scenario, p) != v)
    if not changes:
        return None
    try:
        est = ask.estimate(ask.apply(ask.scenario, changes))
    except InputError:
        return None
    if est.peak is None or est.peak.bytes > ask.target or not est.fits:
        return None
    return Suggestion(kind, changes, msg, est)


def within(ask: Ask, changes: Changes) -> bool:
    """Whether the changed scenario is valid and its step peak at most the target (one estimate, no suggestion)."""
    try:
        est = ask.estimate(ask.apply(ask.untimed, changes))
    except InputError:
        return False
    return est.peak is not None and est.peak.bytes <= ask.target and bool(est.fits)


def first(ask: Ask, kind: str, tries: list[tuple[Changes, Msg]]) -> Suggestion | None:
    for changes, msg in tries[:MAX_TRIES]:
        found = attempt(ask, kind, changes, msg)
        if found is not None:
            return found
    return None


def divisors(n: int) -> list[int]:
    small = [d for d in range(1, int(n**0.5) + 1) if n % d == 0]
    return sorted({*small, *(n // d for d in small)})


def and_recompute(msg: Msg, extra: Changes) -> Msg:
    return Msg.of("advise.and_recompute", change=msg) if extra else msg


def strategy_changes(s: Scenario, strategy: Strategy) -> Changes:
    applied = strategy.apply(s)
    return tuple((p, fields.get(applied, p)) for p in STRATEGY_PATHS)


def cheapest_strategy(ask: Ask, changes: Changes, offload: bool | None = None) -> Strategy | None:
    """The lowest stage (then offload) that fits with ``changes`` (as ``solve.cheapest_strategy`` of the strict
    scenario), among the strategies that offload (True), do not (False) or all (None); None when none fits."""
    try:
        base = ask.apply(ask.strict, changes)
        for strategy in solve.strategies(base):
            if (offload is None or strategy.offloads == offload) and ask.estimate(strategy.apply(base)).fits:
                return strategy
    except InputError:  # the changes are refused (a rule the caller's prefilter does not know)
        return None
    return None


# ------------------------------------------------------------------------------------------------ more GPUs


def gpu_counts(ask: Ask, changes: Changes, least: int) -> list[int]:
    """GPU counts from ``least`` up that the changed scenario accepts (``world.accepts``) and, with a global batch,
    whose data-parallel size dp = GPUs / (tp·cp·pp) divides global batch / micro-batch (the batch is kept)."""
    s = ask.apply(ask.scenario, changes)
    t = s.training
    if t.global_batch is None:
        counts = [whole_nodes(s, least)]
    else:
        sizes = (dp * world.context_grid(s.parallel) for dp in divisors(t.global_batch // t.micro_batch))
        counts = sorted({whole_nodes(s, n) for n in sizes if n >= least})
        counts = [n for n in counts if world.accepts(s, n) and _batch_divides(s, n)]
    return [n for n in counts if n <= ask.gpu_limit()][:MAX_TRIES]


def whole_nodes(s: Scenario, n: int) -> int:
    """More than one node's GPUs are asked for as whole nodes (a cluster is rented and scheduled by the node); the
    world group is kept (the lcm of the two)."""
    node = s.parallel.gpus_per_node
    if n <= node:
        return world.at_or_above(s, n)
    step = math.lcm(node, world.group_size(s))
    return -(-n // step) * step


def _batch_divides(s: Scenario, n: int) -> bool:
    t = s.training
    return t.global_batch is None or t.global_batch % (t.micro_batch * (n // world.context_grid(s.parallel))) == 0


def with_gpus(ask: Ask, kind: str, changes: Changes, least: int, msg: Callable[[int], Msg]) -> Suggestion | None:
    tries = [((*changes, ("parallel.num_gpus", n)), msg(n)) for n in gpu_counts(ask, changes, least)]
    return first(ask, kind, tries)


def fewest_gpus(ask: Ask, changes: Changes, limit: int | None = None, at_least: int = 1) -> int | None:
    """The fewest GPUs with which the changed scenario fits (``solve.min_gpus`` of the strict scenario), up to
    ``limit`` (the ask's own by default), or None; with ``at_least``, max(that count, ``at_least``)."""
    try:
        return solve.min_gpus(ask.apply(ask.strict, changes), min(ask.gpu_limit(), limit or MAX_GPUS), ask.estimate,
                              at_least)
    except InputError:
        return None
