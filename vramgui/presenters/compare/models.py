"""The comparison's data: a pinned scenario, the core's figures for it, the view-models pushed to the Compare tab and
the passive view's protocol (``vramgui.presenters.compare.presenter`` re-exports them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from vramgui.core.scenario.specs import Scenario
from vramgui.core.scenario.strategy import Strategy


@dataclass(frozen=True)
class Pinned:
    id: int
    name: str  # as shown: the user's own, or what differs from the other pins
    scenario: Scenario
    named: bool = False  # the user gave the name (else the app names it, and renames it as the pins change)


@dataclass(frozen=True)
class Figures:
    """The core's numbers for one pinned scenario, in bytes."""

    components: tuple[tuple[str, int | None], ...]  # (key, bytes) in STACK_KEYS order; None = not estimable
    total: int
    usable: int | None
    fits: bool | None
    headroom: int | None
    max_micro_batch: int | None  # None when it cannot be solved (e.g. no GPU memory given)
    accumulation_steps: int
    strategy: Strategy  # str(strategy): the English label (the CSV's)
    notes: tuple = ()  # the core's notes (``Msg``)
    peak: int | None = None  # the training step's peak (what ``fits`` and ``headroom`` judge); None: no peak
    peak_phase: str = ""  # the moment that sets it (``vramgui.core.step.peak`` ids): "optimizer_step"
    peak_step: str = ""  # "first" or "steady"
    time: Any = None  # the core's StepTime (``vramgui.core.time``): seconds, throughput, cost; None: no compute figures


@dataclass(frozen=True)
class CompareRowVM:
    id: int
    name: str
    total_text: str  # the sum of components
    fits: bool | None  # by the step peak
    fits_text: str
    headroom_text: str
    max_micro_batch_text: str
    accumulation_text: str
    tooltip: str
    peak_text: str = ""  # "46.06 GB" ("—": no step peak)
    step_time_text: str = ""  # "12.3 s" ("—": no compute figures for the GPU)
    throughput_text: str = ""  # "1.33M tokens/s"
    training_text: str = ""  # "8.7 days" ("—": no training tokens given)
    cost_text: str = ""  # "33,500" ("—": no GPU-hour price given)


@dataclass(frozen=True)
class CompareSeriesVM:
    """One component across every pinned scenario: stacked bar ``bottoms`` and ``heights`` in the unit."""

    key: str
    label: str
    bottoms: tuple[float, ...]
    heights: tuple[float, ...]


@dataclass(frozen=True)
class CompareVM:
    rows: tuple[CompareRowVM, ...]
    names: tuple[str, ...]
    series: tuple[CompareSeriesVM, ...]
    totals: tuple[float, ...]  # bar tops, in the unit
    capacities: tuple[float | None, ...]  # usable GPU memory after the reserve, in the unit
    unit: str
    axis_label: str
    can_pin: bool
    empty_hint: str  # shown when nothing is pinned ("" otherwise)
    # each bar's step peak, marked on it (``step_results.peak_marks``): heights in the unit, fit, label lines
    peaks: tuple[float | None, ...] = ()
    fits: tuple[bool | None, ...] = ()
    peak_texts: tuple[str, ...] = ()
    sum_texts: tuple[str, ...] = ()
    label_tops: tuple[float, ...] = ()
    common_text: str = ""  # the inputs every pinned scenario shares, shown under the chart ("" for one pin)
    time_texts: tuple[str, ...] = ()  # each bar's step time and cost, the last line of its name: "12.3 s/step"


class CompareView(Protocol):
    def show_comparison(self, vm: CompareVM) -> None:
        """Show the pinned scenarios: fill the table and update the chart items (created once)."""

    def show_message(self, text: str) -> None:
        """Tell the user something went wrong (pin limit, export failure); "" clears it."""

    def show_status(self, text: str) -> None:
        """A passing note (a file saved or opened), in the window's status bar."""

    def show_error(self, title: str, text: str) -> None:
        """A file that cannot be opened or saved: a modal warning naming the problem."""

    def ask_export_path(self, title: str, start_path: str, file_filter: str) -> str | None:
        """Ask where to save; None when cancelled."""

    def ask_open_path(self, title: str, folder: str, file_filter: str) -> str | None:
        """Ask which file to open; None when cancelled."""

    def ask_replace(self, title: str, text: str) -> bool:
        """Whether to replace the pinned scenarios (a question with Yes and Cancel)."""

    def export_chart_png(self, path: str, title: str, caption: str, width: int) -> None:
        """Render the chart ``width`` pixels wide to a PNG (white background, title, legend, caption); raises
        OSError on failure."""
