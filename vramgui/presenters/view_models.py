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
class SuggestionVM:
    """One way to make the scenario fit, as the summary offers it (a click applies it)."""

    text: str  # "use 16 GPUs instead of 8: peak 61.20 GB, 12.80 GB free"
    tip: str  # what a click changes: "Click to apply: GPUs = 16; ZeRO stage = 3"


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
    # the training step's peak (what the fit is judged by): the headline; the sum above is the conventions' figure
    peak_bytes: int | None = None
    peak_text: str = ""  # "Peak 13.81 GB per GPU"
    moment_text: str = ""  # "at the start of backward (loss gradient), steady state"
    sum_text: str = ""  # "sum of components (the conventions' figure): 9.69 GB"
    sum_tip: str = ""  # why the sum is not the peak
    trainable_text: str = ""  # LoRA / QLoRA: "41.94M (0.52 % of 8.03B)"; "" under full training
    # the adviser (does not fit, or little headroom): "Ways to make it fit:" and the ways; "" when it fits well
    advice_title: str = ""
    suggestions: tuple[SuggestionVM, ...] = ()
    advice_empty: str = ""  # advice is due but no single change fits
    # Serve mode: the headline in place of "Chosen strategy: ...", and the four named rows' names in place of
    # headroom, accumulation, largest micro-batch and host memory ("" : the training names)
    title_text: str = ""
    row_names: tuple[str, ...] = ()
    # the step's time (vramgui.core.time): "12.3 s · MFU 43.1 %", or "unknown (no compute figures)"
    step_time_text: str = ""
    throughput_text: str = ""  # "1.33M tokens/s" ("—" while the time is unknown)
    training_text: str = ""  # "8.7 days · 13,400 GPU-hours · cost 33,500"; "" without training tokens or a time
    time_tip: str = ""  # the hover text: per GPU, model TFLOP/s, MFU and HFU, FLOPs; what to enter for the cost


@dataclass(frozen=True)
class BreakdownRow:
    key: str
    label: str
    bytes: int | None  # None: not estimable
    value_text: str  # in the display unit, e.g. "14.00 GB"
    formula: str  # the formula with the numbers filled in
    source: str = ""
    total: bool = False  # a total row (shown bold)
    tip: str = ""  # hover text of the formula (else the source)
    value_tip: str = ""  # hover text of the value (else the exact bytes): "12.345678 s"


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
    # the step peak of each bar (what decides the fit; the bar stacks the conventions' sum), in the display unit
    peaks: tuple[float | None, ...] = ()  # None: no step peak
    fits: tuple[bool | None, ...] = ()  # by the peak (None: no GPU memory given)
    peak_texts: tuple[str, ...] = ()  # the label's first line: "peak 46.1"
    sum_texts: tuple[str, ...] = ()  # its second line: "sum 38.5"
    label_tops: tuple[float, ...] = ()  # where the label stands: above the peak's mark or the bar, the higher
    peak_tooltips: tuple[str, ...] = ()  # "Step peak: 46.06 GB (at the optimizer step, steady state) — sum ..."
    # bars far above the GPU's memory, cut (``presenters.bar_clip``): drawn up to ``clip_at``, marked as broken
    clip_at: float | None = None
    clipped: tuple[bool, ...] = ()


@dataclass(frozen=True)
class TimeBarsVM:
    """The time of one training step per strategy (the memory chart's bars), stacked by part (compute, exposed
    communication, bubble, optimizer, offload: ``vramgui.core.time``) in seconds; beside each bar's time its step
    peak, so time and memory are read together."""

    strategies: tuple[str, ...]
    short_labels: tuple[str, ...]  # axis labels (may hold line breaks)
    keys: tuple[str, ...]  # the strategies' stable ids (``Strategy.key``), one per bar
    segments: tuple[BarSegment, ...]  # bottoms and heights in seconds
    totals: tuple[float, ...]  # the step's seconds (0.0 where its time is unknown)
    chosen: int  # index of the strategy the scenario uses (-1: not among the variants)
    time_texts: tuple[str, ...]  # the label's first line: "12.3 s" ("" where unknown)
    peak_texts: tuple[str, ...]  # its second: "peak 46.1 GB"
    fits: tuple[bool | None, ...]  # by the step peak (None: no GPU memory given)
    bar_tooltips: tuple[str, ...]  # hover over a bar's label: time, throughput, MFU, peak
    axis_label: str  # "Time per step (s)"
    note: str = ""  # over an empty plot: why there is no time (no compute figures for the GPU)


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
    point_notes: tuple[str, ...] = ()  # a line added to each x's hover text ("" : none), e.g. vLLM's concurrency
    y_top: float | None = None  # the y range's top (None: the largest value or the capacity, the larger)


@dataclass(frozen=True)
class StepChartVM:
    """The moments of a first and a steady training step, a stacked bar each (``vramgui.core.step.peak.PEAK_KEYS``
    order); values in the display unit, x positions with a gap between the two steps."""

    x: tuple[float, ...]
    short_labels: tuple[str, ...]  # axis labels (may hold line breaks)
    labels: tuple[str, ...]  # "start of backward (loss gradient), steady state"
    groups: tuple[tuple[str, float], ...]  # ("first step", x of its middle), one per step
    separators: tuple[float, ...]  # x between the steps
    segments: tuple[BarSegment, ...]
    totals: tuple[float, ...]
    total_texts: tuple[str, ...]  # shown above each bar
    peak: int  # index of the bar that sets the peak
    peak_text: str  # "peak\n13.81 GB"
    capacity: float | None
    usable: float | None
    unit: str
    span: tuple[float, float] = (-0.6, 0.6)  # the x range to show


@dataclass(frozen=True)
class ResultVM:
    title: str
    caption: str  # the scenario in one line, for exported images
    unit: str
    summary: SummaryVM
    breakdown: tuple[BreakdownRow, ...]
    bars: StrategyBarsVM
    formulas_html: str = ""
    step: StepChartVM | None = None  # None: no step peak (never for an estimate of the core)
    peak_breakdown: tuple[BreakdownRow, ...] = ()  # what is live at the peak, the peak total last
    time_bars: TimeBarsVM | None = None  # always computed; without a time its ``note`` says why
    time_breakdown: tuple[BreakdownRow, ...] = ()  # the parts of the chosen strategy's step time, the step last


@dataclass(frozen=True)
class ServeResultVM:
    """The Serve mode's result (``vramgui.core.serve``): the summary, the parts with their derivations, and memory
    against the context length (``SweepVM`` with contexts as its x)."""

    title: str
    caption: str  # the scenario in one line, for exported images
    unit: str
    summary: SummaryVM
    breakdown: tuple[BreakdownRow, ...]
    chart: SweepVM


@dataclass(frozen=True)
class GroupSummary:
    """What a folded group of the form holds that the first screen does not, for its header ("" : nothing)."""

    text: str = ""  # "global batch 128, full recomputation"
    short: str = ""  # "3 set": where the list does not fit
    tooltip: str = ""  # the list, one per line
