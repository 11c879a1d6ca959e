"""The "Plans" chart: every plan the fastest-plan search estimated, its step peak per GPU against its step time.

Plans that fit are blue dots, plans that do not are red crosses (a peak above the axis, red triangles at its top),
the fastest plan that fits a star with its time beside it; the capacity and usable lines as on the memory charts. The
step time is on a log axis (the fastest plans, the ones worth reading, would otherwise crowd at its left edge). A
point's hover text says its plan, peak and time; a click reports its index (``plan_clicked``). Items are created once
and updated with ``setData``; every number arrives in a ``PlanChartVM``.
"""

from __future__ import annotations

import math

from PySide6 import QtCore  # noqa: F401  (PySide6 before pyqtgraph, so pyqtgraph binds to it)

# isort: split
# (the import above must stay first: sorting would put pyqtgraph before PySide6)
import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QWidget

from vramgui.presenters.plan_models import PlanChartVM
from vramgui.views.charts.frame import CAPACITY_COLOUR, USABLE_COLOUR, ChartView, PlainLogAxis, reference_line

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

FITS_COLOUR, CHOSEN_COLOUR = "#0072B2", "#E69F00"
HIT_PX = 8  # a hover or a click this close to a point is on it
X_PAD = 0.05  # of the log range, each side


def _symbols(symbol: str, colour: str, size: int, alpha: int) -> pg.PlotDataItem:
    fill = QColor(colour)
    fill.setAlpha(alpha)
    return pg.PlotDataItem([], [], pen=None, symbol=symbol, symbolSize=size, symbolBrush=pg.mkBrush(fill),
                           symbolPen=None)


class PlanChart(ChartView):
    plan_clicked = Signal(int)  # the index of the point clicked (into the view-model's tuples)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(translate("PlanChart", "Plans searched: step peak against step time"),
                         translate("PlanChart", "Step time, seconds (log scale)"),
                         translate("PlanChart", "Step peak per GPU (GB)"), parent, legend_columns=5,
                         axis_items={"bottom": PlainLogAxis("bottom")})
        self.plot.setLogMode(x=True, y=False)
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.capacity_line = reference_line(CAPACITY_COLOUR, dashed=False, anchor_below=False)
        self.usable_line = reference_line(USABLE_COLOUR, dashed=True, anchor_below=True)
        self.over = _symbols("x", CAPACITY_COLOUR, 8, 150)
        self.clipped = _symbols("t1", CAPACITY_COLOUR, 8, 150)  # above the axis: at its top, pointing up
        self.fits = _symbols("o", FITS_COLOUR, 7, 170)
        self.chosen = pg.PlotDataItem([], [], pen=None, symbol="star", symbolSize=20,
                                      symbolBrush=pg.mkBrush(CHOSEN_COLOUR), symbolPen=pg.mkPen(self._fg, width=1.2))
        for z, item in enumerate((self.over, self.clipped, self.fits, self.chosen)):
            item.setZValue(10 + z)
            self.plot.addItem(item)
        for line in (self.capacity_line, self.usable_line):
            self.plot.addItem(line, ignoreBounds=True)
        self.chosen_label = pg.TextItem(anchor=(-0.12, 0.5))
        self.chosen_label.setZValue(55)
        self.note = pg.TextItem(anchor=(0.5, 0.5))
        self.note.setZValue(60)
        for text in (self.chosen_label, self.note):
            self.plot.addItem(text, ignoreBounds=True)
            text.setVisible(False)
        self.vm: PlanChartVM | None = None
        self._xy: tuple[np.ndarray, np.ndarray] = (np.zeros(0), np.zeros(0))  # log10 seconds, peak: hit tests
        self._legend_texts: tuple = ()
        self._window_stale = self._plans_stale = False
        self.scene().sigMouseClicked.connect(self._clicked)
        self._recolour(self._fg)

    def show_plans(self, vm: PlanChartVM | None) -> None:
        """Update the items in place; the legend and ranges only where they changed."""
        self.vm = vm
        seconds = np.array(vm.seconds if vm else (), dtype=float)
        peaks = np.array(vm.peaks if vm else (), dtype=float)
        fits = np.array(vm.fits if vm else (), dtype=bool)
        cut = np.array(vm.clipped if vm else (), dtype=bool)
        self._xy = (np.log10(seconds) if len(seconds) else seconds, peaks)
        for item, mask in ((self.fits, fits), (self.over, ~fits & ~cut), (self.clipped, ~fits & cut)):
            item.setData(seconds[mask], peaks[mask]) if mask.any() else item.setData([], [])
        chosen = vm.chosen if vm else -1
        if chosen >= 0:
            self.chosen.setData([seconds[chosen]], [peaks[chosen]])
        else:
            self.chosen.setData([], [])
        self.chosen_label.setVisible(chosen >= 0)
        if vm is not None and chosen >= 0:
            self.chosen_label.setHtml(f"<b style='color:{self._fg}'>▸ {vm.chosen_label}</b>")
        if vm is not None:
            self._show_legend_of(vm)
            self.set_subtitle(vm.title)
            self.set_axis_label("left", vm.y_label)
        note = vm.note if vm else ""
        self.note.setVisible(bool(note))
        if note and note != self.note.toPlainText():
            self.note.setText(note, color=self._fg)
        self.show_legend(vm is not None and bool(vm.seconds))
        self.fit_layout()

    def _show_legend_of(self, vm: PlanChartVM) -> None:
        entries = [(self.fits, vm.legend[0]), (self.over, vm.legend[1]), (self.chosen, vm.legend[2])]
        lines = self.line_entries(vm.capacity, vm.usable, vm.unit, (translate("PlanChart", "capacity {0:,.1f} {1}"),
                                                                   translate("PlanChart", "usable {0:,.1f} {1}")))
        texts = tuple(text for _, text in entries)
        changed = texts != self._legend_texts
        if changed:
            self._legend_texts = texts
            for item, _ in entries:
                if self.legend.getLabel(item) is not None:
                    self.legend.removeItem(item)
            for item, text in entries:
                self.legend.addItem(item, text)
        if self.show_tail_legend(lines, changed) or changed:
            self.fit_legend()

    def fit_layout(self) -> None:
        """The x range a little wider than the points (log), the y range from 0 to the view-model's top; the
        chosen plan's label on the side of its point with more room; the note centred and wrapped."""
        vm = getattr(self, "vm", None)  # resized while being built
        if vm is None:
            return
        logs = self._xy[0]
        lo, hi = (float(logs.min()), float(logs.max())) if len(logs) else (0.0, 1.0)
        pad = max((hi - lo) * X_PAD, 0.05)
        start = min(lo, _tick_below(lo)) - pad / 2  # a labelled tick near the left end: where the times start
        self.plot.setXRange(start, hi + pad, padding=0)
        self.plot.setYRange(0, vm.y_top * 1.03, padding=0)
        if vm.chosen >= 0:
            x, y = float(self._xy[0][vm.chosen]), float(self._xy[1][vm.chosen])
            right = x <= start + (hi + pad - start) * 0.6
            self.chosen_label.setAnchor((-0.12, 0.5) if right else (1.12, 0.5))
            self.chosen_label.setPos(x, y)
        if self.note.isVisible():
            self.note.setTextWidth(max(120.0, self.plot.vb.width() * 0.8))
            (x0, x1), (y0, y1) = self.plot.vb.viewRange()
            self.note.setPos((x0 + x1) / 2, (y0 + y1) / 2)

    def _recolour(self, fg: str) -> None:
        super()._recolour(fg)
        note = getattr(self, "note", None)
        if note is None:
            return
        fill = QColor(self._bg)
        fill.setAlpha(235)
        note.fill = pg.mkBrush(fill)
        note.border = pg.mkPen(fg)
        note.setColor(fg)
        self.chosen_label.fill = pg.mkBrush(fill)
        self.chosen.setSymbolPen(pg.mkPen(fg, width=1.2))
        if self.vm is not None and self.vm.chosen >= 0:
            self.chosen_label.setHtml(f"<b style='color:{fg}'>▸ {self.vm.chosen_label}</b>")

    # ----- stale: the window's reason (invalid input) or the search's (an answer for another scenario)
    def set_stale(self, stale: bool) -> None:
        self._window_stale = stale
        super().set_stale(stale or self._plans_stale)

    def set_plans_stale(self, stale: bool) -> None:
        self._plans_stale = stale
        super().set_stale(stale or self._window_stale)

    # ----- hover and click
    def point_at(self, x: float, y: float) -> int:
        """The index of the point nearest (``x``, ``y``) in view coordinates (log10 seconds, peak), within
        ``HIT_PX`` pixels; -1 if none (pixels: hit testing, not arithmetic on the numbers)."""
        logs, peaks = self._xy
        if not len(logs):
            return -1
        (x0, x1), (y0, y1) = self.plot.vb.viewRange()
        sx = self.plot.vb.width() / max(x1 - x0, 1e-12)
        sy = self.plot.vb.height() / max(y1 - y0, 1e-12)
        d2 = ((logs - x) * sx) ** 2 + ((peaks - y) * sy) ** 2
        if self.vm is not None and self.vm.chosen >= 0:
            d2[self.vm.chosen] -= (HIT_PX / 2) ** 2  # the star is larger: it wins a tie with a dot under it
        i = int(np.argmin(d2))
        return i if d2[i] <= HIT_PX**2 else -1

    def hover_text(self, x: float, y: float) -> str:
        i = self.point_at(x, y)
        self.setCursor(Qt.CursorShape.PointingHandCursor if i >= 0 else Qt.CursorShape.ArrowCursor)
        return "" if i < 0 or self.vm is None else self.vm.tooltips[i]

    def _clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton or not self.plot.sceneBoundingRect().contains(event.scenePos()):
            return
        point = self.plot.vb.mapSceneToView(event.scenePos())
        i = self.point_at(point.x(), point.y())
        if i >= 0:
            self.plan_clicked.emit(i)

    # ----- export: what was searched, above the scenario's caption
    def render_image(self, width: int, caption: str) -> QImage:
        summary = self.vm.summary.replace(" · ", " ·\u00a0") if self.vm is not None else ""  # one caption part
        return super().render_image(width, f"{summary} · {caption}" if summary else caption)


def _tick_below(log_value: float) -> float:
    """The log of the 1-2-5 value at or below 10**``log_value`` (the axis' left end, so its first tick is labelled)."""
    decade = math.floor(log_value)
    steps = [decade + math.log10(s) for s in (1, 2, 5)]
    return max(v for v in steps if v <= log_value + 1e-9)
