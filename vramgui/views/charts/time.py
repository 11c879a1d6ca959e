"""The "Time and cost" chart: the time of one training step per strategy, stacked by part, each bar's step peak beside
its time.

The bars are the memory chart's strategies in the same order; each stacks the exposed seconds of compute,
recomputation, communication, the pipeline bubble, the optimizer and offload (``vramgui.core.time``). Over each bar
its time and, under it, its step peak per GPU; a strategy whose peak does not fit is marked red with a "✕" (the
peak marks' labels, ``chart_peak_marks.PeakMarks``, without their dashes: the y axis is seconds). The names under
the bars are laid out as on the memory chart (``panels.strategy_ticks``). Every number arrives in a ``TimeBarsVM``.
"""

from __future__ import annotations

from PySide6 import QtCore  # noqa: F401  (PySide6 before pyqtgraph, so pyqtgraph binds to it)

# isort: split
# (the import above must stay first: sorting would put pyqtgraph before PySide6)
import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QWidget

from vramgui.presenters.view_models import TimeBarsVM
from vramgui.views.charts.frame import BAR_WIDTH, ChartView
from vramgui.views.charts.panels import TWO_LINES_PX, strategy_ticks
from vramgui.views.charts.peak_marks import PeakMarks, top_for


class TimeChart(ChartView):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Time per training step by strategy"), "", self.tr("Time per step (s)"), parent,
                         legend_columns=5)
        self.plot.getAxis("bottom").setHeight(48)
        self.bars: dict[str, pg.BarGraphItem] = {}
        self.marks = PeakMarks(self.plot, BAR_WIDTH / 2)
        self.note = pg.TextItem(anchor=(0.5, 0.5))
        self.note.setZValue(60)
        self.plot.addItem(self.note, ignoreBounds=True)
        self.note.setVisible(False)
        self.vm: TimeBarsVM | None = None
        self._ticks: tuple = ()
        self._range: tuple = ()
        self._recolour(self._fg)

    def bar_count(self) -> int:
        vm = getattr(self, "vm", None)  # resized while being built
        return len(vm.strategies) if vm is not None else 0

    def show_time(self, vm: TimeBarsVM) -> None:
        """Update the items in place (created once); texts, ticks and ranges only where they changed."""
        self.vm = vm
        n = len(vm.strategies)
        legend_changed = self.show_stacked_bars(self.bars, np.arange(n, dtype=float), vm.segments)
        entries = self.marks.legend_entries(vm.fits)[1:]  # "✕ does not fit" while a bar's peak does not
        if self.show_tail_legend(entries, legend_changed) or legend_changed:
            self.fit_legend()
        self._show_labels()
        self.set_axis_label("left", vm.axis_label)
        self.note.setVisible(bool(vm.note))
        if vm.note and vm.note != self.note.toPlainText():
            self.note.setText(vm.note, color=self._fg)
        self.show_legend(bool(vm.segments))  # nothing drawn: the note gets the legend's rows
        self.fit_layout()

    def _show_labels(self) -> None:
        vm = self.vm
        if vm is None:
            return
        n = len(vm.strategies)
        self.marks.show(range(n), (None,) * n, vm.fits, vm.time_texts, vm.peak_texts, vm.totals, vm.chosen)

    def fit_layout(self) -> None:
        """Ticks as on the memory chart; the y range leaves the labels over the bars their height in pixels; a
        short plot, or bars too close for the peak's line, show the time alone over each bar (the peak is in the
        hover text); the note centred."""
        vm = getattr(self, "vm", None)  # resized while being built
        if vm is None:
            return
        self._ticks = strategy_ticks(self.plot, vm.short_labels, vm.chosen, self._compact, self._ticks)
        n = len(vm.strategies)
        width, height = self.plot.vb.width(), self.plot.vb.height()
        slot = width / max(n, 1) - 6
        two_lines = height >= TWO_LINES_PX
        changed = self.marks.fit_to(slot, vm.time_texts, vm.peak_texts if two_lines else ("",) * n, vm.fits)
        if two_lines and self.marks.split:  # the peak is wider than a bar's slot even in small type: the time alone
            two_lines = False
            changed = self.marks.fit_to(slot, vm.time_texts, ("",) * n, vm.fits) or changed
        if two_lines != self.marks.two_lines or changed:
            self.marks.two_lines = two_lines
            self._show_labels()
        top = top_for(vm.totals, None, height, self.marks.label_height()) if any(vm.totals) else 1.0
        if (n, top) != self._range:
            self._range = (n, top)
            self.plot.setXRange(-0.6, max(n, 1) - 0.4, padding=0)
            self.plot.setYRange(0, top, padding=0)
        if self.note.isVisible():
            self.note.setTextWidth(max(120.0, width * 0.8))
            (x0, x1), (y0, y1) = self.plot.vb.viewRange()
            self.note.setPos((x0 + x1) / 2, (y0 + y1) / 2)

    def _recolour(self, fg: str) -> None:
        super()._recolour(fg)
        marks = getattr(self, "marks", None)
        if marks is not None:
            marks.recolour(fg, self._bg)
            self._show_labels()
        note = getattr(self, "note", None)
        if note is not None:  # on a box of the background, like the largest-model chart's note
            fill = QColor(self._bg)
            fill.setAlpha(235)
            note.fill = pg.mkBrush(fill)
            note.border = pg.mkPen(fg)
            note.setColor(fg)

    def hover_text(self, x: float, y: float) -> str:
        vm = self.vm
        if vm is None:
            return ""
        i = round(x)
        if not 0 <= i < len(vm.strategies) or abs(x - i) > BAR_WIDTH / 2:
            return ""
        for seg in vm.segments:
            if seg.heights[i] > 0 and seg.bottoms[i] <= y < seg.bottoms[i] + seg.heights[i]:
                return seg.tooltips[i]
        top = self.plot.vb.viewRange()[1][1]
        if vm.bar_tooltips and vm.totals[i] <= y <= top:  # over the bar: its label
            return vm.bar_tooltips[i]
        return ""
