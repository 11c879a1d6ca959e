"""The run-time hook packaging/rthooks/pyi_rth_vramgui_no_qtopengl.py: stand-ins for the excluded OpenGL bindings.

The hook is executed as PyInstaller does (a script in a namespace of its own) against a copy of
``sys.meta_path``, so the test process keeps the real ``PySide6.QtOpenGL`` and ``PySide6.QtOpenGLWidgets``.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

HOOK = Path(__file__).resolve().parents[2] / "packaging" / "rthooks" / "pyi_rth_vramgui_no_qtopengl.py"


@pytest.fixture
def stub_finder(monkeypatch):
    meta_path = list(sys.meta_path)
    monkeypatch.setattr(sys, "meta_path", meta_path)
    namespace: dict[str, object] = {"__name__": "__main__"}
    exec(compile(HOOK.read_text(encoding="utf-8"), str(HOOK), "exec"), namespace)
    added = [finder for finder in sys.meta_path if type(finder).__name__ == "QtOpenGLStubFinder"]
    assert len(added) == 1
    assert sys.meta_path[-1] is added[0]  # consulted only when no real finder has the module
    assert [name for name in namespace if not name.startswith("__")] == []  # leaves __main__ clean
    return added[0]


def _stub_module(finder, name="PySide6.QtOpenGL"):
    spec = finder.find_spec(name, None)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_stub_finder_answers_only_the_two_opengl_bindings(stub_finder):
    assert stub_finder.find_spec("PySide6.QtOpenGL", None) is not None
    assert stub_finder.find_spec("PySide6.QtOpenGLWidgets", None) is not None
    for other in ("PySide6.QtGui", "PySide6", "PyQt6.QtOpenGL", "QtOpenGL", "PySide6.QtOpenGL.sub",
                  "pyside6.qtopengl", "PySide6.QtOpenGLWidgets.x", "PyQt6.QtOpenGLWidgets"):
        assert stub_finder.find_spec(other, None) is None, other


def test_qopenglwidget_is_a_placeholder_nothing_is_and_nobody_can_make(stub_finder, qapp):
    from PySide6.QtWidgets import QWidget

    module = _stub_module(stub_finder, "PySide6.QtOpenGLWidgets")
    placeholder = module.QOpenGLWidget
    assert issubclass(placeholder, QWidget) and module.QOpenGLWidget is placeholder  # made once
    assert not isinstance(QWidget(), placeholder)

    class Subclass(placeholder):  # what pyqtgraph's GraphicsViewGLWidget does at import time
        pass

    with pytest.raises(ImportError, match=r"PySide6\.QtOpenGLWidgets is not bundled"):
        Subclass()
    with pytest.raises(ImportError, match="not bundled"):
        module.QOpenGLWindow  # noqa: B018 - any other attribute raises


def test_stub_attribute_use_raises_a_clear_import_error(stub_finder):
    module = _stub_module(stub_finder)
    with pytest.raises(ImportError, match=r"PySide6\.QtOpenGL is not bundled: vramgui does not use OpenGL rendering"
                       ) as raised:
        module.QOpenGLBuffer  # noqa: B018 - the attribute access is what is tested
    assert raised.value.name == "PySide6.QtOpenGL"
    with pytest.raises(ImportError, match="not bundled"):
        getattr(module, "QOpenGLShaderProgram", None)  # a default does not swallow it


def test_stub_keeps_dunder_lookups_ordinary(stub_finder):
    module = _stub_module(stub_finder)
    assert not hasattr(module, "__path__")  # AttributeError, so hasattr/getattr defaults still work
    assert module.__name__ == "PySide6.QtOpenGL"


def test_stub_hook_imports_no_qt():
    code = ("import runpy, sys; runpy.run_path(sys.argv[1]);"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6')))")
    result = subprocess.run([sys.executable, "-c", code, str(HOOK)], capture_output=True, text=True, check=True,
                            timeout=60)
    assert result.stdout.strip() == "[]"


def test_import_through_the_stubs_when_the_bindings_are_missing():
    # A fresh interpreter where a finder hides the real bindings (as in the bundle): pyqtgraph still imports, a plot
    # still paints (PlotCurveItem asks isinstance(widget, QOpenGLWidget)) and exports.
    code = (
        "import importlib.abc, runpy, sys\n"
        "class Block(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name in ('PySide6.QtOpenGL', 'PySide6.QtOpenGLWidgets'):\n"
        "            return sys.meta_path[-1].find_spec(name, path, target)\n"
        "runpy.run_path(sys.argv[1])\n"
        "sys.meta_path.insert(0, Block())\n"
        "import importlib\n"
        "module = importlib.import_module('PySide6.QtOpenGL')\n"
        "import pyqtgraph as pg, pyqtgraph.Qt.OpenGLHelpers, pyqtgraph.graphicsItems.PColorMeshItem\n"
        "from pyqtgraph.exporters import ImageExporter\n"
        "assert pyqtgraph.graphicsItems.PlotCurveItem.QtOpenGL is module\n"
        "widgets = sys.modules['PySide6.QtOpenGLWidgets']\n"
        "assert widgets.__spec__.origin == 'vramgui stub (not bundled)'\n"
        "app = pg.mkQApp()\n"
        "plot = pg.PlotWidget(); plot.plot([1, 3, 2]); plot.resize(320, 240); plot.show(); app.processEvents()\n"
        "image = ImageExporter(plot.plotItem).export(toBytes=True)\n"
        "assert image.width() > 0\n"
        "try:\n"
        "    module.QOpenGLBuffer\n"
        "except ImportError as error:\n"
        "    print('stub', module.__spec__.origin, error)\n"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run([sys.executable, "-c", code, str(HOOK)], capture_output=True, text=True, check=False,
                            timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("stub vramgui stub (not bundled) PySide6.QtOpenGL is not bundled")
