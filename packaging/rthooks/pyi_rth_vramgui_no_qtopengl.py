"""PyInstaller run-time hook: stand in for the ``PySide6.QtOpenGL`` and ``PySide6.QtOpenGLWidgets`` bindings, which
the bundle leaves out.

pyqtgraph imports both unconditionally at import time (``importlib.import_module`` in ``pyqtgraph/Qt/OpenGLHelpers.py``,
``graphicsItems/PlotCurveItem.py`` and ``graphicsItems/PColorMeshItem.py``; ``pyqtgraph/Qt/__init__.py``) but uses
them only inside its OpenGL code paths (``useOpenGL``, GL widgets, the GL paint methods), which vramgui never
enables. So the bindings (9 MB with libQt6OpenGL, which nothing else links) are excluded
(bundle_filter.EXCLUDED_MODULES) and this hook answers those TWO module names with stubs whose every attribute raises
a clear ``ImportError``, except ``QtOpenGLWidgets.QOpenGLWidget``: pyqtgraph subclasses it at import time
(``GraphicsViewGLWidget``) and tests ``isinstance(widget, QtWidgets.QOpenGLWidget)`` while painting, so it is a plain
``QWidget`` subclass, made on first use, that nothing is an instance of and that raises when created. Dunder lookups
(``__path__``, ``__file__``, ...) raise ``AttributeError`` as usual, so ``hasattr`` and ``getattr(m, x, default)`` done
by the import system and by introspection keep working. The finder is appended to ``sys.meta_path``: it is asked
only when no real finder has the module, so a bundle that does ship a binding still gets the real one.
The hook imports nothing from PySide6 (the other hook keeps the command-line path free of Qt; the placeholder
imports ``PySide6.QtWidgets`` only when pyqtgraph asks for it, which is long after Qt is loaded), and, like it,
defines a single function it deletes again: run-time hooks execute in the namespace of ``__main__``.
"""


def _install_qtopengl_stub():
    import importlib.abc
    import importlib.machinery
    import sys

    message = "{} is not bundled: vramgui does not use OpenGL rendering"
    placeholders = {"PySide6.QtOpenGLWidgets": "QOpenGLWidget"}

    def make_getattr(module):
        name_of_module = module.__name__

        def stub_getattr(name):
            if name.startswith("__") and name.endswith("__"):
                raise AttributeError(f"module {name_of_module!r} has no attribute {name!r}")
            if placeholders.get(name_of_module) == name:
                # pyqtgraph subclasses QOpenGLWidget at import time and asks isinstance(widget, QOpenGLWidget) when
                # painting: a plain QWidget subclass that nothing is an instance of, and that cannot be created.
                from PySide6.QtWidgets import QWidget

                text = message.format(name_of_module)

                class QOpenGLWidget(QWidget):
                    def __init__(self, *args, **kwargs):
                        raise ImportError(f"{text} (QOpenGLWidget)", name=name_of_module)

                setattr(module, name, QOpenGLWidget)
                return QOpenGLWidget
            raise ImportError(f"{message.format(name_of_module)} (attribute {name!r})", name=name_of_module)

        return stub_getattr

    class _StubLoader(importlib.abc.Loader):
        def create_module(self, spec):
            return None  # the default module object

        def exec_module(self, module):
            module.__getattr__ = make_getattr(module)
            module.__doc__ = message.format(module.__name__)

    class QtOpenGLStubFinder(importlib.abc.MetaPathFinder):
        """Meta-path finder answering only ``PySide6.QtOpenGL`` and ``PySide6.QtOpenGLWidgets``, with stubs."""

        def find_spec(self, fullname, path=None, target=None):
            if fullname not in ("PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets"):
                return None
            return importlib.machinery.ModuleSpec(fullname, _StubLoader(), origin="vramgui stub (not bundled)")

    if not any(type(finder).__name__ == "QtOpenGLStubFinder" for finder in sys.meta_path):
        sys.meta_path.append(QtOpenGLStubFinder())


_install_qtopengl_stub()
del _install_qtopengl_stub
