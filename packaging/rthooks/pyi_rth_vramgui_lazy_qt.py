"""PyInstaller run-time hook: keep Qt out of the command-line path of the frozen app.

PyInstaller's own PySide6 run-time hook (pyi_rth_pyside6) imports ``PySide6.QtCore`` at start-up, only to
register an embedded ``qt.conf`` that points Qt's library paths (plugins, translations) into the bundle. That
loads QtCore, ICU and GLib into every process - 0.3 s for ``vramgui estimate ...``, which by design never
touches Qt (docs/packaging.md, "Start-up time": the CLI must start fast and work without a display). Custom
run-time hooks run before PyInstaller's, so this one replaces that registration with a deferred one: it happens
right after the program itself first imports ``PySide6.QtCore``, before any Qt path is looked up. Everything
else of the original hook (plugin path variables, single-binding check) is unchanged. The frozen smoke test
checks both halves: the CLI loads no Qt library, the GUI finds Qt's translations through ``QLibraryInfo``.
"""


def _defer_qt_conf_registration():
    import importlib.abc
    import sys

    from _pyi_rth_utils import qt as qt_rth_utils

    register_now = qt_rth_utils.create_embedded_qt_conf
    pending = []

    class _RegisterAfterQtCore(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path, target=None):
            if not fullname.endswith(".QtCore") or not pending:
                return None
            spec = None
            for finder in sys.meta_path:
                if finder is not self and hasattr(finder, "find_spec"):
                    spec = finder.find_spec(fullname, path, target)
                    if spec is not None:
                        break
            if spec is None or spec.loader is None:
                return None
            sys.meta_path.remove(self)
            exec_module = spec.loader.exec_module

            def exec_then_register(module):
                exec_module(module)
                while pending:
                    register_now(*pending.pop(0))

            spec.loader.exec_module = exec_then_register
            return spec

    def create_embedded_qt_conf(qt_bindings, prefix_path):
        if f"{qt_bindings}.QtCore" in sys.modules:
            register_now(qt_bindings, prefix_path)
        else:
            pending.append((qt_bindings, prefix_path))

    qt_rth_utils.create_embedded_qt_conf = create_embedded_qt_conf
    sys.meta_path.insert(0, _RegisterAfterQtCore())


_defer_qt_conf_registration()
del _defer_qt_conf_registration
