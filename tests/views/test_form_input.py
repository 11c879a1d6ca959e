"""The input form driven through the real window: the preset search finds CLI keys, the GPU list
shows each card's memory, no stale hint stands under an error, a size without a unit asks for one, a number box
keeps what was typed and says why it is not used, Tab takes the breakdown table once and walks the form top to
bottom, Qt's own dialogs speak Chinese, and the wheel scrolls the form instead of changing an unfocused input."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QFileDialog, QLabel

from tests.views.helpers import choose, type_into
from vramgui import i18n
from vramgui.io.presets import find_model, gpu_presets

GB, GiB = 10**9, 2**30


# ----- 1. the preset search


def _search(qtbot, combo: QComboBox, text: str) -> list[str]:
    """Type ``text`` in the preset box's search; the texts of the items its completer offers."""
    line = combo.lineEdit()
    line.selectAll()
    qtbot.keyClick(line, Qt.Key.Key_Delete)
    qtbot.keyClicks(line, text)
    completer = combo.completer()
    model = completer.completionModel()
    return [model.index(row, 0).data() for row in range(model.rowCount())]


@pytest.mark.parametrize("typed", ["llama 3", "llama-3", "LLAMA_3", "llama.3", "llama-3-8b", "meta-llama/Meta-Llama-3"])
def test_the_preset_search_matches_cli_keys_and_ignores_separators(qtbot, window, typed):
    offered = _search(qtbot, window.inputs.editors["model.preset"], typed)
    assert "Meta Llama 3 8B" in offered, offered
    assert "Mistral 7B v0.1" not in offered


def test_the_preset_search_offers_the_names_not_the_search_text(qtbot, window):
    combo = window.inputs.editors["model.preset"]
    offered = _search(qtbot, combo, "qwen2.5-7b")
    assert offered == ["Qwen2.5 7B"]  # the item's own text, as the list shows it
    assert combo.lineEdit().text() == "qwen2.5-7b"  # nothing rewritten under the cursor while typing


def test_return_on_a_cli_key_chooses_that_preset(qtbot, window):
    combo = window.inputs.editors["model.preset"]
    choose(combo, "mistral-7b-v0.1")
    _search(qtbot, combo, "llama-3.1-8b")
    qtbot.keyClick(combo.lineEdit(), Qt.Key.Key_Return)
    assert combo.currentData() == "llama-3.1-8b" and combo.currentText() == "Llama 3.1 8B"
    assert window.presenter.scenario.model == find_model("llama-3.1-8b").spec
    _search(qtbot, combo, "llama 3")  # a search that names no one preset chooses nothing
    qtbot.keyClick(combo.lineEdit(), Qt.Key.Key_Return)
    assert combo.currentData() == "llama-3.1-8b" and combo.currentText() == "Llama 3.1 8B"


# ----- 2. the GPU list shows the memory


def test_each_gpu_in_the_list_shows_its_memory(window):
    combo = window.inputs.editors["hardware.gpu"]
    shown = {combo.itemData(i): combo.itemText(i) for i in range(combo.count())}
    presets = gpu_presets()
    assert set(presets) <= set(shown)
    for key, preset in presets.items():
        assert shown[key] == f"{preset.name} · {preset.memory_label}", key
    assert shown["rtx-4090"] == "NVIDIA GeForce RTX 4090 · 24 GiB"
    choose(combo, "a100-80gb")  # the scenario keeps the catalog's name, not the list's text
    hw = window.presenter.scenario.hardware
    assert hw.gpu_name == "NVIDIA A100 80GB" and hw.gpu_memory == 80 * GiB


# ----- 3. no stale hint under an error


def test_the_memory_hint_is_not_left_standing_under_an_error(qtbot, window):
    memory, hint = window.inputs.editors["hardware.gpu_memory"], window.inputs.hints["hardware.gpu_memory_hint"]
    type_into(qtbot, memory, "80GiB")
    assert hint.isVisible() and "85.90 GB" in hint.text()
    memory.selectAll()
    qtbot.keyClicks(memory, "abc")  # typed over the selection: never empty on the way
    assert "cannot read 'abc' as a size" in window.inputs.error_text("hardware.gpu_memory")
    assert not hint.isVisible() and "85.90" not in hint.text()
    type_into(qtbot, memory, "40GB")
    assert window.inputs.error_text("hardware.gpu_memory") == ""
    assert hint.isVisible() and hint.text() == "= 37.25 GiB"


def test_the_count_and_node_hints_hide_while_their_fields_are_wrong(qtbot, seed_window):
    window = seed_window  # the seed's worked example, every group open
    params, count = window.inputs.editors["model.params"], window.inputs.hints["model.params_hint"]
    assert count.isVisible() and count.text() == "≈ 7.00B"
    type_into(qtbot, params, "7 parsecs")
    assert window.inputs.error_text("model.params") and not count.isVisible()
    type_into(qtbot, params, "13B")
    assert count.isVisible() and count.text() == "≈ 13.00B"
    nodes = window.inputs.hints["parallel.nodes"]
    window.presenter.on_field_edited("parallel.num_gpus", "lots")  # what a file or a paste can hold
    assert window.inputs.error_text("parallel.num_gpus") and not nodes.isVisible()
    window.presenter.on_field_edited("parallel.num_gpus", 16)
    assert nodes.isVisible() and nodes.text() == "2 nodes"


# ----- 4. a size without a unit


def test_a_size_without_a_unit_asks_for_one_naming_the_field(qtbot, window):
    memory = window.inputs.editors["hardware.gpu_memory"]
    type_into(qtbot, memory, "80")
    message = window.inputs.error_text("hardware.gpu_memory")
    assert message.startswith("Memory per GPU: '80' has no unit"), message
    assert "80GB" in message and "80GiB" in message and "out of range" not in message
    assert "Memory per GPU: '80' has no unit" in window.summary.stale_banner.text()
    type_into(qtbot, memory, "0")  # nothing is nothing in any unit: the range speaks, as for "0GB"
    assert "out of range" in window.inputs.error_text("hardware.gpu_memory")


# ----- 5. a number box keeps what was typed (the rest: tests/views/test_typed_numbers.py)


def _type(qtbot, box, text: str) -> None:
    box.setFocus()
    qtbot.waitUntil(box.hasFocus)
    box.selectAll()
    qtbot.keyClicks(box, text)


def test_digits_past_a_fields_range_stay_as_typed_with_a_message_giving_the_range(qtbot, window):
    box = window.inputs.editors["training.micro_batch"]  # 1 to 10,000,000
    before = window.presenter.draft.training.micro_batch
    _type(qtbot, box, "99999999")
    assert box.text() == "99999999" and window.presenter.draft.training.micro_batch == before
    message = window.inputs.error_text("training.micro_batch")
    assert message == "Micro-batch: 99,999,999 is out of range (allowed: 1 to 10,000,000)", message
    assert window.findChild(QLabel, "training.micro_batch.error").isVisible()
    assert box.property("invalid") and window.presenter.is_stale
    qtbot.keyClick(box, Qt.Key.Key_Backspace)  # a value again: used, the message gone
    assert window.presenter.draft.training.micro_batch == 9_999_999
    assert window.inputs.error_text("training.micro_batch") == "" and not box.property("invalid")


def test_the_reserve_box_keeps_100_percent_as_typed_and_says_why_it_is_not_used(qtbot, window):
    box = window.inputs.editors["hardware.reserve"]  # a percentage of the registry's fraction 0 <= value < 1
    before = window.presenter.draft.hardware.reserve
    _type(qtbot, box, "100")
    qtbot.keyClick(box, Qt.Key.Key_Tab)
    assert box.text() == "100" and window.presenter.draft.hardware.reserve == before
    assert window.inputs.error_text("hardware.reserve") == \
        "Reserve: 100 % is out of range (allowed: 0 to 99.99 %)", window.inputs.error_text("hardware.reserve")
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Backspace)
    assert window.inputs.error_text("hardware.reserve") == "" and window.presenter.draft.hardware.reserve == 0.1


# ----- 6. Tab through the form


def test_tab_walks_the_form_from_top_to_bottom(qtbot, seed_window):
    window = seed_window  # the seed's worked example, every group open
    panel = window.inputs
    start = panel.editors["model.preset"]
    window.activateWindow()
    start.setFocus()
    qtbot.waitUntil(start.hasFocus)
    seen = []
    for _ in range(60):
        widget = QApplication.focusWidget()
        if not panel.isAncestorOf(widget):
            break
        seen.append(widget)
        qtbot.keyClick(widget, Qt.Key.Key_Tab)
    names = [w.objectName() for w in seen]
    assert len(names) > 25 and names[-1] == "serve.active", names  # while training, the one serving input open
    tops = [w.mapTo(panel, QPoint(0, 0)).y() for w in seen]
    assert tops == sorted(tops), list(zip(names, tops, strict=True))  # never back up the form
    assert len(set(names)) == len(names)  # each stop once


# ----- 7. Qt's own dialogs in Chinese

@pytest.fixture
def chinese_app(qapp, compiled_dir):
    original = QLocale()
    translations = i18n.Translations(qapp, compiled_dir)
    yield translations
    translations.apply("en")
    QLocale.setDefault(original)


def test_after_switching_to_chinese_qts_file_dialog_is_chinese(qtbot, chinese_app):
    assert chinese_app.apply("zh_CN") == "zh_CN"
    assert QCoreApplication.translate("QFileDialog", "Look in:") == "查找范围："
    dialog = QFileDialog(None, "", "", "")
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)  # Qt's own widgets, as on a desktop without a portal
    qtbot.addWidget(dialog)
    labels = {name: dialog.findChild(QLabel, name).text() for name in ("lookInLabel", "fileNameLabel", "fileTypeLabel")}
    # Qt 6.11 gave "Look in:" and "Files of type:" mnemonics its own zh_CN catalogue lacks: translated anyway
    assert labels == {"lookInLabel": "查找范围(&L)：", "fileNameLabel": "文件名称(&N)：",
                      "fileTypeLabel": "文件类型(&T)："}
    assert QCoreApplication.translate("QFileDialog", "&Look in:") == "查找范围(&L)："
    # the Type column: Qt moved "Folder" to a context of its own, its catalogue keeps it under QFileDialog
    assert QCoreApplication.translate("QAbstractFileIconProvider", "Folder", "All other platforms") == "文件夹"
    assert QCoreApplication.translate("QFileDialog", "&Nothing Qt translates") == "&Nothing Qt translates"
    assert QCoreApplication.translate("MainWindow", "&File") == "文件(&F)"  # the app's own catalogue first


@pytest.mark.parametrize(("text", "split"), [
    ("&Look in:", ("Look in:", "L")), ("Files of &type:", ("Files of type:", "T")),
    ("Save && quit", ("Save && quit", "")), ("a && &b", ("a && b", "B")),
    ("plain", ("plain", "")), ("trailing&", ("trailing&", "")),
])
def test_a_mnemonic_is_split_off_a_label(text, split):
    assert i18n.split_mnemonic(text) == split


def test_a_chinese_label_takes_its_mnemonic_before_the_colon():
    assert i18n.add_mnemonic("查找范围：", "L") == "查找范围(&L)："
    assert i18n.add_mnemonic("打开…", "O") == "打开(&O)…"
    assert i18n.add_mnemonic("后退", "B") == "后退(&B)"


def test_qts_catalog_is_found_where_pyside6_ships_it_when_qts_path_points_nowhere(monkeypatch, tmp_path,
                                                                                   chinese_app):
    class Nowhere:
        LibraryPath = i18n.QLibraryInfo.LibraryPath

        @staticmethod
        def path(_which):
            return str(tmp_path / "no-translations-here")

    monkeypatch.setattr(i18n, "QLibraryInfo", Nowhere)
    chinese_app.apply("zh_CN")
    assert len(chinese_app.translators) == 2
    assert QCoreApplication.translate("QFileDialog", "Look in:") != "Look in:"


# ----- 8. the wheel scrolls the form


def _wheel(widget, down: bool = True) -> None:
    """A wheel notch over the middle of ``widget`` as the window system delivers it (spontaneous: an event a
    widget ignores goes on to its parents, the scroll area among them)."""
    window = widget.window()
    at = widget.mapTo(window, QPoint(widget.width() // 2, widget.height() // 2))
    QTest.wheelEvent(window.windowHandle(), QPointF(at), QPoint(0, -120 if down else 120))
    QApplication.processEvents()


@pytest.mark.parametrize("key", ["training.micro_batch", "hardware.reserve", "precision.dtype", "model.preset"])
def test_a_wheel_over_an_unfocused_input_scrolls_the_panel_and_changes_nothing(qtbot, seed_window, key):
    window = seed_window  # the seed's worked example, every group open
    window.resize(1280, 720)
    QApplication.processEvents()
    editor = window.inputs.editors[key]
    bar = window.input_scroll.verticalScrollBar()
    assert bar.maximum() > 0
    window.input_scroll.ensureWidgetVisible(editor, 0, window.input_scroll.viewport().height() // 3)
    window.activateWindow()
    window.input_scroll.setFocus()
    scenario, shown = window.presenter.scenario, _shown(editor)
    before = bar.value()
    _wheel(editor, down=before < bar.maximum())
    assert bar.value() != before  # the panel scrolled ...
    assert window.presenter.scenario == scenario and _shown(editor) == shown  # ... and the input is as it was


def test_a_focused_input_takes_the_wheel(qtbot, seed_window):
    window = seed_window  # the seed's worked example, every group open
    for key in ("training.micro_batch", "precision.dtype"):
        editor = window.inputs.editors[key]
        window.input_scroll.ensureWidgetVisible(editor)
        editor.setFocus()
        qtbot.waitUntil(editor.hasFocus)
        bar = window.input_scroll.verticalScrollBar()
        before, shown = bar.value(), _shown(editor)
        _wheel(editor, down=False)
        assert _shown(editor) != shown and bar.value() == before, key


def _shown(editor) -> object:
    return editor.value() if hasattr(editor, "value") else editor.currentIndex()
