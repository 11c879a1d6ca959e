"""Window tests never block on a modal dialog: the unsaved-changes question answers "Discard" unless a test
stubs it itself (the answers given are recorded on the fixture). ``window`` is a main window at the default
size, shown (pyqtgraph exports a never-shown widget at 640x480), with its settings in a temp folder."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from vramgui.app import create_main_window


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
