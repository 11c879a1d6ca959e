"""Test set-up shared by every test.

Qt must be told to render offscreen *before* it is imported anywhere, and pyqtgraph must bind to PySide6.
Settings never touch the developer's home directory.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pytest


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory, monkeypatch):
    """Keep QSettings (and anything else writing to $HOME / XDG dirs) inside a temp dir."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    return home


@pytest.fixture
def built_translations():
    """The compiled catalogues the app loads at run time (``resources/translations/*.qm``, built by ``make
    translations``, not committed). A test that needs them is skipped with the reason when they are not built;
    tests that only need a catalogue compile the ``.ts`` into a temp folder themselves."""
    from vramgui.paths import resource_path

    folder = resource_path("translations")
    missing = sorted(ts.with_suffix(".qm").name for ts in folder.glob("*.ts") if not ts.with_suffix(".qm").is_file())
    if missing:
        pytest.skip(f"{', '.join(missing)} not built in {folder} (run `make translations`)")
    return folder


def _lrelease() -> str | None:
    candidate = Path(sys.executable).with_name("pyside6-lrelease")
    return str(candidate) if candidate.exists() else shutil.which("pyside6-lrelease")


@pytest.fixture
def chinese(qapp, tmp_path):
    """The zh_CN catalogue compiled now and installed (skipped where lrelease is not installed)."""
    from PySide6.QtCore import QCoreApplication, QTranslator

    from vramgui.paths import resource_path

    tool = _lrelease()
    if tool is None:
        pytest.skip("pyside6-lrelease (PySide6-Essentials) is not installed")
    qm = tmp_path / "vramgui_zh_CN.qm"
    subprocess.run([tool, "-silent", str(resource_path("translations", "vramgui_zh_CN.ts")), "-qm", str(qm)],
                   check=True, timeout=60)
    translator = QTranslator()
    assert translator.load(str(qm))
    QCoreApplication.installTranslator(translator)
    yield translator
    QCoreApplication.removeTranslator(translator)
