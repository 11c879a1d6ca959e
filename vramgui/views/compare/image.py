"""The comparison chart as an image: the chart rendered ``width`` pixels wide with its title above and its caption
below (``compose_export``), and the bars' tick labels. Layout only; every text arrives from the presenter."""

from __future__ import annotations

import re

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter

OVER = "✕"  # the mark of a bar that does not fit (vramgui.views.charts.peak_marks uses the same)


def tick_text(name: str, over: bool = False, limit: int = 26, lines: int = 3) -> str:
    """A bar's label: the name wrapped at its separators (" · " of a default name, ", " of a difference list) into
    at most ``lines`` lines of about ``limit`` characters; ``over``: the "✕" of a bar that does not fit first."""
    out: list[str] = []
    for part in name.split(" · "):
        line = ""
        pieces = re.split(r"(, |，)", part)  # a difference list in either language, its separators kept
        for whole, sep in zip(pieces[::2], [*pieces[1::2], ""], strict=True):
            piece = whole if _width(whole) <= limit else _cut(whole, limit - 1) + "…"
            if line and _width(line) + _width(piece) > limit:
                out.append(line.rstrip())
                line = ""
            line += piece + sep
        out.append(line.rstrip())
    if len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1].rstrip(",，") + " …"
    if over and out:
        out[0] = f"{OVER} {out[0]}"
    return "\n".join(out)


def _width(text: str) -> int:
    """Width in Latin characters: a CJK character takes two."""
    return sum(2 if ord(c) >= 0x2E80 else 1 for c in text)


def _cut(text: str, width: int) -> str:
    out = ""
    for c in text:
        if _width(out + c) > width:
            break
        out += c
    return out


def compose_export(chart: QImage, title: str, caption: str, font: QFont) -> QImage:
    """White image: ``title`` above the chart, ``caption`` (wrapped; its lines kept) below it, both sized to the
    chart's width so a wider export is the same picture, larger."""
    width = chart.width()
    margin = max(16, width // 60)
    title_font = QFont(font)
    title_font.setPixelSize(max(18, width // 45))
    title_font.setBold(True)
    caption_font = QFont(font)
    caption_font.setPixelSize(max(12, width // 85))
    flags = int(Qt.AlignmentFlag.AlignLeft) | int(Qt.TextFlag.TextWordWrap)
    probe = QImage(1, 1, QImage.Format.Format_ARGB32)
    painter = QPainter(probe)
    painter.setFont(title_font)
    title_rect = painter.boundingRect(QRectF(0, 0, width - 2 * margin, 10_000), flags, title)
    painter.setFont(caption_font)
    caption_rect = painter.boundingRect(QRectF(0, 0, width - 2 * margin, 10_000), flags, caption)
    painter.end()
    height = int(margin + title_rect.height() + margin / 2 + chart.height() + margin / 2 + caption_rect.height()
                 + margin)
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    painter.setPen(QColor("#111111"))
    painter.setFont(title_font)
    painter.drawText(QRectF(margin, margin, width - 2 * margin, title_rect.height()), flags, title)
    top = margin + title_rect.height() + margin / 2
    painter.drawImage(0, int(top), chart)
    painter.setPen(QColor("#444444"))
    painter.setFont(caption_font)
    painter.drawText(QRectF(margin, top + chart.height() + margin / 2, width - 2 * margin, caption_rect.height()),
                     flags, caption)
    painter.end()
    return image
