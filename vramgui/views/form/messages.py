"""The texts under the input form's editors: each field's inline error message, the read-only hints the presenter
sets ("≈ 8.03B", "= 85.90 GB", "2 nodes").

Nothing stale is shown: a hint describes the last valid value of its fields, so it is hidden while one of them
holds an error (the memory hint "= 85.90 GB" never stands under "abc"), and shown again with the next value the
presenter pushes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QLabel, QWidget

from vramgui.presenters.form.groups import HINTS
from vramgui.presenters.view_models import FieldError
from vramgui.views.theme import error_colour, invalid_base_colour

MARK = "⚠ "


def mark_invalid(editor: QWidget, invalid: bool) -> None:
    """An editor whose text is not a value: its text in the error colour on a tinted field (a palette, not a style
    sheet, so the platform's look and a number box's arrows stay), and the ``invalid`` property for tests."""
    editor.setProperty("invalid", invalid)
    if not invalid:
        editor.setPalette(QPalette())  # no role of its own: the window's palette again
        return
    palette = QPalette(editor.palette())
    palette.setColor(QPalette.ColorRole.Text, QColor(error_colour(editor)))
    palette.setColor(QPalette.ColorRole.Base, QColor(invalid_base_colour(editor)))
    editor.setPalette(palette)


def _describes(hint: str, key: str) -> bool:
    return any(key == source or (source.endswith(".") and key.startswith(source)) for source in HINTS[hint][1])


class FieldMessages:
    def __init__(self, owner: QWidget) -> None:
        self._owner = owner  # whose palette gives the error colour
        self.errors: dict[str, QLabel] = {}
        self.hints: dict[str, QLabel] = {}
        self._messages: dict[str, list[str]] = {}  # the presenter's messages by field, as last shown
        self._hint_texts: dict[str, str] = {}

    def error_label(self, key: str) -> QLabel:
        label = QLabel()
        label.setObjectName(key + ".error")
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)  # messages quote what was typed
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.hide()
        self.errors[key] = label
        return label

    def hint_label(self, key: str) -> QLabel:
        label = QLabel()
        label.setObjectName(key)
        label.setTextFormat(Qt.TextFormat.PlainText)
        label.setWordWrap(True)
        label.hide()
        self.hints[key] = label
        return label

    def set_hint(self, key: str, text: str) -> None:
        self._hint_texts[key] = text
        self._show_hint(key)

    def _show_hint(self, key: str) -> None:
        text = self._hint_texts.get(key, "")
        stale = any(_describes(key, field) for field in self._messages)
        label = self.hints[key]
        label.setText("" if stale else text)
        label.setVisible(bool(text) and not stale)

    def show_errors(self, errors: Sequence[FieldError], editors: Mapping[str, QWidget]) -> list[str]:
        """The presenter's messages under their fields; returns those of no field (for the general line). Only the
        fields whose messages change are touched (re-polishing every editor costs a frame's worth)."""
        before, self._messages = self._messages, {}
        general: list[str] = []
        for err in errors:
            if err.key in self.errors:
                self._messages.setdefault(err.key, []).append(err.message)
            else:
                general.append(err.message)
        for key in before.keys() | self._messages.keys():  # the fields whose messages change, no other
            if self._messages.get(key) == before.get(key) or key not in editors:
                continue
            mark_invalid(editors[key], key in self._messages)
            self._show(key)
        for key in self.hints:
            self._show_hint(key)
        return general

    def _show(self, key: str) -> None:
        label = self.errors[key]
        lines = self._messages.get(key, [])
        if lines:
            label.setText(MARK + "\n".join(lines))
            label.setStyleSheet(f"color: {error_colour(self._owner)};")
            label.show()
        else:
            label.hide()
            label.clear()

    def text(self, key: str) -> str:
        label = self.errors[key]
        return "" if label.isHidden() else label.text().removeprefix(MARK)
