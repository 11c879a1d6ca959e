"""The adviser's ways out in the summary: a heading ("Ways to make it fit:") and one link per suggestion; a click
(or Enter / Space on a focused link) reports the suggestion's index, and the presenter applies it.

While the result is stale (the input holds text that is not a value) the box is greyed: its links show no hand
and take no click, and the menu's ways out are greyed (issue 23).

The links are plain-text labels drawn as links (never rich text: no text here is ever read as HTML), so they wrap
on a narrow window instead of being clipped as a push button's text would be.

On a short screen the box is compact (``set_compact``): one line, the heading and a link that lists every way out in
a menu, so the chart under the summary keeps its plot (issue 23: at 1,024 x 640 four links pushed
the plot off the window).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QEnterEvent, QFocusEvent, QKeyEvent, QMouseEvent, QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMenu, QSizePolicy, QVBoxLayout, QWidget

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
        font.setUnderline(self.isEnabled() and (on or self.hasFocus() or self.underMouse()))
        self.setFont(font)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        """A greyed link (the result is stale) does not look clickable: no hand, no underline."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.EnabledChange:
            hand = Qt.CursorShape.PointingHandCursor if self.isEnabled() else Qt.CursorShape.ArrowCursor
            self.setCursor(hand)
            self._underline(False)

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
        if event.button() == Qt.MouseButton.LeftButton and self.rect().contains(event.position().toPoint()) \
                and self.isEnabled():
            self.clicked.emit()
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            if self.isEnabled():
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
        heading = QHBoxLayout()
        heading.setContentsMargins(0, 0, 0, 0)
        heading.addWidget(self.title, 1)
        self.more = LinkLabel()  # compact only: every way out, in a menu
        self.more.setObjectName("advice_more")
        self.more.setWordWrap(False)
        self.more.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.more.clicked.connect(self._show_menu)
        self.more.hide()
        heading.addWidget(self.more, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(heading)
        self.menu = QMenu(self)
        self.menu.setObjectName("advice_menu")
        self._compact = False
        self._suggestions: list[SuggestionVM] = []
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

    @property
    def compact(self) -> bool:
        return self._compact

    def set_compact(self, compact: bool) -> None:
        """One line (the heading and a link to a menu of the ways out), or every way out as a link."""
        if compact != self._compact:
            self._compact = compact
            self._show_links()

    def saved_height(self, width: int) -> int:
        """The height compacting saves at ``width`` now (0 when there is nothing to fold): the links, as the expanded
        box would show them."""
        layout = self.layout()
        spacing = max(layout.spacing(), 0) if layout is not None else 0
        shown = min(len(self._suggestions), MAX_LINKS)
        return sum(self.links[i].heightForWidth(width) + spacing for i in range(shown))

    def show_advice(self, title: str, suggestions: Sequence[SuggestionVM], empty: str = "") -> None:
        self.title.setText(title)
        self._suggestions = list(suggestions)
        self.menu.clear()
        for i, vm in enumerate(self._suggestions[:MAX_LINKS]):
            action = self.menu.addAction(vm.text.replace("&", "&&"))  # "&" would be read as a mnemonic
            action.setToolTip(vm.tip)
            action.setEnabled(self.isEnabled())
            action.triggered.connect(lambda _checked=False, i=i: self.suggestion_clicked.emit(i))
        self._show_links()
        self.empty.setText(empty)
        self.empty.setVisible(bool(empty))
        self.setVisible(bool(title))

    def _show_links(self) -> None:
        suggestions = self._suggestions
        folded = self._compact and bool(suggestions)
        self.more.setText(self.tr("show {0}…").format(min(len(suggestions), MAX_LINKS)) if folded else "")
        self.more.setAccessibleName(self.more.text())
        self.more.setVisible(folded)
        for i, link in enumerate(self.links):
            vm = suggestions[i] if i < len(suggestions) else None
            link.setVisible(vm is not None and not folded)
            link.setText("" if vm is None else "→ " + vm.text)
            link.setToolTip("" if vm is None else vm.tip)
            link.setAccessibleName("" if vm is None else vm.text)
            link.setAccessibleDescription("" if vm is None else vm.tip)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        """Greyed while the result is stale: the menu's ways out are greyed too, and a menu left open closes."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.EnabledChange:
            for action in self.menu.actions():
                action.setEnabled(self.isEnabled())
            if not self.isEnabled():
                self.menu.close()

    def _show_menu(self) -> None:
        self.menu.popup(self.more.mapToGlobal(self.more.rect().bottomLeft()))
