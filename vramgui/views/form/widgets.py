"""Editors for the scrolling input form: number and combo boxes that take focus by click or Tab only and leave the
mouse wheel to the scroll area unless they have focus (a wheel turned over the form must scroll it, never change
an input on the way); a number box that shows what was typed, never a number it was not given; the search of a
preset list."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, QSize, Qt, Signal
from PySide6.QtGui import QValidator, QWheelEvent
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QCompleter, QLineEdit, QWidget

SEARCH_ROLE = Qt.ItemDataRole.UserRole + 1  # an item's search text: its names, lower case without separators


class NumberLineEdit(QLineEdit):
    """A line edit for a whole number that may be empty (derived): as wide as a spin box, not a text field."""

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        hint = super().sizeHint()
        return QSize(min(hint.width(), self.fontMetrics().horizontalAdvance("0" * 9) + 12), hint.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), self.fontMetrics().horizontalAdvance("0" * 5)), hint.height())


class NumberBox(QAbstractSpinBox):
    """A number's editor that shows exactly what was typed: no validator, no clamping, no fix-up on leaving. A spin
    box would drop a minus sign, stop at its digit count and put its last value back over text out of range, so
    it could show a number that is not the one used (issue 23). Here the text goes to the presenter as typed
    (``text_edited``), which parses it with the registry's ``fields.parse`` and marks it red with the reason and
    the range when it is not a value. The arrows, Up/Down, Page Up/Down and the wheel (with focus only: a wheel
    turned over the form scrolls it) step from the number shown, within the range, as a spin box does.

    ``percent``: the text is a percentage (the reserve, LoRA dropout), else a whole number shown with thousands
    grouped ("2,048", which the registry's parser reads)."""

    text_edited = Signal(str)  # the text typed or stepped to, as it stands

    def __init__(self, low: float, high: float, step: float = 1, percent: bool = False,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._low, self._high, self._step, self._percent = low, high, step, percent
        self._last: float = low  # the last number shown: where the arrows start from text that reads as none
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAccelerated(True)
        line = self.lineEdit()
        assert line is not None
        line.textEdited.connect(self.text_edited)

    # ----- what Qt asks of a spin box: any text is acceptable (the presenter judges it); nothing is fixed up
    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        return QValidator.State.Acceptable, text, pos

    def fixup(self, text: str) -> str:
        return text

    def stepEnabled(self) -> QAbstractSpinBox.StepEnabledFlag:  # noqa: N802 - Qt override
        value = self.value()
        flags = QAbstractSpinBox.StepEnabledFlag.StepNone
        if value is None or value < self._high:
            flags |= QAbstractSpinBox.StepEnabledFlag.StepUpEnabled
        if value is None or value > self._low:
            flags |= QAbstractSpinBox.StepEnabledFlag.StepDownEnabled
        return flags

    def stepBy(self, steps: int) -> None:  # noqa: N802 - Qt override
        value = self.value()
        start = self._last if value is None else value
        stepped = min(max(start + steps * self._step, self._low), self._high)
        self.show_value(stepped)
        self.text_edited.emit(self.text())

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt override
        if self.hasFocus():
            super().wheelEvent(event)
        else:
            event.ignore()

    # ----- the value
    def minimum(self) -> float:
        return self._low

    def maximum(self) -> float:
        return self._high

    def value(self) -> int | float | None:
        """The number the text reads as (for stepping and tests), None when it reads as none."""
        text = self.text().strip().removesuffix("%").strip().replace(",", "").replace("_", "")
        try:
            return float(text) if self._percent else int(text)
        except ValueError:
            return None

    def show_value(self, value: object) -> None:
        """Show ``value`` (a number the presenter pushes, or text to keep as it is) without reporting an edit."""
        if isinstance(value, str):
            text = value
        else:
            self._last = float(value)  # type: ignore[arg-type]
            text = (f"{self._last:.10f}".rstrip("0").rstrip(".") if self._percent
                    else f"{int(value):,}")  # type: ignore[call-overload]
        if self.text() != text:
            line = self.lineEdit()
            assert line is not None
            line.setText(text)

    def setValue(self, value: float) -> None:  # noqa: N802 - as a spin box's: shown and reported as an edit
        self.show_value(value)
        self.text_edited.emit(self.text())


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


class SearchCompleter(QCompleter):
    """The search of an editable combo box's items: what is typed matches each item's ``SEARCH_ROLE`` text (its
    shown name, key and other names, made comparable by ``normalize``) anywhere inside it, so "llama-3",
    "llama 3" and "Llama_3" all find "Meta Llama 3 8B". The popup and the box show the items' own texts."""

    def __init__(self, model: QAbstractItemModel, normalize: Callable[[str], str], parent: QWidget | None = None
                 ) -> None:
        super().__init__(model, parent)
        self._normalize = normalize
        self.setCompletionRole(SEARCH_ROLE)
        self.setFilterMode(Qt.MatchFlag.MatchContains)
        self.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)

    def splitPath(self, path: str) -> list[str]:  # noqa: N802 - Qt override
        return [self._normalize(path)]

    def pathFromIndex(self, index: QModelIndex | QPersistentModelIndex) -> str:  # noqa: N802 - Qt override
        return str(index.data(Qt.ItemDataRole.DisplayRole) or "")
