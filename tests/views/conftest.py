"""Window tests never block on a modal dialog: the unsaved-changes question answers "Discard" unless a test
stubs it itself (the answers given are recorded on the fixture). ``window`` is a main window at the default
size, shown (pyqtgraph exports a never-shown widget at 640x480), with its settings in a temp folder."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale, QSettings
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QMessageBox

from vramgui import i18n
from vramgui.app import create_main_window
from vramgui.paths import resource_path


@pytest.fixture(scope="session")
def compiled_dir(tmp_path_factory) -> Path:
    """The zh_CN catalogue compiled from the committed .ts (the tests never depend on a stale .qm)."""
    tool = Path(sys.executable).with_name("pyside6-lrelease")
    if not tool.exists():
        pytest.skip("pyside6-lrelease (PySide6-Essentials) is not installed")
    out = tmp_path_factory.mktemp("qm")
    ts = resource_path("translations", "vramgui_zh_CN.ts")
    subprocess.run([str(tool), "-silent", str(ts), "-qm", str(out / "vramgui_zh_CN.qm")], check=True, timeout=60)
    return out


@pytest.fixture(scope="module", params=["en", "zh_CN"])
def language(request, qapp, compiled_dir):
    """Each test of a module in English, then in Simplified Chinese (skipped without a CJK font: Chinese widths
    are unknown then)."""
    if request.param == "zh_CN" and not QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese):
        pytest.skip("no CJK font installed: Chinese widths are unknown")
    original = QLocale()
    translations = i18n.Translations(qapp, compiled_dir)
    translations.apply(request.param)
    yield request.param
    translations.apply("en")
    QLocale.setDefault(original)


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def window(qtbot, settings):
    win = create_main_window(settings)
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.presenter.finish_sweeps()


@pytest.fixture(autouse=True)
def unsaved_prompt(monkeypatch):
    asked: list[str] = []

    def answer(parent, title, text, *args, **kwargs):
        asked.append(text)
        return QMessageBox.StandardButton.Discard

    monkeypatch.setattr(QMessageBox, "question", answer)
    return asked
