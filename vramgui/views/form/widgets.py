"""Editors for the scrolling input form: spin and combo boxes that take focus by click or Tab only and leave the
mouse wheel to the scroll area unless they have focus (a wheel turned over the form must scroll it, never change
an input on the way); a spin box that says what it refused to take; the search of a preset list."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, QSize, Qt, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent, QWheelEvent
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QComboBox,
    QCompleter,
    QDoubleSpinBox,
    QLineEdit,
    QSpinBox,
    QWidget,
)

SEARCH_ROLE = Qt.ItemDataRole.UserRole + 1  # an item's search text: its names, lower case without separators


class NumberLineEdit(QLineEdit):
    """A line edit for a whole number that may be empty (derived): as wide as a spin box, not a text field."""

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        hint = super().sizeHint()
        return QSize(min(hint.width(), self.fontMetrics().horizontalAdvance("0" * 9) + 12), hint.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), self.fontMetrics().horizontalAdvance("0" * 5)), hint.height())


class _Refusing:
    """What a spin box would not take (``refused``): a keystroke past its range, which Qt drops without a word
    ("99999999" in a box that stops at 10,000,000 stays "9,999,999"; "100" in the reserve box that stops at 99.99),
    and text left out of range by Tab or Return, which Qt replaces by the last value. The form shows why, with the
    range. Mixed into a QAbstractSpinBox subclass that emits its ``refused = Signal(str)`` in ``_refuse``."""

    def _watch_refusals(self) -> None:
        spin: QAbstractSpinBox = self  # type: ignore[assignment]
        spin.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        line = spin.lineEdit()
        assert line is not None
        line.inputRejected.connect(lambda: self._refuse(line.text()))  # the text it would have become

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt override
        spin: QAbstractSpinBox = self  # type: ignore[assignment]
        if spin.hasFocus():
            super().wheelEvent(event)  # type: ignore[misc]
        else:
            event.ignore()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self._report_left_text()
        super().keyPressEvent(event)  # type: ignore[misc]

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802 - Qt override
        self._report_left_text()
        super().focusOutEvent(event)  # type: ignore[misc]

    def _report_left_text(self) -> None:
        spin: QAbstractSpinBox = self  # type: ignore[assignment]
        text = spin.cleanText()  # type: ignore[attr-defined]
        if text.strip() and not spin.hasAcceptableInput():  # "0" under a minimum of 1: about to be replaced
            self._refuse(text)

    def _refuse(self, text: str) -> None:
        raise NotImplementedError  # each spin box below emits its own ``refused`` signal


class WheelSafeSpinBox(_Refusing, QSpinBox):
    refused = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._watch_refusals()

    def _refuse(self, text: str) -> None:
        self.refused.emit(text)


class WheelSafeDoubleSpinBox(_Refusing, QDoubleSpinBox):
    refused = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._watch_refusals()

    def _refuse(self, text: str) -> None:
        self.refused.emit(text)


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
