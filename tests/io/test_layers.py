"""The core does no file I/O and knows nothing of ``vramgui.io``; ``vramgui.io`` knows nothing of Qt; no import
cycles among the two (docs/architecture.md, "The rooms")."""

from __future__ import annotations

import ast
from pathlib import Path

import vramgui

PACKAGE = Path(vramgui.__file__).parent
# Modules that reach the disk (or the app's resources on it); the core takes data, never paths.
DISK_MODULES = ("os", "pathlib", "tempfile", "shutil", "io", "stat", "glob", "fileinput", "mmap", "vramgui.paths",
                "vramgui.io", "vramgui.settings", "importlib.resources")
QT_AND_HEAVY = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "pyqtgraph", "numpy", "torch", "transformers")


def _runtime_nodes(tree: ast.AST):
    """Every node except those under ``if TYPE_CHECKING:`` (annotations only, never imported at run time)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            stack.extend(node.orelse)
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def _matches(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_core_imports_nothing_that_reaches_the_disk():
    offenders = {}
    for path in sorted((PACKAGE / "core").rglob("*.py")):
        bad = sorted(n for n in _imports(path) if _matches(n, DISK_MODULES))
        if bad:
            offenders[_module_name(path)] = bad
    assert offenders == {}


def test_core_never_calls_open():
    offenders = []
    for path in sorted((PACKAGE / "core").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            called = node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else None
            if called in ("open", "__import__"):
                offenders.append(f"{_module_name(path)}:{node.lineno}")
    assert offenders == []


def test_io_imports_no_qt_or_heavy_libraries():
    offenders = {}
    for path in sorted((PACKAGE / "io").rglob("*.py")):
        bad = sorted(n for n in _imports(path) if _matches(n, QT_AND_HEAVY))
        if bad:
            offenders[_module_name(path)] = bad
    assert offenders == {}


def test_no_import_cycles_in_core_and_io():
    modules = {_module_name(p): p for sub in ("core", "io") for p in (PACKAGE / sub).rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        graph[name] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):  # lazy imports count too
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            graph[name].update(t for t in targets if t in modules and t != name and not
                               (modules[t].name == "__init__.py" and name.startswith(t + ".")))
    cycles = []
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                path = [*trail, node]
                cycles.append(" -> ".join([*path[path.index(nxt):], nxt]))
            elif nxt not in state:
                visit(nxt, [*trail, node])
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [])
    assert cycles == []


def test_the_io_package_is_where_the_readers_live():
    for name in ("files", "hf_config", "safetensors", "model_folder", "scenario_files", "presets"):
        assert (PACKAGE / "io" / f"{name}.py").is_file(), name
    for gone in ("hf_config", "safetensors", "model_folder", "scenario_io"):
        assert not (PACKAGE / "core" / f"{gone}.py").exists(), gone
