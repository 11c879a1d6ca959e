"""Exports never destroy an existing file: PNG and CSV are written atomically and a failure names the reason."""

from __future__ import annotations

import os

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from vramgui.presenters.documents import SaveError


@pytest.fixture
def old_file(tmp_path):
    (tmp_path / "out").mkdir()
    path = tmp_path / "out" / "chart.png"
    path.write_bytes(b"the user's old figure")
    return path


def _failing_replace(*_args, **_kwargs):
    raise OSError(28, "No space left on device")


def test_a_failed_png_export_keeps_the_old_file_and_no_temporary(window, old_file, monkeypatch):
    monkeypatch.setattr(os, "replace", _failing_replace)
    with pytest.raises(SaveError, match="No space left on device"):
        window.export_chart(str(old_file), 800)
    assert old_file.read_bytes() == b"the user's old figure"
    assert sorted(p.name for p in old_file.parent.iterdir()) == ["chart.png"]


def test_a_failed_csv_export_keeps_the_old_file(window, tmp_path, monkeypatch):
    (tmp_path / "csv").mkdir()
    path = tmp_path / "csv" / "data.csv"
    path.write_text("old,data\n", encoding="utf-8")
    monkeypatch.setattr(os, "replace", _failing_replace)
    with pytest.raises(OSError, match="No space left on device"):
        window.export_csv(str(path))
    assert path.read_text(encoding="utf-8") == "old,data\n"
    assert sorted(p.name for p in path.parent.iterdir()) == ["data.csv"]


def test_the_export_menu_says_which_file_and_why(window, old_file, monkeypatch):
    shown = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(old_file), ""))
    monkeypatch.setattr(QMessageBox, "critical", lambda _parent, title, text: shown.append((title, text)))
    monkeypatch.setattr(os, "replace", _failing_replace)
    window.chart_tabs.setCurrentIndex(0)
    window._on_export_png()  # the File > Export chart action's slot
    assert shown and str(old_file) in shown[0][1] and "No space left on device" in shown[0][1]
    assert old_file.read_bytes() == b"the user's old figure"


def test_a_successful_png_export_replaces_the_file(window, old_file):
    window.export_chart(str(old_file), 800)
    assert old_file.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
