"""The three live charts (pyqtgraph). Plot items are created once and updated with ``setData``/``setOpts``.

Each chart is a ``GraphicsLayoutWidget`` (``vramgui.views.charts.frame.ChartView``): a title row, the plot with its
legend beside it, and - only while exporting - a caption row describing the scenario, so an exported PNG stands
on its own in a report. Curves are keyed by the series' stable key (``Strategy.key``), never by a label.
"""

from __future__ import annotations

import math

from PySide6 import QtCore  # noqa: F401  (PySide6 before pyqtgraph, so pyqtgraph binds to it)

# isort: split
# (the import above must stay first: sorting would put pyqtgraph before PySide6)
import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF
from PySide6.QtWidgets import QWidget

from vramgui.presenters.view_models import StrategyBarsVM, SweepVM
from vramgui.views.charts.frame import (  # noqa: F401 - ChartView and the helpers are re-exported
    BAR_WIDTH,
    CAPACITY_COLOUR,
    COMPACT_TICK_PT,
    EXPORT_BG,
    EXPORT_FG,
    USABLE_COLOUR,
    ChartView,
    PlainLogAxis,
    nice_ceiling,
    reference_line,
)
from vramgui.views.charts.layout import edge_padding, text_width, thinned, tick_font, tick_metrics, wrap_words
from vramgui.views.charts.peak_marks import PeakMarks, top_for
from vramgui.views.theme import series_colour

TWO_LINES_PX = 150  # the plot's height from which each bar's label shows the sum under the peak
SMALL_TICK_PT = 7.5  # the strategies' names where a word is wider than its bar's slot


class StrategyChart(ChartView):
    """Chart 1: a stacked bar per strategy, stacked by component (the sum); its step peak marked on each bar (what
    decides the fit: red with a ✕ above the usable memory); capacity and usable lines, named in the legend."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Memory per GPU by strategy"), "", self.tr("Memory per GPU (GB)"), parent,
                         legend_columns=5)
        self.plot.getAxis("bottom").setHeight(48)
        self.bars: dict[str, pg.BarGraphItem] = {}
        self.marks = PeakMarks(self.plot, BAR_WIDTH / 2 + 0.07)
        self.capacity_line = reference_line(CAPACITY_COLOUR, dashed=False, anchor_below=False)
        self.usable_line = reference_line(USABLE_COLOUR, dashed=True, anchor_below=True)
        self.plot.addItem(self.capacity_line, ignoreBounds=True)
        self.plot.addItem(self.usable_line, ignoreBounds=True)
        # the scale break on a bar the presenter cut (``StrategyBarsVM.clipped``): two slanted strokes of the
        # background across its top, so its drawn height is not read as a value (its label gives the value)
        self.breaks = pg.PlotDataItem([], [], connect="pairs", pen=pg.mkPen(EXPORT_BG, width=3))
        self.breaks.setZValue(44)  # over the bars, under the peak dashes and the labels
        self.plot.addItem(self.breaks, ignoreBounds=True)
        self.vm: StrategyBarsVM | None = None
        self._ticks: tuple = ()
        self._range: tuple = ()
        self._recolour(self._fg)

    def show_bars(self, vm: StrategyBarsVM) -> None:
        """Update the existing items in place; texts, ticks and ranges are only touched when they change
        (each change makes pyqtgraph regenerate an axis or a text layout, the bulk of a redraw)."""
        self.vm = vm
        n = len(vm.strategies)
        x = np.arange(n, dtype=float)
        legend_changed = self.show_stacked_bars(self.bars, x, vm.segments)
        entries = self.marks.legend_entries(vm.fits) + self.line_entries(
            vm.capacity, vm.usable, vm.unit, (self.tr("capacity {0:,.1f} {1}"), self.tr("usable {0:,.1f} {1}")))
        legend_changed |= self.show_tail_legend(entries, legend_changed)
        if legend_changed:
            self._legend_columns = max(len(self.legend.items) - len(entries), len(entries))  # the marks on a row
            self.fit_legend()
        if vm.label_tops:
            self.marks.show(range(n), vm.peaks, vm.fits, vm.peak_texts, vm.sum_texts, vm.label_tops, vm.chosen)
        else:  # a view-model without the peaks: the sums alone
            self.marks.show(range(n), (None,) * n, (None,) * n, ("",) * n, [f"{t:,.1f}" for t in vm.totals], vm.totals,
                            vm.chosen)
        self._show_breaks(vm)
        self._fit_ticks()
        self.set_axis_label("left", self.tr("Memory per GPU ({0})").format(vm.unit))
        self._fit_range()

    def bar_count(self) -> int:
        vm = getattr(self, "vm", None)  # resized while being built
        return len(vm.strategies) if vm is not None else 0

    def _show_breaks(self, vm: StrategyBarsVM) -> None:
        xs: list[float] = []
        ys: list[float] = []
        half, top = BAR_WIDTH / 2 + 0.05, vm.clip_at or 0.0
        for i, cut in enumerate(vm.clipped if top else ()):
            if cut:
                for low, high in ((0.90, 0.93), (0.95, 0.98)):  # two strokes rising left to right, under the cut
                    xs += [i - half, i + half]
                    ys += [top * low, top * high]
        self.breaks.setData(xs, ys, connect="pairs")

    def _fit_ticks(self) -> None:
        """The strategies' names under their bars (``strategy_ticks``)."""
        vm = self.vm
        if vm is not None:
            self._ticks = strategy_ticks(self.plot, vm.short_labels, vm.chosen, self._compact, self._ticks)

    def fit_layout(self) -> None:
        self._fit_ticks()
        self._fit_range()

    def _fit_range(self) -> None:
        """The y range leaves the labels over the bars their height in pixels (layout, not numbers); a short plot
        shows the peak alone over each bar (the sum is in the hover text and the table)."""
        vm = getattr(self, "vm", None)  # resized while being built
        if vm is None:
            return
        n = len(vm.strategies)
        two_lines = self.plot.vb.height() >= TWO_LINES_PX
        slot = self.plot.vb.width() / max(n, 1) - 6
        changed = self.marks.fit_to(slot, vm.peak_texts, vm.sum_texts, vm.fits) if vm.label_tops else False
        if (two_lines != self.marks.two_lines or changed) and vm.label_tops:
            self.marks.two_lines = two_lines
            self.marks.show(range(n), vm.peaks, vm.fits, vm.peak_texts, vm.sum_texts, vm.label_tops, vm.chosen)
        top = top_for(vm.label_tops or vm.totals, vm.capacity, self.plot.vb.height(), self.marks.label_height())
        if (n, top) != self._range:
            self._range = (n, top)
            self.plot.setXRange(-0.6, n - 0.4, padding=0)
            self.plot.setYRange(0, top, padding=0)

    def _recolour(self, fg: str) -> None:
        super()._recolour(fg)
        marks = getattr(self, "marks", None)
        if marks is not None:
            marks.recolour(fg, self._bg)
            self.breaks.setPen(pg.mkPen(self._bg, width=3))
            vm = getattr(self, "vm", None)
            if vm is not None:
                self.show_bars(vm)

    def hover_text(self, x: float, y: float) -> str:
        if self.vm is None:
            return ""
        i = round(x)
        if not 0 <= i < len(self.vm.strategies) or abs(x - i) > BAR_WIDTH / 2:
            return ""
        for seg in self.vm.segments:
            if seg.heights[i] > 0 and seg.bottoms[i] <= y < seg.bottoms[i] + seg.heights[i]:
                return seg.tooltips[i]
        if self.vm.peak_tooltips and 0 <= y <= self.vm.label_tops[i] * 1.05:  # above the bar, up to its peak
            return f"{self.vm.strategies[i]}\n{self.vm.peak_tooltips[i]}"
        return ""


def strategy_ticks(plot: pg.PlotItem, short_labels: tuple[str, ...], chosen: int, compact: bool,
                   shown: tuple) -> tuple:
    """The strategies' names under their bars (the chosen one marked "▸"), broken onto more lines (then smaller)
    where a bar's slot is narrower than a line; the axis as tall as the lines. ``shown`` is what the last call
    returned: the same names in the same room are not laid out again (most edits). Shared by the memory and the
    time charts, whose bars are the same strategies."""
    axis = plot.getAxis("bottom")
    slot = plot.vb.width() / max(len(short_labels), 1) - 6
    key = (short_labels, chosen, round(slot), compact)
    if key == shown:
        return shown
    labels = [("▸ " if i == chosen else "") + s for i, s in enumerate(short_labels)]
    font = None if not compact else tick_font(COMPACT_TICK_PT)
    if slot > 0:
        wrapped = [wrap_words(s, slot, QFontMetricsF(font or QFont())) for s in labels]
        if max(text_width(s, QFontMetricsF(font or QFont())) for s in wrapped) > slot:  # a word is wider still
            font = tick_font(SMALL_TICK_PT)
            wrapped = [wrap_words(s, slot, QFontMetricsF(font)) for s in labels]
        labels = wrapped
    if font != axis.style["tickFont"]:
        axis.setTickFont(font)
    lines = max((s.count("\n") + 1 for s in labels), default=1)
    axis.setHeight(int(tick_metrics(axis).lineSpacing() * lines + 16))
    axis.setTicks([list(enumerate(labels))])
    return key


class SweepChart(ChartView):
    """Charts 2 and 3: a line per strategy against the number of GPUs on a log2 axis (1 ... 1024); the capacity and
    usable lines named in the legend (a label in the plot would stand on a curve); a note over an empty plot."""

    def __init__(self, title: str, y_label: str, log_y: bool = False, parent: QWidget | None = None,
                 x_label: str = "", point_text: str = "") -> None:
        """``x_label``, ``point_text``: the x axis and a point's hover heading ("{0:,} tokens"; the number of GPUs
        where empty)."""
        axes = {"left": PlainLogAxis("left")} if log_y else None
        super().__init__(title, x_label or self.tr("Number of GPUs (log₂ scale)"), y_label, parent, legend_columns=3,
                         axis_items=axes)
        self.point_text = point_text
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.log_y = log_y
        self.plot.setLogMode(x=False, y=log_y)
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.capacity_line = reference_line(CAPACITY_COLOUR, dashed=False, anchor_below=False)
        self.usable_line = reference_line(USABLE_COLOUR, dashed=True, anchor_below=True)
        self.current_line = pg.InfiniteLine(angle=90, movable=False,
                                            pen=pg.mkPen("#8c8c8c", width=1, style=Qt.PenStyle.DotLine))
        for line in (self.capacity_line, self.usable_line, self.current_line):
            self.plot.addItem(line, ignoreBounds=True)
        self.note = pg.TextItem(anchor=(0.5, 0.5))
        self.note.setZValue(60)
        self.plot.addItem(self.note, ignoreBounds=True)
        self.note.setVisible(False)
        self.vm: SweepVM | None = None
        self._x_ticks: tuple = ()
        self._recolour(self._fg)

    def show_sweep(self, vm: SweepVM, y_label: str) -> None:
        self.vm = vm
        x = np.log2(np.array(vm.counts, dtype=float))
        seen = set()
        legend_changed = False
        for series in vm.series:
            key = series.key or series.label  # a stable id: the curve survives a language change
            seen.add(key)
            y = np.array([np.nan if v is None else v for v in series.values], dtype=float)
            if self.log_y:
                y[~(y > 0)] = np.nan
            curve = self.curves.get(key)
            if curve is None:
                colour = series_colour(len(self.curves))
                style = Qt.PenStyle.DashLine if series.dashed else Qt.PenStyle.SolidLine
                curve = self.plot.plot([], [], pen=pg.mkPen(colour, width=2, style=style), symbol="o", symbolSize=6,
                                       symbolBrush=colour, symbolPen=None, connect="finite", name=None)
                self.curves[key] = curve
            if np.isnan(y).all():  # nothing to draw (e.g. no GPU limit at all): keep the legend entry only
                curve.setData([], [])
            else:
                curve.setData(x, y, connect="finite")
            curve.setVisible(True)
            label = self.legend.getLabel(curve)
            if label is None:
                self.legend.addItem(curve, series.label)
                legend_changed = True
            elif label.text != series.label:  # same curve, the label in another language
                label.setText(series.label, color=self._fg)
        for key, curve in self.curves.items():
            if key not in seen:
                curve.setVisible(False)
                if self.legend.getLabel(curve) is not None:
                    self.legend.removeItem(curve)
                    legend_changed = True
        entries = self.line_entries(vm.capacity, vm.usable, vm.unit, (self.tr("capacity {0:,.1f} {1}"),
                                                                      self.tr("usable {0:,.1f} {1}")), not self.log_y)
        self.show_tail_legend(entries, legend_changed)
        self.fit_legend()
        self.current_line.setValue(math.log2(max(vm.current, 1)))
        self.set_axis_label("left", y_label)
        finite = [v for s in vm.series for v in s.values if v is not None and v > 0]
        if self.log_y:
            if finite:
                self.plot.setYRange(math.log10(min(finite)) - 0.1, math.log10(max(finite)) + 0.1, padding=0)
            else:
                self.plot.setYRange(0, 2, padding=0)
        else:
            top = vm.y_top or max([*finite, vm.capacity or 0.0, 1e-9])
            self.plot.setYRange(0, top * 1.08, padding=0)
        note = vm.note  # the presenter's (why nothing fits: the core's answer), shown as it is
        self.note.setVisible(bool(note))
        if note and note != self.note.toPlainText():
            self.note.setText(note, color=self._fg)
        self.show_legend(not (note and not finite))  # nothing drawn: the note gets the legend's rows
        self.fit_layout()

    def fit_layout(self) -> None:
        """The x range padded so the first and last counts' texts stay inside the chart; every second count's text
        left out where they would touch; the note centred over the plot, wrapped to its width."""
        vm = getattr(self, "vm", None)
        if vm is None:
            return
        axis = self.plot.getAxis("bottom")
        metrics = tick_metrics(axis)
        texts = [f"{c:,}" for c in vm.counts]
        width = self.plot.vb.width()
        first = math.log2(vm.counts[0])  # 0 for GPU counts from 1; 8 for contexts from 256 tokens
        span = math.log2(vm.counts[-1]) - first
        half = max(metrics.horizontalAdvance(texts[0]), metrics.horizontalAdvance(texts[-1])) / 2
        pad = edge_padding(span, width, half, 0.3) if width > 0 else 0.3
        shown = thinned(texts, width / (span + 2 * pad), metrics) if width > 0 else texts
        ticks = (tuple((math.log2(c), t) for c, t in zip(vm.counts, shown, strict=True)), pad)
        if ticks != self._x_ticks:
            self._x_ticks = ticks
            axis.setTicks([list(ticks[0])])
            self.plot.setXRange(first - pad, first + span + pad, padding=0)
        if self.note.isVisible():
            self.note.setTextWidth(max(120.0, width * 0.8))
            (x0, x1), (y0, y1) = self.plot.vb.viewRange()
            self.note.setPos((x0 + x1) / 2, (y0 + y1) / 2)

    def _recolour(self, fg: str) -> None:
        super()._recolour(fg)
        note = getattr(self, "note", None)
        if note is not None:  # on a box of the background: readable over the grid
            fill = QColor(self._bg)
            fill.setAlpha(235)
            note.fill = pg.mkBrush(fill)
            note.border = pg.mkPen(fg)
            note.setColor(fg)

    def hover_text(self, x: float, y: float) -> str:
        if self.vm is None:
            return ""
        at = x - math.log2(self.vm.counts[0])  # the counts are powers of two from the first, one a unit
        i = round(at)
        if not 0 <= i < len(self.vm.counts) or abs(at - i) > 0.35:
            return ""
        lines = [(self.point_text or self.tr("{0:,} GPUs")).format(self.vm.counts[i])]
        for series in self.vm.series:
            value = series.values[i]
            shown = "—" if value is None else f"{value:,.2f} {self.vm.unit}"
            lines.append(f"{series.label}: {shown}")
        if i < len(self.vm.point_notes) and self.vm.point_notes[i]:
            lines.append(self.vm.point_notes[i])
        return "\n".join(lines)
