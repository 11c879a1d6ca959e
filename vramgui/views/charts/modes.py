"""How a chart lays itself out in the room it has, so its plot keeps ``MIN_PLOT_PX`` wherever that can be done.

Three layouts, tried in order until the plot (pyqtgraph's view box) is at least ``MIN_PLOT_PX`` tall:

- ``full``: the title and the scenario, the legend in rows under them, ticks and axis titles at their size;
- ``compact``: the title alone, the legend, the ticks and the axis titles smaller (8 pt), the legend still below;
- ``side``: as compact, with the legend in one column right of the plot, where the chart is wide enough to leave the
  plot ``MIN_SIDE_PLOT_PX`` (more for a bar chart: ``SIDE_BAR_PX`` a bar);
- ``bare``: as compact, without the title (the tab above names the chart; an export still shows it).

Issue 23: at 1,024 x 640 a legend of three rows under the title left the plot ~8 px.

Where none reaches the minimum (a window smaller than any laptop's), the layout with the tallest plot wins. Every
``ChartView`` gets this, so a new chart tab needs no layout code of its own; ``least_height`` tells the results column
how tall the chart must be for its plot to keep the minimum. Pixels and text only: no number of the scenario.
"""

# ruff: noqa: SLF001 - this module is ChartView's own layout code, kept apart for the module size limit

from __future__ import annotations

from PySide6 import QtCore  # noqa: F401  (PySide6 before pyqtgraph, so pyqtgraph binds to it)

# isort: split
# (the import above must stay first: sorting would put pyqtgraph before PySide6)
import pyqtgraph as pg
from PySide6.QtCore import Qt

from vramgui.views.charts.fit import (
    COMPACT_LEGEND_PT,
    COMPACT_SAMPLE_PX,
    ENTRY_EXTRA_PX,
    lay_out,
    set_margins,
    show_entries,
)
from vramgui.views.charts.layout import tick_font, wrap_words

MIN_PLOT_PX = 150  # the plot's least height on a laptop screen (1,024 x 640 and up): bars and their labels readable
MIN_SIDE_PLOT_PX = 300  # the plot's least width (axis included) beside a legend in a column
SIDE_BAR_PX = 66  # ... and per bar of a bar chart: "× peak 338.6" over each bar in 7.5 pt, side by side
SIDE_SHARE = 0.34  # the most of the chart's width a legend in a column takes
SIDE_LEAST_PX, SIDE_MOST_PX = 110, 190  # a legend column's width: wrapped to this (its widest entry if narrower)
COMPACT_TICK_PT = 8.0
COMPACT_LABEL_PT = 8.0  # the axis titles in a compact chart
FULL_MARGINS = ((9.0, 9.0, 9.0, 9.0), 6.0)  # the chart's own (pyqtgraph's layout's) margins and spacing, in px
COMPACT_MARGINS = ((4.0, 3.0, 6.0, 5.0), 2.0)  # ... in a compact one: the right margin holds the last tick's half
MODES = ("full", "compact", "side", "bare")
CHROME_GUESS_PX = 96  # a side chart's title, x axis and margins before one was laid out (measured: 84-96 px)


def side_width(chart, texts: list[str]) -> float:
    """The width of a legend in a column beside the plot; 0 where the chart is too narrow to hold one."""
    metrics = pg.QtGui.QFontMetricsF(tick_font(COMPACT_LEGEND_PT))
    widest = max((metrics.horizontalAdvance(line) for t in texts for line in t.split("\n")), default=0.0)
    width = min(max(widest + COMPACT_SAMPLE_PX + 16, SIDE_LEAST_PX), SIDE_MOST_PX, chart.width() * SIDE_SHARE)
    return width if chart.width() - width >= side_plot_least(chart) else 0.0


def side_plot_least(chart) -> float:
    """The least width of the plot (its y axis included) beside a legend in a column: ``MIN_SIDE_PLOT_PX``, more
    for a bar chart (``chart.bar_count()``: its labels over the bars stay side by side)."""
    return max(MIN_SIDE_PLOT_PX, SIDE_BAR_PX * chart.bar_count() + 60)


def place_legend(chart, side: bool) -> None:
    """The legend under the title (row 1) or right of the plot (row 2, column 1); the title spans the columns.
    Moved in Qt's grid itself: pyqtgraph's ``removeItem`` takes the item out of the scene too, and one put back
    after that crashed the interpreter at exit."""
    if getattr(chart, "_legend_side", False) == side:
        return
    chart._legend_side = side
    grid = chart.ci.layout
    grid.removeItem(chart.legend)
    grid.removeItem(chart.title_item)
    grid.addItem(chart.title_item, 0, 0, 1, 2 if side else 1)
    if side:
        grid.addItem(chart.legend, 2, 1)
        grid.setAlignment(chart.legend, Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    else:
        grid.addItem(chart.legend, 1, 0)
        grid.setAlignment(chart.legend, Qt.AlignmentFlag.AlignHCenter)
    grid.setColumnStretchFactor(0, 1)
    grid.setColumnStretchFactor(1, 0)


def fit_side_legend(legend: pg.LegendItem, width: float) -> None:
    """The legend in one column ``width`` pixels wide, its entries wrapped to it, in the compact size."""
    metrics = pg.QtGui.QFontMetricsF(tick_font(COMPACT_LEGEND_PT))
    texts = [label.text for _, label in legend.items]
    shown = [wrap_words(t, width - COMPACT_SAMPLE_PX - ENTRY_EXTRA_PX / 3, metrics, "<br>") for t in texts]
    set_margins(legend, True)
    show_entries(legend, shown, COMPACT_LEGEND_PT, COMPACT_SAMPLE_PX)
    _columns, hint = lay_out(legend, width, [1])
    legend.setMinimumHeight(hint.height())
    legend.setMaximumHeight(hint.height())
    legend.setMinimumWidth(hint.width())
    legend.setMaximumWidth(hint.width())


def apply_mode(chart, mode: str) -> None:
    """Lay ``chart`` out as ``mode`` (fonts, title, legend placement and fit, the chart's own pixel layout)."""
    compact = mode != "full"
    if compact != chart._compact:
        chart._compact = compact
        font = tick_font(COMPACT_TICK_PT) if compact else None
        for name in ("left", "bottom"):
            chart.plot.getAxis(name).setTickFont(font)
        chart.show_axis_labels()
        margin, spacing = COMPACT_MARGINS if compact else FULL_MARGINS
        chart.ci.layout.setContentsMargins(*margin)
        chart.ci.layout.setSpacing(spacing)
    chart._mode = mode
    chart._show_title()
    side = mode == "side" and chart.legend.isVisible() and bool(chart.legend.items)
    place_legend(chart, side)
    if chart.legend.isVisible() and chart.legend.items:
        chart._legend_fit = ()
        if side:
            fit_side_legend(chart.legend, side_width(chart, [label.text for _, label in chart.legend.items]))
        else:
            chart.legend.setMinimumWidth(-1)
            chart.fit_legend_now()
    chart.fit_layout()
    chart._fit_central()


def choose_mode(chart, force: bool = False) -> None:
    """The first of ``MODES`` that leaves the plot ``MIN_PLOT_PX`` (else the one with the tallest plot), chosen
    again only when the chart's size or its legend's texts changed."""
    items = chart.legend.items if chart.legend.isVisible() else []
    texts = tuple(label.text for _, label in items)
    key = (chart.width(), chart.height(), chart._legend_columns, tuple((id(label), label.text) for _, label in items))
    if key == chart._mode_key and not force:
        return
    chart._mode_key = key
    if chart.height() <= 0 or chart.width() <= 0:
        return
    heights: dict[str, float] = {}
    for mode in MODES:
        if mode == "side" and (not texts or not side_width(chart, list(texts))):
            continue
        apply_mode(chart, mode)
        chart.ci.layout.activate()
        over = overflow(chart)
        heights[mode] = chart.plot.vb.height() if over <= 0 else -over  # a layout cut by the edge ranks last
        chart.chrome[mode] = chart.viewport().height() - chart.plot.vb.height() + max(over, 0)
        if heights[mode] >= MIN_PLOT_PX:
            return
    best = max(heights, key=lambda m: heights[m], default=chart._mode)
    if best != chart._mode:
        apply_mode(chart, best)
        chart.ci.layout.activate()


def overflow(chart) -> float:
    """How far the laid-out title, legend or plot (its axes included) reach past the chart's bottom, in pixels."""
    bottom = max(item.geometry().bottom() for item in (chart.title_item, chart.legend, chart.plot))
    return bottom - chart.viewport().height()


def least_height(chart) -> int:
    """How tall the chart must be for its plot to keep ``MIN_PLOT_PX`` in its most compact layout (measured where
    that layout was tried, else ``CHROME_GUESS_PX`` for its title, x axis and margins)."""
    chrome = [chart.chrome[m] for m in ("side", "compact") if m in chart.chrome]
    return int(MIN_PLOT_PX + (min(chrome) if chrome else CHROME_GUESS_PX))
