"""Self-checks of a drawn chart's layout: what a reader would see cut off, dropped or overlapping.

Used by the layout tests (tests/views/test_chart_layout.py) and the screenshot script (bench/screenshots.py) to
name every problem of a chart at a window size, scale factor and language. Geometry only (scene rectangles of
axis texts, legend entries, the title and the texts in the plot): no number of the scenario is read here.
"""

from __future__ import annotations

from PySide6 import QtCore  # noqa: F401  (PySide6 before pyqtgraph, so pyqtgraph binds to it)

# isort: split
# (the import above must stay first: sorting would put pyqtgraph before PySide6)
import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtGui import QFont, QFontMetricsF, QPainter, QPicture

SLACK = 1.0  # px: rounding of text metrics


def _inside(inner: QRectF, outer: QRectF) -> bool:
    return (inner.left() >= outer.left() - SLACK and inner.right() <= outer.right() + SLACK
            and inner.top() >= outer.top() - SLACK and inner.bottom() <= outer.bottom() + SLACK)


def drawn_ticks(axis: pg.AxisItem) -> list[tuple[QRectF, str]]:
    """The tick texts ``axis`` paints now, with their rectangles in scene coordinates."""
    picture = QPicture()
    painter = QPainter(picture)
    try:
        if axis.style["tickFont"]:
            painter.setFont(axis.style["tickFont"])
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    if specs is None:
        return []
    return [(axis.mapRectToScene(rect), text) for rect, _flags, text in specs[2]]


def wanted_ticks(axis: pg.AxisItem) -> list[str]:
    """The texts of the ticks set with ``setTicks`` whose value lies in the axis' range (every level)."""
    levels = getattr(axis, "_tickLevels", None)
    if not levels:
        return []
    low, high = sorted(axis.range)
    return [text for level in levels for value, text in level if low - 1e-9 <= value <= high + 1e-9]


def _lines(axis: pg.AxisItem, rect: QRectF, text: str) -> list[tuple[QRectF, str]]:
    """The non-blank lines of a (multi-line) tick text, each with its own rectangle (centred, as drawn)."""
    parts = text.split("\n")
    metrics = QFontMetricsF(axis.style["tickFont"] or QFont())
    height = rect.height() / len(parts)
    out = []
    for i, line in enumerate(parts):
        if line.strip():
            width = metrics.horizontalAdvance(line)
            out.append((QRectF(rect.center().x() - width / 2, rect.top() + i * height, width, height), line))
    return out


def axis_problems(name: str, axis: pg.AxisItem, view: QRectF) -> list[str]:
    problems = []
    drawn = drawn_ticks(axis)
    texts = [text for _rect, text in drawn]
    for text in wanted_ticks(axis):
        if text.strip() and text not in texts:
            problems.append(f"{name} axis: tick {text!r} not drawn")
    for rect, text in drawn:
        if not _inside(rect, view):
            problems.append(f"{name} axis: tick {text!r} cut by the chart's edge")
    lines = [line for rect, text in drawn for line in _lines(axis, rect, text)]
    for i, (rect, text) in enumerate(lines):
        for other, other_text in lines[i + 1:]:
            if rect.adjusted(SLACK, SLACK, -SLACK, -SLACK).intersects(other):
                problems.append(f"{name} axis: ticks {text!r} and {other_text!r} overlap")
    if axis.label.isVisible() and axis.label.toPlainText().strip():
        label = axis.label.mapRectToScene(axis.label.boundingRect())
        if not _inside(label, view):
            problems.append(f"{name} axis: its title {axis.label.toPlainText()!r} is cut by the chart's edge")
    if name == "left" and axis.range[0] <= 0 <= axis.range[1] and not axis.logMode and "0" not in texts:
        problems.append("left axis: no 0 at its foot")
    return problems


def legend_problems(legend: pg.LegendItem, view: QRectF) -> list[str]:
    problems: list[str] = []
    if not legend.isVisible():
        return problems
    box = legend.sceneBoundingRect()
    rects = []
    for sample, label in legend.items:
        text = label.text
        rect = label.item.mapRectToScene(label.item.boundingRect())
        if not _inside(rect, view):
            problems.append(f"legend: {text!r} cut by the chart's edge")
        elif not _inside(rect, box.adjusted(-2, -2, 2, 2)):
            problems.append(f"legend: {text!r} outside the legend's box")
        rects.append((rect | sample.sceneBoundingRect(), text))
    for i, (rect, text) in enumerate(rects):
        for other, other_text in rects[i + 1:]:
            if rect.adjusted(SLACK, SLACK, -SLACK, -SLACK).intersects(other):
                problems.append(f"legend: {text!r} and {other_text!r} overlap")
    return problems


def text_items(chart) -> list[tuple[pg.TextItem, str]]:
    """The visible texts standing in the plot (value labels, notes), with their plain text."""
    out = []
    for item in chart.plot.vb.childGroup.childItems():
        if isinstance(item, pg.TextItem) and item.isVisible() and item.toPlainText().strip():
            out.append((item, item.toPlainText()))
    return out


def chart_problems(chart) -> list[str]:
    """Every layout problem of ``chart`` (a ``chart_frame.ChartView`` that is shown), as short sentences."""
    view = QRectF(chart.viewport().rect()) if chart.viewport() is not None else QRectF(chart.rect())
    view = chart.mapToScene(view.toRect()).boundingRect()
    problems = []
    for name in ("left", "bottom"):
        problems += axis_problems(name, chart.plot.getAxis(name), view)
    problems += legend_problems(chart.legend, view)
    title = chart.title_item.item
    if title.toPlainText().strip() and not _inside(title.mapRectToScene(title.boundingRect()), view):
        problems.append(f"title {title.toPlainText()!r} cut by the chart's edge")
    plot_box = chart.plot.vb.sceneBoundingRect()
    texts = [(item.mapRectToScene(item.boundingRect()), text) for item, text in text_items(chart)]
    for i, (rect, text) in enumerate(texts):
        if not _inside(rect, plot_box):
            problems.append(f"plot text {text!r} outside the plot")
        for other, other_text in texts[i + 1:]:
            if rect.adjusted(SLACK, SLACK, -SLACK, -SLACK).intersects(other):
                problems.append(f"plot texts {text!r} and {other_text!r} overlap")
    for line in (getattr(chart, "capacity_line", None), getattr(chart, "usable_line", None)):
        if line is None or not line.isVisible() or not line.label.isVisible() or not line.label.toPlainText():
            continue
        rect = line.label.mapRectToScene(line.label.boundingRect())
        if not _inside(rect, plot_box):
            problems.append(f"line label {line.label.toPlainText()!r} outside the plot")
    return problems


# ----- the whole window: plots, texts, widgets and dialogs (issue 23) -----------------------------------------------

def plot_height(chart) -> float:
    """The height of a chart's plot (pyqtgraph's view box: where the bars and curves are drawn), in pixels."""
    return float(chart.plot.vb.sceneBoundingRect().height())


def _text_cut(widget) -> str:
    """Why ``widget``'s text does not fit it ("" when it does): a wrapping label needs more height than it has, a
    one-line label or a button more width. A label that cuts its own text with "…" (``FoldingLabel`` folded,
    ``ElidedLabel``) shows all of it in its tooltip and passes."""
    from PySide6.QtWidgets import QAbstractButton, QLabel

    from vramgui.views.elided_label import ElidedLabel
    from vramgui.views.folding_label import FoldingLabel

    if isinstance(widget, ElidedLabel) or (isinstance(widget, FoldingLabel) and widget.one_line):
        return ""
    if isinstance(widget, QLabel):
        if not widget.text().strip() or (widget.pixmap() is not None and not widget.pixmap().isNull()):
            return ""
        inner = widget.contentsRect()
        if widget.wordWrap():
            need = widget.heightForWidth(widget.width())
            return f"needs {need} px of height, has {widget.height()}" if need > widget.height() + SLACK else ""
        need = widget.sizeHint().width() - (widget.width() - inner.width())
        return f"needs {need} px of width, has {inner.width()}" if need > inner.width() + 2 * SLACK + 1 else ""
    if isinstance(widget, QAbstractButton) and widget.text().strip():
        need = widget.sizeHint().width()
        return f"needs {need} px of width, has {widget.width()}" if need > widget.width() + SLACK else ""
    return ""


def _in_scroll_area(widget, top) -> bool:
    """True when ``widget`` lies in a scroll area's content (it may be scrolled out of sight on purpose)."""
    from PySide6.QtWidgets import QAbstractScrollArea

    parent = widget.parentWidget()
    while parent is not None and parent is not top:
        if isinstance(parent.parentWidget(), QAbstractScrollArea) and parent is parent.parentWidget().viewport():
            return True
        parent = parent.parentWidget()
    return False


def widget_problems(top) -> list[str]:
    """Every visible widget of the window (or dialog) ``top``: its text fits it (``_text_cut``) and it lies inside
    its parent (a layout squeezed below its minimum places children past the parent's edge, where they are cut);
    ``top`` itself lies on its screen's available area."""
    from PySide6.QtCore import QRect
    from PySide6.QtWidgets import QWidget

    problems = []
    area = top.screen().availableGeometry()
    frame = top.frameGeometry()
    if not area.contains(frame):
        problems.append(f"{type(top).__name__} {frame.getRect()} reaches past the screen's area {area.getRect()}")
    for widget in top.findChildren(QWidget):
        if not widget.isVisibleTo(top) or widget.isWindow():
            continue
        name = widget.objectName() or type(widget).__name__
        text = widget.text() if hasattr(widget, "text") and callable(widget.text) else ""
        why = _text_cut(widget)
        if why:
            problems.append(f"{name} {text[:40]!r}: text cut ({why})")
        parent = widget.parentWidget()
        if parent is None or _in_scroll_area(widget, top) or type(parent).__name__ == "QScrollArea":
            continue
        inside = QRect(parent.rect()).adjusted(-1, -1, 1, 1)
        if not inside.contains(widget.geometry()):
            problems.append(f"{name} {text[:40]!r} {widget.geometry().getRect()} outside its parent "
                            f"{parent.objectName() or type(parent).__name__} {parent.rect().getRect()}")
    return problems


def dialog_problems(dialog) -> list[str]:
    """A dialog on its screen: its frame inside the screen's available area, nothing in it cut."""
    return widget_problems(dialog)
