"""Editors for the scrolling input form: spin and combo boxes that take focus by click or Tab only and leave the
mouse wheel to the scroll area unless they have focus (a wheel turned over the form must scroll it, never change
an input on the way)."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QLineEdit, QSpinBox, QWidget


class NumberLineEdit(QLineEdit):
    """A line edit for a whole number that may be empty (derived): as wide as a spin box, not a text field."""

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        hint = super().sizeHint()
        return QSize(min(hint.width(), self.fontMetrics().horizontalAdvance("0" * 9) + 12), hint.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), self.fontMetrics().horizontalAdvance("0" * 5)), hint.height())


class WheelSafeSpinBox(QSpinBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt override
        if self.hasFocus():
            super().wheelEvent(event)
        else:
            event.ignore()


class WheelSafeDoubleSpinBox(QDoubleSpinBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt override
        if self.hasFocus():
            super().wheelEvent(event)
        else:
            event.ignore()


class WheelSafeComboBox(QComboBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(12)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt override
        if self.hasFocus():
            super().wheelEvent(event)
        else:
            event.ignore()


class OpenChoiceComboBox(WheelSafeComboBox):
    """An editable combo box for a choice that also takes typed values (the LoRA targets: ``attention``,
    ``all-linear`` or a comma list of module names). Its items show their values as they are, so what the box
    shows is always what is typed; no completer, which would complete "a" to "attention" under the cursor."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setEditable(True)
        self.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.setCompleter(None)  # type: ignore[arg-type]  # Qt takes nullptr: no completer
        self.setMinimumContentsLength(14)

    def show_value(self, text: str) -> None:
        """Show ``text`` (an item's value or typed names) without reporting it as an edit."""
        index = self.findData(text)
        if index >= 0 and index != self.currentIndex():
            self.setCurrentIndex(index)
        if self.currentText() != text:
            self.setEditText(text)
