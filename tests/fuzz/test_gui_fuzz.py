"""Random actions on the real window (issue 12): whatever is typed, chosen or toggled, the window either shows the
estimate of the scenario it holds, or says it is stale with the reason - never old numbers as if current - and
no label renders user text as HTML.

Actions go through the widgets (line edits, combo boxes, spin boxes, check boxes) the way a user's would; the
examples form one random walk over a single window (hypothesis draws the sequence). ``make fuzz`` runs more of
them (tests/fuzz/profile.py).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractSpinBox, QCheckBox, QComboBox, QLabel, QLineEdit

from tests.fuzz.profile import fuzz_settings
from tests.views.helpers import shows_estimate, type_into
from vramgui.core.estimate import estimate

HOSTILE = "<h1 style='color:red'>HUGE</h1>"
TEXTS = ("", "0", "1", "-5", "7B", "70B", "1e308GB", "1e300T", "80GB", "80GiB", "abc", "1.5", "9007199254740993B",
         "١٢", "nan", "inf", "1,000", "1,5", "24576MiB", "999999999999999999999999999999", "0.5", "2", "8", "64",
         HOSTILE)

pytestmark = pytest.mark.usefixtures("unsaved_prompt")


def _type(qtbot, editor: QLineEdit, text: str) -> None:
    """Type ``text``: ASCII through key events; other characters (Arabic-Indic digits) as the user's input method
    delivers them, then the textEdited signal the form listens to."""
    if text.isascii():
        type_into(qtbot, editor, text)
    else:
        editor.setText(text)
        editor.textEdited.emit(text)


def _editors(window):
    return [(path, w) for path, w in sorted(window.inputs.editors.items()) if w.isEnabled() and w.isVisible()]


def _act(qtbot, window, pick: int, value: str, index: int) -> None:
    editors = _editors(window)
    if not editors:
        return
    _path, widget = editors[pick % len(editors)]
    if isinstance(widget, QComboBox) and not widget.isEditable():
        if widget.count():
            widget.setCurrentIndex(index % widget.count())
    elif isinstance(widget, QCheckBox):
        widget.toggle()
    elif isinstance(widget, QAbstractSpinBox):
        line = widget.findChild(QLineEdit)
        if line is not None:
            _type(qtbot, line, value)
            qtbot.keyClick(line, Qt.Key.Key_Tab)
    elif isinstance(widget, QLineEdit):
        _type(qtbot, widget, value)
        qtbot.keyClick(widget, Qt.Key.Key_Tab)
    elif isinstance(widget, QComboBox):  # editable (the preset search box)
        line = widget.lineEdit()
        if line is not None:
            _type(qtbot, line, value)


def _check(window) -> None:
    presenter = window.presenter
    presenter.recompute()
    stale = presenter.is_stale
    banner = window.summary.stale_banner
    if stale:
        assert banner.isVisible() and banner.text(), "stale without a reason"
        assert presenter.errors or banner.text()
    else:
        assert not banner.isVisible()
        scenario = presenter.scenario
        assert scenario is not None
        assert shows_estimate(window, estimate(scenario), presenter.unit)
    for label in window.findChildren(QLabel):
        if HOSTILE in label.text():
            assert label.textFormat() == Qt.TextFormat.PlainText, label.objectName() or label.text()[:40]


@settings(fuzz_settings(in_suite=25, share=0.02),
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(TEXTS), st.integers(0, 100)), min_size=1,
                max_size=8))
def test_random_actions_never_show_old_numbers_as_current(qtbot, window, actions):
    for pick, value, index in actions:
        _act(qtbot, window, pick, value, index)
        _check(window)


def test_text_like_html_is_shown_as_text(qtbot, seed_window, tmp_path):
    """Issue 12 (12): a folder named <h1 ...>HUGE</h1> rendered as HTML in the stale banner and the preset error.
    Text the user typed (quoted by the error and the banner) and a folder that fails to import are shown as
    typed. On the seed's example, whose model is defined by its count (the first screen's preset defines it by
    its architecture, and the count is then no input)."""
    window = seed_window
    folder = tmp_path / HOSTILE.replace("/", "_")
    folder.mkdir()
    (folder / "config.json").write_text("{not json", encoding="utf-8")
    assert not window.presenter.import_model(str(folder))
    type_into(qtbot, window.inputs.editors["model.params"], HOSTILE)
    window.presenter.recompute()
    assert window.presenter.is_stale
    shown = [label for label in window.findChildren(QLabel) if "HUGE" in label.text()]
    assert window.summary.stale_banner in shown
    for label in shown:
        assert label.textFormat() == Qt.TextFormat.PlainText, label.text()[:80]
