"""What the window keeps: settings across a fresh QSettings read, a corrupt settings file, language switching
(same scenario, file, unsaved state, pinned scenarios), the comparison tab driven from the window, and core
errors shown inline in Chinese."""

from __future__ import annotations

import csv
import json
import subprocess
import sys

from PySide6.QtCore import QLocale, QSettings
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QFileDialog

from tests.views.helpers import edit
from vramgui import app, i18n
from vramgui.core.estimate import estimate
from vramgui.io import scenario_files
from vramgui.presenters.form.groups import first_scenario
from vramgui.views.main_window import RESULTS_SPLIT


def make_window(qtbot, ini):
    window = app.create_main_window(QSettings(str(ini), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window




def test_settings_are_restored_by_a_fresh_qsettings_read(qtbot, tmp_path, monkeypatch, built_translations):
    ini = tmp_path / "s.ini"
    first = make_window(qtbot, ini)
    first.resize(790, 700)
    size = (first.width(), first.height())
    assert size[1] == 700
    first.main_splitter.setSizes([520, 580])
    first.results_splitter.setSizes([300, 300])
    edit(first, "model.preset", "qwen2.5-7b")
    first.unit_actions["GiB"].trigger()
    first.settings.set_language("zh_CN")
    export_to = tmp_path / "charts" / "c.png"
    export_to.parent.mkdir()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(export_to), ""))
    first.export_png_action.trigger()
    saved_path = tmp_path / "plans" / "p.json"
    saved_path.parent.mkdir()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(saved_path), ""))
    first.save_action.trigger()
    scenario = first.presenter.scenario
    splitter = first.main_splitter.sizes()
    results = first.results_splitter.sizes()
    assert results != list(RESULTS_SPLIT) and splitter != [440, 960]  # not the defaults
    first.close()

    second = make_window(qtbot, ini)  # a new QSettings object on the same INI file
    # not the default 1400 x 900; Qt keeps a restored window on its screen (offscreen: 800 px wide)
    assert second.height() == size[1]
    assert second.width() == min(size[0], second.screen().availableGeometry().width() - 2)
    assert second.results_splitter.sizes() == results  # same height: restored exactly
    assert second.settings.splitter_sizes("main") == splitter  # the narrower window spreads them
    assert second.presenter.scenario == scenario
    assert second.presenter.form_value("model.preset") == "qwen2.5-7b"
    assert second.unit_actions["GiB"].isChecked() and "GiB" in second.summary.total.text()
    assert second.settings.language() == "zh_CN" and second.language_actions["zh_CN"].isChecked()
    assert second.settings.last_folder("export") == str(export_to.parent)
    assert second.settings.last_folder("save") == str(saved_path.parent)
    assert second.document.path == str(saved_path) and not second.isWindowModified()
    assert second.windowTitle().startswith("p.json")


def test_unsaved_changes_are_still_marked_in_the_next_session(qtbot, tmp_path, monkeypatch):
    ini = tmp_path / "s.ini"
    first = make_window(qtbot, ini)
    path = tmp_path / "p.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    first.save_action.trigger()
    edit(first, "parallel.num_gpus", 16)
    first.document.ask_before_discarding = False
    first.close()
    second = make_window(qtbot, ini)
    assert second.presenter.scenario.parallel.num_gpus == 16  # the session's scenario, not the file's
    assert second.document.path == str(path) and second.isWindowModified()


def test_a_corrupt_settings_file_gives_defaults_and_leaves_scenario_files_alone(qtbot, tmp_path):
    plan = tmp_path / "plan.json"
    plan.write_text('{"parallel": {"num_gpus": 4}}', encoding="utf-8")
    ini = tmp_path / "s.ini"
    ini.write_bytes(b"[window]\ngeometry=@ByteArray(\xff\xfe garbage)\n[recent]\nfiles=" + str(plan).encode()
                    + b"\n[scenario]\nlast={{{\n[display]\nunit=parsecs\n" + bytes(range(256)))
    window = make_window(qtbot, ini)
    assert window.presenter.draft == first_scenario()  # the first run's screen
    assert window.presenter.result.summary.total_bytes == estimate(first_scenario()).per_gpu_total
    assert window.unit_actions["GB"].isChecked()
    window.close()
    assert plan.read_text(encoding="utf-8") == '{"parallel": {"num_gpus": 4}}'


def test_switching_language_keeps_scenario_file_unsaved_edits_and_pins(qtbot, tmp_path, monkeypatch, translations,
                                                                     built_translations):
    ini = tmp_path / "s.ini"
    window = make_window(qtbot, ini)
    path = tmp_path / "p.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    window.save_action.trigger()
    window.ensure_charts()
    window.pin_current()
    edit(window, "parallel.zero_stage", "3")
    window.pin_current()
    window.compare_presenter.rename(window.compare_presenter.pinned[0].id, "baseline")
    edit(window, "hardware.gpu_memory", "lots")  # an edit that is not valid yet
    window.resize(790, 680)
    scenario = window.presenter.scenario

    new = app.rebuild_window(window, "zh_CN")
    qtbot.addWidget(new)
    assert translations.language == "zh_CN" and new.settings.language() == "zh_CN"
    assert new.menuBar().actions()[0].text() == "文件(&F)"
    assert "简体中文" in new.statusBar().currentMessage()
    assert new.presenter.scenario == scenario
    assert new.inputs.editors["hardware.gpu_memory"].text() == "lots" and new.presenter.is_stale
    assert new.document.path == str(path) and new.isWindowModified()
    assert next(p.name for p in new.compare_presenter.pinned) == "baseline"
    assert len(new.compare_presenter.pinned) == 2
    assert new.height() == 680

    back = app.rebuild_window(new, "en")
    qtbot.addWidget(back)
    assert back.menuBar().actions()[0].text() == "&File"


def test_switching_language_keeps_how_the_model_is_defined(qtbot, tmp_path, translations, built_translations):
    window = make_window(qtbot, tmp_path / "s.ini")
    edit(window, "model.preset", "llama-3-8b")
    edit(window, "model.mode", "architecture")
    edit(window, "model.architecture.num_layers", "30")
    scenario = window.presenter.scenario
    assert window.presenter.form_value("model.mode") == "architecture"

    new = app.rebuild_window(window, "zh_CN")
    qtbot.addWidget(new)
    assert new.presenter.scenario == scenario
    assert new.presenter.form_value("model.mode") == "architecture"
    assert new.inputs.editors["model.architecture.num_layers"].isEnabled()
    back = app.rebuild_window(new, "en")
    qtbot.addWidget(back)


def test_language_follows_the_system_locale_by_default(qapp, compiled_dir, monkeypatch):
    monkeypatch.setattr(i18n, "system_language", lambda: "zh_CN")
    original = QLocale()
    t = i18n.install_translations(qapp, "", compiled_dir)  # "" = the default setting
    try:
        assert t.language == "zh_CN"
        assert QApplication.translate("MainWindow", "&File") == "文件(&F)"
    finally:
        t.apply("en")
        QLocale.setDefault(original)


def test_core_errors_show_the_translated_field_label_in_chinese(qtbot, tmp_path, translations):
    translations.apply("zh_CN")
    window = make_window(qtbot, tmp_path / "s.ini")
    window.inputs.editors["parallel.tp"].setValue(3)
    message = window.inputs.error_text("parallel.num_gpus")  # the core names the GPU count
    assert message.startswith("GPU 数量：8 张 GPU 无法按 TP × PP = 3 整除")
    assert "允许" in message and "6, 9" in message
    window.inputs.editors["parallel.tp"].setValue(1)
    edit(window, "training.global_batch", "7")
    assert window.inputs.error_text("training.global_batch").startswith("全局批次：7 不是 微批次 × N_d")


def test_compare_tab_rename_remove_load_and_export_from_the_window(qtbot, tmp_path, monkeypatch):
    window = make_window(qtbot, tmp_path / "s.ini")
    view = window.compare_view
    first = window.presenter.scenario
    window.pin_action.trigger()
    edit(window, "parallel.zero_stage", "3")
    window.pin_action.trigger()
    edit(window, "parallel.num_gpus", 16)
    window.pin_action.trigger()
    assert window.comparing() and view.table.rowCount() == 3
    view.table.item(0, 0).setText("ZeRO-2 baseline")  # an edit in the table renames
    assert window.compare_presenter.pinned[0].name == "ZeRO-2 baseline"
    view.table.selectRow(2)
    view.remove_button.click()
    assert view.table.rowCount() == 2
    view.table.selectRow(0)
    view.load_button.click()
    assert window.presenter.scenario == first
    png, data = tmp_path / "cmp.png", tmp_path / "cmp.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(png), ""))
    view.export_png_button.click()
    image = QImage(str(png))
    assert not image.isNull() and image.width() >= 1000
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(data), ""))
    window.export_csv_action.trigger()  # File > Export data follows the visible (comparison) tab
    with open(data, newline="", encoding="utf-8-sig") as fh:
        rows = list(csv.DictReader(fh))
    assert rows[0]["name"] == "ZeRO-2 baseline"
    assert int(rows[0]["total_bytes"]) == estimate(first).per_gpu_total
    assert window.pin_action.isEnabled()


def test_pin_shortcut_and_tab_shortcuts(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path / "s.ini")
    assert window.pin_action.shortcut().toString() == "Ctrl+P"
    view_menu = window.menuBar().actions()[1].menu()
    # Serving is the sixth tab, Plans the seventh
    compare = [a for a in view_menu.actions() if a.shortcut().toString() == "Ctrl+8"]
    assert len(compare) == 1
    compare[0].trigger()
    assert window.comparing()
    time = [a for a in view_menu.actions() if a.shortcut().toString() == "Ctrl+3"]
    time[0].trigger()
    assert window.current_chart() is window.time_chart
    step = [a for a in view_menu.actions() if a.shortcut().toString() == "Ctrl+2"]
    step[0].trigger()
    assert window.chart_tabs.currentIndex() == 1 and window.current_chart() is window.step_chart


def test_a_scenario_saved_by_the_window_gives_the_same_numbers_in_the_cli(qtbot, tmp_path, monkeypatch):
    window = make_window(qtbot, tmp_path / "s.ini")
    edit(window, "model.preset", "llama-3-8b")
    edit(window, "parallel.zero_stage", "3")
    edit(window, "training.micro_batch", 2)
    path = tmp_path / "gui.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    window.save_action.trigger()
    assert estimate(scenario_files.load_scenario(path)).per_gpu_total == window.presenter.result.summary.total_bytes
    out = subprocess.run([sys.executable, "-m", "vramgui", "estimate", "--scenario", str(path), "--json"],
                         capture_output=True, text=True, timeout=120, check=True)
    data = json.loads(out.stdout)
    assert data["per_gpu"]["total"] == window.presenter.result.summary.total_bytes
