"""The "One training step" chart: live memory per GPU through the moments of a first and a steady step.

A stacked bar per moment (the components in ``vramgui.core.step.peak.PEAK_KEYS`` order, coloured as on the strategy
chart), the two steps side by side under their names, the capacity and usable lines, and the bar that sets the peak
marked with its bytes. Built on the shared frame (``chart_frame.ChartView``: title, legend, theme, PNG export with
the caption); plot items are created once and updated in place. Every number arrives in a ``StepChartVM``.
"""

from __future__ import annotations

import itertools
import math

from PySide6 import QtCore  # noqa: F401  (PySide6 before pyqtgraph, so pyqtgraph binds to it)

# isort: split
# (the import above must stay first: sorting would put pyqtgraph before PySide6)
import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF
from PySide6.QtWidgets import QWidget

from vramgui.presenters.view_models import StepChartVM
from vramgui.views.charts.frame import (
    BAR_WIDTH,
    CAPACITY_COLOUR,
    USABLE_COLOUR,
    ChartView,
    nice_ceiling,
    reference_line,
)
from vramgui.views.charts.layout import text_width, tick_font, tick_metrics, wrap_words
from vramgui.views.charts.modes import COMPACT_TICK_PT
from vramgui.views.charts.panels import SMALL_TICK_PT
from vramgui.views.charts.peak_marks import SMALL_PT

HEADROOM = 1.4  # room above the tallest bar for the peak's label
LABEL_PAD_PX = 10  # a bar's label box: its text, the box's margins and a gap to the next


class StepChart(ChartView):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Memory per GPU through one training step"), "", self.tr("Memory per GPU (GB)"),
                         parent, legend_columns=4)
        self.plot.showGrid(x=False, y=True, alpha=0.25)
        self.bars: dict[str, pg.BarGraphItem] = {}
        self.total_labels: list[pg.TextItem] = []
        self.separators: list[pg.InfiniteLine] = []
        self.capacity_line = reference_line(CAPACITY_COLOUR, dashed=False, anchor_below=False)
        self.usable_line = reference_line(USABLE_COLOUR, dashed=True, anchor_below=True)
        self.plot.addItem(self.capacity_line, ignoreBounds=True)
        self.plot.addItem(self.usable_line, ignoreBounds=True)
        self.peak_marker = pg.ScatterPlotItem(symbol="t", size=13, pen=pg.mkPen("#ffffff", width=1),
                                              brush=pg.mkBrush(CAPACITY_COLOUR))
        self.peak_marker.setZValue(45)
        self.plot.addItem(self.peak_marker, ignoreBounds=True)
        self.peak_label = pg.TextItem(anchor=(0.5, 1.25))
        self.peak_label.setZValue(55)  # over the capacity and usable lines (50)
        font = self.peak_label.textItem.font()
        font.setBold(True)
        self.peak_label.setFont(font)
        self.plot.addItem(self.peak_label, ignoreBounds=True)
        self.vm: StepChartVM | None = None
        self._ticks: list = []
        self._span: tuple = ()
        self._top = 0.0
        self._labels_fit: tuple = (0.0, True, 0)  # the bars' labels: their size, and whether they are shown
        self._near = 0  # the bars each side of the peak whose labels its own would cover: theirs hidden
        self._recolour(self._fg)

    def bar_count(self) -> int:
        vm = getattr(self, "vm", None)  # resized while being built
        return len(vm.x) if vm is not None else 0

    def show_step(self, vm: StepChartVM) -> None:
        self.vm = vm
        x = np.array(vm.x, dtype=float)
        legend_changed = self.show_stacked_bars(self.bars, x, vm.segments)
        entries = self.line_entries(vm.capacity, vm.usable, vm.unit, (self.tr("capacity {0:,.1f} {1}"),
                                                                      self.tr("usable {0:,.1f} {1}")))
        if self.show_tail_legend(entries, legend_changed):
            self.fit_legend()
        self._show_totals(vm)
        self.peak_marker.setData([vm.x[vm.peak]], [vm.totals[vm.peak]])
        if self.peak_label.toPlainText() != vm.peak_text:
            self.peak_label.setText(vm.peak_text, color=self._fg)
        self.peak_label.setPos(vm.x[vm.peak], vm.totals[vm.peak])
        self._show_ticks(vm)
        self.set_axis_label("left", self.tr("Memory per GPU ({0})").format(vm.unit))
        self._fit_labels(vm)
        self._fit_range()
        self._show_separators(vm)

    def _fit_range(self) -> None:
        """The y range leaves the peak's label its height in pixels above the tallest bar (layout, not numbers)."""
        vm = getattr(self, "vm", None)  # resized while being built
        if vm is None:
            return
        peak = max(vm.totals, default=0.0)
        need, need_line = HEADROOM, 1.08
        height = self.plot.vb.height()
        if height > 0:
            label = max(self.peak_label.boundingRect().height(), 2.2 * QFontMetricsF(QFont()).lineSpacing()) * 1.3 + 16
            need = max(need, 1.0 / max(0.2, 1.0 - label / height))
        top = nice_ceiling(max([peak * need, (vm.capacity or 0.0) * need_line, 1e-9]))
        if top != self._top:
            self._top = top
            self.plot.setYRange(0, top, padding=0)
        tall = height <= 0 or self.peak_label.textItem.boundingRect().height() * 2 <= height
        self.peak_label.setVisible(tall)  # a plot too short for the label over the bar: the marker alone

    def fit_layout(self) -> None:
        vm = getattr(self, "vm", None)  # resized while being built
        if vm is not None:
            self._show_ticks(vm)
            self._fit_labels(vm)
            self._fit_range()

    def _fit_labels(self, vm: StepChartVM) -> None:
        """The bars' labels smaller where the bars stand closer than their texts are wide (none but the peak's
        where even that does not fit); the peak's label anchored at the plot's side it would reach past, and the
        labels it would cover hidden (pixels, not numbers: the hover text gives every bar's bytes)."""
        width, span = self.plot.vb.width(), vm.span[1] - vm.span[0]
        if width <= 0 or span <= 0:
            return
        slot = width * min((b - a for a, b in itertools.pairwise(vm.x)), default=span) / span
        font = QFont()
        widest = max((QFontMetricsF(font).horizontalAdvance(t) + LABEL_PAD_PX for t in vm.total_texts), default=0.0)
        if widest > slot:
            font.setPointSizeF(SMALL_PT)
            widest = max((QFontMetricsF(font).horizontalAdvance(t) + LABEL_PAD_PX for t in vm.total_texts),
                         default=0.0)
        shown = widest <= slot  # still wider than a bar's room: the peak's label alone (the hover gives the rest)
        label = self.peak_label.boundingRect().width() + LABEL_PAD_PX  # the peak's label over its neighbours:
        px = (vm.x[vm.peak] - vm.span[0]) / span * width  # centred, or anchored at the plot's side it would pass
        side = 1.0 if px + label * 0.7 > width else 0.0 if px < label * 0.7 else 0.5
        if self.peak_label.anchor.x() != side:
            self.peak_label.setAnchor((side, 1.25))
        reach = label * (0.5 if side == 0.5 else 1.0)
        self._near = math.ceil(reach / max(slot, 1.0) - 0.5)  # the bars whose labels it would cover: theirs aside
        if (font.pointSizeF(), shown, self._near) != self._labels_fit:
            self._labels_fit = (font.pointSizeF(), shown, self._near)
            for label in self.total_labels:
                label.setFont(font)
            self._show_totals(vm)
        if vm.span != self._span:
            self._span = vm.span
            self.plot.setXRange(*vm.span, padding=0)

    def _show_ticks(self, vm: StepChartVM) -> None:
        """The moments' short names under their bars (broken onto more lines where a bar's slot is narrower) and,
        a line below the longest, each step's name under the middle of its bars (ticks of the same level: pyqtgraph
        drops a crowded second level)."""
        axis = self.plot.getAxis("bottom")
        width, span = self.plot.vb.width(), vm.span[1] - vm.span[0]
        slot = width * min((b - a for a, b in itertools.pairwise(vm.x)), default=span) / span - 6
        font = tick_font(COMPACT_TICK_PT) if self._compact else None
        labels = list(vm.short_labels)
        for points in ((COMPACT_TICK_PT if self._compact else None), SMALL_TICK_PT):  # a word wider than its slot:
            font = tick_font(points) if points else None  # the texts smaller (as under the strategy chart's bars)
            metrics = QFontMetricsF(font or QFont())
            labels = [wrap_words(s, slot, metrics) if width > 0 and slot > 0 else s for s in vm.short_labels]
            if max((text_width(s, metrics) for s in labels), default=0.0) <= slot:
                break
        else:  # a word wider than its slot even then: every second moment named (all of them in the hover text)
            labels = [s if i % 2 == vm.peak % 2 else "" for i, s in enumerate(labels)]
        if font != axis.style["tickFont"]:
            axis.setTickFont(font)
            self._ticks = []
        metrics = tick_metrics(axis)
        lines = max((label.count("\n") + 1 for label in labels), default=1)
        ticks = list(zip(vm.x, labels, strict=True))
        ticks += [(middle, "\n" * lines + f"— {name} —") for name, middle in vm.groups]
        if ticks != self._ticks:
            self._ticks = ticks
            axis.setStyle(tickLength=0)  # categories: no tick marks (one would stand under each step's name)
            axis.setTicks([ticks])
            axis.setHeight(int(metrics.lineSpacing() * (lines + 1) + 14))

    def _show_totals(self, vm: StepChartVM) -> None:
        while len(self.total_labels) < len(vm.x):
            label = pg.TextItem(anchor=(0.5, 1.0), color=self._fg, fill=self._label_fill())
            label.setZValue(55)  # over the capacity and usable lines (50), on a box: no line strikes it through
            self.plot.addItem(label, ignoreBounds=True)
            self.total_labels.append(label)
        every = self._labels_fit[1]
        for i, label in enumerate(self.total_labels):
            # the peak's own label says its bytes; its neighbours' stand aside where bars are closer than it is wide
            shown = every and i < len(vm.x) and i != vm.peak and abs(i - vm.peak) > self._near
            label.setVisible(shown)
            if shown:
                if label.toPlainText() != vm.total_texts[i]:
                    label.setText(vm.total_texts[i], color=self._fg)
                label.setPos(vm.x[i], vm.totals[i])

    def _show_separators(self, vm: StepChartVM) -> None:
        """A dotted line between the first step and the steady state."""
        while len(self.separators) < len(vm.separators):
            line = pg.InfiniteLine(angle=90, movable=False,
                                   pen=pg.mkPen("#8c8c8c", width=1, style=Qt.PenStyle.DotLine))
            self.plot.addItem(line, ignoreBounds=True)
            self.separators.append(line)
        for i, line in enumerate(self.separators):
            line.setVisible(i < len(vm.separators))
            if i < len(vm.separators):
                line.setValue(vm.separators[i])

    def _label_fill(self):
        return pg.mkBrush(QColor(self._bg))  # opaque: a line behind a label stops at its box

    def _recolour(self, fg: str) -> None:
        super()._recolour(fg)
        peak = getattr(self, "peak_label", None)
        for label in (*getattr(self, "total_labels", []), *([peak] if peak is not None else [])):
            label.fill = self._label_fill()  # on a box of the background: the reference lines pass behind it
            label.setColor(fg)
            label.update()

    def hover_text(self, x: float, y: float) -> str:
        if self.vm is None:
            return ""
        for i, xi in enumerate(self.vm.x):
            if abs(x - xi) <= BAR_WIDTH / 2:
                for seg in self.vm.segments:
                    if seg.heights[i] > 0 and seg.bottoms[i] <= y < seg.bottoms[i] + seg.heights[i]:
                        return seg.tooltips[i]
        return ""
