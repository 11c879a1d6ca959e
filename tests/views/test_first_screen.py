"""The first screen a newcomer sees (issue 23 item 7): a real model with its architecture, the essential inputs on
top and every other group folded under its title; a group's state kept across sessions; an error never hidden in
a folded group; Llama-3-8B with QLoRA on one RTX 4090 at most four edits away, driven through the real widgets."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QLineEdit

from tests.views.helpers import choose
from vramgui.app import create_main_window
from vramgui.cli.options import scenario_from_args
from vramgui.cli.parser import build_parser
from vramgui.core.estimate import estimate
from vramgui.core.fields import paths
from vramgui.core.fields import registry as fields
from vramgui.core.fields.form_rows import GPU_PRESET, MODEL_PRESET, UI_ROWS
from vramgui.core.text.units import format_bytes
from vramgui.presenters.form.groups import ESSENTIALS, FOLDING, GROUP_OF, GROUPS, MODEL_MODE, first_scenario

FIRST_SCREEN = ("--preset", "llama-3-8b", "--gpu", "h100-sxm", "--gpus", "8", "--stage", "2", "--optimizer", "adamw")


def _cli_scenario(*argv: str):
    return scenario_from_args(build_parser("estimate").parse_args(["estimate", *argv]))


def _open_window(qtbot, settings: QSettings, size=(1024, 640)):
    window = create_main_window(settings)
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    return window


def _type(qtbot, editor, text: str) -> None:
    """One edit typed as a person types it: select what is there, type, leave with Tab."""
    assert isinstance(editor, (QAbstractSpinBox, QLineEdit)), type(editor)
    editor.setFocus()
    editor.selectAll()
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Tab)


def test_the_first_screen_is_llama_3_8b_on_a_node_of_h100s_with_its_activations_estimated(qtbot, settings):
    window = _open_window(qtbot, settings)
    assert window.presenter.draft == first_scenario() == _cli_scenario(*FIRST_SCREEN)  # the CLI's flags, exactly
    assert window.presenter.form_value(MODEL_PRESET) == "llama-3-8b"
    assert window.inputs.editors[MODEL_PRESET].currentText() == "Meta Llama 3 8B"
    assert window.inputs.editors[GPU_PRESET].currentData() == "h100-sxm"
    est = estimate(window.presenter.draft)
    assert est.activation_detail is not None  # sized from the architecture
    assert "not estimated" not in window.summary.notes.text()
    assert window.summary.fits_text.text().startswith("Fits:")
    assert format_bytes(est.peak.bytes, "GB") in window.summary.total.text()
    window.presenter.finish_sweeps()


def test_the_essentials_are_open_on_top_and_every_other_group_folded(qtbot, settings):
    window = _open_window(qtbot, settings)
    inputs = window.inputs
    assert next(iter(inputs.groups)) == ESSENTIALS and not inputs.groups[ESSENTIALS].folding
    essential = [row.key for row in UI_ROWS if row.form == ESSENTIALS] + list(GROUPS[ESSENTIALS])
    assert {MODEL_PRESET, GPU_PRESET, paths.NUM_GPUS} <= set(essential)
    assert {fields.field(p).flag for p in GROUPS[ESSENTIALS]} >= {"--finetune", "--seq-len", "--micro-batch"}
    for key in essential:
        assert inputs.groups[ESSENTIALS].isAncestorOf(inputs.editors[key]), key
        assert inputs.editors[key].isVisibleTo(window), key
    for name in FOLDING:
        assert not inputs.groups[name].is_open(), name
        assert inputs.groups[name].header.isVisibleTo(window), name
        assert not any(inputs.editors[p].isVisibleTo(window) for p in GROUPS[name]), name
    visible = [k for k, e in inputs.editors.items() if e.isVisibleTo(window)]
    assert len(visible) == len(essential)  # seven rows where there were about ninety
    window.presenter.finish_sweeps()


def test_llama_3_8b_qlora_on_one_rtx_4090_is_three_edits_from_the_first_screen(qtbot, settings):
    window = _open_window(qtbot, settings)
    editors = window.inputs.editors
    edits: list[str] = []
    window.inputs.edited.connect(lambda key, _value: edits.append(key))
    method = editors[GROUPS[ESSENTIALS][[fields.field(p).flag for p in GROUPS[ESSENTIALS]].index("--finetune")]]
    assert isinstance(method, QComboBox)
    choose(method, "qlora")  # 1: the method, picked from its list
    choose(editors[GPU_PRESET], "rtx-4090")  # 2: the GPU, picked from its list
    _type(qtbot, editors[paths.NUM_GPUS], "1")  # 3: one GPU, typed
    assert len(set(edits)) == len(edits) == 3 <= 4, edits  # one edit each, no field edited twice
    wanted = _cli_scenario(*FIRST_SCREEN, "--finetune", "qlora", "--gpu", "rtx-4090", "--gpus", "1")
    assert window.presenter.draft == wanted  # what `vramgui estimate` computes for those flags
    assert not window.presenter.is_stale
    est = estimate(wanted)
    usable = est.usable
    verdict = "Fits:" if est.fits else "Does not fit:"
    assert window.summary.fits_text.text().startswith(verdict)
    assert f"{format_bytes(usable, 'GB')} usable of {format_bytes(wanted.hardware.gpu_memory, 'GB')}" in \
        window.summary.fits_text.text()
    assert format_bytes(est.peak.bytes, "GB") in window.summary.total.text()
    assert "not estimated" not in window.summary.notes.text()
    window.presenter.finish_sweeps()


def test_a_group_left_open_is_open_in_the_next_session_and_one_closed_stays_closed(qtbot, settings):
    window = _open_window(qtbot, settings)
    training, strategy = window.inputs.groups["training"], window.inputs.groups["strategy"]
    qtbot.mouseClick(training.header, Qt.MouseButton.LeftButton)  # opened by a click on its title
    qtbot.mouseClick(strategy.header, Qt.MouseButton.LeftButton)
    assert training.is_open() and strategy.is_open()
    assert all(window.inputs.editors[p].isVisibleTo(window) for p in GROUPS["training"])
    qtbot.mouseClick(strategy.header, Qt.MouseButton.LeftButton)  # and closed again
    window.presenter.finish_sweeps()
    window.close()

    again = _open_window(qtbot, QSettings(settings.fileName(), QSettings.Format.IniFormat))
    assert [name for name in FOLDING if again.inputs.groups[name].is_open()] == ["training"]
    assert again.inputs.open_groups() == ["training"]
    again.inputs.groups["training"].header.setFocus()
    qtbot.keyClick(again.inputs.groups["training"].header, Qt.Key.Key_Space)  # the keyboard folds it too
    again.presenter.finish_sweeps()
    again.close()
    third = _open_window(qtbot, QSettings(settings.fileName(), QSettings.Format.IniFormat))
    assert third.inputs.open_groups() == []
    third.presenter.finish_sweeps()


def test_an_error_opens_the_folded_group_of_its_row(qtbot, settings):
    window = _open_window(qtbot, settings)
    training = window.inputs.groups["training"]
    global_batch = next(p for p in GROUPS["training"] if fields.field(p).flag == "--global-batch")
    training.set_open(True)
    _type(qtbot, window.inputs.editors[global_batch], "16")  # 16 sequences on 8 GPUs: 2 accumulation steps
    training.set_open(False)
    assert not window.presenter.is_stale and not window.inputs.editors[global_batch].isVisibleTo(window)
    _type(qtbot, window.inputs.editors[paths.NUM_GPUS], "3")  # in Essentials; 16 is no multiple of 3
    assert window.presenter.is_stale
    assert [e.key for e in window.presenter.errors] == [global_batch]
    assert training.is_open()  # opened to show it
    message = window.inputs.error_text(global_batch)
    assert "16" in message and "15, 18" in message
    assert window.inputs.editors[global_batch].isVisibleTo(window)
    window.presenter.finish_sweeps()


def test_the_last_sessions_scenario_wins_over_the_first_screen(qtbot, settings):
    window = _open_window(qtbot, settings)
    choose(window.inputs.editors[GPU_PRESET], "rtx-4090")
    kept = window.presenter.draft
    window.presenter.finish_sweeps()
    window.close()
    again = _open_window(qtbot, QSettings(settings.fileName(), QSettings.Format.IniFormat))
    assert again.presenter.draft == kept != first_scenario()
    again.presenter.finish_sweeps()


def test_choosing_no_preset_opens_the_model_group_where_the_model_is_typed(qtbot, settings):
    window = _open_window(qtbot, settings)
    model = window.inputs.groups[GROUP_OF[MODEL_MODE]]
    assert not model.is_open()
    choose(window.inputs.editors[MODEL_PRESET], "")  # "(none: custom model)"
    assert model.is_open() and window.inputs.editors[paths.PARAMS].isVisibleTo(window)
    assert window.inputs.open_groups() == [GROUP_OF[MODEL_MODE]]
    window.presenter.finish_sweeps()
