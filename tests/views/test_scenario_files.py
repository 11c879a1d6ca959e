"""Scenario files from the window: save / save as / open round trips, hand-written and broken files, atomic saves,
recent files, drag and drop, the unsaved-changes prompt and the title's file name and modified marker."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, QSettings, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QFileDialog, QMessageBox

from tests.views.helpers import edit, shows_estimate
from vramgui.app import create_main_window
from vramgui.core.estimate import estimate
from vramgui.io import files, scenario_files

Button = QMessageBox.StandardButton
HAND_WRITTEN = '{"model": {"params": 7e9}, "parallel": {"num_gpus": 8, "zero_stage": 2}, ' \
               '"hardware": {"gpu_memory": 80000000000}}'


@pytest.fixture
def ini(tmp_path):
    return str(tmp_path / "settings.ini")


@pytest.fixture
def window(qtbot, ini):
    win = create_main_window(QSettings(ini, QSettings.Format.IniFormat))
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.presenter.finish_sweeps()


@pytest.fixture
def dialogs(monkeypatch):
    """Stubbed dialogs: ``save_as``/``open`` are the paths the file dialogs answer; messages are recorded."""
    state = {"save_as": None, "open": None, "asked_save": 0, "messages": [], "answer": Button.Discard,
             "questions": []}

    def get_save(*args, **kwargs):
        state["asked_save"] += 1
        return (state["save_as"] or "", "")

    def question(parent, title, text, *args, **kwargs):
        state["questions"].append(text)
        return state["answer"]

    monkeypatch.setattr(QFileDialog, "getSaveFileName", get_save)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (state["open"] or "", ""))
    monkeypatch.setattr(QMessageBox, "question", question)
    for kind in ("warning", "critical", "information"):
        monkeypatch.setattr(QMessageBox, kind, lambda parent, title, text, *a, **k: state["messages"].append(text))
    return state



def test_save_asks_for_a_name_once_then_saves_in_place(tmp_path, window, dialogs):
    assert window.windowTitle().startswith("Untitled") and not window.isWindowModified()
    edit(window, "parallel.num_gpus", 16)
    assert window.isWindowModified()
    dialogs["save_as"] = str(tmp_path / "plan")
    window.save_action.trigger()
    path = tmp_path / "plan.json"
    assert dialogs["asked_save"] == 1 and path.is_file()
    assert window.windowTitle() == "plan.json[*] - vramgui" and not window.isWindowModified()
    assert window.windowFilePath() == str(path)
    edit(window, "parallel.num_gpus", 32)
    assert window.isWindowModified()
    window.save_action.trigger()  # Ctrl+S: the same file, no dialog
    assert dialogs["asked_save"] == 1
    assert scenario_files.load_scenario(path).parallel.num_gpus == 32
    assert not window.isWindowModified()
    assert window.settings.recent_files() == [str(path)]


def test_save_as_writes_a_new_file_and_keeps_the_old(tmp_path, window, dialogs):
    dialogs["save_as"] = str(tmp_path / "a.json")
    window.save_as_action.trigger()
    edit(window, "parallel.zero_stage", "3")
    dialogs["save_as"] = str(tmp_path / "b.json")
    window.save_as_action.trigger()
    assert scenario_files.load_scenario(tmp_path / "a.json").parallel.zero_stage == 2
    assert scenario_files.load_scenario(tmp_path / "b.json").parallel.zero_stage == 3
    assert window.document.path == str(tmp_path / "b.json")
    assert window.save_as_action.shortcut().toString() == "Ctrl+Shift+S"
    assert window.save_action.shortcut().toString() == "Ctrl+S"


def test_saved_file_records_versions_and_presets(tmp_path, window, dialogs):
    edit(window, "model.preset", "llama-3-8b")
    edit(window, "hardware.gpu", "a100-80gb")
    dialogs["save_as"] = str(tmp_path / "p.json")
    window.save_action.trigger()
    data = json.loads((tmp_path / "p.json").read_text(encoding="utf-8"))
    assert data["schema"] == "vramgui.scenario" and data["schema_version"] == 2 and data["app_version"]
    assert data["preset"] == {"model": "llama-3-8b", "gpu": "a100-80gb"}
    assert scenario_files.load_scenario(tmp_path / "p.json") == window.presenter.scenario


def test_a_failed_commit_leaves_the_old_file_byte_identical(tmp_path, window, dialogs, monkeypatch):
    path = tmp_path / "plan.json"
    dialogs["save_as"] = str(path)
    window.save_action.trigger()
    before = path.read_bytes()
    edit(window, "parallel.num_gpus", 64)

    def refuse_replace(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(files.os, "replace", refuse_replace)
    window.save_action.trigger()
    assert path.read_bytes() == before
    assert dialogs["messages"] and "plan.json" in dialogs["messages"][-1] and "unchanged" in dialogs["messages"][-1]
    assert window.isWindowModified()  # still unsaved
    assert [p.name for p in tmp_path.iterdir()] == ["plan.json"]  # no temporary file left behind


def test_saving_onto_a_folder_fails_cleanly(tmp_path, window, dialogs):
    folder = tmp_path / "taken.json"
    folder.mkdir()
    dialogs["save_as"] = str(folder)
    assert window.document.save_as() is False
    assert dialogs["messages"] and folder.is_dir() and window.document.path is None


def test_saving_into_a_read_only_folder_fails_and_keeps_the_old_file(tmp_path, window, dialogs):
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "old.json").write_text(HAND_WRITTEN, encoding="utf-8")
    locked.chmod(0o500)
    try:
        dialogs["save_as"] = str(locked / "old.json")
        try:
            (locked / "probe").write_text("x")
            pytest.skip("running as a user who can write into read-only folders (root)")
        except PermissionError:
            pass
        assert window.document.save_as() is False
        assert (locked / "old.json").read_text(encoding="utf-8") == HAND_WRITTEN
    finally:
        locked.chmod(0o700)


def test_opening_a_hand_written_file_shows_the_cores_numbers(tmp_path, window, dialogs):
    path = tmp_path / "hand.json"
    path.write_text(HAND_WRITTEN, encoding="utf-8")
    dialogs["open"] = str(path)
    window.open_action.trigger()
    scenario = scenario_files.load_scenario(path)
    assert window.presenter.scenario == scenario
    assert shows_estimate(window, estimate(scenario))
    assert window.windowTitle() == "hand.json[*] - vramgui" and not window.isWindowModified()
    assert window.settings.recent_files() == [str(path)]
    assert window.settings.last_folder("open") == str(tmp_path)


def test_a_broken_file_lists_every_problem_and_changes_nothing(tmp_path, window, dialogs):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"model": {"architecture": {"hiden_size": 4096}}, "precision": {"dtype": "fp8"},
                                "training": {"micro_batch": 0}}), encoding="utf-8")
    before = window.presenter.scenario
    title = window.windowTitle()
    dialogs["open"] = str(path)
    window.open_action.trigger()
    message = dialogs["messages"][-1]
    for field in ("model.architecture.hiden_size", "precision.dtype", "training.micro_batch"):
        assert field in message
    assert "3" in message and "Nothing was changed" in message
    assert window.presenter.scenario == before and window.windowTitle() == title
    assert window.settings.recent_files() == []


@pytest.mark.parametrize(("content", "phrase"), [
    ('{"schema": "vramgui.scenario", "schema_version": 99}', "update"),
    ("{not json", "JSON"),
    ('{"model_type": "llama", "hidden_size": 8}', "config.json"),
])
def test_newer_malformed_or_foreign_files_are_refused(tmp_path, window, dialogs, content, phrase):
    path = tmp_path / "x.json"
    path.write_text(content, encoding="utf-8")
    before = window.presenter.scenario
    assert window.document.open_path(str(path)) is False
    assert phrase in dialogs["messages"][-1]
    assert window.presenter.scenario == before and window.document.path is None


def test_unsaved_changes_prompt_on_open(tmp_path, window, dialogs):
    other = tmp_path / "other.json"
    other.write_text(HAND_WRITTEN, encoding="utf-8")
    dialogs["open"] = str(other)
    edit(window, "parallel.num_gpus", 24)
    edited = window.presenter.scenario
    dialogs["answer"] = Button.Cancel
    window.open_action.trigger()
    assert len(dialogs["questions"]) == 1 and window.presenter.scenario == edited  # cancelled: nothing opened
    dialogs["answer"] = Button.Save
    dialogs["save_as"] = str(tmp_path / "mine.json")
    window.open_action.trigger()
    assert scenario_files.load_scenario(tmp_path / "mine.json") == edited  # saved first ...
    assert window.presenter.scenario == scenario_files.load_scenario(other)  # ... then opened
    edit(window, "parallel.num_gpus", 40)
    dialogs["answer"] = Button.Discard
    window.document.open_path(str(tmp_path / "mine.json"))
    assert window.presenter.scenario == edited


def test_no_prompt_when_nothing_changed(tmp_path, window, dialogs):
    path = tmp_path / "s.json"
    path.write_text(HAND_WRITTEN, encoding="utf-8")
    window.document.open_path(str(path))
    window.close()
    assert dialogs["questions"] == [] and not window.isVisible()


def test_closing_with_unsaved_changes_can_be_cancelled(window, dialogs):
    edit(window, "parallel.num_gpus", 24)
    dialogs["answer"] = Button.Cancel
    window.close()
    assert window.isVisible() and len(dialogs["questions"]) == 1
    dialogs["answer"] = Button.Discard
    window.close()
    assert not window.isVisible()


def test_invalid_unsaved_edit_counts_as_a_change(qtbot, window, dialogs):
    edit(window, "hardware.gpu_memory", "lots")
    assert window.presenter.is_stale and window.isWindowModified()


def test_recent_files_menu_opens_drops_missing_and_clears(tmp_path, window, dialogs):
    paths = []
    for i in range(3):
        path = tmp_path / f"s{i}.json"
        path.write_text(HAND_WRITTEN.replace('"num_gpus": 8', f'"num_gpus": {8 * (i + 1)}'), encoding="utf-8")
        window.document.open_path(str(path))
        paths.append(path)
    actions = [a for a in window.recent_menu.actions() if not a.isSeparator()]
    assert [a.text() for a in actions] == ["&1 s2.json", "&2 s1.json", "&3 s0.json", "&Clear list"]
    actions[2].trigger()
    assert window.presenter.scenario.parallel.num_gpus == 8
    paths[1].unlink()
    window.document.refresh_recent()
    names = [a.text() for a in window.recent_menu.actions() if not a.isSeparator()]
    assert names == ["&1 s0.json", "&2 s2.json", "&Clear list"]
    next(a for a in window.recent_menu.actions() if a.text() == "&Clear list").trigger()
    assert window.settings.recent_files() == []
    cleared = [a for a in window.recent_menu.actions() if not a.isSeparator()]
    assert len(cleared) == 1 and not cleared[0].isEnabled()


def _drop(window, path: Path) -> bool:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    enter = QDragEnterEvent(QPoint(20, 20), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    window.dragEnterEvent(enter)
    if not enter.isAccepted():
        return False
    drop = QDropEvent(QPointF(20, 20), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    window.dropEvent(drop)
    return True


CONFIG = {"model_type": "llama", "hidden_size": 512, "intermediate_size": 1376, "num_attention_heads": 8,
          "num_key_value_heads": 8, "num_hidden_layers": 4, "vocab_size": 32000, "tie_word_embeddings": False}


def test_dropping_a_scenario_a_config_or_a_model_folder(tmp_path, window, dialogs):
    assert window.acceptDrops()
    scenario = tmp_path / "drop.json"
    scenario.write_text(HAND_WRITTEN, encoding="utf-8")
    assert _drop(window, scenario)
    assert window.document.path == str(scenario)
    config = tmp_path / "config.json"
    config.write_text(json.dumps(CONFIG), encoding="utf-8")
    assert _drop(window, config)
    assert window.presenter.scenario.model.architecture.num_layers == 4
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({**CONFIG, "num_hidden_layers": 6}), encoding="utf-8")
    dialogs["answer"] = Button.Discard
    assert _drop(window, folder)
    assert window.presenter.scenario.model.architecture.num_layers == 6
    picture = tmp_path / "x.png"
    picture.write_bytes(b"\x89PNG")
    assert not _drop(window, picture)  # refused at the door


def test_dropping_a_comparison_file_replaces_the_pinned_set(tmp_path, window, dialogs):
    from vramgui.io.comparison_files import ComparisonEntry, save_comparison

    base = window.presenter.scenario
    entries = [ComparisonEntry(base), ComparisonEntry(estimate(base).scenario, name="mine")]
    path = tmp_path / "two.comparison.json"
    save_comparison(path, entries)
    assert _drop(window, path)
    assert window.compare_presenter is not None and len(window.compare_presenter.entries()) == 2
    assert window.chart_tabs.currentIndex() == window.chart_tabs.count() - 1  # the Compare tab shows them
    assert window.document.path != str(path)  # not opened as a scenario
