"""View-models: what the presenter pushes to the passive views.

Plain frozen dataclasses holding display-ready values (texts already formatted, chart values already in the
display unit, stacked bars already stacked), so the views only place them on screen.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FieldError:
    """An invalid input: ``key`` is the form field it belongs to ("" when no single field is to blame)."""

    key: str
    message: str


@dataclass(frozen=True)
class SummaryVM:
    strategy: str  # e.g. "ZeRO-2"
    total_bytes: int
    total_text: str  # "26.25 GB per GPU"
    fits: bool | None  # None: no GPU memory given, fit not judged
    fits_text: str
    headroom_text: str
    accumulation_text: str
    max_micro_batch_text: str
    host_text: str
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class BreakdownRow:
    key: str
    label: str
    bytes: int | None  # None: not estimable
    value_text: str  # in the display unit, e.g. "14.00 GB"
    formula: str  # the formula with the numbers filled in
    source: str = ""


@dataclass(frozen=True)
class BarSegment:
    """One component across every strategy bar: ``bottoms`` and ``heights`` in the display unit."""

    key: str
    label: str
    bottoms: tuple[float, ...]
    heights: tuple[float, ...]
    tooltips: tuple[str, ...]  # hover text per bar, with exact bytes


@dataclass(frozen=True)
class StrategyBarsVM:
    strategies: tuple[str, ...]
    short_labels: tuple[str, ...]  # axis labels (may hold line breaks)
    segments: tuple[BarSegment, ...]
    totals: tuple[float, ...]
    chosen: int  # index of the strategy the scenario uses (-1: not among the variants)
    capacity: float | None  # GPU memory in the display unit
    usable: float | None  # after the reserve
    unit: str
    keys: tuple[str, ...] = ()  # the strategies' stable ids (``Strategy.key``), one per bar


@dataclass(frozen=True)
class Series:
    label: str  # shown (translated)
    values: tuple[float | None, ...]  # None: not possible at that x (e.g. fewer GPUs than TP x PP)
    key: str = ""  # a stable id (``Strategy.key``, e.g. "zero3+offload_opt"): curves are keyed on it; "" = the label
    dashed: bool = False  # drawn dashed (strategies with CPU offload)


@dataclass(frozen=True)
class SweepVM:
    """A line per strategy against the number of GPUs (x plotted on a log2 axis)."""

    counts: tuple[int, ...]
    series: tuple[Series, ...]
    capacity: float | None
    usable: float | None
    unit: str  # unit of the values ("GB", "GiB", or "B params" for the largest-model chart)
    current: int  # the scenario's number of GPUs, marked on the chart
    note: str = ""  # shown over the plot when it cannot be drawn (e.g. no GPU memory to solve against)


@dataclass(frozen=True)
class ResultVM:
    title: str
    caption: str  # the scenario in one line, for exported images
    unit: str
    summary: SummaryVM
    breakdown: tuple[BreakdownRow, ...]
    bars: StrategyBarsVM
    formulas_html: str = ""
