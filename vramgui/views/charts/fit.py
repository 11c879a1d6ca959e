"""Fitting a chart's legend and title to its size (pyqtgraph items, pixels and text only).

The legend takes as few rows as the width allows: as many columns as fit, long entries wrapped onto two lines where
that saves rows; in a short chart ("compact") its text and samples are smaller. The title and the scenario share a
line where they fit, else take two; a compact chart keeps the title alone (the summary above names the scenario,
and an export's caption too).
"""

from __future__ import annotations

import html

from PySide6 import QtCore  # noqa: F401  (PySide6 before pyqtgraph, so pyqtgraph binds to it)

# isort: split
# (the import above must stay first: sorting would put pyqtgraph before PySide6)
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QSizeF, Qt
from PySide6.QtGui import QFont, QFontMetricsF

from vramgui.views.charts.layout import wrap_words

TITLE_PT = 11.0
LEGEND_PT, COMPACT_LEGEND_PT = 9.0, 8.0
SAMPLE_PX, COMPACT_SAMPLE_PX = 20, 14  # pyqtgraph's legend samples are 20 px squares
LAYOUT_MARGIN_PX = 9  # QGraphicsLayout's own margins
TEXT_MARGIN_PX, COMPACT_MARGIN_PX = 4, 1  # around a legend entry's text (QTextDocument's default margin is 4)
COMPACT_SPACING_PX, COMPACT_EXTRA_PX = 7, 36  # a compact legend: between sample, text and column; an entry's extra
ENTRY_EXTRA_PX = 60  # a column's sample and spacings beside its text


def _font(points: float, bold: bool = False) -> QFontMetricsF:
    font = QFont()
    font.setPointSizeF(points)
    font.setBold(bold)
    return QFontMetricsF(font)


def show_entries(legend: pg.LegendItem, shown: list[str], points: float, sample_px: int) -> None:
    """Each entry's label as ``shown`` at ``points`` (keeping the label's own text in ``label.text``), its sample
    ``sample_px`` square; only what changed is laid out again."""
    size = f"{points:g}pt"
    for (sample, label), text in zip(legend.items, shown, strict=True):
        own = label.text
        if getattr(label, "vramgui_shown", (own, own, LEGEND_PT)) != (own, text, points):
            label.setAttr("size", size)
            # a compact legend's rows tight: the text's own margin 1 px instead of Qt's 4 (21 px a row -> 15)
            label.item.document().setDocumentMargin(COMPACT_MARGIN_PX if points < LEGEND_PT else TEXT_MARGIN_PX)
            label.setText(text)
            label.text = own
            label.vramgui_shown = (own, text, points)
        if sample.width() != sample_px:
            sample.setFixedWidth(sample_px)
            sample.setFixedHeight(sample_px)
            sample.setTransformOriginPoint(QPointF(0, 0))
            sample.setScale(sample_px / SAMPLE_PX)  # pyqtgraph paints a sample in a 20 px square


def set_margins(legend: pg.LegendItem, compact: bool) -> None:
    """The legend's margins: Qt's 9 px, 2 in a compact chart (its rows are its room)."""
    margin = COMPACT_MARGIN_PX * 2 if compact else LAYOUT_MARGIN_PX
    if legend.layout.getContentsMargins() != (margin,) * 4:
        legend.layout.setContentsMargins(margin, margin, margin, margin)
    if not hasattr(legend, "vramgui_spacing"):
        legend.vramgui_spacing = legend.layout.horizontalSpacing()  # the chart's own (18 px)
    spacing = COMPACT_SPACING_PX if compact else legend.vramgui_spacing
    if legend.layout.horizontalSpacing() != spacing:
        legend.layout.setHorizontalSpacing(spacing)


def lay_out(legend: pg.LegendItem, room: float, columns: range | list[int]) -> tuple[int, QSizeF]:
    legend.columnCount = 0  # lay every entry out again, in the order of the list (removals leave holes)
    count, hint = 1, QSizeF()
    for count in columns:
        if legend.columnCount != count:
            legend.setColumnCount(count)
        legend.layout.invalidate()
        hint = legend.layout.effectiveSizeHint(Qt.SizeHint.PreferredSize)
        if hint.width() <= room or count == 1:
            break
    return count, hint


def fit_legend(legend: pg.LegendItem, room: float, preferred: int, compact: bool) -> None:
    """Lay ``legend`` out in the fewest rows that fit ``room`` pixels (up to ``preferred`` columns), and keep its
    rows tight (in a layout it would otherwise stretch to share the plot's height)."""
    points = COMPACT_LEGEND_PT if compact else LEGEND_PT
    sample_px = COMPACT_SAMPLE_PX if compact else SAMPLE_PX
    set_margins(legend, compact)
    texts = [label.text for _, label in legend.items]
    metrics = _font(points)
    best: tuple | None = None
    extra = COMPACT_EXTRA_PX if compact else ENTRY_EXTRA_PX
    for wrap in (None, *(room / c - extra for c in range(2, preferred + 1))):
        shown = texts if wrap is None else [wrap_words(t, wrap, metrics, "<br>") for t in texts]
        if wrap is not None and shown == texts:
            continue
        show_entries(legend, shown, points, sample_px)
        columns, hint = lay_out(legend, room, range(preferred, 0, -1))
        if best is None or hint.height() < best[0].height() - 1:
            best = (hint, shown, columns)
        if wrap is None and columns >= min(preferred, len(texts)):
            break  # every entry on its line, the columns wanted: nothing to gain by wrapping
    if best is None:
        return
    hint, shown, columns = best
    show_entries(legend, shown, points, sample_px)
    lay_out(legend, room, [columns])
    legend.setMaximumHeight(hint.height())
    legend.setMinimumHeight(hint.height())
    legend.setMaximumWidth(hint.width())


def title_markup(title: str, subtitle: str, room: float, compact: bool) -> tuple[str, float]:
    """(rich text, point size) of a chart's title and scenario fitted to ``room`` pixels."""
    points = TITLE_PT - (1 if compact else 0)
    bold, plain = _font(points, bold=True), _font(points)
    head = f"<b>{html.escape(title)}</b>"
    if not subtitle or bold.horizontalAdvance(title) + plain.horizontalAdvance(" · " + subtitle) <= room:
        tail = f" <span style='font-weight:normal'>· {html.escape(subtitle)}</span>" if subtitle else ""
        return head + tail, points
    if bold.horizontalAdvance(title) > room or (not compact and plain.horizontalAdvance(subtitle) > room):
        points -= 2
        plain = _font(points)
    if compact:
        return head, points
    lines = wrap_words(subtitle, room, plain).split("\n")
    return head + "<br><span style='font-weight:normal'>" + "<br>".join(html.escape(s) for s in lines) + "</span>", \
        points
