"""Draw the vramgui application icon and write it as .png, .ico and .icns into resources/icons/.

The motif: a graphics card's memory seen as a stacked bar chart - four coloured memory bars (parameters,
gradients, optimizer states, activations) rising to a dashed "capacity" line, on a dark rounded tile.

The outputs are committed; re-run only when the design changes:

    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/make_icons.py

ICO and ICNS are assembled here from PNG frames (both formats allow PNG payloads: ICO since Windows Vista,
ICNS for the ``ic07``..``ic10`` types), so no Qt image plugin or Pillow is needed and the bytes are
reproducible on any platform.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QGuiApplication, QImage, QLinearGradient, QPainter, QPen

ICON_DIR = Path(__file__).resolve().parent.parent / "resources" / "icons"

# Palette shared with the chart's component colours (parameters, gradients, optimizer states, activations).
BAR_COLOURS = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759")
# Relative bar heights: a training run's memory as a rising stack, the last one touching capacity.
BAR_HEIGHTS = (0.38, 0.55, 0.80, 0.97)

ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# ICNS chunk types holding PNG data, by pixel size (Apple's icns format: ic07=128, ic08=256, ic09=512,
# ic10=1024 i.e. 512@2x, ic11=32 i.e. 16@2x, ic12=64 i.e. 32@2x, ic13=256 i.e. 128@2x, ic14=512 i.e. 256@2x).
ICNS_TYPES = ((b"ic11", 32), (b"ic12", 64), (b"ic07", 128), (b"ic13", 256), (b"ic08", 256),
              (b"ic14", 512), (b"ic09", 512), (b"ic10", 1024))


def draw_icon(size: int) -> QImage:
    """Render the icon at ``size`` x ``size`` pixels (drawn in a 256-unit space, scaled)."""
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.scale(size / 256.0, size / 256.0)

    # Tile: dark slate with a soft vertical gradient, like a GPU shroud.
    tile = QRectF(8, 8, 240, 240)
    gradient = QLinearGradient(QPointF(0, 8), QPointF(0, 248))
    gradient.setColorAt(0.0, QColor("#2f3b4c"))
    gradient.setColorAt(1.0, QColor("#151b24"))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(gradient)
    painter.drawRoundedRect(tile, 44, 44)

    # Memory bars on a baseline, with gaps; the tallest touches the capacity line.
    left, right, floor, ceiling = 40.0, 216.0, 206.0, 66.0
    gap = 10.0
    width = (right - left - gap * (len(BAR_HEIGHTS) - 1)) / len(BAR_HEIGHTS)
    for index, (colour, height) in enumerate(zip(BAR_COLOURS, BAR_HEIGHTS, strict=True)):
        x = left + index * (width + gap)
        top = floor - (floor - ceiling) * height
        painter.setBrush(QColor(colour))
        painter.drawRoundedRect(QRectF(x, top, width, floor - top), 6, 6)

    # Capacity line (usable VRAM) and baseline; dashes only where they stay crisp.
    pen = QPen(QColor("#f5f5f5"))
    pen.setWidthF(7.0)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    if size >= 48:
        pen.setDashPattern([2.2, 1.6])
    painter.setPen(pen)
    painter.drawLine(QPointF(30, ceiling - 10), QPointF(226, ceiling - 10))
    base = QPen(QColor("#c8d0da"))
    base.setWidthF(6.0)
    base.setCapStyle(Qt.PenCapStyle.RoundCap)
    painter.setPen(base)
    painter.drawLine(QPointF(32, floor + 8), QPointF(224, floor + 8))
    painter.end()
    return image


def png_bytes(image: QImage) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise RuntimeError("PNG encoding failed")
    buffer.close()
    return bytes(data)


def ico_bytes(frames: dict[int, bytes]) -> bytes:
    """ICONDIR + ICONDIRENTRY table + PNG payloads (a 256 px entry is written as width/height 0)."""
    sizes = sorted(frames)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, payload = b"", b""
    for size in sizes:
        data = frames[size]
        dim = 0 if size >= 256 else size
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(data), offset + len(payload))
        payload += data
    return header + entries + payload


def icns_bytes(chunks: list[tuple[bytes, bytes]]) -> bytes:
    """'icns' + total length, then (type, 8 + len, PNG) chunks; all lengths big-endian."""
    body = b"".join(kind + struct.pack(">I", 8 + len(data)) + data for kind, data in chunks)
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    ICON_DIR.mkdir(parents=True, exist_ok=True)
    cache: dict[int, bytes] = {}

    def frame(size: int) -> bytes:
        if size not in cache:
            cache[size] = png_bytes(draw_icon(size))
        return cache[size]

    (ICON_DIR / "vramgui.png").write_bytes(frame(256))
    (ICON_DIR / "vramgui-512.png").write_bytes(frame(512))
    (ICON_DIR / "vramgui.ico").write_bytes(ico_bytes({size: frame(size) for size in ICO_SIZES}))
    (ICON_DIR / "vramgui.icns").write_bytes(icns_bytes([(kind, frame(size)) for kind, size in ICNS_TYPES]))
    for name in ("vramgui.png", "vramgui-512.png", "vramgui.ico", "vramgui.icns"):
        print(f"{ICON_DIR / name}: {(ICON_DIR / name).stat().st_size} bytes")
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
