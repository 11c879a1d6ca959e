"""The pruning rules of packaging/bundle_filter.py, on hand-made TOCs (no PyInstaller run needed)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load_bundle_filter():
    spec = importlib.util.spec_from_file_location("bundle_filter", ROOT / "packaging" / "bundle_filter.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bundle_filter", module)
    spec.loader.exec_module(module)
    return module


bf = _load_bundle_filter()


def test_pyqtgraph_needs_are_never_excluded():
    # pyqtgraph imports these two subpackages unconditionally; QOpenGLWidget lives in QtOpenGLWidgets.
    for module in ("PySide6.QtOpenGLWidgets", "PySide6.QtSvg", "pyqtgraph.multiprocess",
                   "pyqtgraph.reload", "numpy", "PySide6.QtWidgets"):
        assert not any(module == ex or module.startswith(ex + ".") for ex in bf.EXCLUDED_MODULES), module


def test_qtopengl_binding_is_excluded_only_with_its_stub_hook_in_the_spec():
    # pyqtgraph imports PySide6.QtOpenGL at import time: leaving it out is safe only with the stub run-time hook.
    assert "PySide6.QtOpenGL" in bf.EXCLUDED_MODULES
    assert "pyi_rth_vramgui_no_qtopengl.py" in (ROOT / "packaging" / "vramgui.spec").read_text(encoding="utf-8")
    kept, dropped = bf.prune_toc([("PySide6/QtOpenGL.abi3.so", "", "EXTENSION"),
                                  ("PySide6/QtOpenGLWidgets.abi3.so", "", "EXTENSION"),
                                  ("PySide6/Qt/lib/libQt6OpenGL.so.6", "", "BINARY"),
                                  ("PySide6/Qt/lib/libQt6OpenGLWidgets.so.6", "", "BINARY")], set())
    assert [entry[0] for entry in dropped] == ["PySide6/QtOpenGL.abi3.so"]
    assert len(kept) == 3


def test_platform_plugins_for_desktops_and_offscreen_are_kept():
    toc = [(f"PySide6/Qt/plugins/platforms/libq{name}.so", "/x", "BINARY")
           for name in ("xcb", "wayland", "offscreen", "eglfs", "vnc", "linuxfb")]
    kept, dropped = bf.prune_toc(toc, set())
    assert {Path(d).name for d, _s, _t in kept} == {"libqxcb.so", "libqwayland.so", "libqoffscreen.so"}
    assert len(dropped) == 3


def test_windows_separators_and_case_are_matched():
    kept, dropped = bf.prune_toc([("PySide6\\plugins\\imageformats\\QJPEG.DLL", "C:/x", "BINARY"),
                                  ("PySide6\\plugins\\imageformats\\qico.dll", "C:/x", "BINARY")], set())
    assert [d for d, _s, _t in dropped] == ["PySide6\\plugins\\imageformats\\QJPEG.DLL"]
    assert len(kept) == 1


def test_only_qtbase_catalogues_of_the_apps_languages_are_kept():
    names = ["qtbase_de.qm", "qtbase_fr.qm", "qt_de.qm", "qt_help_de.qm", "qtbase_pt_BR.qm", "qtbase_zh_CN.qm"]
    toc = [(f"PySide6/Qt/translations/{name}", "/x", "DATA") for name in names]
    kept, _dropped = bf.prune_toc(toc, {"de", "pt_BR", "zh"})
    assert sorted(Path(d).name for d, _s, _t in kept) == ["qtbase_de.qm", "qtbase_pt_BR.qm"]


def test_app_languages_come_from_the_compiled_catalogues(tmp_path):
    for name in ("vramgui_de.qm", "vramgui_zh_CN.qm", "vramgui_fr.ts"):
        (tmp_path / name).write_bytes(b"")
    assert bf.app_languages(tmp_path) == {"de", "zh_CN"}


def test_orphan_libraries_left_by_dropped_plugins_are_pruned():
    toc = [("PySide6/QtWidgets.abi3.so", "/s/QtWidgets.abi3.so", "EXTENSION"),
           ("PySide6/Qt/lib/libQt6Widgets.so.6", "/s/libQt6Widgets.so.6", "BINARY"),
           ("PySide6/Qt/lib/libQt6Core.so.6", "/s/libQt6Core.so.6", "BINARY"),
           ("libicudata.so.73", "/s/libicudata.so.73", "BINARY"),
           ("PySide6/Qt/plugins/platforms/libqxcb.so", "/s/libqxcb.so", "BINARY"),
           ("libxcb-cursor.so.0", "/s/libxcb-cursor.so.0", "BINARY"),
           ("libcairo.so.2", "/s/libcairo.so.2", "BINARY"),  # only the (dropped) GTK3 theme wanted it
           ("libpython3.11.so.1.0", "/s/libpython3.11.so.1.0", "BINARY"),
           ("base_library.zip", "/s/base_library.zip", "DATA")]
    imports = {"/s/QtWidgets.abi3.so": ["libQt6Widgets.so.6"], "/s/libQt6Widgets.so.6": ["libQt6Core.so.6"],
               "/s/libQt6Core.so.6": ["libicudata.so.73", "libc.so.6"],
               "/s/libqxcb.so": ["libxcb-cursor.so.0", "libQt6Core.so.6"]}
    kept, dropped = bf.prune_orphan_libraries(toc, lambda src: [(n, None) for n in imports.get(src, [])])
    assert [d for d, _s, _t in dropped] == ["libcairo.so.2"]
    assert len(kept) == len(toc) - 1


def test_debug_sections_are_stripped_into_copies_only_where_present(tmp_path):
    if not (bf.shutil.which("strip") and bf.shutil.which("readelf")):
        pytest.skip("binutils (strip, readelf) not installed")
    import sysconfig

    libdir = Path(sysconfig.get_config_var("LIBDIR") or "/nonexistent")
    candidates = sorted(libdir.glob("libpython3*.so*"))
    source = next((str(p) for p in candidates if bf.has_debug_info(str(p))), None)
    if source is None:
        pytest.skip("this interpreter's libpython carries no debug sections")
    toc = [("libpython3.so.1.0", source, "BINARY"), ("libplain.so", "/bin/true", "BINARY")]
    stripped, saved = bf.strip_debug_info(toc, tmp_path)
    assert stripped[1] == toc[1]
    assert Path(stripped[0][1]).is_relative_to(tmp_path) and not bf.has_debug_info(stripped[0][1])
    assert saved > 0
