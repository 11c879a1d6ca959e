"""Window tests never block on a modal dialog: the unsaved-changes question answers "Discard" unless a test
stubs it itself (the answers given are recorded on the fixture). ``window`` is a main window at the default
size, shown (pyqtgraph exports a never-shown widget at 640x480), with its settings in a temp folder: the first
run's screen; ``seed_window`` the same window reopened on the seed's worked example with every group open."""

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


@pytest.fixture
def translations(qapp, compiled_dir, monkeypatch):
    """The app's translators as ``main()`` installs them (``app.vramgui_translations``), English afterwards."""
    original = QLocale()
    t = i18n.Translations(qapp, compiled_dir)
    monkeypatch.setattr(qapp, "vramgui_translations", t, raising=False)
    yield t
    t.apply("en")
    QLocale.setDefault(original)


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
def seeded_settings(settings):
    """A returning user's settings: the seed's worked example (7B by its count, fp16 mixed Adam, 8 x 80 GB,
    ZeRO-2: 26.25 GB per GPU) kept from the last session, and every group of the form left open. The tests written
    against that example and the whole form start here; the first screen itself is ``test_first_screen.py``'s."""
    from vramgui.presenters.form.groups import FOLDING, default_scenario
    from vramgui.settings import Settings

    kept = Settings(settings)
    kept.set_last_scenario(default_scenario())
    kept.set_open_form_groups(FOLDING)
    kept.sync()
    return settings


@pytest.fixture
def seed_window(qtbot, seeded_settings):
    yield from _shown_window(qtbot, seeded_settings)


@pytest.fixture
def window(qtbot, settings):
    """The window as a first run opens it (``groups.first_scenario``, the groups folded but Essentials)."""
    yield from _shown_window(qtbot, settings)


def _shown_window(qtbot, settings):
    """A window made with ``settings``, shown at 1,400 x 900; its sweeps finished when the test is done."""
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
