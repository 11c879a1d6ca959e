"""No two entries of one menu share an "&" mnemonic (Alt+letter would only cycle between them), in every menu and
submenu of the window, in English and in Simplified Chinese."""

from __future__ import annotations

import re
from collections import Counter

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMenu

from vramgui.app import create_main_window


def mnemonic(text: str) -> str | None:
    """The letter after a single "&" ("&&" is a literal ampersand)."""
    match = re.search(r"(?<!&)&([^&\s])", text.replace("&&", ""))
    return match.group(1).lower() if match else None


def duplicates(menu: QMenu, path: str = "") -> list[str]:
    """"File: c (&Copy chart…, &Clear…)" for each letter used twice, in ``menu`` and its submenus."""
    name = f"{path}{menu.title().replace('&', '')}"
    letters = Counter()
    texts: dict[str, list[str]] = {}
    found = []
    for action in menu.actions():
        if action.isSeparator():
            continue
        letter = mnemonic(action.text())
        if letter:
            letters[letter] += 1
            texts.setdefault(letter, []).append(action.text())
        if action.menu() is not None:
            found += duplicates(action.menu(), name + " > ")
    found += [f"{name}: {letter} ({', '.join(texts[letter])})" for letter, n in letters.items() if n > 1]
    return found


def all_duplicates(window) -> list[str]:
    bar = window.menuBar()
    top = [mnemonic(a.text()) for a in bar.actions()]
    found = [f"menu bar: {c}" for c, n in Counter(t for t in top if t).items() if n > 1]
    for action in bar.actions():
        found += duplicates(action.menu())
    return found


def make_window(qtbot, tmp_path):
    window = create_main_window(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.show_recent_files([str(tmp_path / "a.json"), str(tmp_path / "b & c.json")])
    return window


def test_the_mnemonic_reader():
    assert mnemonic("Chart: largest &model") == "m" and mnemonic("图表：最大模型(&M)") == "m"
    assert mnemonic("Save && quit") is None and mnemonic("&1 b && c.json") == "1"


def test_no_menu_has_a_mnemonic_twice_in_english(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    assert all_duplicates(window) == []
    view = window.menuBar().actions()[1].menu()
    assert sum(mnemonic(a.text()) == "l" for a in view.actions()) == 1, "the Language menu has L; no chart takes it"



def test_no_menu_has_a_mnemonic_twice_in_chinese(qtbot, tmp_path, chinese):
    window = make_window(qtbot, tmp_path)
    assert window.menuBar().actions()[0].text() == "文件(&F)"
    assert all_duplicates(window) == []
