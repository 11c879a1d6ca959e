"""A group of the input form under a header that folds it, as a tool box does: an arrow and the title; a click (or
Space on the focused header) opens or closes the rows below it. The first group (Essentials) does not fold.

A folded group keeps its editors (hidden, never destroyed): values, errors and enabled states are set on them as on
any other, and the form's minimum width counts them, so opening a group never needs a wider column.

While folded, the header says after its title, muted, what the group holds that the first screen does not
(``set_summary``: "Training · global batch 128, full recomputation"): the list where it fits, else its count ("3
set"), elided where even that does not; the list is the header's tooltip. The text is a child of the header that
lets clicks through, so the whole row still opens the group, and it adds nothing to the form's minimum width.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QFont, QPalette, QResizeEvent
from PySide6.QtWidgets import QFrame, QLabel, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from vramgui.presenters.view_models import GroupSummary

INDENT = 14  # the rows sit under the title, right of the arrow
PREFIX = "· "  # the summary after the title: "Training  · global batch 128"


class FoldHeader(QToolButton):
    """A group's title with an arrow, and the muted summary of what it holds after the title while it is folded."""

    def __init__(self, title: str) -> None:
        super().__init__()
        self.setText(title)
        self._summary = GroupSummary()
        self.summary_label = QLabel(self)
        self.summary_label.setObjectName("summary")
        plain = QFont()  # only the weight set: the rest follows the header's font, the title's bold does not
        plain.setBold(False)
        self.summary_label.setFont(plain)
        self.summary_label.setTextFormat(Qt.TextFormat.PlainText)
        self.summary_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)  # muted, in light and dark themes
        self.summary_label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)  # a click opens the group
        self.summary_label.hide()

    def set_summary(self, summary: GroupSummary) -> None:
        self._summary = summary
        self.setToolTip(summary.tooltip)
        self.setAccessibleDescription(summary.tooltip)
        self.refresh()

    def summary_text(self) -> str:
        """The summary as shown ("" while open or when the group holds only the first screen's values)."""
        return self.summary_label.text() if self.summary_label.isVisibleTo(self) else ""

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override: a bold title is wider
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self.refresh()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self.refresh()

    def refresh(self) -> None:
        """The list after the title if it fits in the rest of the row, else its count, elided if even that does
        not fit; hidden while the group is open."""
        start = self.sizeHint().width()  # the arrow, the title and the button's margins
        room = self.width() - start - 4
        metrics = self.summary_label.fontMetrics()
        full, short = PREFIX + self._summary.text, PREFIX + self._summary.short
        text = full if metrics.horizontalAdvance(full) <= room else short
        shown = bool(self._summary.text) and not self.isChecked() and room > metrics.horizontalAdvance(PREFIX + "…")
        self.summary_label.setText(metrics.elidedText(text, Qt.TextElideMode.ElideRight, max(room, 0)))
        self.summary_label.setGeometry(start, 0, max(room, 0), self.height())
        self.summary_label.setVisible(shown)


class FormSection(QWidget):
    """One group of the form: ``header`` (a checkable tool button with an arrow; a label when it does not fold) and
    ``body``, the widget that holds the group's rows. ``toggled(open)`` when it opens or closes."""

    toggled = Signal(bool)

    def __init__(self, title: str, folding: bool = True, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._title = title
        self.folding = folding
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        rule = QFrame()  # a line above each title: the groups read as sections even when all are folded
        rule.setFrameShape(QFrame.Shape.HLine)
        rule.setFrameShadow(QFrame.Shadow.Sunken)
        layout.addWidget(rule)
        if folding:
            button = FoldHeader(title)
            button.setCheckable(True)
            button.setAutoRaise(True)
            button.setArrowType(Qt.ArrowType.RightArrow)
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            button.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            button.toggled.connect(self._toggled)
            self.header: QWidget = button
        else:
            self.header = QLabel(title)
        font = self.header.font()
        font.setBold(True)
        self.header.setFont(font)
        layout.addWidget(self.header)
        self.body = QWidget()
        self.body.setObjectName("section_body")
        layout.addWidget(self.body)
        if folding:
            self.body.hide()

    def title(self) -> str:
        return self._title

    def is_open(self) -> bool:
        return not self.folding or not self.body.isHidden()

    def set_open(self, shown: bool) -> None:
        """Open or close the group (``toggled`` follows when that changes it); a group that does not fold stays open."""
        if self.folding and shown != self.is_open():
            assert isinstance(self.header, QToolButton)
            self.header.setChecked(shown)

    def set_summary(self, summary: GroupSummary) -> None:
        """What the group holds that the first screen does not, shown after its title while it is folded."""
        if isinstance(self.header, FoldHeader):
            self.header.set_summary(summary)

    def summary_text(self) -> str:
        """The summary the header shows ("" : none shown)."""
        return self.header.summary_text() if isinstance(self.header, FoldHeader) else ""

    def _toggled(self, shown: bool) -> None:
        assert isinstance(self.header, FoldHeader)
        self.header.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self.body.setVisible(shown)
        self.header.refresh()
        self.toggled.emit(shown)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        """As wide as the rows need even while folded: opening a group never squeezes its rows."""
        hint = super().minimumSizeHint()
        if self.body.isHidden():
            hint.setWidth(max(hint.width(), self.body.minimumSizeHint().width()))
        return hint
