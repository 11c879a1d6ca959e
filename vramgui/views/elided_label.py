"""A label of one line that cuts its text with "…" to its width and shows all of it in the tooltip."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QLabel, QWidget


class ElidedLabel(QLabel):
    """One line of plain text (model and GPU names are user data), cut with "…" to the width; all of it in the
    tooltip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.full_text = ""

    def set_full_text(self, text: str) -> None:
        self.full_text = text
        self.setToolTip(text)
        self._elide()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._elide()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override: any width (the text is cut to it)
        return QSize(0, super().minimumSizeHint().height())

    def _elide(self) -> None:
        self.setText(self.fontMetrics().elidedText(self.full_text, Qt.TextElideMode.ElideRight, max(self.width(), 1)))
