"""The document presenter (file, clean state, recent files, open and save) against fake views: no window."""

from __future__ import annotations

import json
from unittest.mock import MagicMock

import pytest

from vramgui.core.scenario.specs import ModelSpec, ParallelSpec, Scenario
from vramgui.io import files
from vramgui.io.scenario_files import load_scenario, save_scenario
from vramgui.presenters.document_presenter import DocumentPresenter
from vramgui.presenters.main_presenter import MainPresenter
from vramgui.presenters.protocols import DocumentView, MainView
from vramgui.settings import open_settings

GB = 10**9


@pytest.fixture
def parts(qapp, tmp_path):
    view = MagicMock(spec=DocumentView)
    editor = MainPresenter(MagicMock(spec=MainView))
    settings = open_settings(tmp_path / "s.ini")
    document = DocumentPresenter(view, editor, settings)
    document.restore_session()
    yield view, editor, document, settings
    editor.finish_sweeps()


def title(view) -> tuple[str, str, bool]:
    return view.show_document.call_args.args


def test_starts_untitled_and_clean_then_an_edit_marks_it_modified(parts):
    view, editor, document, _ = parts
    assert title(view) == ("Untitled", "", False)
    editor.on_field_edited("parallel.num_gpus", 16)
    assert document.is_modified() and title(view)[2] is True
    editor.on_field_edited("parallel.num_gpus", 8)  # back to the saved numbers: clean again
    assert not document.is_modified() and title(view)[2] is False


def test_an_edit_that_does_not_parse_counts_as_a_change(parts):
    view, editor, document, _ = parts
    editor.on_field_edited("hardware.gpu_memory", "lots")
    assert document.is_modified() and title(view)[2] is True


def test_save_as_appends_the_suffix_writes_the_draft_and_remembers_the_file(parts, tmp_path):
    view, editor, document, settings = parts
    editor.on_field_edited("overhead.cuda_context", "2GB")
    view.ask_save_path.return_value = str(tmp_path / "plan")
    assert document.save_as()
    path = tmp_path / "plan.json"
    assert load_scenario(path) == editor.draft and editor.draft.overhead.cuda_context == 2 * GB
    assert document.path == str(path) and title(view) == ("plan.json", str(path), False)
    assert settings.recent_files() == [str(path)] and view.show_recent_files.call_args.args[0] == [str(path)]
    assert settings.last_folder("save") == str(tmp_path)


def test_a_failed_save_says_so_and_stays_modified(parts, tmp_path, monkeypatch):
    view, editor, document, _ = parts
    editor.on_field_edited("parallel.num_gpus", 16)

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(files.os, "replace", refuse)
    view.ask_save_path.return_value = str(tmp_path / "p.json")
    assert document.save_as() is False
    kind, _title, text = view.show_message.call_args.args
    assert kind == "critical" and "p.json" in text and "unchanged" in text
    assert document.is_modified() and document.path is None


def test_opening_asks_about_unsaved_changes_and_cancel_keeps_everything(parts, tmp_path):
    view, editor, document, _ = parts
    other = tmp_path / "other.json"
    save_scenario(other, Scenario(model=ModelSpec(params=13 * GB), parallel=ParallelSpec(num_gpus=4)))
    editor.on_field_edited("parallel.num_gpus", 16)
    edited = editor.draft
    view.ask_save_changes.return_value = "cancel"
    assert document.open_path(str(other)) is False
    assert editor.draft == edited and view.ask_save_changes.call_count == 1
    view.ask_save_changes.return_value = "discard"
    assert document.open_path(str(other)) is True
    assert editor.draft == load_scenario(other) and not document.is_modified()


def test_a_broken_file_is_a_warning_and_changes_nothing(parts, tmp_path):
    view, editor, document, _ = parts
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"precision": {"dtype": "fp8"}, "parallel": {"num_gpus": 0}}), encoding="utf-8")
    before = editor.draft
    assert document.open_path(str(bad)) is False
    kind, _title, text = view.show_message.call_args.args
    assert kind == "warning" and "precision.dtype" in text and "parallel.num_gpus" in text
    assert editor.draft == before and document.path is None


def test_a_dropped_config_json_imports_the_model(parts, tmp_path):
    _, editor, document, _ = parts
    config = {"model_type": "llama", "hidden_size": 512, "intermediate_size": 1376, "num_attention_heads": 8,
              "num_key_value_heads": 8, "num_hidden_layers": 4, "vocab_size": 32000, "tie_word_embeddings": False}
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    assert document.open_dropped(str(path))
    assert editor.scenario.model.architecture.num_layers == 4 and document.path is None


def test_the_next_session_shows_the_file_and_whether_it_was_left_modified(qapp, tmp_path):
    first_view = MagicMock(spec=DocumentView)
    editor = MainPresenter(MagicMock(spec=MainView))
    first = DocumentPresenter(first_view, editor, open_settings(tmp_path / "s.ini"))
    first.restore_session()
    first_view.ask_save_path.return_value = str(tmp_path / "p.json")
    first.save_as()
    editor.on_field_edited("parallel.num_gpus", 32)
    first.close_session()
    view = MagicMock(spec=DocumentView)
    second_editor = MainPresenter(MagicMock(spec=MainView))
    second = DocumentPresenter(view, second_editor, open_settings(tmp_path / "s.ini"))
    second.restore_session()
    assert second_editor.draft.parallel.num_gpus == 32  # the session's scenario, not the file's
    assert second.path == str(tmp_path / "p.json") and title(view) == ("p.json", second.path, True)
    third = DocumentPresenter(MagicMock(spec=DocumentView), second_editor, open_settings(tmp_path / "t.ini"))
    third.take_over(second)
    assert (third.path, third.clean_scenario) == (second.path, second.clean_scenario) and third.is_modified()
    for p in (editor, second_editor):
        p.finish_sweeps()
