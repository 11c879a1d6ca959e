"""The plan chart's view-models and the passive view its presenter talks to (``presenters/plan_presenter.py``).

Every searched plan is a point: its step time (x, seconds) and step peak (y, in the display unit); the ones that fit
are drawn apart from the ones that do not, the fastest that fits highlighted and labelled. Texts arrive formatted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class PlanPoint:
    """One plan the search estimated, with only what the chart, its texts and a click need: the search's own
    answer holds every plan's whole ``Estimate`` (a 70B search on 64 GPUs: about 200,000 objects, which made every
    full garbage collection of the window five times slower while it was kept)."""

    plan: Any  # core.solve.plans.Plan
    scenario: Any  # the plan applied to the searched scenario (what a click gives the editor)
    seconds: float  # step time
    peak: int  # step peak per GPU, bytes
    fits: bool
    strategy: Any  # core.scenario.strategy.Strategy
    steps: int  # gradient accumulation steps


@dataclass(frozen=True)
class PlanAnswer:
    """A search's answer as the presenter keeps it: every plan once, in the order estimated, and the fastest that
    fits (``best``: its index, -1 for none, then ``reason``, ``least_peak`` and ``usable`` say why)."""

    gpus: int
    batch: int
    layouts: int
    points: tuple[PlanPoint, ...]
    best: int
    reason: str = ""  # core.solve.nothing_fits.PLAN_REASONS
    least_peak: int | None = None  # the smallest step peak seen (bytes)
    usable: int | None = None  # the usable memory it was judged against (bytes)


@dataclass(frozen=True)
class PlanChartVM:
    """The points of one search, in the order the presenter keeps them (a click reports an index into them)."""

    seconds: tuple[float, ...]  # x: each plan's step time
    peaks: tuple[float, ...]  # y: each plan's step peak per GPU in ``unit``, at most ``y_top`` (see ``clipped``)
    fits: tuple[bool, ...]
    clipped: tuple[bool, ...]  # the peak is above the axis: drawn at its top (the hover text gives the value)
    tooltips: tuple[str, ...]  # the plan's words, peak, step time, whether it fits, what a click does
    chosen: int  # the fastest plan that fits (-1: none)
    chosen_label: str  # its label beside the point: "fastest: CP 2 · DP 8 · ZeRO-2 · 6.3 s"
    capacity: float | None  # the GPU's memory, in ``unit``
    usable: float | None  # after the reserve
    unit: str
    y_top: float  # the y axis' top (in ``unit``)
    y_label: str  # "Step peak per GPU (GB)"
    legend: tuple[str, str, str]  # fits (count), does not fit (count), the fastest that fits
    summary: str  # what was searched and the chosen plan, shown above the chart
    title: str  # the scenario (the chart's subtitle)
    note: str = ""  # over an empty plot: why nothing fits, or why nothing could be searched


@dataclass(frozen=True)
class PlanStatusVM:
    """The search's state, shown in the bar above the chart."""

    text: str  # "Searching plans on 16 GPUs: 120 of 318 layouts" / "Search cancelled" / ""
    busy: bool  # a search is running: a progress bar and Cancel
    progress: int  # 0 ... 1000 while busy (-1: not known yet)
    stale: bool  # the chart shows an earlier scenario's plans (or none yet): faded
    can_search: bool  # "Search plans" is offered (cancelled, or the scenario cannot be searched automatically)


class PlanView(Protocol):
    def show_plans(self, vm: PlanChartVM | None) -> None:
        """Draw the points of a search (items created once, updated with ``setData``); None: nothing searched."""

    def show_plan_status(self, status: PlanStatusVM) -> None:
        """The search's progress and state above the chart; fade the chart while ``status.stale``."""
