"""The comparison in the main window: pins survive a restart, File > Save / Open comparison (dialogs stubbed), the
exports' width and captions, and the bar labels."""

from __future__ import annotations

import json

from PySide6.QtCore import QSettings
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog, QMessageBox

from tests.views.helpers import choose
from vramgui.app import create_main_window
from vramgui.views.compare.image import tick_text


def make_window(qtbot, ini):
    window = create_main_window(QSettings(str(ini), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    window.ensure_charts()
    return window


def pin_two(window) -> None:
    window.pin_current()
    choose(window.inputs.editors["parallel.zero_stage"], "3")
    window.pin_current()


def test_pins_come_back_at_the_next_start(qtbot, tmp_path):
    ini = tmp_path / "s.ini"
    window = make_window(qtbot, ini)
    pin_two(window)
    window.compare_presenter.rename(window.compare_presenter.pinned[0].id, "baseline")
    pinned = [(p.name, p.scenario) for p in window.compare_presenter.pinned]
    window.close()
    again = make_window(qtbot, ini)
    assert [(p.name, p.scenario) for p in again.compare_presenter.pinned] == pinned
    assert [p.named for p in again.compare_presenter.pinned] == [True, False]
    assert again.save_comparison_action.isEnabled()


def test_save_and_open_comparison_from_the_file_menu(qtbot, tmp_path, monkeypatch):
    window = make_window(qtbot, tmp_path / "s.ini")
    assert not window.save_comparison_action.isEnabled(), "nothing pinned, nothing to save"
    pin_two(window)
    assert window.save_comparison_action.isEnabled()
    target = tmp_path / "two"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.save_comparison_action.trigger()
    data = json.loads((tmp_path / "two.json").read_text(encoding="utf-8"))
    assert [e["parallel"]["zero_stage"] for e in data["pinned"]] == [2, 3]
    assert "two.json" in window.statusBar().currentMessage()

    window.compare_presenter.clear()
    window.chart_tabs.setCurrentIndex(0)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(tmp_path / "two.json"), ""))
    window.open_comparison_action.trigger()
    assert window.comparing() and len(window.compare_presenter.pinned) == 2
    assert [p.name for p in window.compare_presenter.pinned] == ["ZeRO-2", "ZeRO-3"]


def test_a_bad_comparison_file_is_a_warning_that_names_the_problem(qtbot, tmp_path, monkeypatch):
    window = make_window(qtbot, tmp_path / "s.ini")
    window.pin_current()
    bad = tmp_path / "bad.json"
    bad.write_text('{"pinned": [{"parallel": {"tp": 0}}]}', encoding="utf-8")
    shown = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), ""))
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, title, text: shown.append((title, text)))
    window.open_comparison_action.trigger()
    assert shown and shown[0][0] == "Cannot open comparison" and "parallel.tp" in shown[0][1]
    assert len(window.compare_presenter.pinned) == 1


def test_the_comparison_png_has_the_chosen_width_and_says_every_input(qtbot, tmp_path, monkeypatch):
    window = make_window(qtbot, tmp_path / "s.ini")
    pin_two(window)
    window.set_export_width(800)
    png = tmp_path / "cmp.png"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(png), ""))
    window.compare_view.export_png_button.click()
    assert QImage(str(png)).width() == 800
    window.export_png_action.trigger()  # File > Export chart follows the visible (comparison) tab
    assert QImage(str(png)).width() == 800
    assert window.chart_image(2400).width() == 2400
    caption = window.compare_presenter.chart_caption()
    assert "no recomputation" in caption and "Left to right: ZeRO-2; ZeRO-3." in caption


def test_every_charts_caption_lists_the_recompute_choice(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path / "s.ini")
    choose(window.inputs.editors["training.recompute"], "selective")
    window.chart_tabs.setCurrentIndex(0)
    captured = []
    chart = window.current_chart()
    original = chart.render_image
    chart.render_image = lambda width, caption: captured.append(caption) or original(width, caption)
    window.chart_image(800)
    assert "selective recomputation" in captured[0] and "micro-batch 1" in captured[0]


def test_bar_labels_wrap_at_the_names_separators_and_fit_chinese():
    assert tick_text("m · 8× A100 · ZeRO-1") == "m\n8× A100\nZeRO-1"
    assert tick_text("ZeRO-3, seq 8k, 16 GPUs") == "ZeRO-3, seq 8k, 16 GPUs"
    assert tick_text("ZeRO-3, seq 8k, 16 GPUs", over=True).startswith("✕ ZeRO-3")
    wrapped = tick_text("ZeRO-2，微批次 2，序列 4k，全局批次 512，选择性重计算，16 张 GPU", limit=24)
    assert all(sum(2 if ord(c) > 0x2E80 else 1 for c in line) <= 26 for line in wrapped.splitlines())
    assert len(tick_text("a, " * 40, limit=10).splitlines()) == 3 and tick_text("a, " * 40, limit=10).endswith("…")
