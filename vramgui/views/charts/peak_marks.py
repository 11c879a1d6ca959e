"""The step peak marked on stacked bars (the "By strategy" and "Compare" charts).

The bars stack the per-GPU sum of components (the conventions' figure); what decides the fit is the peak of one
training step (``vramgui.core.step.peak``). Each bar gets a thick dash at its peak, slightly wider than the bar, in the
text colour (dark on the light theme and in exports); a bar whose peak is above the usable memory gets a red dash
and a red "✕" before its label, the red of the step chart's peak marker. The label above stands over the dash or
the bar, the higher: the peak, then the sum ("peak 46.1" / "sum 38.5"). Every number arrives from the presenter.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6 import QtCore  # noqa: F401  (PySide6 before pyqtgraph, so pyqtgraph binds to it)

# isort: split
# (the import above must stay first: sorting would put pyqtgraph before PySide6)
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QColor, QFont, QFontMetricsF

from vramgui.views.charts.frame import CAPACITY_COLOUR, EXPORT_FG, nice_ceiling

DASH_WIDTH = 4  # px: reads as a mark, not as one more reference line (those are 2 px)
SMALL_PT = 7.5  # the labels' size where the bars stand close
OVER = "✕"


translate = QCoreApplication.translate  # the name pyside6-lupdate looks for


class PeakMarks:
    """The dashes and labels of one plot; items are created once and updated with ``setData``."""

    def __init__(self, plot: pg.PlotItem, half_width: float, labels: int = 0) -> None:
        self.plot = plot
        self.half = half_width
        self.fits_line = pg.PlotDataItem([], [], connect="pairs", pen=pg.mkPen(EXPORT_FG, width=DASH_WIDTH))
        self.over_line = pg.PlotDataItem([], [], connect="pairs", pen=pg.mkPen(CAPACITY_COLOUR, width=DASH_WIDTH))
        for line in (self.fits_line, self.over_line):
            line.setZValue(45)  # above the bars, below the reference lines' labels
            plot.addItem(line, ignoreBounds=True)
        self.labels: list[pg.TextItem] = []
        self._fg, self._bg = EXPORT_FG, "#ffffff"
        self._shown: list[str] = []
        self._dashes: dict[int, tuple] = {}
        self._fit: tuple = ()
        self.two_lines = True  # the sum under the peak (off where the plot is too short for two lines a bar)
        self.small = False  # a smaller text where the bars stand close (``fit_to``)
        self.split = False  # and the peak's word over its number where even that is wider than a bar's slot
        self._ensure_labels(labels)

    def legend_entries(self, fits: Sequence[bool | None]) -> list[tuple[pg.PlotDataItem, str]]:
        """The legend's entries: the peak's dash, and the red one while a bar does not fit."""
        entries = [(self.fits_line, translate("PeakMarks", "step peak (decides fits)"))]
        if any(f is False for f in fits):
            entries.append((self.over_line, translate("PeakMarks", "{0} does not fit").format(OVER)))  # peak > usable
        return entries

    def show(self, x: Sequence[float], peaks: Sequence[float | None], fits: Sequence[bool | None],
             peak_texts: Sequence[str], sum_texts: Sequence[str], label_tops: Sequence[float],
             chosen: int = -1) -> None:
        xs_ok: list[float] = []
        ys_ok: list[float] = []
        xs_over: list[float] = []
        ys_over: list[float] = []
        for xi, peak, fit in zip(x, peaks, fits, strict=True):
            if peak is None:
                continue
            xs, ys = (xs_over, ys_over) if fit is False else (xs_ok, ys_ok)
            xs += [xi - self.half, xi + self.half]
            ys += [peak, peak]
        for line, data in ((self.fits_line, (xs_ok, ys_ok)), (self.over_line, (xs_over, ys_over))):
            if self._dashes.get(id(line)) != data:  # mostly one line changes, the other stays empty
                self._dashes[id(line)] = data
                line.setData(*data, connect="pairs")
        self._ensure_labels(len(x))
        shown = []
        for i, label in enumerate(self.labels):
            if i >= len(x):
                label.setVisible(False)
                continue
            markup = self._markup(peak_texts[i], sum_texts[i], fits[i], i == chosen)
            if i >= len(self._shown) or self._shown[i] != markup:
                label.textItem.setHtml(markup)  # not TextItem.setHtml: it serialises the old text to compare first
                label.updateTextPos()
            shown.append(markup)
            label.setPos(float(x[i]), label_tops[i])
            if not label.isVisible():
                label.setVisible(True)
        self._shown = shown

    def fit_to(self, slot_px: float, peak_texts: Sequence[str], sum_texts: Sequence[str],
               fits: Sequence[bool | None]) -> bool:
        """Choose the labels' size for bars ``slot_px`` apart, so neighbours never overlap; True if it changed
        (``show`` again to apply). Measured again only when the room or the texts' lengths change."""
        key = (round(slot_px), tuple(map(len, peak_texts)), tuple(map(len, sum_texts)), tuple(fits))
        if key == self._fit:
            return False
        self._fit = key
        font = QFont(self.labels[0].textItem.font()) if self.labels else QFont()
        normal = QFontMetricsF(font)
        font.setPointSizeF(SMALL_PT)
        small = QFontMetricsF(font)
        texts = [(OVER + " " if f is False else "") + t for t, f in zip(peak_texts, fits, strict=False)]
        widest = max((normal.horizontalAdvance(t) for t in [*texts, *sum_texts]), default=0.0)
        widest_small = max((small.horizontalAdvance(t) for t in [*texts, *sum_texts]), default=0.0)
        mode = (widest > slot_px, widest_small > slot_px)
        if mode == (self.small, self.split):
            return False
        self.small, self.split = mode
        return True

    def _markup(self, peak: str, total: str, fit: bool | None, chosen: bool) -> str:
        lines = []
        if peak:
            top = html.escape(peak)
            if self.split:
                top = "<br/>".join(top.rsplit(" ", 1))
            if fit is False:
                top = f"<span style='color:{CAPACITY_COLOUR}'>{OVER} {top}</span>"
            lines.append(top)
        if self.two_lines or not peak:
            lines.append(f"<small>{html.escape(total)}</small>" if peak else html.escape(total))
        body = "<br/>".join(lines)
        size = f"; font-size:{SMALL_PT:g}pt" if self.small else ""
        return f"<div align='center' style='color:{self._fg}{size}'>{'<b>' + body + '</b>' if chosen else body}</div>"

    def label_height(self) -> float:
        """The height in pixels of the tallest label (two lines) with the dash beneath it."""
        heights = [label.textItem.boundingRect().height() for label in self.labels if label.isVisible()]
        return max(heights, default=0.0) * 1.12 + DASH_WIDTH + 4

    def recolour(self, fg: str, bg: str) -> None:
        """The neutral dash and the labels take the text colour; the labels sit on boxes of the background."""
        self._fg, self._bg = fg, bg
        self.fits_line.setPen(pg.mkPen(fg, width=DASH_WIDTH))
        fill = QColor(bg)  # opaque: a reference line passing behind a label stops at its box, never strikes it
        for label in self.labels:
            label.fill = pg.mkBrush(fill)
            label.setColor(fg)
        self._shown = []  # the markup names the colour: rebuilt at the next show

    def _ensure_labels(self, n: int) -> None:
        while len(self.labels) < n:
            label = pg.TextItem(anchor=(0.5, 1.12), color=self._fg)  # a gap over the dash
            label.setZValue(55)  # over the capacity and usable lines (50), on a box of the background
            label.fill = pg.mkBrush(QColor(self._bg))
            label.setVisible(False)
            self.plot.addItem(label, ignoreBounds=True)
            self.labels.append(label)


def top_for(label_tops: Sequence[float], capacity: float | None, height: float, label_px: float,
            line_px: float = 0.0, top_px: float = 0.0) -> float:
    """The y axis' top: room above the highest label for its ``label_px`` and ``top_px`` (e.g. a legend inside the
    plot), above the capacity line for its label (``line_px``); layout, from pixels to the axis' unit."""
    def need(px: float) -> float:
        return 1.0 / max(0.25, 1.0 - px / height) if height > 0 else 1.4

    highest = max([*label_tops, 1e-9])
    return nice_ceiling(max(highest * need(label_px + top_px), (capacity or 0.0) * max(1.08, need(line_px + top_px))))
