"""The pinned set outlives the app (kept with the session) and travels as a comparison file (File > Save comparison /
Open comparison); a bad file is told with its problem and changes nothing."""

from __future__ import annotations

import json
from dataclasses import replace
from unittest.mock import MagicMock

import pytest
from PySide6.QtCore import QSettings

from tests.presenters.test_compare_presenter import fake_estimate, fake_max_micro_batch, scenario
from vramgui.io.comparison_files import ComparisonEntry
from vramgui.presenters.compare.presenter import MAX_PINNED, ComparePresenter, CompareView
from vramgui.settings import Settings


@pytest.fixture
def settings(tmp_path):
    return Settings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))


@pytest.fixture
def view():
    return MagicMock(spec=CompareView)


def make(view, settings) -> ComparePresenter:
    return ComparePresenter(view, estimate_fn=fake_estimate, max_micro_batch_fn=fake_max_micro_batch,
                            settings=settings)


def test_every_change_is_kept_for_the_next_session_and_comes_back(view, settings, tmp_path):
    presenter = make(view, settings)
    a = presenter.pin(scenario(), name="baseline")
    presenter.pin(scenario(gpus=16))
    presenter.pin(scenario(gpus=32))
    presenter.rename(presenter.pinned[2].id, "wide")
    presenter.remove(a)
    settings.sync()
    reread = Settings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))  # as at the next start
    entries = reread.pinned_scenarios(MAX_PINNED)
    assert entries == [ComparisonEntry(scenario(gpus=16)), ComparisonEntry(scenario(gpus=32), "wide")]
    again = make(MagicMock(spec=CompareView), reread)
    again.restore(entries)
    assert [(p.name, p.scenario) for p in again.pinned] == [(p.name, p.scenario) for p in presenter.pinned]
    presenter.clear()
    assert settings.pinned_scenarios(MAX_PINNED) == []


def test_a_damaged_session_value_costs_the_pins_and_nothing_else(settings):
    settings.qsettings.setValue("compare/pinned", '{"pinned": [{"training": {"micro_batch": 0}}]}')
    assert settings.pinned_scenarios(MAX_PINNED) == []
    settings.qsettings.setValue("compare/pinned", "{{{ not json")
    assert settings.pinned_scenarios(MAX_PINNED) == []


def test_a_restored_scenario_the_core_now_refuses_is_left_out_and_said(view, settings):
    presenter = make(view, settings)
    assert presenter.restore([ComparisonEntry(scenario()), ComparisonEntry(scenario(gpus=128))]) == 1
    assert "no longer valid" in view.show_message.call_args.args[0]


def test_save_writes_every_pin_as_a_full_scenario_and_open_brings_them_back(view, settings, tmp_path):
    presenter = make(view, settings)
    presenter.pin(scenario(), name="Small")
    presenter.pin(scenario(gpus=16))
    view.ask_export_path.return_value = str(tmp_path / "mine")
    assert presenter.save_comparison() is True
    data = json.loads((tmp_path / "mine.json").read_text(encoding="utf-8"))
    assert data["schema"] == "vramgui.comparison" and len(data["pinned"]) == 2
    assert data["pinned"][0]["parallel"]["num_gpus"] == 8 and data["pinned"][0]["name"] == "Small"
    assert "saved" in view.show_status.call_args.args[0]

    other = make(MagicMock(spec=CompareView), settings)
    other._view.ask_open_path.return_value = str(tmp_path / "mine.json")
    assert other.open_comparison() is True
    assert [p.scenario for p in other.pinned] == [scenario(), scenario(gpus=16)]
    assert other.pinned[0].name == "Small"
    assert settings.last_folder("open") == str(tmp_path)


def test_opening_over_pins_asks_first_and_cancel_keeps_them(view, settings, tmp_path):
    presenter = make(view, settings)
    presenter.pin(scenario())
    presenter.pin(scenario(gpus=16))
    view.ask_export_path.return_value = str(tmp_path / "two.json")
    presenter.save_comparison()
    presenter.clear()
    presenter.pin(scenario(gpus=4))
    view.ask_open_path.return_value = str(tmp_path / "two.json")
    view.ask_replace.return_value = False
    assert presenter.open_comparison() is False
    assert [p.scenario for p in presenter.pinned] == [scenario(gpus=4)]
    assert "Replace the 1 pinned scenarios with the 2" in view.ask_replace.call_args.args[1]
    view.ask_replace.return_value = True
    assert presenter.open_comparison() is True
    assert len(presenter.pinned) == 2


def test_a_bad_file_is_told_with_its_problems_and_changes_nothing(view, settings, tmp_path):
    presenter = make(view, settings)
    presenter.pin(scenario())
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"pinned": [{}, {"training": {"micro_batch": 0}}]}), encoding="utf-8")
    assert presenter.open_path(str(bad)) is False
    title, text = view.show_error.call_args.args
    assert title == "Cannot open comparison"
    assert str(bad) in text and "1 of its scenarios cannot be used" in text
    assert "Pinned scenario 2:" in text and "training.micro_batch: 0 is out of range" in text
    assert text.endswith("Nothing was changed.")
    assert [p.scenario for p in presenter.pinned] == [scenario()]
    (tmp_path / "scenario.json").write_text('{"schema": "vramgui.scenario", "schema_version": 2}', encoding="utf-8")
    assert presenter.open_path(str(tmp_path / "scenario.json")) is False
    assert "open it with File > Open scenario" in view.show_error.call_args.args[1]
    too_many = {"pinned": [{}] * (MAX_PINNED + 1)}
    (tmp_path / "many.json").write_text(json.dumps(too_many), encoding="utf-8")
    assert presenter.open_path(str(tmp_path / "many.json")) is False
    assert f"at most {MAX_PINNED} can be compared" in view.show_error.call_args.args[1]


def test_a_failed_save_says_why_and_keeps_the_old_file(view, settings, tmp_path):
    presenter = make(view, settings)
    presenter.pin(scenario())
    view.ask_export_path.return_value = str(tmp_path / "missing-folder" / "c.json")
    assert presenter.save_comparison() is False
    title, text = view.show_error.call_args.args
    assert title == "Cannot save comparison" and "c.json was not saved" in text


def test_nothing_to_save_without_pins_and_a_cancelled_dialog_does_nothing(view, settings):
    presenter = make(view, settings)
    assert presenter.save_comparison() is False
    view.ask_export_path.assert_not_called()
    view.ask_open_path.return_value = None
    assert presenter.open_comparison() is False
    presenter.pin(replace(scenario(), model=replace(scenario().model, name="x")))
    view.ask_export_path.return_value = None
    assert presenter.save_comparison() is False
