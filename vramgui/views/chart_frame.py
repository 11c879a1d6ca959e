"""The frame every chart shares (pyqtgraph): title, legend, plot, theme colours, hover tooltips, PNG rendering.

``vramgui.views.charts`` builds the three live charts on it. Also the small pieces they share: the plain log
axis, the "nice" axis ceiling, the caption wrapper and the capacity/usable reference lines.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import Any

from PySide6 import QtCore  # noqa: F401  (PySide6 before pyqtgraph, so pyqtgraph binds to it)

# isort: split
# (the import above must stay first: sorting would put pyqtgraph before PySide6)
import numpy as np
import pyqtgraph as pg
from pyqtgraph.exporters import ImageExporter
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor, QCursor, QImage
from PySide6.QtWidgets import QGraphicsItem, QToolTip, QWidget

from vramgui.views.theme import component_colour

EXPORT_BG, EXPORT_FG = "#ffffff", "#1f2328"
BAR_WIDTH = 0.62  # stacked bars (strategy and step charts), in x units
CAPACITY_COLOUR, USABLE_COLOUR = "#c62828", "#8e24aa"


class PlainLogAxis(pg.AxisItem):
    """A log axis labelled 1, 10, 100, 1,000 rather than powers of ten."""

    def logTickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph override
        out = []
        for v in values:
            x = 10 ** (v * scale)
            out.append(f"{x:,.0f}" if x >= 1 else f"{x:.2g}")
        return out


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
        self.title_item = self.ci.addLabel("", row=0, col=0)
        self.legend = pg.LegendItem(offset=None, colCount=legend_columns, horSpacing=18, frame=False)
        # pyqtgraph's legend ignores transformations (it floats over a zoomable view); in our layout it must
        # scale with the rest, or an exported PNG shows it at screen size beside scaled-up axes
        self.legend.setFlag(self.legend.GraphicsItemFlag.ItemIgnoresTransformations, False)
        self.ci.addItem(self.legend, row=1, col=0)
        self.ci.layout.setAlignment(self.legend, Qt.AlignmentFlag.AlignHCenter)
        self.plot = self.ci.addPlot(row=2, col=0, axisItems=axis_items or {})
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.showGrid(x=False, y=True, alpha=0.25)
        self.plot.setLabel("bottom", x_label)
        self.plot.setLabel("left", y_label)
        self.ci.layout.setRowStretchFactor(2, 1)
        self.caption_item = pg.LabelItem("", justify="left", size="8pt")
        self._x_label, self._y_label = x_label, y_label
        self.setMouseTracking(True)
        self.scene().sigMouseMoved.connect(self._mouse_moved)
        self.apply_palette()
        self._set_caching(True)

    def _cached_items(self) -> tuple:
        return (self.plot.getAxis("left"), self.plot.getAxis("bottom"), self.title_item, self.legend)

    def _set_caching(self, on: bool) -> None:
        """Axes, title and legend rarely change while typing: keep them as pixmaps so a redraw only repaints
        the data (off while exporting, where the scene is rendered at another scale)."""
        mode = QGraphicsItem.CacheMode.DeviceCoordinateCache if on else QGraphicsItem.CacheMode.NoCache
        for item in self._cached_items():
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
        self.plot.setLabel("bottom", self._x_label, color=fg)
        self.plot.setLabel("left", self._y_label, color=fg)
        self._show_title()
        self.legend.setLabelTextColor(fg)
        self._recolour(fg)

    def fit_legend(self) -> None:
        """Keep the legend rows tight (in a layout it would otherwise stretch to share the plot's height), with as
        many columns as the chart's width holds: a long legend wraps instead of widening the chart past its tab."""
        room = self.width() - 24
        self.legend.columnCount = 0  # lay every entry out again, in the order of the list (removals leave holes)
        for columns in range(self._legend_columns, 0, -1):
            if self.legend.columnCount != columns:
                self.legend.setColumnCount(columns)
            self.legend.layout.invalidate()
            hint = self.legend.layout.effectiveSizeHint(Qt.SizeHint.PreferredSize)
            if hint.width() <= room or columns == 1:
                break
        self.legend.setMaximumHeight(hint.height())
        self.legend.setMinimumHeight(hint.height())
        self.legend.setMaximumWidth(hint.width())

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        legend = getattr(self, "legend", None)  # pyqtgraph resizes while being built (event None)
        if legend is not None and legend.items and (event is None or event.oldSize().width() != event.size().width()):
            self.fit_legend()

    def set_stale(self, stale: bool) -> None:
        """Fade the plot while the input is invalid: the numbers shown are the last valid ones."""
        self.plot.setOpacity(0.35 if stale else 1.0)
        self.legend.setOpacity(0.35 if stale else 1.0)

    def set_subtitle(self, subtitle: str) -> None:
        if subtitle != self._subtitle:
            self._subtitle = subtitle
            self._show_title()

    def _show_title(self) -> None:
        text = f"<b>{html.escape(self._title)}</b>"
        if self._subtitle:
            text += f" <span style='font-weight:normal'>· {html.escape(self._subtitle)}</span>"
        self.title_item.setText(text, color=self._fg, size="11pt")

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
        else:
            self._x_label = text
        self.plot.setLabel(which, text, color=self._fg)

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
        self.apply_colours(EXPORT_BG, EXPORT_FG)
        self.caption_item.setText(_wrap_caption(caption), color="#57606a", size="8pt")
        self.ci.addItem(self.caption_item, row=3, col=0)
        self.ci.layout.activate()
        try:
            exporter = ImageExporter(self.ci)
            exporter.parameters()["background"] = QColor(EXPORT_BG)
            exporter.parameters()["width"] = int(width)
            image = exporter.export(toBytes=True)
        finally:
            self.ci.removeItem(self.caption_item)
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
