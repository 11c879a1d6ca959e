"""Where the main window opens: the saved geometry when it is still on a screen, else a first size that fits the
screen's available area at any scale factor (a laptop at 1366 x 768, a 1920 x 1080 screen at 200 % = 960 x 540).

Qt's own ``restoreGeometry`` moves a window back onto *some* screen; here a geometry saved on a screen that is gone
(an unplugged monitor, a changed layout) is not restored at all and the window opens centred on the primary screen.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QDataStream, QIODevice, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QFontMetrics, QGuiApplication, QScreen
from PySide6.QtWidgets import QFrame, QScrollArea, QWidget

DEFAULT_SIZE = QSize(1400, 900)  # the first window on a screen that holds it
FRAME = QSize(16, 48)  # left for the window manager's frame and title bar (unknown before the first show)
GEOMETRY_MAGIC = 0x1D9D0CB  # QWidget::saveGeometry's format
MESSAGE_CHROME_PX = 150  # a message box's margins and buttons around its text
MESSAGE_TEXT_PX = 340  # the width a message box wraps its text to (Qt's soft limit is about 500)
VISIBLE = QSize(120, 24)  # how much of the saved title bar must lie on a screen to count as "on it"


def saved_frame(geometry: QByteArray) -> QRect | None:
    """The frame rectangle in bytes from ``QWidget.saveGeometry()`` (None when they are not such bytes)."""
    stream = QDataStream(geometry, QIODevice.OpenModeFlag.ReadOnly)
    magic = stream.readUInt32()
    major = stream.readUInt16()
    stream.readUInt16()
    if magic != GEOMETRY_MAGIC or major < 1:
        return None
    frame = QRect()
    stream >> frame
    return frame if stream.status() == QDataStream.Status.Ok and frame.isValid() else None


def on_a_screen(frame: QRect, screens: list[QScreen] | None = None) -> bool:
    """True when the top of ``frame`` (its title bar) lies on a screen's available area far enough to grab."""
    title = QRect(frame.topLeft(), QSize(frame.width(), VISIBLE.height()))
    for screen in QGuiApplication.screens() if screens is None else screens:
        shared = title.intersected(screen.availableGeometry())
        if shared.width() >= min(VISIBLE.width(), frame.width()) and shared.height() >= VISIBLE.height() // 2:
            return True
    return False


def fitted(size: QSize, screen: QScreen | None) -> QSize:
    """``size`` shrunk to the screen's available area (less the frame); never grown."""
    if screen is None:
        return QSize(size)
    room = screen.availableGeometry().size() - FRAME
    return size.boundedTo(room.expandedTo(QSize(1, 1)))


def fit_dialog(dialog: QWidget, size: QSize) -> None:
    """Size ``dialog`` to ``size`` where its screen holds it, else to the screen's available area less the frame (a
    1,024 x 640 laptop, or 1920 x 1080 at 200 %: 960 x 540): a dialog never reaches past the screen's edge."""
    parent = dialog.parentWidget()
    screen: QScreen | None = (parent.window() if parent is not None else dialog).screen()
    if screen is None:
        screen = QGuiApplication.primaryScreen()
    dialog.resize(fitted(size, screen))


def fit_message(text: str, screen: QScreen | None) -> str:
    """``text`` for a message box on ``screen``: its last lines cut to "…" where the box would be taller than the
    screen (a message box cannot scroll; at 960 x 540 the cannot-open list of eight problems made it 550 px)."""
    if screen is None:
        return text
    room = screen.availableGeometry().height() - FRAME.height() - MESSAGE_CHROME_PX
    metrics = QFontMetrics(QGuiApplication.font())
    lines = text.split("\n")

    def height(parts: list[str]) -> int:
        flags = int(Qt.TextFlag.TextWordWrap)
        return metrics.boundingRect(QRect(0, 0, MESSAGE_TEXT_PX, 1 << 20), flags, "\n".join(parts)).height()

    while len(lines) > 1 and height(lines) > room:
        lines = [*lines[:-2], "…"] if lines[-1] == "…" else [*lines[:-1], "…"]
    return "\n".join(lines)


def place_first(window: QWidget, screen: QScreen | None = None) -> None:
    """Size ``window`` for a first start on ``screen`` (default: the primary) and centre it there."""
    screen = screen or QGuiApplication.primaryScreen()
    size = fitted(DEFAULT_SIZE, screen).expandedTo(window.minimumSizeHint())
    window.resize(size)
    if screen is not None:
        area = screen.availableGeometry()
        window.move(area.center() - QPoint(size.width() // 2, (size.height() + FRAME.height() - 8) // 2))
        window.move(max(area.left(), window.x()), max(area.top(), window.y()))


def restore_or_place(window: QWidget, geometry: QByteArray | None) -> bool:
    """Restore ``geometry`` if it is still on a screen (Qt shrinks it to that screen, e.g. after the scale factor
    grew); else place the window as at a first start. True when the saved geometry was used."""
    frame = None if geometry is None else saved_frame(geometry)
    if geometry is not None and frame is not None and on_a_screen(frame) and window.restoreGeometry(geometry):
        return True
    place_first(window)
    return False


def scroll_box(widget: QWidget, horizontal: bool) -> QScrollArea:
    """``widget`` in a frameless scroll area that resizes it: a panel keeps its minimum size and scrolls in a
    smaller window instead of holding the whole window wider (``horizontal``: a horizontal bar as needed)."""
    box = QScrollArea()
    box.setWidgetResizable(True)
    box.setFrameShape(QFrame.Shape.NoFrame)
    box.setWidget(widget)
    box.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded if horizontal
                                     else Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return box
