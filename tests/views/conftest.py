"""Window tests never block on a modal dialog: the unsaved-changes question answers "Discard" unless a test
stubs it itself (the answers given are recorded on the fixture)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox


@pytest.fixture(autouse=True)
def unsaved_prompt(monkeypatch):
    asked: list[str] = []

    def answer(parent, title, text, *args, **kwargs):
        asked.append(text)
        return QMessageBox.StandardButton.Discard

    monkeypatch.setattr(QMessageBox, "question", answer)
    return asked
