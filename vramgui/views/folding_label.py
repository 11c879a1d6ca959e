"""A word-wrapped label that folds to one line on a short screen: its text cut with "…" where the line is too short,
all of it in the tooltip; ``text()`` stays the whole text (tests, copy, screen readers read it).

The summary folds its rows to this when its whole height would leave the chart tabs less than their plot's minimum
(issue 23: at 1,024 x 640 its wrapped values took 258 px of a 447 px column, and the charts' plots ~8 px).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QHelpEvent, QPainter
from PySide6.QtWidgets import QLabel, QToolTip, QWidget

JOIN = " · "  # the lines of a folded text, on its one line


class FoldingLabel(QLabel):
    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setWordWrap(True)
        self._one_line = False

    @property
    def one_line(self) -> bool:
        return self._one_line

    def set_one_line(self, on: bool) -> None:
        if on != self._one_line:
            self._one_line = on
            self.setWordWrap(not on)
            self.updateGeometry()
            self.update()

    def line_text(self) -> str:
        return JOIN.join(part for part in self.text().split("\n") if part.strip())

    def elided(self) -> bool:
        """True while the one line shows less than the whole text."""
        return self._one_line and self.fontMetrics().horizontalAdvance(self.line_text()) > self.contentsRect().width()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override: folded, any width (the text is cut to it)
        hint = super().minimumSizeHint()
        return QSize(0, self.fontMetrics().height()) if self._one_line else hint

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        if not self._one_line:
            return super().sizeHint()
        margins = self.contentsMargins()
        return QSize(self.fontMetrics().horizontalAdvance(self.line_text()) + margins.left() + margins.right() + 2,
                     self.fontMetrics().height() + margins.top() + margins.bottom())

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt override
        if not self._one_line or ("\n" not in self.text() and not self.elided()):
            super().paintEvent(event)
            return
        rect = self.contentsRect()
        shown = self.fontMetrics().elidedText(self.line_text(), Qt.TextElideMode.ElideRight, rect.width())
        painter = QPainter(self)
        self.style().drawItemText(painter, rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                                  self.palette(), self.isEnabled(), shown, self.foregroundRole())
        painter.end()

    def event(self, event: QEvent) -> bool:
        if isinstance(event, QHelpEvent) and event.type() == QEvent.Type.ToolTip and self.elided():
            tip = "\n\n".join(t for t in (self.text(), self.toolTip()) if t)  # the whole text, then its own tip
            QToolTip.showText(event.globalPos(), tip, self)
            return True
        return super().event(event)
