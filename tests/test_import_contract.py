"""The core knows nothing of Qt, and the CLI path never imports it (design principle 3).

The static rule is also an import-linter contract (``qt-free`` in pyproject.toml, run by ``make lint``); these
tests keep it inside ``pytest`` and add the run-time side: importing every core, io and CLI module loads no Qt.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import vramgui

PACKAGE = Path(vramgui.__file__).parent
FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "pyqtgraph", "numpy", "torch", "transformers")
QT_FREE_PACKAGES = ("core", "io")


def _qt_free_files() -> Iterator[Path]:
    for package in QT_FREE_PACKAGES:
        yield from sorted((PACKAGE / package).rglob("*.py"))
    yield from sorted(PACKAGE.glob("cli*.py"))  # the command line: cli, cli_format, cli_options, cli_solve, ...


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_core_io_and_cli_modules_import_no_gui_or_heavy_libraries():
    offenders = {
        str(p.relative_to(PACKAGE)): sorted(_imported_roots(p) & set(FORBIDDEN)) for p in _qt_free_files()
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_cli_path_does_not_load_qt_at_runtime():
    modules = sorted(_module_name(p) for p in _qt_free_files())
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}]\n"
        "print(bad)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
