"""Driving the real widgets in view tests: type into a line edit, pick a combo box item by its data."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QLineEdit


def edit(window, key: str, value: object) -> None:
    """An edit as the form makes it: the field shows the value and the presenter hears of it."""
    window.set_form_values({key: value})
    window.presenter.on_field_edited(key, value)


def settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


def type_into(qtbot, editor: QLineEdit, text: str) -> None:
    editor.selectAll()
    qtbot.keyClick(editor, Qt.Key.Key_Delete)
    qtbot.keyClicks(editor, text)


def choose(combo: QComboBox, value: str) -> None:
    index = combo.findData(value)
    assert index >= 0, value
    combo.setCurrentIndex(index)


def shows_estimate(window, est, unit: str = "GB") -> bool:
    """The summary shows ``est``: the step peak as the headline, the per-GPU sum as the conventions' figure."""
    from vramgui.core.text.units import format_bytes

    headline, total = window.summary.total.text(), window.summary.sum.text()
    return format_bytes(est.peak.bytes, unit) in headline and format_bytes(est.per_gpu_total, unit) in total
