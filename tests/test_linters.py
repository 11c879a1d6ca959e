"""The layering in pyproject.toml covers the whole package (`make lint` runs import-linter, ruff and mypy).

import-linter only checks the modules a contract names: a new top-level module that no layers contract lists
would escape every rule, so each one must have a place in a layer.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import vramgui

PACKAGE = Path(vramgui.__file__).parent
PYPROJECT = PACKAGE.parent / "pyproject.toml"


def _contracts() -> list[dict]:
    return tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]


def _top_level_modules() -> set[str]:
    names = {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    names |= {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    return {f"vramgui.{name}" for name in names}


def test_every_top_level_module_sits_in_a_layer():
    layered = {
        module
        for contract in _contracts() if contract["type"] == "layers"
        for layer in contract["layers"]
        for module in re.split(r"[|:]", layer)
    }
    layered = {m.strip() for m in layered}
    assert _top_level_modules() - layered == set(), "add the new module to a layers contract in pyproject.toml"


def test_the_qt_free_contract_forbids_qt_in_core_io_and_the_cli():
    (qt_free,) = [c for c in _contracts() if c.get("id") == "qt-free"]
    cli_modules = {f"vramgui.{p.stem}" for p in PACKAGE.glob("cli*.py")}
    assert {"vramgui.core", "vramgui.io", *cli_modules} <= set(qt_free["source_modules"])
    assert {"PySide6", "pyqtgraph", "numpy"} <= set(qt_free["forbidden_modules"])
