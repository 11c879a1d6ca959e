"""The core knows nothing of Qt, and the CLI path never imports it (design principle 3)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import vramgui

PACKAGE = Path(vramgui.__file__).parent
FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "pyqtgraph", "numpy", "torch", "transformers")


def _imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_core_modules_import_no_gui_or_heavy_libraries():
    offenders = {
        str(p.relative_to(PACKAGE)): sorted(_imported_roots(p) & set(FORBIDDEN))
        for p in (PACKAGE / "core").rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_cli_path_does_not_load_qt_at_runtime():
    code = (
        "import sys, vramgui.core, vramgui.cli;"
        "bad=[m for m in sys.modules if m.split('.')[0] in %r];"
        "print(bad); sys.exit(1 if bad else 0)" % (FORBIDDEN,)
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
