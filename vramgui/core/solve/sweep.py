"""A sweep over GPU counts: the same scenario at each count, what does not depend on the count computed once.

The parameter count, the stage's parameters, the activations (every term of every layer), the largest layer:
none changes with the number of GPUs once the global batch is dropped (a solve over the count drops it, as it
must divide by the data-parallel size: ``questions.solve_base``). ``estimate.count_free`` computes them for the
first count; each point then validates its own scenario and computes only the model states, the step peak and
the fit (``estimate.estimate_at_count``). ``peak_sweep`` keeps only the step peak of each point (what the window's
*By GPU count* chart draws: ``estimate.peak_at_count``), so no estimate outlives its point.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from vramgui.core.count_free import CountFree, count_free
from vramgui.core.estimate import Estimate, estimate_at_count, peak_at_count
from vramgui.core.fields.validate import validate_scenario
from vramgui.core.memo import replaced
from vramgui.core.parallel import world
from vramgui.core.scenario.specs import Scenario
from vramgui.core.solve.questions import solve_base
from vramgui.core.text.errors import InputError

T = TypeVar("T")


def at_count(base: Scenario, n: int) -> Scenario:
    """``base`` on ``n`` GPUs (at most ``n`` per node); its other sections are the same objects."""
    par = base.parallel
    return replaced(base, parallel=replaced(par, num_gpus=n, gpus_per_node=min(par.gpus_per_node, n)))


def _sweep(scenario: Scenario, counts: Iterable[int],
           at: Callable[[Scenario, CountFree], T]) -> list[tuple[int, T | None]]:
    """(n, ``at(the scenario on n GPUs, its count-free part)``) for each of ``counts``, without the global batch;
    None where the layout does not accept n or the scenario is refused there (its ``InputError``: no numbers for a
    bad scenario). The count-free part is computed once, at the first accepted count."""
    base = solve_base(scenario, "parallel.num_gpus")
    free: CountFree | None = None
    out: list[tuple[int, T | None]] = []
    for n in counts:
        if not world.accepts(base, n):
            out.append((n, None))
            continue
        try:
            s = validate_scenario(at_count(base, n))
            if free is None:
                free = count_free(s)
            out.append((n, at(s, free)))
        except InputError:
            out.append((n, None))
    return out


def gpu_sweep(scenario: Scenario, counts: Iterable[int]) -> list[tuple[int, Estimate | None]]:
    """(n, the estimate on n GPUs) for each of ``counts`` (``_sweep``)."""
    return _sweep(scenario, counts, estimate_at_count)


def peak_sweep(scenario: Scenario, counts: Iterable[int]) -> list[tuple[int, int | None]]:
    """(n, the step peak's bytes on n GPUs) for each of ``counts``: ``gpu_sweep``'s peaks (None where it has no
    estimate), without building the estimates' rows, notes and fit."""
    return _sweep(scenario, counts, lambda s, free: peak_at_count(s, free).bytes)
