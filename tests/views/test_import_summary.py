"""The window opens a training config (File > Open training config, or dropped on it) and shows what it took, left
unresolved and ignored, in English and in Chinese; File > Export plan writes the config."""

from __future__ import annotations

import json

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QFileDialog, QMessageBox

from tests.cli.training_config_cases import ROOT
from tests.views.helpers import settle

QLORA = ROOT / "axolotl" / "examples" / "llama-3" / "qlora-1b.yml"


def _open(window, monkeypatch, path):
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.open_training_action.trigger()
    settle()
    return window.import_summary


def test_the_summary_lists_the_three_kinds_in_both_languages(window, language, monkeypatch, qtbot):
    dialog = _open(window, monkeypatch, QLORA)
    qtbot.waitExposed(dialog)
    tree = dialog.tree
    headings = [tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount())]
    taken = tree.topLevelItem(0)
    keys = [taken.child(i).text(0) for i in range(taken.childCount())]
    assert "lora_r" in keys and "base_model" in keys
    if language == "zh_CN":
        assert headings[0].startswith("已采用") and headings[2].startswith("已忽略")
        assert tree.headerItem().text(1) == "vramgui 如何处理"
        row = next(taken.child(i).text(1) for i in range(taken.childCount()) if taken.child(i).text(0) == "lora_r")
        assert "32" in row and row != "LoRA rank = 32"  # the field's label in Chinese
    else:
        assert headings[0] == "Taken (14)" and headings[1].startswith("Unresolved") and headings[2] == "Ignored (26)"
    assert window.presenter.draft.finetune.method == "qlora"
    assert window.document.path is None and window.isWindowModified()


def test_a_training_config_dropped_on_the_window_is_opened(window, qtbot):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(ROOT / "accelerate" / "examples" / "config_yaml_templates" / "fsdp.yaml"))])
    event = QDropEvent(QPointF(QPoint(10, 10)), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    window.dropEvent(event)
    settle()
    assert window.presenter.draft.parallel.zero_stage == 3 and window.import_summary is not None


def test_export_plan_from_the_menu(window, monkeypatch, tmp_path):
    _open(window, monkeypatch, QLORA)
    target = tmp_path / "ds.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: shown.append(text))
    window.export_plan_action.trigger()
    assert json.loads(target.read_text())["train_micro_batch_size_per_gpu"] == 2
    assert shown and "--finetune qlora" in shown[0]
