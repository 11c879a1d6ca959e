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
    factories = ["create_app", "create_window", "platform_chosen"]
    assert calls == [(out, None, factories), (out, "plan.json", factories)]


def test_create_main_window_wires_presenter_and_exports(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = app.create_main_window(settings)
    qtbot.addWidget(window)
    assert window.presenter.scenario is not None
    from vramgui.core.estimate import estimate
    from vramgui.presenters.form.groups import first_scenario

    assert window.presenter.result.summary.total_bytes == estimate(first_scenario()).per_gpu_total  # Llama-3-8B
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
    window.chart_tabs.setCurrentIndex(3)
    scenario = window.presenter.scenario
    new = app.rebuild_window(window, "en")
    qtbot.addWidget(new)
    assert new is not window and not window.isVisible()
    assert new.presenter.scenario == scenario
    assert new.presenter.form_value("model.preset") == "llama-3-8b"
    assert new.chart_tabs.currentIndex() == 3
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


# --- `vramgui --self-test OUT.png --platform NAME`: the installed binary proves it opens a real window ----------

def test_the_self_test_platform_is_offscreen_unless_asked():
    assert app.self_test_platform(None, {}) == ("offscreen", None)
    assert app.self_test_platform(None, {"QT_QPA_PLATFORM": "minimal"}) == ("minimal", None)


def test_native_leaves_qt_its_choice_and_checks_the_display_first():
    chosen, problem = app.self_test_platform("native", {})
    if sys.platform.startswith("linux"):
        assert chosen is None and problem is not None and "no display" in problem
    else:
        assert (chosen, problem) == (None, None)


def test_a_plugin_this_installation_lacks_is_refused_with_the_ones_it_has():
    assert "offscreen" in app.platform_plugins()
    with pytest.raises(ValueError, match=r"no Qt platform plugin 'cocoa-typo' here \(allowed: native, .*offscreen"):
        app.self_test_platform("cocoa-typo", {})


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the xcb and wayland plugins are Linux's")
def test_xcb_or_wayland_without_their_display_fail_before_qt_would_abort(monkeypatch):
    monkeypatch.setattr(app, "platform_plugins", lambda: ("offscreen", "wayland", "xcb"))
    monkeypatch.setattr(app, "display_problem", lambda env: None)  # the libraries are there
    assert "DISPLAY is not set" in app.self_test_platform("xcb", {})[1]
    assert "WAYLAND_DISPLAY is not set" in app.self_test_platform("wayland", {"DISPLAY": ":0"})[1]
    assert app.self_test_platform("xcb", {"DISPLAY": ":0"}) == ("xcb", None)


def test_platform_without_self_test_is_a_usage_error(capsys):
    assert app.main(["--platform", "xcb"]) == 2
    assert "--platform applies to --self-test only" in capsys.readouterr().err


def test_harmless_qt_warnings_are_dropped_and_others_kept():
    assert app.quiet_qt_message("This plugin does not support propagateSizeHints()")
    assert not app.quiet_qt_message("QPainter::begin: Paint device returned engine == 0")


def _self_test(tmp_path, *args, env=None, wrapper=()):
    out = str(tmp_path / "shot.png")
    return subprocess.run([*wrapper, sys.executable, "-m", "vramgui", "--self-test", out, *args],
                          env=env or os.environ.copy(), capture_output=True, text=True, timeout=240, check=False)


def test_the_offscreen_self_test_prints_no_qt_noise(tmp_path):
    proc = _self_test(tmp_path, "--platform", "offscreen")
    assert proc.returncode == 0, proc.stderr
    assert "platform offscreen" in proc.stdout
    assert "propagateSizeHints" not in proc.stderr  # "This plugin does not support ..." was printed twice


def test_native_without_a_display_fails_in_one_message_not_an_abort(tmp_path):
    if not sys.platform.startswith("linux"):
        pytest.skip("display detection applies to Linux")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    proc = _self_test(tmp_path, "--platform", "native", env=env)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith("vramgui self-test FAILED: no display is available")
    assert "Traceback" not in proc.stderr


def test_native_on_an_x_server_renders_through_xcb_or_names_what_is_missing(tmp_path):
    import shutil

    from vramgui.io.xcb_libs import xcb_problem

    if not sys.platform.startswith("linux") or shutil.which("xvfb-run") is None:
        pytest.skip("needs Linux and xvfb-run (Debian's xvfb)")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    proc = _self_test(tmp_path, "--platform", "native", env=env, wrapper=("xvfb-run", "-a"))
    if xcb_problem({"QT_QPA_PLATFORM": "xcb"}) is None:
        assert proc.returncode == 0, proc.stderr
        assert "platform xcb" in proc.stdout
    else:  # a machine without Qt's xcb dependencies: the self-test says which, it does not abort
        assert proc.returncode == 1 and "system libraries are missing" in proc.stderr, proc.stderr
