"""The adviser in the real window: a run that does not fit lists its ways out under the headline as links; a click
(or Enter on a focused link) applies the change through the presenter, and the window shows the fitting estimate
with the form showing the new values and the title marked modified."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QCheckBox, QComboBox

from tests.views.helpers import choose, shows_estimate
from vramgui.core.advise.suggestions import advise
from vramgui.core.estimate import estimate
from vramgui.core.text.message import render
from vramgui.presenters.advice import MAX_SHOWN


@pytest.fixture
def one_card(window):
    """Llama-3-8B, bf16 mixed Adam, on one 24 GiB card: 193 GB at the peak."""
    choose(window.inputs.editors["model.preset"], "llama-3-8b")
    choose(window.inputs.editors["hardware.gpu"], "rtx-4090")
    window.presenter.on_field_edited("parallel.num_gpus", 1)
    window.presenter.on_field_edited("parallel.zero_stage", "0")
    window.presenter.on_field_edited("precision.dtype", "bf16")
    window.document.mark_clean()
    QApplication.processEvents()
    assert window.summary.fits_kind == "bad"
    return window


def shown_value(editor) -> object:
    if isinstance(editor, QComboBox):
        return editor.currentData()
    if isinstance(editor, QCheckBox):
        return editor.isChecked()
    if isinstance(editor, QAbstractSpinBox):
        return editor.value()
    return editor.text()


def shown_links(window):
    return [link for link in window.summary.advice.links if link.isVisibleTo(window)]


def test_a_run_that_does_not_fit_lists_the_cores_ways_out(one_card):
    window = one_card
    box = window.summary.advice
    assert box.isVisibleTo(window) and box.title.text() == "Ways to make it fit:"
    core = advise(window.presenter.scenario)
    links = shown_links(window)
    assert [link.text() for link in links] == ["→ " + render(s.msg()) for s in core[:MAX_SHOWN]]
    for link in links:
        assert link.textFormat() == Qt.TextFormat.PlainText and link.toolTip().startswith("Click to apply:")
        assert link.width() >= link.fontMetrics().horizontalAdvance("→ use 16 GPUs")  # not squeezed away


def test_a_click_applies_the_suggestion_and_the_window_shows_the_fitting_estimate(qtbot, one_card):
    window = one_card
    suggestion = window.presenter.computed.suggestions[0]
    link = shown_links(window)[0]
    qtbot.mouseClick(link, Qt.MouseButton.LeftButton)
    QApplication.processEvents()
    scenario = window.presenter.scenario
    assert scenario == suggestion.scenario
    est = estimate(scenario)
    assert est.fits and shows_estimate(window, est) and window.summary.fits_kind == "ok"
    for path, _ in suggestion.changes:  # the form shows the applied values
        assert str(shown_value(window.inputs.editors[path])) == str(window.presenter.form_value(path)), path
    assert window.isWindowModified()  # an edit like the form's: the document has unsaved changes
    if est.headroom >= 0.05 * est.usable:
        assert not window.summary.advice.isVisibleTo(window)


def test_enter_on_a_focused_link_applies_it_too(qtbot, one_card):
    window = one_card
    index = len(shown_links(window)) - 1
    suggestion = window.presenter.computed.suggestions[index]
    link = shown_links(window)[index]
    link.setFocus()
    qtbot.keyClick(link, Qt.Key.Key_Return)
    assert window.presenter.scenario == suggestion.scenario
    assert shows_estimate(window, estimate(suggestion.scenario))


def test_the_advice_is_hidden_when_it_fits_and_greyed_while_the_input_is_invalid(qtbot, one_card):
    window = one_card
    window.presenter.on_field_edited("parallel.num_gpus", "abc")
    assert window.presenter.is_stale and not window.summary.advice.isEnabled()
    window.presenter.on_field_edited("parallel.num_gpus", 1)
    assert window.summary.advice.isEnabled()
    choose(window.inputs.editors["hardware.gpu"], "h100-sxm")
    window.presenter.on_field_edited("parallel.num_gpus", 8)
    window.presenter.on_field_edited("parallel.zero_stage", "3")
    assert window.summary.fits_kind == "ok" and not window.summary.advice.isVisibleTo(window)
