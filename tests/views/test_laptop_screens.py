"""Laptop screens (issue 13): the main window shrinks to 1,024 px wide (Chinese too), its first size fits the
screen's available area at any scale factor (2 on a 1920 x 1080 screen: 960 x 540), and a saved geometry is
restored only while it is still on a screen."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QByteArray, QRect, QSettings
from PySide6.QtWidgets import QApplication

from vramgui import i18n
from vramgui.app import create_main_window
from vramgui.paths import resource_path
from vramgui.settings import Settings
from vramgui.views.main_window import MainWindow
from vramgui.views.window_geometry import DEFAULT_SIZE, on_a_screen, saved_frame

ROOT = Path(__file__).resolve().parents[2]

# A child process: the window as the app opens it, on a 1920 x 1080 screen at QT_SCALE_FACTOR (its own process: the
# factor is read when the application starts); prints the screen's area, the window's frame and minimum size.
# "fixed": without app.py's own first size (``window.resize(1400, 900)`` after MainWindow placed itself).
_CHILD = r"""
import json, sys, time
from PySide6.QtCore import QSettings
from vramgui.app import create_application, create_main_window
from vramgui.views.window_geometry import place_first
app = create_application()
window = create_main_window(QSettings(sys.argv[1], QSettings.Format.IniFormat), defer_charts=True)
if sys.argv[2] == "fixed":
    place_first(window)
window.show()
end = time.monotonic() + 2
while window.compare_presenter is None and time.monotonic() < end:
    app.processEvents()
window.pin_current()
app.processEvents()
area, frame, least = window.screen().availableGeometry(), window.frameGeometry(), window.minimumSize()
print(json.dumps({"area": area.getRect(), "frame": frame.getRect(), "minimum": [least.width(), least.height()],
                  "charts": window.charts_built}))
window.document.ask_before_discarding = False
"""


def _first_window_at_scale_2(tmp_path, mode: str) -> dict:
    screen = tmp_path / "screen.json"
    screen.write_text(json.dumps({"screens": [{"name": "s", "x": 0, "y": 0, "width": 1920, "height": 1080,
                                               "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    env = {**os.environ, "QT_SCALE_FACTOR": "2", "QT_QPA_PLATFORM": f"offscreen:configfile={screen}"}
    done = subprocess.run([sys.executable, "-c", _CHILD, str(tmp_path / "s.ini"), mode], check=False, cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _window(qtbot, tmp_path, name="s.ini", geometry: QByteArray | None = None) -> MainWindow:
    qsettings = QSettings(str(tmp_path / name), QSettings.Format.IniFormat)
    if geometry is not None:
        Settings(qsettings).set_window_geometry(geometry)
    window = MainWindow(Settings(qsettings))
    qtbot.addWidget(window)
    return window


@pytest.fixture
def chinese(qapp, tmp_path):
    tool = Path(sys.executable).with_name("pyside6-lrelease")
    if not tool.exists():
        pytest.skip("pyside6-lrelease is not installed")
    ts = resource_path("translations", "vramgui_zh_CN.ts")
    subprocess.run([str(tool), "-silent", str(ts), "-qm", str(tmp_path / "vramgui_zh_CN.qm")], check=True, timeout=60)
    translations = i18n.Translations(qapp, tmp_path)
    translations.apply("zh_CN")
    yield translations
    translations.apply("en")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_window_shrinks_to_1024_by_640(qtbot, tmp_path, request, lang):
    if lang == "zh_CN":
        request.getfixturevalue("chinese")
    window = create_main_window(QSettings(str(tmp_path / "w.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.show()
    window.ensure_charts()
    window.pin_current()  # the comparison tab with a scenario: its buttons need more than the tab's width
    QApplication.processEvents()
    assert window.minimumSizeHint().width() <= 1024
    window.resize(1024, 640)
    QApplication.processEvents()
    assert (window.width(), window.height()) == (1024, 640)
    window.document.ask_before_discarding = False


def _fits(found: dict) -> None:
    area, frame = QRect(*found["area"]), QRect(*found["frame"])
    assert (area.width(), area.height()) == (960, 540)  # 1920 x 1080 at 200 %
    assert found["charts"] and area.contains(frame), found
    assert found["minimum"][0] <= area.width() and found["minimum"][1] <= area.height(), found


def test_the_first_window_fits_the_screen_at_scale_factor_2(tmp_path):
    _fits(_first_window_at_scale_2(tmp_path, "fixed"))


def test_the_app_opens_its_first_window_on_the_screen_at_scale_factor_2(tmp_path):
    _fits(_first_window_at_scale_2(tmp_path, "app"))


def test_the_first_window_is_no_larger_than_the_screen(qtbot, tmp_path):
    window = _window(qtbot, tmp_path)
    area = window.screen().availableGeometry()  # offscreen: 800 x 800, narrower than the window's minimum
    assert window.height() <= area.height() and window.height() < DEFAULT_SIZE.height()
    assert window.width() == max(area.width() - 16, window.minimumSizeHint().width())
    assert area.contains(window.geometry().topLeft())


def test_a_geometry_saved_on_a_screen_that_is_gone_is_not_restored(qtbot, tmp_path):
    first = _window(qtbot, tmp_path, "a.ini")
    first.resize(700, 500)
    first.move(5000, 4000)  # a monitor right of and below this one, since unplugged
    saved = QByteArray(first.saveGeometry())
    assert not on_a_screen(saved_frame(saved))
    second = _window(qtbot, tmp_path, "b.ini", saved)
    assert second.screen().availableGeometry().contains(second.geometry().topLeft())


def test_a_geometry_on_the_screen_is_restored(qtbot, tmp_path):
    first = _window(qtbot, tmp_path, "a.ini")
    first.resize(first.minimumSizeHint().width(), 600)
    first.move(20, 30)
    saved = QByteArray(first.saveGeometry())
    assert on_a_screen(saved_frame(saved))
    second = _window(qtbot, tmp_path, "b.ini", saved)
    assert (second.y(), second.size()) == (first.y(), first.size())  # Qt may slide it left onto this 800 px screen


def test_saved_frame_reads_qt_geometry_bytes_and_rejects_garbage(qtbot, tmp_path):
    window = _window(qtbot, tmp_path)
    window.move(40, 50)
    frame = saved_frame(QByteArray(window.saveGeometry()))
    assert frame is not None and frame.topLeft() == window.frameGeometry().topLeft()
    assert saved_frame(QByteArray(b"\xff\xfe garbage")) is None
    assert saved_frame(QByteArray()) is None
