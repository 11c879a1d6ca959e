"""Test set-up shared by every test.

Qt must be told to render offscreen *before* it is imported anywhere, and pyqtgraph must bind to PySide6.
Settings never touch the developer's home directory.
"""

from __future__ import annotations

import os

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
