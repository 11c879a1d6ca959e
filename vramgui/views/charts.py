"""The three live charts (pyqtgraph). Plot items are created once and updated with ``setData``/``setOpts``.

Each chart is a ``GraphicsLayoutWidget``: a title row, the plot with its legend beside it, and - only while
exporting - a caption row describing the scenario, so an exported PNG stands on its own in a report.
"""

from __future__ import annotations

import html
import math

from PySide6 import QtCore  # noqa: F401  (PySide6 before pyqtgraph, so pyqtgraph binds to it)

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor, QCursor, QImage
from PySide6.QtWidgets import QGraphicsItem, QToolTip, QWidget
from pyqtgraph.exporters import ImageExporter

from vramgui.presenters.view_models import StrategyBarsVM, SweepVM
from vramgui.views.theme import component_colour, series_colour

BAR_WIDTH = 0.62
EXPORT_BG, EXPORT_FG = "#ffffff", "#1f2328"
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
        """Keep the legend rows tight (in a layout it would otherwise stretch to share the plot's height)."""
        self.legend.layout.invalidate()
        hint = self.legend.layout.effectiveSizeHint(Qt.SizeHint.PreferredSize)
        self.legend.setMaximumHeight(hint.height())
        self.legend.setMinimumHeight(hint.height())
        self.legend.setMaximumWidth(hint.width())

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


def reference_line(colour: str, dashed: bool, anchor_below: bool) -> pg.InfiniteLine:
    """A horizontal capacity/usable line drawn above the bars, its label on a filled box so bars never hide it."""
    style = Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine
    anchors = [(1, 0), (1, 0)] if anchor_below else [(1, 1), (1, 1)]
    line = pg.InfiniteLine(angle=0, movable=False, pen=pg.mkPen(colour, width=2, style=style), label="",
                           labelOpts={"position": 0.985, "anchors": anchors, "color": colour,
                                      "fill": pg.mkBrush(255, 255, 255, 215)})
    line.setZValue(50)
    return line


class StrategyChart(ChartView):
    """Chart 1: a stacked bar per strategy, stacked by component; capacity and usable lines."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Memory per GPU by strategy"), "", self.tr("Memory per GPU (GB)"), parent,
                         legend_columns=5)
        self.plot.getAxis("bottom").setHeight(48)
        self.bars: dict[str, pg.BarGraphItem] = {}
        self.total_labels: list[pg.TextItem] = []
        self.capacity_line = reference_line(CAPACITY_COLOUR, dashed=False, anchor_below=False)
        self.usable_line = reference_line(USABLE_COLOUR, dashed=True, anchor_below=True)
        self.plot.addItem(self.capacity_line, ignoreBounds=True)
        self.plot.addItem(self.usable_line, ignoreBounds=True)
        self.vm: StrategyBarsVM | None = None
        self._ticks: list = []
        self._range: tuple = ()
        self._recolour(self._fg)

    def show_bars(self, vm: StrategyBarsVM) -> None:
        """Update the existing items in place; texts, ticks and ranges are only touched when they change
        (each change makes pyqtgraph regenerate an axis or a text layout, the bulk of a redraw)."""
        self.vm = vm
        n = len(vm.strategies)
        x = np.arange(n, dtype=float)
        seen = set()
        legend_changed = False
        for i, seg in enumerate(vm.segments):
            seen.add(seg.key)
            item = self.bars.get(seg.key)
            if item is None:
                colour = component_colour(seg.key, i)
                item = pg.BarGraphItem(x=x, height=np.zeros(n), y0=np.zeros(n), width=BAR_WIDTH,
                                       brush=pg.mkBrush(colour), pen=pg.mkPen(QColor(colour).darker(130)))
                self.plot.addItem(item)
                self.bars[seg.key] = item
            label = self.legend.getLabel(item)
            if label is None:
                self.legend.addItem(item, seg.label)
                legend_changed = True
            elif label.text != seg.label:
                label.setText(seg.label, color=self._fg)
                legend_changed = True
            item.setOpts(x=x, height=np.array(seg.heights), y0=np.array(seg.bottoms), width=BAR_WIDTH)
            item.setVisible(True)
        for key, item in self.bars.items():
            if key not in seen:
                item.setVisible(False)
                if self.legend.getLabel(item) is not None:
                    self.legend.removeItem(item)
                    legend_changed = True
        if legend_changed:
            self.fit_legend()
        while len(self.total_labels) < n:
            label = pg.TextItem(anchor=(0.5, 1.0), color=self._fg)
            label.setZValue(40)
            self.plot.addItem(label, ignoreBounds=True)
            self.total_labels.append(label)
        for i, label in enumerate(self.total_labels):
            if i < n:
                text = f"{vm.totals[i]:,.1f}"
                if getattr(label, "shown_text", None) != text:
                    label.setText(text)
                    label.shown_text = text
                bold = i == vm.chosen
                if label.textItem.font().bold() != bold:
                    font = label.textItem.font()
                    font.setBold(bold)
                    label.setFont(font)
                label.setPos(float(i), vm.totals[i])
                label.setVisible(True)
            else:
                label.setVisible(False)
        ticks = [(i, ("▸ " if i == vm.chosen else "") + s) for i, s in enumerate(vm.short_labels)]
        if ticks != self._ticks:
            self._ticks = ticks
            self.plot.getAxis("bottom").setTicks([ticks])
        self._show_line(self.capacity_line, vm.capacity, self.tr("capacity {0:,.1f} {1}"), vm.unit)
        self._show_line(self.usable_line, vm.usable, self.tr("usable {0:,.1f} {1}"), vm.unit)
        self.set_axis_label("left", self.tr("Memory per GPU ({0})").format(vm.unit))
        top = nice_ceiling(max([*vm.totals, vm.capacity or 0.0, 1e-9]) * 1.1)
        if (n, top) != self._range:
            self._range = (n, top)
            self.plot.setXRange(-0.6, n - 0.4, padding=0)
            self.plot.setYRange(0, top, padding=0)

    def _show_line(self, line: pg.InfiniteLine, value: float | None, fmt: str, unit: str) -> None:
        if value is None:
            line.setVisible(False)
            return
        line.setValue(value)
        text = fmt.format(value, unit)
        if line.label.format != text:
            line.label.setFormat(text)
        line.setVisible(True)

    def _recolour(self, fg: str) -> None:
        super()._recolour(fg)
        for label in getattr(self, "total_labels", []):
            label.setColor(fg)

    def hover_text(self, x: float, y: float) -> str:
        if self.vm is None:
            return ""
        i = round(x)
        if not 0 <= i < len(self.vm.strategies) or abs(x - i) > BAR_WIDTH / 2:
            return ""
        for seg in self.vm.segments:
            if seg.heights[i] > 0 and seg.bottoms[i] <= y < seg.bottoms[i] + seg.heights[i]:
                return seg.tooltips[i]
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
        for i, series in enumerate(vm.series):
            seen.add(series.label)
            y = np.array([np.nan if v is None else v for v in series.values], dtype=float)
            if self.log_y:
                y[~(y > 0)] = np.nan
            curve = self.curves.get(series.label)
            if curve is None:
                colour = series_colour(len(self.curves))
                style = Qt.PenStyle.DashLine if "offload" in (series.key or series.label).lower() \
                    else Qt.PenStyle.SolidLine
                curve = self.plot.plot([], [], pen=pg.mkPen(colour, width=2, style=style), symbol="o", symbolSize=6,
                                       symbolBrush=colour, symbolPen=None, connect="finite", name=None)
                self.curves[series.label] = curve
            if np.isnan(y).all():  # nothing to draw (e.g. no GPU limit at all): keep the legend entry only
                curve.setData([], [])
            else:
                curve.setData(x, y, connect="finite")
            curve.setVisible(True)
            if self.legend.getLabel(curve) is None:
                self.legend.addItem(curve, series.label)
        for label, curve in self.curves.items():
            if label not in seen:
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
