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


def _children(package: Path) -> set[str]:
    names = {p.stem for p in package.glob("*.py") if p.stem != "__init__"}
    return names | {p.name for p in package.iterdir() if (p / "__init__.py").is_file()}


def test_every_concept_of_the_core_and_the_cli_sits_in_their_layers():
    """A new concept folder of the core (or module of the CLI) must take a place in its layers contract, or
    nothing would stop it importing upwards."""
    for contract_id, folder in (("core-layers", PACKAGE / "core"), ("cli-inside", PACKAGE / "cli")):
        (contract,) = [c for c in _contracts() if c.get("id") == contract_id]
        layered = {m.strip() for layer in contract["layers"] for m in re.split(r"[|:]", layer)}
        assert _children(folder) == layered, contract_id


def test_no_module_is_named_after_an_issue_or_a_campaign():
    """Files are named for their role (issue 20): not after the work that made them."""
    pattern = re.compile(r"issue\d|items\d|^messages_|^field_table")
    tests = PACKAGE.parent / "tests"
    names = [p.relative_to(PACKAGE.parent).as_posix() for root in (PACKAGE, tests) for p in root.rglob("*.py")]
    assert [n for n in names if pattern.search(Path(n).stem)] == []


def _named_paths() -> set[str]:
    """Every dotted key that stands for a field or a form row: the registry's paths, the constants of
    ``core/fields/paths.py`` (the prefixes and the non-field keys too) and the form's UI rows and hints."""
    from vramgui.core.fields import form_rows, paths
    from vramgui.core.fields import registry as fields

    named = set(fields.registry()) | {v for k, v in vars(paths).items() if k.isupper() and isinstance(v, str)}
    named |= set(form_rows.UI_KEYS) | {h.key for h in form_rows.HINTS}
    # A top-level field's path is a plain word ("convention") that the CLI also writes as a JSON key and a --help
    # group: only a dotted path is unambiguously a field's name.
    return {p for p in named if "." in p}


def _string_literals(path: Path) -> list[tuple[int, str]]:
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(n.lineno, n.value) for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def test_no_presenter_view_or_cli_module_names_a_field():
    """Presenters, views and the command line iterate the registry's rows (issue 20): a field's words, group, caption
    form and rule are in its row, and behaviour tied to one field refers to it through ``core/fields/paths.py``. A
    dotted path written as a literal here is a second copy of the registry's knowledge."""
    named = _named_paths()
    assert {"training.micro_batch", "model.preset", "model.params_hint", "model.architecture."} <= named
    found = [f"{p.relative_to(PACKAGE.parent).as_posix()}:{line}: {value!r}"
             for folder in ("presenters", "views", "cli") for p in sorted((PACKAGE / folder).rglob("*.py"))
             for line, value in _string_literals(p) if value in named]
    assert found == []
