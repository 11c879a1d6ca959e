"""The form built from the field registry: every field has an editor, the Overheads group, inputs the scenario
ignores disabled with the reason, errors under the field the core names, GPU counts kept exactly, and editors
inside the scrolling form that ignore a wheel turned over them unless they have focus."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QCheckBox, QComboBox, QFileDialog

from tests.views.helpers import choose, shows_estimate, type_into
from vramgui.core.estimate import estimate
from vramgui.core.fields import registry as fields
from vramgui.io.scenario_files import load_scenario
from vramgui.views.form.widgets import NumberBox

GB = 10**9


def test_every_registry_field_has_an_editor_with_its_range(window):
    editors = window.inputs.editors
    for f in fields.fields():
        assert f.path in editors, f.path
        editor = editors[f.path]
        if isinstance(editor, NumberBox) and f.kind == "int":  # the arrows step within the registry's range
            assert (editor.minimum(), editor.maximum()) == (f.low, f.high), f.path  # never narrower
        if isinstance(editor, QComboBox):
            assert [editor.itemData(i) for i in range(editor.count())] == [str(c) for c in f.choices], f.path


def test_the_overheads_group_edits_the_fixed_terms(qtbot, window):
    box = window.inputs.groups["overheads"]
    assert box.title() == "Overheads"
    for path in ("overhead.cuda_context", "overhead.comm_buffers", "overhead.zero3_live_params", "overhead.extra"):
        assert box.isAncestorOf(window.inputs.editors[path])
    before = window.presenter.result.summary.total_bytes
    type_into(qtbot, window.inputs.editors["overhead.cuda_context"], "2GB")
    type_into(qtbot, window.inputs.editors["overhead.extra"], "512MiB")
    scenario = window.presenter.scenario
    assert (scenario.overhead.cuda_context, scenario.overhead.extra) == (2 * GB, 512 * 2**20)
    assert window.presenter.result.summary.total_bytes == before + 2 * GB + 512 * 2**20
    assert shows_estimate(window, estimate(scenario))


@pytest.mark.parametrize(("path", "edits", "reason"), [
    ("parallel.zero_stage", {"convention": "megatron"}, "megatron convention ignores the ZeRO stage"),
    ("parallel.distributed_optimizer", {"convention": "paper"}, "megatron convention only"),
    ("offload.zero_init", {"convention": "paper"}, "deepspeed convention only"),
    ("offload.params", {"parallel.zero_stage": "2"}, "ZeRO stage 3 only"),
    ("overhead.zero3_live_params", {"parallel.zero_stage": "2"}, "ZeRO stage 3 only"),
    ("parallel.sp", {"parallel.tp": 1}, "needs tensor parallelism"),
    ("model.architecture.num_layers", {"model.mode": "params"}, "Defined by"),
])
def test_an_input_the_scenario_ignores_is_disabled_with_the_reason(window, path, edits, reason):
    for key, value in edits.items():
        window.set_form_values({key: value})
        window.presenter.on_field_edited(key, value)
    editor = window.inputs.editors[path]
    assert not editor.isEnabled()
    assert reason in window.inputs.inactive_reason(path)
    assert editor.toolTip().startswith(window.inputs.inactive_reason(path))


def test_inputs_come_back_when_they_apply(window):
    choose(window.inputs.editors["convention"], "megatron")
    assert window.inputs.editors["parallel.distributed_optimizer"].isEnabled()
    assert not window.inputs.editors["parallel.zero_stage"].isEnabled()
    choose(window.inputs.editors["convention"], "deepspeed")
    choose(window.inputs.editors["parallel.zero_stage"], "3")
    for path in ("parallel.zero_stage", "offload.zero_init", "offload.params", "model.largest_layer",
                 "overhead.zero3_live_params"):
        assert window.inputs.editors[path].isEnabled(), path
        assert window.inputs.inactive_reason(path) == ""
    window.inputs.editors["parallel.tp"].setValue(2)
    assert window.inputs.editors["parallel.sp"].isEnabled()


def test_gpus_are_kept_as_given_and_the_nodes_shown(qtbot, window):
    window.inputs.editors["parallel.num_gpus"].setValue(100)
    assert window.presenter.scenario.parallel.num_gpus == 100
    assert window.presenter.scenario.parallel.gpus_per_node == 8
    assert window.inputs.hints["parallel.nodes"].text() == "13 nodes, the last with 4 GPUs"
    window.inputs.editors["parallel.num_gpus"].setValue(16)
    assert window.inputs.hints["parallel.nodes"].text() == "2 nodes"
    window.inputs.editors["parallel.num_gpus"].setValue(12)
    window.inputs.editors["parallel.tp"].setValue(8)  # 12 GPUs do not divide into TP 8
    assert "divide" in window.inputs.error_text("parallel.num_gpus")
    assert window.inputs.error_text("parallel.tp") == ""


def test_megatron_without_the_distributed_optimizer_saves_false(tmp_path, window, monkeypatch):
    choose(window.inputs.editors["convention"], "megatron")
    window.inputs.editors["parallel.distributed_optimizer"].setChecked(False)
    assert window.presenter.scenario.parallel.distributed_optimizer is False
    target = tmp_path / "m.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.save_action.trigger()
    assert load_scenario(target).parallel.distributed_optimizer is False
    assert load_scenario(target) == window.presenter.scenario


def test_typed_text_is_shown_as_text_not_html(qtbot, seed_window):
    window = seed_window  # the seed's worked example, every group open
    type_into(qtbot, window.inputs.editors["model.params"], "<b>7</b>")
    label = window.findChild(type(window.inputs.general_error), "model.params.error")
    assert label.textFormat() == Qt.TextFormat.PlainText and "<b>7</b>" in label.text()
    assert window.inputs.hints["parallel.nodes"].textFormat() == Qt.TextFormat.PlainText


def _wheel(widget) -> None:
    centre = QPointF(widget.width() / 2, widget.height() / 2)
    event = QWheelEvent(centre, widget.mapToGlobal(centre), QPoint(0, 0), QPoint(0, 120), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def test_a_wheel_over_an_unfocused_editor_scrolls_the_form_instead(qtbot, window):
    inputs = window.inputs.editors
    for key, editor in inputs.items():
        if isinstance(editor, (NumberBox, QComboBox)):
            assert editor.focusPolicy() == Qt.FocusPolicy.StrongFocus, key
    spin, combo = inputs["training.micro_batch"], inputs["precision.dtype"]
    window.input_scroll.setFocus()
    before = (spin.value(), combo.currentIndex(), window.presenter.scenario)
    _wheel(spin)
    _wheel(combo)
    assert (spin.value(), combo.currentIndex(), window.presenter.scenario) == before
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    _wheel(spin)
    assert spin.value() == before[0] + 1  # with focus the wheel still steps it


def test_check_boxes_and_flags_follow_the_scenario(window):
    assert isinstance(window.inputs.editors["offload.zero_init"], QCheckBox)
    assert window.inputs.editors["offload.zero_init"].isChecked()  # the dataclass default: True
    choose(window.inputs.editors["convention"], "deepspeed")
    window.inputs.editors["offload.zero_init"].setChecked(False)
    assert window.presenter.scenario.offload.zero_init is False
