"""The frame every chart shares (pyqtgraph): title, legend, plot, theme colours, hover tooltips, PNG rendering.

``vramgui.views.charts.panels`` builds the three live charts on it. Also the small pieces they share: the plain log
axis, the "nice" axis ceiling, the caption wrapper and the capacity/usable reference lines.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from PySide6 import QtCore  # noqa: F401  (PySide6 before pyqtgraph, so pyqtgraph binds to it)

# isort: split
# (the import above must stay first: sorting would put pyqtgraph before PySide6)
import numpy as np
import pyqtgraph as pg
from pyqtgraph.exporters import ImageExporter
from PySide6.QtCore import QEvent, QRectF, Qt
from PySide6.QtGui import QColor, QCursor, QFontMetricsF, QImage
from PySide6.QtWidgets import QGraphicsItem, QToolTip, QWidget

from vramgui.views.charts.fit import LEGEND_PT, fit_legend, title_markup
from vramgui.views.charts.layout import ChartAxis, PlainLogAxis, split_axis_title, text_width
from vramgui.views.charts.modes import COMPACT_LABEL_PT, COMPACT_TICK_PT, choose_mode, least_height
from vramgui.views.theme import component_colour

__all__ = ["COMPACT_TICK_PT", "PlainLogAxis"]  # re-exported: the charts take their axes from here

EXPORT_BG, EXPORT_FG = "#ffffff", "#1f2328"
COMPACT_PX = 330  # the comparison's plot less tall than this: smaller ticks (the charts: ``charts.modes``)
BAR_WIDTH = 0.62  # stacked bars (strategy and step charts), in x units
CAPACITY_COLOUR, USABLE_COLOUR = "#c62828", "#8e24aa"


def nice_ceiling(value: float) -> float:
    """The next of 1, 1.2, 1.4 ... 8, 9 x 10^k at or above ``value``: the axis range only moves
    when a bar outgrows it, so most edits redraw the bars without rebuilding the axis."""
    if value <= 0:
        return 1.0
    exp = math.floor(math.log10(value))
    for step in (1, 1.2, 1.4, 1.6, 1.8, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10):
        candidate = step * 10**exp
        if candidate >= value * (1 - 1e-12):
            return candidate
    return 10 ** (exp + 1)


def _wrap_caption(text: str, limit: int = 120) -> str:
    """Break the " · "-separated caption into balanced lines of about ``limit`` characters (HTML)."""
    limit = -(-len(text) // -(-len(text) // limit)) + 20 if text else limit  # balanced, with slack
    lines, line = [], ""
    for part in text.split(" · "):
        candidate = part if not line else line + " · " + part
        if len(candidate) > limit and line:
            lines.append(line)
            line = part
        else:
            line = candidate
    if line:
        lines.append(line)
    return "<br>".join(lines)


class ChartView(pg.GraphicsLayoutWidget):
    """Common frame: title, plot, legend, theme colours, hover tooltips, PNG rendering."""

    def __init__(self, title: str, x_label: str, y_label: str, parent: QWidget | None = None,
                 legend_columns: int = 3, axis_items: dict | None = None) -> None:
        super().__init__(parent)
        self._title = title
        self._legend_columns = legend_columns
        self._subtitle = ""
        self._fg = EXPORT_FG
        self._title_shown: tuple = ()
        self._legend_fit: tuple = ()
        self._compact = False  # the layouts of ``charts.modes``: "full", "compact" (smaller texts), "side" (legend)
        self._mode = "full"
        self._mode_key: tuple = ()
        self._legend_side = False
        self._exporting = False
        self._y_title_fits = True
        self.chrome: dict[str, float] = {}  # per layout tried: the chart's height less its plot's
        self._tail_legend: list = []  # entries after the data's own: the marks, the reference lines
        self.title_item = self.ci.addLabel("", row=0, col=0)
        self.legend = pg.LegendItem(offset=None, colCount=legend_columns, horSpacing=18, frame=False,
                                    labelTextSize=f"{LEGEND_PT:g}pt")
        # pyqtgraph's legend ignores transformations (it floats over a zoomable view); in our layout it must
        # scale with the rest, or an exported PNG shows it at screen size beside scaled-up axes
        self.legend.setFlag(self.legend.GraphicsItemFlag.ItemIgnoresTransformations, False)
        self.ci.addItem(self.legend, row=1, col=0)
        self.ci.layout.setAlignment(self.legend, Qt.AlignmentFlag.AlignHCenter)
        axes = {"left": ChartAxis("left"), "bottom": ChartAxis("bottom"), **(axis_items or {})}
        self.plot = self.ci.addPlot(row=2, col=0, axisItems=axes)
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.showGrid(x=False, y=True, alpha=0.25)
        self.plot.setLabel("bottom", x_label)
        self.plot.setLabel("left", y_label)
        self.ci.layout.setRowStretchFactor(2, 1)
        self.caption_item = pg.LabelItem("", justify="left", size="8pt")
        self._x_label, self._y_label = x_label, y_label
        self._y_label_shown = y_label
        self.plot.vb.sigResized.connect(self._plot_resized)
        self.setMouseTracking(True)
        self.scene().sigMouseMoved.connect(self._mouse_moved)
        self.apply_palette()
        self._set_caching(True)

    def _cached_items(self) -> tuple:
        entries = [part for sample, label in self.legend.items for part in (sample, label, label.item)]
        axes = (self.plot.getAxis("left"), self.plot.getAxis("bottom"))
        return (*axes, *(axis.label for axis in axes), self.title_item, self.title_item.item, self.legend, *entries)

    def _set_caching(self, on: bool) -> None:
        """Axes, title and legend (its entries too: each paints itself) rarely change while typing: keep them as
        pixmaps so a redraw only repaints the data (off while exporting, where the scene is rendered at another
        scale)."""
        self._caching = on
        mode = QGraphicsItem.CacheMode.DeviceCoordinateCache if on else QGraphicsItem.CacheMode.NoCache
        for item in self._cached_items():
            if item.cacheMode() != mode:
                item.setCacheMode(mode)

    # ----- theme
    def apply_palette(self) -> None:
        pal = self.palette()
        self.apply_colours(pal.color(pal.ColorRole.Base).name(), pal.color(pal.ColorRole.Text).name())

    def apply_colours(self, bg: str, fg: str) -> None:
        self._fg = fg
        self._bg = bg
        self.setBackground(bg)
        for name in ("left", "bottom"):
            axis = self.plot.getAxis(name)
            axis.setPen(pg.mkPen(fg))
            axis.setTextPen(pg.mkPen(fg))
        self.show_axis_labels()
        self._show_title()
        self.legend.setLabelTextColor(fg)
        self._recolour(fg)

    def fit_legend(self) -> None:
        """After the legend's entries changed: the layout that keeps the plot its minimum (``modes.choose_mode``),
        the legend fitted to it."""
        choose_mode(self)

    def least_height(self) -> int:
        """The height this chart needs for its plot to keep ``modes.MIN_PLOT_PX`` (the results column's question)."""
        return least_height(self)

    def bar_count(self) -> int:
        """The bars side by side (a bar chart; 0 for curves): a legend beside the plot leaves each its room."""
        return 0

    def show_axis_labels(self) -> None:
        """The axis titles in the text colour, smaller in a compact layout."""
        style = {"font-size": f"{COMPACT_LABEL_PT:g}pt"} if self._compact else {}
        self.plot.setLabel("bottom", self._x_label, color=self._fg, **style)
        self.plot.setLabel("left", self._y_label_shown, color=self._fg, **style)
        if not getattr(self, "_y_title_fits", True):  # a plot shorter than its title: the title in the tooltip
            self.plot.getAxis("left").showLabel(False)

    def fit_legend_now(self) -> None:
        """The legend in as few rows as the chart's width allows (``chart_fit.fit_legend``): a long legend wraps
        instead of widening the chart past its tab or being cut by its edge; laid out again only on a change."""
        if self._legend_side:
            return  # a column beside the plot: ``modes.apply_mode`` fits it
        room = max(self.width() - 24, 80)
        items = self.legend.items
        key = (room, self._compact, self._legend_columns, tuple((id(label), label.text) for _, label in items))
        if self._legend_fit != key and self.legend.isVisible():
            self._legend_fit = key
            columns = max(self._legend_columns, len(items)) if self._compact else self._legend_columns  # fewer rows
            fit_legend(self.legend, room, columns, self._compact)
            self._set_caching(getattr(self, "_caching", True))  # the entries added since are cached too
            self._fit_central()

    def show_legend(self, on: bool) -> None:
        """Show or hide the legend (hidden, it gives its rows to the plot: an empty chart's note needs them)."""
        if on == self.legend.isVisible():
            return
        self.legend.setVisible(on)
        if on:
            self.legend.setMinimumWidth(-1)  # a negative size unsets the explicit one (QGraphicsLayoutItem)
            self._legend_fit = ()
            choose_mode(self, force=True)
        else:  # no size at all: a hidden legend keeping its minimum width would widen the layout past the view
            self.legend.setMinimumHeight(0)
            self.legend.setMaximumHeight(0)
            self.legend.setMinimumWidth(0)
            self.legend.setMaximumWidth(0)
            choose_mode(self, force=True)  # its rows (or its column) go to the plot

    def _fit_central(self) -> None:
        """Give the layout the view's size again: a layout once wider than the view (a legend not yet wrapped)
        keeps its width otherwise, and the chart's right side is cut."""
        rect = QRectF(self.viewport().rect())
        if self.ci.geometry() != rect:
            self.ci.setGeometry(rect)

    def line_entries(self, capacity: float | None, usable: float | None, unit: str, formats: tuple[str, str],
                     shown: bool = True) -> list:
        """The capacity and usable lines at their values (hidden where None or not ``shown``), named in the legend
        with a sample of their pens, never by a label in the plot (that would stand on a bar or a curve)."""
        keys = getattr(self, "line_keys", None)
        if keys is None:
            keys = self.line_keys = {line: pg.PlotDataItem(pen=line.pen)
                                     for line in (self.capacity_line, self.usable_line)}
        entries = []
        for line, value, fmt in ((self.capacity_line, capacity, formats[0]), (self.usable_line, usable, formats[1])):
            line.label.setVisible(False)
            line.setVisible(value is not None and shown)
            if line.isVisible():
                line.setValue(value)
                entries.append((keys[line], fmt.format(value, unit)))
        return entries

    def show_tail_legend(self, entries: list, rebuild: bool) -> bool:
        """The legend's entries after the data's own (the peak marks, the reference lines with their values),
        re-added when those changed so they stay last; True if the legend changed."""
        if not rebuild and entries == self._tail_legend:
            return False
        for item, _ in self._tail_legend:
            if self.legend.getLabel(item) is not None:
                self.legend.removeItem(item)
        for item, text in entries:
            self.legend.addItem(item, text)
        self._tail_legend = entries
        return True

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        legend = getattr(self, "legend", None)  # pyqtgraph resizes while being built (event None)
        if legend is None:
            return
        choose_mode(self)  # the layout that keeps the plot its minimum in this size
        self._fit_central()

    def _plot_resized(self) -> None:
        """The plot's box changed size: the axis title on two lines if one is longer than the axis, then the
        chart's own pixel-dependent layout (``fit_layout``)."""
        axis = self.plot.getAxis("left")
        metrics = QFontMetricsF(axis.label.font())
        shown = split_axis_title(self._y_label, self.plot.vb.height() - 8, metrics)
        if shown != self._y_label_shown:
            self._y_label_shown = shown
            self.show_axis_labels()
        fits = text_width(shown, metrics) <= self.plot.vb.height() - 4  # else hidden (in the axis' tooltip)
        if fits != self._y_title_fits:
            self._y_title_fits = fits
            axis.setToolTip("" if fits else self._y_label)
            self.show_axis_labels()
        self.fit_layout()

    def fit_layout(self) -> None:
        """Pixel-dependent layout of a chart (ranges that leave room for labels, padding for edge ticks)."""

    def set_stale(self, stale: bool) -> None:
        """Fade the plot while the numbers shown are not the current input's: the input is invalid (they are the
        last valid ones) or they are still being computed for it (a sweep after an edit)."""
        opacity = 0.35 if stale else 1.0
        if self.plot.opacity() != opacity:
            self.plot.setOpacity(opacity)
            self.legend.setOpacity(opacity)

    def set_subtitle(self, subtitle: str) -> None:
        if subtitle != self._subtitle:
            self._subtitle = subtitle
            self._show_title()

    def _show_title(self) -> None:
        """The title and the scenario on one line where they fit, else on two (``chart_fit.title_markup``); none in
        the barest layout (``modes``: the tab names the chart), except in an export."""
        bare = self._mode == "bare" and not self._exporting
        text, size = ("", 1.0) if bare else title_markup(self._title, self._subtitle, max(self.width() - 16, 60),
                                                         self._compact)
        if (text, size, self._fg) != self._title_shown:
            self._title_shown = (text, size, self._fg)
            self.title_item.setText(text, color=self._fg, size=f"{size:g}pt")
            if bare:
                self.title_item.setMinimumHeight(0)
            self.title_item.setMaximumHeight(0 if bare else -1)  # a negative size unsets the explicit one

    def _recolour(self, fg: str) -> None:
        """Label boxes of the reference lines take the background colour (readable on light and dark)."""
        fill = QColor(self._bg)
        fill.setAlpha(220)
        for name in ("capacity_line", "usable_line"):
            line = getattr(self, name, None)
            if line is not None:
                line.label.fill = pg.mkBrush(fill)
                line.label.update()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange) and hasattr(self, "plot"):
            self.apply_palette()
        super().changeEvent(event)

    def set_axis_label(self, which: str, text: str) -> None:
        if text == (self._y_label if which == "left" else self._x_label):
            return
        if which == "left":
            self._y_label = text
            metrics = QFontMetricsF(self.plot.getAxis("left").label.font())
            self._y_label_shown = split_axis_title(text, self.plot.vb.height() - 8, metrics)
        else:
            self._x_label = text
        self.show_axis_labels()

    # ----- hover
    def _mouse_moved(self, pos) -> None:
        if not self.plot.sceneBoundingRect().contains(pos):
            return
        point = self.plot.vb.mapSceneToView(pos)
        text = self.hover_text(point.x(), point.y())
        if text:
            QToolTip.showText(QCursor.pos(), text, self)
        else:
            QToolTip.hideText()

    def hover_text(self, x: float, y: float) -> str:
        return ""

    # ----- export
    def render_image(self, width: int, caption: str) -> QImage:
        """The chart as an image ``width`` pixels wide: white background, dark text, caption below."""
        self._set_caching(False)
        self._exporting = True  # the title shown, whatever the layout
        self.apply_colours(EXPORT_BG, EXPORT_FG)
        self.caption_item.setText(_wrap_caption(caption), color="#57606a", size="8pt")
        self.ci.addItem(self.caption_item, row=3, col=0, colspan=2 if self._legend_side else 1)
        self.ci.layout.activate()
        try:
            exporter = ImageExporter(self.ci)
            exporter.parameters()["background"] = QColor(EXPORT_BG)
            exporter.parameters()["width"] = int(width)
            image = exporter.export(toBytes=True)
        finally:
            self.ci.removeItem(self.caption_item)
            self._exporting = False
            self.apply_palette()
            self.ci.layout.activate()
            self._set_caching(True)
        return image

    def show_stacked_bars(self, bars: dict[str, pg.BarGraphItem], x: Any, segments: Sequence[Any]) -> bool:
        """Stacked bars, one item per component (``seg.key``) kept between redraws and updated in place, with
        their legend entries; components that are gone are hidden. True when the legend changed."""
        n = len(x)
        seen = set()
        legend_changed = False
        for i, seg in enumerate(segments):
            seen.add(seg.key)
            item = bars.get(seg.key)
            if item is None:
                colour = component_colour(seg.key, i)
                item = pg.BarGraphItem(x=x, height=np.zeros(n), y0=np.zeros(n), width=BAR_WIDTH,
                                       brush=pg.mkBrush(colour), pen=pg.mkPen(QColor(colour).darker(130)))
                self.plot.addItem(item)
                bars[seg.key] = item
            label = self.legend.getLabel(item)
            if label is None:
                self.legend.addItem(item, seg.label)
                legend_changed = True
            elif label.text != seg.label:
                label.setText(seg.label, color=self._fg)
                legend_changed = True
            item.setOpts(x=x, height=np.array(seg.heights), y0=np.array(seg.bottoms), width=BAR_WIDTH)
            item.setVisible(True)
        for key, item in bars.items():
            if key not in seen:
                item.setVisible(False)
                if self.legend.getLabel(item) is not None:
                    self.legend.removeItem(item)
                    legend_changed = True
        return legend_changed


def reference_line(colour: str, dashed: bool, anchor_below: bool) -> pg.InfiniteLine:
    """A horizontal capacity/usable line drawn above the bars, its label on a filled box so bars never hide it."""
    style = Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine
    anchors = [(1, 0), (1, 0)] if anchor_below else [(1, 1), (1, 1)]
    line = pg.InfiniteLine(angle=0, movable=False, pen=pg.mkPen(colour, width=2, style=style), label="",
                           labelOpts={"position": 0.985, "anchors": anchors, "color": colour,
                                      "fill": pg.mkBrush(255, 255, 255, 215)})
    line.setZValue(50)
    return line
