"""vramgui.app: option parsing, no-display detection, the self-test hand-off, and window creation."""

from __future__ import annotations

import os
import subprocess
import sys
import types

import pytest
from PySide6.QtCore import QSettings

from vramgui import app


@pytest.fixture(autouse=True)
def _no_modal_prompts(monkeypatch):
    """Closing a window with unsaved changes asks a question; answer "Discard" instead of blocking."""
    from PySide6.QtWidgets import QMessageBox

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)


def test_no_display_on_linux_is_detected_with_a_pointer_to_the_cli():
    message = app.display_problem({}, "linux")
    assert message is not None and "vramgui estimate" in message and "--help" in message


def test_display_present_or_platform_forced_is_fine(monkeypatch):
    monkeypatch.setattr(app.ctypes.util, "find_library", lambda name: "libxcb-cursor.so.0")
    monkeypatch.setattr(app, "x_display_reachable", lambda display: True)
    assert app.display_problem({"DISPLAY": ":0"}, "linux") is None
    assert app.display_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux") is None
    assert app.display_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux") is None
    assert app.display_problem({}, "win32") is None
    assert app.display_problem({}, "darwin") is None


def test_missing_xcb_cursor_library_is_explained(monkeypatch):
    monkeypatch.setattr(app.ctypes.util, "find_library", lambda name: None)
    message = app.display_problem({"DISPLAY": ":0"}, "linux")
    assert message is not None and "libxcb-cursor0" in message


def test_main_without_display_prints_a_message_instead_of_aborting():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    code = "import sys; from vramgui.app import main; sys.exit(main([]))"
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    if not sys.platform.startswith("linux"):
        pytest.skip("display detection applies to Linux")
    assert proc.returncode == 2, proc.stderr
    assert "no display" in proc.stderr and "vramgui estimate" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_unknown_language_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        app.parse_args(["--lang", "xx"])
    assert exc.value.code == 2


def test_gui_options_parse():
    args = app.parse_args(["--lang", "zh_CN", "--settings", "s.ini"])
    assert (args.lang, args.settings, args.self_test) == ("zh_CN", "s.ini", None)


def test_self_test_option_delegates_to_the_selftest_module(monkeypatch, tmp_path):
    calls = []
    fake = types.ModuleType("vramgui.selftest")
    fake.run = lambda out, scenario, **factories: calls.append((out, scenario, sorted(factories))) or 0
    monkeypatch.setitem(sys.modules, "vramgui.selftest", fake)
    out = str(tmp_path / "self.png")
    assert app.main(["--self-test", out]) == 0
    assert app.main(["--self-test", out, "--scenario", "plan.json"]) == 0
    # the self-test is handed app.py's factories: it never imports vramgui.app (no import cycle)
    assert calls == [(out, None, ["create_app", "create_window"]), (out, "plan.json", ["create_app", "create_window"])]


def test_create_main_window_wires_presenter_and_exports(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = app.create_main_window(settings)
    qtbot.addWidget(window)
    assert window.presenter.scenario is not None
    assert window.presenter.result.summary.total_bytes == 26_250_000_000
    assert callable(window.export_chart) and callable(window.export_csv)
    window.show()
    qtbot.waitExposed(window)
    window.export_csv(str(tmp_path / "d.csv"))
    assert (tmp_path / "d.csv").read_text(encoding="utf-8-sig").startswith("table,strategy")


def test_switching_language_rebuilds_the_window_on_the_same_scenario(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = app.create_main_window(settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.presenter.on_field_edited("model.preset", "llama-3-8b")
    window.chart_tabs.setCurrentIndex(2)
    scenario = window.presenter.scenario
    new = app.rebuild_window(window, "en")
    qtbot.addWidget(new)
    assert new is not window and not window.isVisible()
    assert new.presenter.scenario == scenario
    assert new.presenter.form_value("model.preset") == "llama-3-8b"
    assert new.chart_tabs.currentIndex() == 2
    assert new.settings.language() == "en"
    assert "en" in new.language_actions and new.language_actions["en"].isChecked()


def test_the_next_session_reopens_the_last_scenario(qtbot, tmp_path):
    path = str(tmp_path / "s.ini")
    first = app.create_main_window(QSettings(path, QSettings.Format.IniFormat))
    qtbot.addWidget(first)
    first.presenter.on_field_edited("model.preset", "qwen2.5-7b")
    first.presenter.on_field_edited("parallel.num_gpus", 32)
    scenario = first.presenter.scenario
    first.close()
    second = app.create_main_window(QSettings(path, QSettings.Format.IniFormat))
    qtbot.addWidget(second)
    assert second.presenter.scenario == scenario
    assert second.presenter.form_value("model.preset") == "qwen2.5-7b"
    assert second.inputs.editors["parallel.num_gpus"].value() == 32
    assert second.inputs.editors["parallel.gpus_per_node"].value() == 8


def test_unreachable_x_server_is_explained(monkeypatch):
    monkeypatch.setattr(app.ctypes.util, "find_library", lambda name: "libxcb-cursor.so.0")
    monkeypatch.setattr(app, "x_display_reachable", lambda display: False)
    message = app.display_problem({"DISPLAY": ":42"}, "linux")
    assert message is not None and ":42" in message and "--help" in message


@pytest.mark.skipif(not sys.platform.startswith("linux") or app.ctypes.util.find_library("xcb") is None,
                    reason="needs libxcb")
def test_x_probe_says_no_for_a_display_nobody_serves():
    assert app.x_display_reachable(":97531") is False
