"""Colours and status icons that stay readable in light and dark themes.

Component and strategy colours are a colour-blind-friendly qualitative palette (Okabe-Ito) that has enough
contrast on both white and near-black backgrounds; text colours follow the widget's palette.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPainterPath, QPalette, QPen, QPixmap
from PySide6.QtWidgets import QWidget

COMPONENT_COLOURS = {
    "parameters": "#0072B2",
    "gradients": "#E69F00",
    "optimizer_states": "#009E73",
    "master_weights": "#CC79A7",
    "activations": "#D55E00",
    "other": "#8C8C8C",
    # the training step's own components (the step chart): Paul Tol's muted scheme, apart from the six above
    "loss_gradient": "#56B4E9",
    "backward_transient": "#DDCC77",
    "optimizer_temporaries": "#882255",
    "comm_buffers": "#44AA99",
    "zero3_working_set": "#332288",
    "root_all_gather": "#AA4499",
    "tied_gradient_sum": "#CC6677",
    "root_reduce_scatter": "#999933",
    "cuda_context": "#4D4D4D",
    # the parts of a step's time (the time chart, vramgui.core.time): compute in the blues, communication in the
    # warm colours, idle pipeline time grey, the optimizer green as on the memory chart, offload wine
    "compute": "#0072B2",
    "recompute": "#56B4E9",
    "tp_comm": "#E69F00",
    "cp_comm": "#DDCC77",
    "ep_comm": "#CC79A7",
    "dp_comm": "#D55E00",
    "pp_bubble": "#8C8C8C",
    "pp_comm": "#44AA99",
    "optimizer": "#009E73",
    "offload": "#882255",
}
SERIES_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#8C6D31", "#7F7F7F")


def component_colour(key: str, index: int) -> str:
    return COMPONENT_COLOURS.get(key, SERIES_COLOURS[index % len(SERIES_COLOURS)])


def series_colour(index: int) -> str:
    return SERIES_COLOURS[index % len(SERIES_COLOURS)]


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def error_colour(widget: QWidget) -> str:
    return "#ff7b72" if is_dark(widget.palette()) else "#b3261e"


def invalid_base_colour(widget: QWidget) -> str:
    """The background of an input whose text is not a value (its text in ``error_colour``)."""
    return "#3d1714" if is_dark(widget.palette()) else "#fdecea"


def ok_colour(widget: QWidget) -> str:
    return "#56d364" if is_dark(widget.palette()) else "#1a7f37"


def warning_colours(widget: QWidget) -> tuple[str, str]:
    """(background, text) of the stale-result banner."""
    return ("#4d3b00", "#ffe08a") if is_dark(widget.palette()) else ("#fff4cc", "#5c4400")


def status_pixmap(kind: str, size: int, ratio: float = 1.0) -> QPixmap:
    """A drawn status mark: "ok" (tick in a green disc), "bad" (cross in a red disc), "unknown" (grey "?")
    - a shape as well as a colour, so the status does not rest on colour alone."""
    pix = QPixmap(int(size * ratio), int(size * ratio))
    pix.setDevicePixelRatio(ratio)
    pix.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pix)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    colour = {"ok": "#1a7f37", "bad": "#c62828"}.get(kind, "#6e7781")
    painter.setBrush(QColor(colour))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.drawEllipse(QRectF(1, 1, size - 2, size - 2))
    pen = QPen(QColor("white"), max(2.0, size / 8), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
               Qt.PenJoinStyle.RoundJoin)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    s = float(size)
    if kind == "ok":
        path = QPainterPath(QPointF(0.28 * s, 0.52 * s))
        path.lineTo(QPointF(0.44 * s, 0.68 * s))
        path.lineTo(QPointF(0.73 * s, 0.34 * s))
        painter.drawPath(path)
    elif kind == "bad":
        painter.drawLine(QPointF(0.33 * s, 0.33 * s), QPointF(0.67 * s, 0.67 * s))
        painter.drawLine(QPointF(0.67 * s, 0.33 * s), QPointF(0.33 * s, 0.67 * s))
    else:
        font = painter.font()
        font.setBold(True)
        font.setPixelSize(int(0.7 * s))
        painter.setFont(font)
        painter.drawText(QRectF(0, 0, s, s), Qt.AlignmentFlag.AlignCenter, "?")
    painter.end()
    return pix


def status_icon(kind: str) -> QIcon:
    icon = QIcon()
    for size in (16, 24, 32, 48):
        icon.addPixmap(status_pixmap(kind, size, 2.0))
    return icon
