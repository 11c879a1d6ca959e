"""The three live charts (pyqtgraph). Plot items are created once and updated with ``setData``/``setOpts``.

Each chart is a ``GraphicsLayoutWidget`` (``vramgui.views.chart_frame.ChartView``): a title row, the plot with its
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
from PySide6.QtWidgets import QWidget

from vramgui.presenters.view_models import StrategyBarsVM, SweepVM
from vramgui.views.chart_frame import (  # noqa: F401 - ChartView and the helpers are re-exported
    BAR_WIDTH,
    CAPACITY_COLOUR,
    EXPORT_BG,
    EXPORT_FG,
    USABLE_COLOUR,
    ChartView,
    PlainLogAxis,
    nice_ceiling,
    reference_line,
)
from vramgui.views.peak_marks import PeakMarks, top_for
from vramgui.views.theme import series_colour


class StrategyChart(ChartView):
    """Chart 1: a stacked bar per strategy, stacked by component (the sum); its step peak marked on each bar (what
    decides the fit: red with a ✕ above the usable memory); capacity and usable lines."""

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
        # the lines are named in the legend (samples with their pens): a label in the plot would stand on a bar's
        self.line_keys = {line: pg.PlotDataItem(pen=line.pen) for line in (self.capacity_line, self.usable_line)}
        self.vm: StrategyBarsVM | None = None
        self._ticks: list = []
        self._range: tuple = ()
        self._peak_legend: list = []
        self._recolour(self._fg)

    def show_bars(self, vm: StrategyBarsVM) -> None:
        """Update the existing items in place; texts, ticks and ranges are only touched when they change
        (each change makes pyqtgraph regenerate an axis or a text layout, the bulk of a redraw)."""
        self.vm = vm
        n = len(vm.strategies)
        x = np.arange(n, dtype=float)
        legend_changed = self.show_stacked_bars(self.bars, x, vm.segments)
        legend_changed |= self._show_mark_legend(vm, legend_changed)
        if legend_changed:
            self.fit_legend()
        if vm.label_tops:
            self.marks.show(range(n), vm.peaks, vm.fits, vm.peak_texts, vm.sum_texts, vm.label_tops, vm.chosen)
        else:  # a view-model without the peaks: the sums alone
            self.marks.show(range(n), (None,) * n, (None,) * n, ("",) * n, [f"{t:,.1f}" for t in vm.totals], vm.totals,
                            vm.chosen)
        ticks = [(i, ("▸ " if i == vm.chosen else "") + s) for i, s in enumerate(vm.short_labels)]
        if ticks != self._ticks:
            self._ticks = ticks
            self.plot.getAxis("bottom").setTicks([ticks])
        self.set_axis_label("left", self.tr("Memory per GPU ({0})").format(vm.unit))
        self._fit_range()

    def _show_mark_legend(self, vm: StrategyBarsVM, rebuild: bool) -> bool:
        """The peak's and the lines' legend entries, after the components' (re-added when those change); True if
        the legend changed."""
        entries = self.marks.legend_entries(vm.fits)
        for line, value, fmt in ((self.capacity_line, vm.capacity, self.tr("capacity {0:,.1f} {1}")),
                                 (self.usable_line, vm.usable, self.tr("usable {0:,.1f} {1}"))):
            line.label.setVisible(False)
            line.setVisible(value is not None)
            if value is not None:
                line.setValue(value)
                entries.append((self.line_keys[line], fmt.format(value, vm.unit)))
        if not rebuild and entries == self._peak_legend:
            return False
        for item, _ in self._peak_legend:
            if self.legend.getLabel(item) is not None:
                self.legend.removeItem(item)
        for item, text in entries:
            self.legend.addItem(item, text)
        self._peak_legend = entries
        self._legend_columns = max(len(self.legend.items) - len(entries), len(entries))  # the marks on a row
        return True

    def _fit_range(self) -> None:
        """The y range leaves the labels over the bars their height in pixels (layout, not numbers)."""
        vm = getattr(self, "vm", None)  # resized while being built
        if vm is None:
            return
        n = len(vm.strategies)
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


class SweepChart(ChartView):
    """Charts 2 and 3: a line per strategy against the number of GPUs on a log2 axis (1 ... 1024)."""

    def __init__(self, title: str, y_label: str, log_y: bool = False, parent: QWidget | None = None) -> None:
        axes = {"left": PlainLogAxis("left")} if log_y else None
        super().__init__(title, self.tr("Number of GPUs (log₂ scale)"), y_label, parent, legend_columns=3,
                         axis_items=axes)
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
        self._recolour(self._fg)

    def show_sweep(self, vm: SweepVM, y_label: str) -> None:
        self.vm = vm
        x = np.log2(np.array(vm.counts, dtype=float))
        seen = set()
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
            elif label.text != series.label:  # same curve, the label in another language
                label.setText(series.label, color=self._fg)
        for key, curve in self.curves.items():
            if key not in seen:
                curve.setVisible(False)
                if self.legend.getLabel(curve) is not None:
                    self.legend.removeItem(curve)
        self.fit_legend()
        self.plot.getAxis("bottom").setTicks([[(math.log2(c), f"{c:,}") for c in vm.counts]])
        for line, value, fmt in ((self.capacity_line, vm.capacity, self.tr("capacity {0:,.1f} {1}")),
                                 (self.usable_line, vm.usable, self.tr("usable {0:,.1f} {1}"))):
            if value is None or self.log_y:
                line.setVisible(False)
            else:
                line.setValue(value)
                line.label.setFormat(fmt.format(value, vm.unit))
                line.setVisible(True)
        self.current_line.setValue(math.log2(max(vm.current, 1)))

        self.set_axis_label("left", y_label)
        self.plot.setXRange(-0.3, math.log2(vm.counts[-1]) + 0.3, padding=0)
        finite = [v for s in vm.series for v in s.values if v is not None and v > 0]
        if self.log_y:
            if finite:
                self.plot.setYRange(math.log10(min(finite)) - 0.1, math.log10(max(finite)) + 0.1, padding=0)
            else:
                self.plot.setYRange(0, 2, padding=0)
        else:
            top = max([*finite, vm.capacity or 0.0, 1e-9])
            self.plot.setYRange(0, top * 1.08, padding=0)
        self.note.setVisible(bool(vm.note))
        if vm.note:
            self.note.setText(vm.note, color=self._fg)
            (x0, x1), (y0, y1) = self.plot.vb.viewRange()
            self.note.setPos((x0 + x1) / 2, (y0 + y1) / 2)

    def hover_text(self, x: float, y: float) -> str:
        if self.vm is None:
            return ""
        i = round(x)
        if not 0 <= i < len(self.vm.counts) or abs(x - i) > 0.35:
            return ""
        lines = [self.tr("{0:,} GPUs").format(self.vm.counts[i])]
        for series in self.vm.series:
            value = series.values[i]
            shown = "—" if value is None else f"{value:,.2f} {self.vm.unit}"
            lines.append(f"{series.label}: {shown}")
        return "\n".join(lines)
