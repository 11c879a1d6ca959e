"""Presenter tests: ``chinese`` compiles the zh_CN catalogue from the committed .ts (no ``make translations``
needed) and installs it for one test."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QTranslator

from vramgui.paths import resource_path


def _lrelease() -> str | None:
    candidate = Path(sys.executable).with_name("pyside6-lrelease")
    return str(candidate) if candidate.exists() else shutil.which("pyside6-lrelease")


@pytest.fixture
def chinese(qapp, tmp_path):
    """The zh_CN catalogue compiled now and installed (skipped where lrelease is not installed)."""
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
