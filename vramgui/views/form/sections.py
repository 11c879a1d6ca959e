"""A group of the input form under a header that folds it, as a tool box does: an arrow and the title; a click (or
Space on the focused header) opens or closes the rows below it. The first group (Essentials) does not fold.

A folded group keeps its editors (hidden, never destroyed): values, errors and enabled states are set on them as on
any other, and the form's minimum width counts them, so opening a group never needs a wider column.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import QFrame, QLabel, QSizePolicy, QToolButton, QVBoxLayout, QWidget

INDENT = 14  # the rows sit under the title, right of the arrow


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
            button = QToolButton()
            button.setText(title)
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

    def _toggled(self, shown: bool) -> None:
        assert isinstance(self.header, QToolButton)
        self.header.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self.body.setVisible(shown)
        self.toggled.emit(shown)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        """As wide as the rows need even while folded: opening a group never squeezes its rows."""
        hint = super().minimumSizeHint()
        if self.body.isHidden():
            hint.setWidth(max(hint.width(), self.body.minimumSizeHint().width()))
        return hint
