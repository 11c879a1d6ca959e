"""What a new user runs into in the window, driven through the real widgets: the keyboard path through the window,
sizes typed without a unit, a form where nothing overlaps, the hidden ZeRO stage under Megatron, the model's name
when "Defined by" changes, the preset search box, the breakdown table on a laptop screen, what the language switch
keeps, attention heads that do not divide the width, a failed import, and a refused scenario once saved."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLabel,
    QLineEdit,
    QWidget,
)

from tests.views.helpers import choose, shows_estimate, type_into
from vramgui import app
from vramgui.app import create_main_window
from vramgui.core.estimate import estimate
from vramgui.io.presets import find_model

GB = 10**9


def _tab_path(qtbot, window, start, presses: int) -> list[str]:
    window.activateWindow()
    start.setFocus()
    qtbot.waitUntil(start.hasFocus)
    path = []
    for _ in range(presses):
        widget = QApplication.focusWidget()
        path.append(widget.objectName() or type(widget).__name__)
        qtbot.keyClick(widget, Qt.Key.Key_Tab)
    return path


def test_tab_passes_through_the_breakdown_table_back_to_the_form(qtbot, window):
    window.ensure_charts()
    path = _tab_path(qtbot, window, window.inputs.editors["overhead.extra"], 12)
    assert "BreakdownTable" in path
    assert path.count("BreakdownTable") == 1, path  # one stop, not one per cell
    assert "model.preset" in path[path.index("BreakdownTable"):], path  # and on round to the form again
    assert not window.breakdown.tabKeyNavigation()
    assert not window.compare_view.table.tabKeyNavigation()


def test_a_size_typed_without_a_unit_asks_for_one_and_keeps_the_last_result(qtbot, window):
    before = window.summary.total.text()
    before_memory, fits = window.presenter.draft.hardware.gpu_memory, window.summary.fits_text.text()
    memory = window.inputs.editors["hardware.gpu_memory"]
    type_into(qtbot, memory, "40")  # 40 GB to a person, 40 bytes to the parser: never silently "does not fit"
    message = window.inputs.error_text("hardware.gpu_memory")
    assert "'40' has no unit" in message and "40GB" in message and "40GiB" in message
    # the value from before the typing (emptied on the way, then 4 and 40 with no unit): never taken as 40 bytes
    assert window.presenter.draft.hardware.gpu_memory == before_memory > 40 * GB
    assert window.presenter.is_stale and window.summary.total.text() == before
    assert window.summary.fits_text.text() == fits  # the keystrokes on the way left no 0-byte GPU behind
    qtbot.keyClicks(memory, "GB")
    assert window.presenter.scenario.hardware.gpu_memory == 40 * GB and not window.presenter.is_stale
    assert shows_estimate(window, estimate(window.presenter.scenario))
    for path in ("overhead.cuda_context", "overhead.extra"):
        type_into(qtbot, window.inputs.editors[path], "0")  # nothing is nothing in any unit
        assert window.inputs.error_text(path) == ""
        type_into(qtbot, window.inputs.editors[path], "2")
        assert "no unit" in window.inputs.error_text(path)
        type_into(qtbot, window.inputs.editors[path], "2048B")  # bytes, when that is what is meant
        assert window.inputs.error_text(path) == ""
    assert window.presenter.scenario.overhead.cuda_context == 2048


def _overlaps(panel) -> list[tuple[str, str]]:
    """Pairs of visible form widgets (labels, editors, hints, messages, buttons) whose rectangles intersect."""
    kinds = (QLabel, QLineEdit, QAbstractButton, QComboBox, QAbstractSpinBox)
    widgets = [w for w in panel.findChildren(QWidget) if w.isVisibleTo(panel) and isinstance(w, kinds)
               and not isinstance(w.parentWidget(), (QComboBox, QAbstractSpinBox))]  # not an editor's own parts
    rects = [(w, QRect(w.mapTo(panel, w.rect().topLeft()), w.size())) for w in widgets]
    found = []
    for i, (a, ra) in enumerate(rects):
        for b, rb in rects[i + 1:]:
            if ra.intersects(rb) and not a.isAncestorOf(b) and not b.isAncestorOf(a):
                found.append((a.objectName() or a.text(), b.objectName() or b.text()))
    return found


def test_the_parameter_hint_sits_under_its_field_and_nothing_in_the_form_overlaps(qtbot, seed_window):
    window = seed_window  # the seed's worked example, every group open
    window.resize(1366, 768)
    choose(window.inputs.editors["model.preset"], "mixtral-8x7b")  # the longest hint: "≈ 46.70B, 12.88B active"
    hint, params = window.inputs.hints["model.params_hint"], window.inputs.editors["model.params"]
    assert "active" in hint.text() and hint.isVisible()
    assert hint.geometry().top() >= params.geometry().bottom()  # under the field, not over its text
    preset_width = window.inputs.editors["model.preset"].width()
    choose(window.inputs.editors["model.preset"], "llama-3-8b")  # a shorter hint leaves the rows above as they were
    assert window.inputs.editors["model.preset"].width() == preset_width
    window.inputs.show_architecture_details(True)
    type_into(qtbot, window.inputs.editors["hardware.gpu_memory"], "80 potatoes")  # an inline message too
    QApplication.processEvents()
    assert _overlaps(window.inputs) == []


def test_under_megatron_the_hidden_zero_stage_changes_nothing(qtbot, window):
    choose(window.inputs.editors["parallel.zero_stage"], "3")
    type_into(qtbot, window.inputs.editors["overhead.zero3_live_params"], "1B")
    assert window.presenter.scenario.overhead.zero3_live_params == GB
    choose(window.inputs.editors["convention"], "megatron")
    at_stage_3 = window.presenter.result.summary.total_bytes
    for path in ("parallel.zero_stage", "overhead.zero3_live_params"):  # both are DeepSpeed ZeRO settings
        assert not window.inputs.editors[path].isEnabled(), path
        assert "megatron convention ignores the ZeRO stage" in window.inputs.inactive_reason(path)
    window.presenter.on_field_edited("parallel.zero_stage", "0")  # what a file could hold: the stage it was saved at
    assert window.presenter.result.summary.total_bytes == at_stage_3
    assert estimate(window.presenter.scenario).component("other").bytes == 0


def test_defined_by_keeps_the_models_name_and_marks_a_changed_preset_edited(qtbot, window):
    inputs = window.inputs.editors
    choose(inputs["model.preset"], "llama-3-8b")
    type_into(qtbot, inputs["model.name"], "My run")
    choose(inputs["model.mode"], "params")  # the same Φ, now as a count: still the user's run
    assert inputs["model.name"].text() == "My run" and window.presenter.scenario.model.name == "My run"
    assert inputs["model.preset"].currentData() == ""  # the Preset box no longer claims the model is the preset
    type_into(qtbot, inputs["model.params"], "13B")
    assert window.presenter.scenario.model.name == "My run"  # the user's own name is never rewritten
    choose(inputs["model.preset"], "llama-3-8b")  # choosing the preset again brings it back
    assert window.presenter.scenario.model == find_model("llama-3-8b").spec
    assert inputs["model.mode"].currentData() == "preset"
    choose(inputs["model.mode"], "params")
    assert window.presenter.scenario.model.name == "Meta Llama 3 8B"  # Φ of that model, under its name ...
    type_into(qtbot, inputs["model.params"], "13B")
    assert window.presenter.scenario.model.name == "Meta Llama 3 8B (edited)"  # ... until Φ is no longer its Φ
    assert window.result.title.startswith("Meta Llama 3 8B (edited)")
    choose(inputs["model.preset"], "llama-3-8b")
    choose(inputs["model.preset"], "")  # "(none: custom model)"
    assert window.presenter.scenario.model.name == "custom"


def test_the_preset_search_box_shows_the_chosen_preset_when_the_search_matches_nothing(qtbot, window):
    combo = window.inputs.editors["model.preset"]
    choose(combo, "mistral-7b-v0.1")
    line = combo.lineEdit()
    line.selectAll()
    qtbot.keyClicks(line, "llama 3 8")  # a search, left without picking a match
    qtbot.keyClick(line, Qt.Key.Key_Return)
    assert combo.currentText() == "Mistral 7B v0.1" == combo.itemText(combo.currentIndex())
    assert window.presenter.scenario.model.name == "Mistral 7B v0.1"
    line.selectAll()
    qtbot.keyClicks(line, "Meta Llama 3 8B")  # a preset's whole name picks it
    qtbot.keyClick(line, Qt.Key.Key_Return)
    assert combo.currentData() == "llama-3-8b" and window.presenter.scenario.model.name == "Meta Llama 3 8B"


@pytest.mark.parametrize("size", [(1280, 720), (1366, 768)])
def test_the_breakdown_table_shows_every_row_at_small_laptop_sizes(qtbot, window, size):
    window.resize(*size)
    choose(window.inputs.editors["model.preset"], "mixtral-8x7b")  # its activations formula wraps to two lines
    QApplication.processEvents()
    table = window.breakdown
    needed = table.horizontalHeader().height() + table.verticalHeader().length()
    assert table.viewport().height() + table.horizontalHeader().height() >= needed  # the total row included


def test_switching_language_leaves_the_form_expanded_and_scrolled_as_it_was(qtbot, seeded_settings):
    window = create_main_window(seeded_settings)  # every group open: a form long enough to scroll
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    window.inputs.arch_details_button.click()
    QApplication.processEvents()
    bar = window.input_scroll.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    scrolled = bar.value()
    assert scrolled > 0
    new = app.rebuild_window(window, "en")
    qtbot.addWidget(new)
    assert new.inputs.arch_details_button.isChecked() and new.inputs.arch_details.isVisibleTo(new.inputs)
    assert new.inputs.open_groups() == window.inputs.open_groups() != []
    qtbot.waitUntil(lambda: new.input_scroll.verticalScrollBar().value() == scrolled)
    new.presenter.finish_sweeps()


def test_attention_heads_that_do_not_divide_the_width_are_explained_not_refused(qtbot, seed_window):
    window = seed_window  # the seed's worked example, every group open
    inputs = window.inputs.editors
    choose(inputs["model.mode"], "architecture")
    heads = inputs["model.architecture.num_heads"]
    assert "rounded down" in heads.toolTip() and "must divide" not in heads.toolTip()  # as the core counts it
    heads.setValue(30)  # 4,096 ÷ 30: heads 136 wide, as Hugging Face's Llama takes hidden_size // num_heads
    scenario = window.presenter.scenario
    assert scenario.model.architecture.num_heads == 30 and scenario.model.architecture.head_size == 136
    assert not window.presenter.is_stale
    assert window.presenter.result.summary.total_bytes == estimate(scenario).per_gpu_total


def test_a_failed_import_says_why_under_preset_and_leaves_the_result_current(qtbot, window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    empty = tmp_path / "not-a-model"
    empty.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(empty))
    total = window.summary.total.text()
    window._on_import_folder()
    assert "Cannot import not-a-model" in window.inputs.error_text("model.preset")
    assert not window.presenter.is_stale and window.summary.stale_banner.isHidden()  # nothing changed: still current
    assert window.summary.total.isEnabled() and window.summary.total.text() == total
    assert not window.document.is_modified() and not window.isWindowModified()
    window.inputs.editors["parallel.num_gpus"].setValue(16)  # the next edit clears the message
    assert window.inputs.error_text("model.preset") == ""


def test_a_saved_scenario_the_core_refuses_is_not_unsaved(qtbot, window, tmp_path, monkeypatch, unsaved_prompt):
    from PySide6.QtWidgets import QFileDialog

    window.inputs.editors["parallel.tp"].setValue(3)  # 8 GPUs do not divide into TP 3: stale, but fully parsed
    assert window.presenter.is_stale
    target = tmp_path / "tp3.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.save_action.trigger()
    assert not window.document.is_modified() and not window.isWindowModified()  # the file holds the draft as it is
    type_into(qtbot, window.inputs.editors["overhead.cuda_context"], "lots")  # text no file can hold: unsaved
    assert window.document.is_modified()
    type_into(qtbot, window.inputs.editors["overhead.cuda_context"], "")  # back to what the file says: not given
    assert not window.document.is_modified()
    window.close()
    assert unsaved_prompt == []  # closing right after saving asks nothing
