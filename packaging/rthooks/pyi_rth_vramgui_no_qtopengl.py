"""PyInstaller run-time hook: stand in for the ``PySide6.QtOpenGL`` binding, which the bundle leaves out.

pyqtgraph imports ``PySide6.QtOpenGL`` unconditionally at import time (``importlib.import_module`` in
``pyqtgraph/Qt/OpenGLHelpers.py``, ``graphicsItems/PlotCurveItem.py`` and ``graphicsItems/PColorMeshItem.py``)
but uses it only inside its OpenGL code paths (``useOpenGL``, GL widgets, the GL paint methods), which vramgui
never enables. So the 8.9 MB binding is excluded (bundle_filter.EXCLUDED_MODULES) and this hook answers that ONE
module name with a stub whose every attribute raises a clear ``ImportError``. Dunder lookups (``__path__``,
``__file__``, ...) raise ``AttributeError`` as usual, so ``hasattr`` and ``getattr(m, x, default)`` done by the
import system and by introspection keep working. The finder is appended to ``sys.meta_path``: it is asked only
when no real finder has the module, so a bundle that does ship the binding still gets the real one.
The hook imports nothing from PySide6 (the other hook keeps the command-line path free of Qt), and, like it,
defines a single function it deletes again: run-time hooks execute in the namespace of ``__main__``.
``libQt6OpenGL`` and the ``QtOpenGLWidgets`` binding stay in the bundle; neither needs this binding.
"""


def _install_qtopengl_stub():
    import importlib.abc
    import importlib.machinery
    import sys

    stub_name = "PySide6.QtOpenGL"
    message = "PySide6.QtOpenGL is not bundled: vramgui does not use OpenGL rendering"

    def stub_getattr(name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(f"module {stub_name!r} has no attribute {name!r}")
        raise ImportError(f"{message} (attribute {name!r})", name=stub_name)

    class _StubLoader(importlib.abc.Loader):
        def create_module(self, spec):
            return None  # the default module object

        def exec_module(self, module):
            module.__getattr__ = stub_getattr
            module.__doc__ = message

    class QtOpenGLStubFinder(importlib.abc.MetaPathFinder):
        """Meta-path finder answering only ``PySide6.QtOpenGL``, with the stub module."""

        def find_spec(self, fullname, path=None, target=None):
            if fullname != stub_name:
                return None
            return importlib.machinery.ModuleSpec(fullname, _StubLoader(), origin="vramgui stub (not bundled)")

    if not any(type(finder).__name__ == "QtOpenGLStubFinder" for finder in sys.meta_path):
        sys.meta_path.append(QtOpenGLStubFinder())


_install_qtopengl_stub()
del _install_qtopengl_stub
