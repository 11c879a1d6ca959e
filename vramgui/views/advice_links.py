"""The adviser's ways out in the summary: a heading ("Ways to make it fit:") and one link per suggestion; a click
(or Enter / Space on a focused link) reports the suggestion's index, and the presenter applies it.

The links are plain-text labels drawn as links (never rich text: no text here is ever read as HTML), so they wrap
on a narrow window instead of being clipped as a push button's text would be.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QEnterEvent, QFocusEvent, QKeyEvent, QMouseEvent, QPalette
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from vramgui.presenters.view_models import SuggestionVM

MAX_LINKS = 5


class LinkLabel(QLabel):
    """A word-wrapped plain-text label that acts as a link: pointing-hand cursor, link colour, keyboard focus."""

    clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        link = self.palette().color(QPalette.ColorRole.Link).name()
        self.setStyleSheet(f"QLabel {{ color: {link}; }} QLabel:disabled {{ color: palette(mid); }}")

    def _underline(self, on: bool) -> None:
        """Hover and keyboard focus underline the link (a border would cost the summary two pixels a line)."""
        font = self.font()
        font.setUnderline(on or self.hasFocus() or self.underMouse())
        self.setFont(font)

    def enterEvent(self, event: QEnterEvent) -> None:  # noqa: N802 - Qt override
        super().enterEvent(event)
        self._underline(True)

    def leaveEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        super().leaveEvent(event)
        self._underline(self.hasFocus())

    def focusInEvent(self, event: QFocusEvent) -> None:  # noqa: N802 - Qt override
        super().focusInEvent(event)
        self._underline(True)

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802 - Qt override
        super().focusOutEvent(event)
        self._underline(False)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if event.button() == Qt.MouseButton.LeftButton and self.rect().contains(event.position().toPoint()):
            self.clicked.emit()
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            self.clicked.emit()
            return
        super().keyPressEvent(event)


class AdviceBox(QWidget):
    """Hidden while the scenario fits comfortably."""

    suggestion_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("advice_box")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        self.title = QLabel()
        self.title.setObjectName("advice_title")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        layout.addWidget(self.title)
        self.links: list[LinkLabel] = []
        for i in range(MAX_LINKS):
            link = LinkLabel()
            link.setObjectName(f"advice_link_{i}")
            link.clicked.connect(lambda i=i: self.suggestion_clicked.emit(i))
            link.hide()
            layout.addWidget(link)
            self.links.append(link)
        self.empty = QLabel()
        self.empty.setObjectName("advice_empty")
        self.empty.setTextFormat(Qt.TextFormat.PlainText)
        self.empty.setWordWrap(True)
        layout.addWidget(self.empty)
        self.hide()

    def show_advice(self, title: str, suggestions: Sequence[SuggestionVM], empty: str = "") -> None:
        self.title.setText(title)
        for i, link in enumerate(self.links):
            vm = suggestions[i] if i < len(suggestions) else None
            link.setVisible(vm is not None)
            link.setText("" if vm is None else "→ " + vm.text)
            link.setToolTip("" if vm is None else vm.tip)
            link.setAccessibleName("" if vm is None else vm.text)
            link.setAccessibleDescription("" if vm is None else vm.tip)
        self.empty.setText(empty)
        self.empty.setVisible(bool(empty))
        self.setVisible(bool(title))
