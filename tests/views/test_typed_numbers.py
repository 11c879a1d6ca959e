"""An input never shows a number that is not the one used (issue 23 item 6), driven through the real window with
the Llama preset, in English and Chinese: text that is not a value (out of range, a minus sign, too many digits,
letters) stays as typed, red, with the CLI's message naming the range, and the results stay greyed under the stale
banner with the draft's numbers; a half-typed value never titles the greyed result; a greyed way out takes no
click; Memory per GPU typed as 1e400 is not advised as "1e400GB"."""

from __future__ import annotations

import argparse
from dataclasses import replace

import pytest
from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import QApplication

from tests.views.helpers import edit, settle
from vramgui import i18n
from vramgui.app import create_main_window
from vramgui.cli.options import dest_of, option_value
from vramgui.core.estimate import estimate
from vramgui.core.fields import paths
from vramgui.core.fields import registry as fields
from vramgui.core.scenario.specs import ModelSpec
from vramgui.core.text.errors import InputError
from vramgui.core.text.units import format_bytes
from vramgui.presenters.messages import input_error_text
from vramgui.presenters.results import scenario_title


@pytest.fixture(scope="module", params=["en", "zh_CN"])
def language(request, qapp, compiled_dir):
    """Each test in English, then in Simplified Chinese (messages only: no width is measured, so no CJK font is
    needed, unlike the shared fixture's)."""
    original = QLocale()
    translations = i18n.Translations(qapp, compiled_dir)
    translations.apply(request.param)
    yield request.param
    translations.apply("en")
    QLocale.setDefault(original)


@pytest.fixture
def llama(qtbot, language, settings):
    """The window in ``language``, Llama-3-8B on 8 x 80 GB, the form scrolled to nothing in particular."""
    window = create_main_window(settings)
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    edit(window, "model.preset", "llama-3-8b")
    edit(window, "hardware.gpu", "a100-80gb")
    window.activateWindow()
    settle()
    yield window
    window.presenter.finish_sweeps()


def type_text(qtbot, window, key: str, text: str, tab: bool = True) -> None:
    """Click into the field, select what it shows and type ``text`` over it, key by key (then Tab)."""
    editor = window.inputs.editors[key]
    window.input_scroll.ensureWidgetVisible(editor)
    editor.setFocus()
    qtbot.waitUntil(editor.hasFocus)
    editor.selectAll()
    qtbot.keyClicks(editor, text)
    if tab:
        qtbot.keyClick(editor, Qt.Key.Key_Tab)
    settle()


def cli_message(path: str, text: str) -> str:
    """What ``vramgui estimate`` says of ``text`` given for the field ``path``, in the window's words."""
    f = fields.field(path)
    with pytest.raises(InputError) as caught:
        option_value(argparse.Namespace(**{dest_of(f): text}), path)
    return input_error_text(caught.value)


CASES = [(paths.SEQ_LEN, typed) for typed in ("0", "-5", "99999999999", "abc")] + \
        [(paths.GPU_MEMORY, typed) for typed in ("0", "-5GB", "99999999999", "abc", "1e400")]


@pytest.mark.parametrize(("key", "typed"), CASES)
def test_text_that_is_not_a_value_stays_as_typed_red_with_the_range_and_the_result_is_stale(qtbot, llama, key,
                                                                                           typed):
    window, presenter = llama, llama.presenter
    before, peak = presenter.draft, window.summary.total.text()
    type_text(qtbot, window, key, typed)
    editor = window.inputs.editors[key]
    assert editor.text() == typed  # nothing clamped, cut, dropped or put back
    assert editor.property("invalid") is True
    assert window.inputs.error_text(key) == cli_message(key, typed)  # the CLI's words, with the range
    assert window.summary.stale_banner.isVisible() and cli_message(key, typed) in window.summary.stale_banner.text()
    assert presenter.is_stale and presenter.draft == before == presenter.scenario  # the typed text is not used
    assert window.summary.total.text() == peak and not window.summary.total.isEnabled()  # greyed, the draft's
    assert format_bytes(estimate(before).peak.bytes, "GB") in peak


def test_sequence_length_0_then_tab_is_not_replaced_by_2048(qtbot, llama):
    type_text(qtbot, llama, paths.SEQ_LEN, "0")
    assert llama.inputs.editors[paths.SEQ_LEN].text() == "0"
    assert "1" in llama.inputs.error_text(paths.SEQ_LEN) and "100,000,000" in llama.inputs.error_text(paths.SEQ_LEN)
    assert llama.summary.stale_banner.isVisible()


def test_letters_are_quoted_whole_not_by_their_last_key(qtbot, llama, language):
    type_text(qtbot, llama, paths.SEQ_LEN, "abc")
    message = llama.inputs.error_text(paths.SEQ_LEN)
    assert "'abc'" in message and "'c'" not in message
    assert ("Sequence length" in message) == (language == "en")  # the reader's language



def test_a_value_typed_after_a_wrong_one_is_used_and_the_red_goes(qtbot, llama):
    type_text(qtbot, llama, paths.SEQ_LEN, "-5")
    type_text(qtbot, llama, paths.SEQ_LEN, "4096")
    editor = llama.inputs.editors[paths.SEQ_LEN]
    assert llama.presenter.draft.training.seq_len == 4096 and not llama.presenter.is_stale
    assert not editor.property("invalid") and llama.inputs.error_text(paths.SEQ_LEN) == ""
    assert not llama.summary.stale_banner.isVisible()
    editor.setFocus()
    qtbot.keyClick(editor, Qt.Key.Key_Up)  # the arrows step from the number shown, as a spin box's
    assert editor.text() == "4,097" and llama.presenter.draft.training.seq_len == 4097


def test_a_half_typed_count_never_titles_the_greyed_result(qtbot, llama):
    """Typing 1e400 as the parameter count of a custom model: 1e4 (10,000) is a value on the way, 1e40 is not;
    the greyed result is the draft's, 7.00B, never the 10.00K typed on the way."""
    window, presenter = llama, llama.presenter
    presenter.load_scenario(replace(presenter.draft, model=ModelSpec(name="custom", params=7 * 10**9)))
    params = window.inputs.editors[paths.PARAMS]
    params.setFocus()
    qtbot.waitUntil(params.hasFocus)
    params.selectAll()
    seen = []
    for key in "1e400":
        qtbot.keyClicks(params, key)
        settle()
        title = window.result.title
        seen.append((params.text(), presenter.is_stale, title))
        assert title == scenario_title(presenter.draft, estimate(presenter.draft)), seen
        if presenter.is_stale:
            assert presenter.draft.model.params == 7 * 10**9 and "10.00K" not in title, seen
            assert not window.inputs.hints["model.params_hint"].isVisible()
    assert params.text() == "1e400" and presenter.is_stale
    window.ensure_charts()
    window.charts()  # the greyed chart's subtitle is the draft's too
    assert window.current_chart()._subtitle == window.result.title


def test_a_greyed_way_out_takes_no_click(qtbot, llama):
    window, presenter = llama, llama.presenter
    edit(window, "hardware.gpu", "rtx-4090")
    presenter.on_field_edited(paths.NUM_GPUS, 1)
    presenter.on_field_edited(paths.ZERO_STAGE, "0")
    settle()
    box = window.summary.advice
    link = next(link for link in box.links if link.isVisibleTo(window))
    assert link.cursor().shape() == Qt.CursorShape.PointingHandCursor
    type_text(qtbot, window, paths.SEQ_LEN, "abc")
    assert presenter.is_stale and not link.isEnabled()
    assert link.cursor().shape() != Qt.CursorShape.PointingHandCursor  # it does not look clickable ...
    clicked = []
    window.summary.suggestion_clicked.connect(clicked.append)
    qtbot.mouseClick(link, Qt.MouseButton.LeftButton)  # ... and is not
    box.set_compact(True)
    QApplication.processEvents()
    assert not any(action.isEnabled() for action in box.menu.actions())  # nor are the menu's ways out
    assert clicked == [] and presenter.is_stale
    type_text(qtbot, window, paths.SEQ_LEN, "2048")
    assert link.isEnabled() and all(action.isEnabled() for action in box.menu.actions())
    assert box.more.cursor().shape() == Qt.CursorShape.PointingHandCursor


def test_memory_per_gpu_typed_as_1e400_is_not_advised_as_a_size_out_of_range(qtbot, llama):
    type_text(qtbot, llama, paths.GPU_MEMORY, "1e400")
    message = llama.inputs.error_text(paths.GPU_MEMORY)
    assert "1e400GB" not in message and "1,000,000 TB" in message
    type_text(qtbot, llama, paths.GPU_MEMORY, "80")  # a number in range is still offered in both units
    message = llama.inputs.error_text(paths.GPU_MEMORY)
    assert "80GB" in message and "80GiB" in message


def test_the_arrows_step_from_the_value_used_when_the_text_reads_as_none(qtbot, llama):
    used = llama.presenter.draft.training.seq_len
    type_text(qtbot, llama, paths.SEQ_LEN, "abc", tab=False)
    box = llama.inputs.editors[paths.SEQ_LEN]
    qtbot.keyClick(box, Qt.Key.Key_Up)
    assert box.text() == f"{used + 1:,}" and llama.presenter.draft.training.seq_len == used + 1
    assert not llama.presenter.is_stale and not box.property("invalid")
    type_text(qtbot, llama, paths.SEQ_LEN, "-5", tab=False)
    qtbot.keyClick(box, Qt.Key.Key_Up)  # from below the range: its lowest value, never past it
    assert box.text() == "1" and llama.presenter.draft.training.seq_len == 1
