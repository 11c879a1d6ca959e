"""The pruning rules of packaging/bundle_filter.py, on hand-made TOCs (no PyInstaller run needed)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
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
    # pyqtgraph imports these two subpackages unconditionally; numpy.linalg inverts its transforms.
    for module in ("pyqtgraph.multiprocess", "pyqtgraph.reload", "numpy", "numpy.linalg", "PySide6.QtWidgets",
                   "PySide6.QtGui", "ctypes", "decimal", "_codecs_cn"):
        excluded = bf.EXCLUDED_MODULES + bf.EXCLUDED_MODULES_LINUX
        assert not any(module == ex or module.startswith(ex + ".") for ex in excluded), module


def test_opengl_bindings_are_excluded_only_with_their_stub_hook_in_the_spec():
    # pyqtgraph imports PySide6.QtOpenGL(Widgets) at import time: leaving them out is safe only with the stub hook.
    assert {"PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets"} <= set(bf.EXCLUDED_MODULES)
    assert "pyi_rth_vramgui_no_qtopengl.py" in (ROOT / "packaging" / "vramgui.spec").read_text(encoding="utf-8")
    kept, dropped = bf.prune_toc([("PySide6/QtOpenGL.abi3.so", "", "EXTENSION"),
                                  ("PySide6/QtOpenGLWidgets.abi3.so", "", "EXTENSION"),
                                  ("PySide6/QtSvg.abi3.so", "", "EXTENSION"),
                                  ("PySide6/Qt/lib/libQt6OpenGL.so.6", "", "BINARY"),
                                  ("PySide6/Qt/lib/libQt6Svg.so.6", "", "BINARY")], set())
    assert [entry[0] for entry in dropped] == ["PySide6/QtOpenGL.abi3.so", "PySide6/QtOpenGLWidgets.abi3.so",
                                               "PySide6/QtSvg.abi3.so"]
    # the libraries go only when nothing kept links them (prune_orphan_libraries): Qt's SVG icon engine keeps libQt6Svg
    assert [entry[0] for entry in kept] == ["PySide6/Qt/lib/libQt6OpenGL.so.6", "PySide6/Qt/lib/libQt6Svg.so.6"]


def test_wayland_keeps_what_a_raster_window_needs():
    names = ["platforms/libqwayland.so", "wayland-shell-integration/libxdg-shell.so",
             "wayland-decoration-client/libadwaita.so", "wayland-decoration-client/libbradient.so",
             "wayland-shell-integration/libivi-shell.so", "wayland-shell-integration/libqt-shell.so",
             "wayland-shell-integration/libfullscreen-shell-v1.so", "wayland-shell-integration/libwl-shell-plugin.so",
             "wayland-graphics-integration-client/libqt-plugin-wayland-egl.so",
             "wayland-graphics-integration-client/libdmabuf-server.so"]
    kept, _dropped = bf.prune_toc([(f"PySide6/Qt/plugins/{name}", "/x", "BINARY") for name in names], set())
    assert [Path(d).name for d, _s, _t in kept] == ["libqwayland.so", "libxdg-shell.so", "libadwaita.so",
                                                     "libbradient.so"]


def test_pyqtgraph_logo_and_colour_maps_are_dropped_but_its_button_icons_stay():
    toc = [("pyqtgraph/icons/peegee/peegee_512px.png", "/x", "DATA"),
           ("pyqtgraph/colors/maps/viridis.csv", "/x", "DATA"),
           ("pyqtgraph/icons/auto.png", "/x", "DATA"), ("pyqtgraph/icons/ctrl.png", "/x", "DATA")]
    kept, _dropped = bf.prune_toc(toc, set())
    assert [d for d, _s, _t in kept] == ["pyqtgraph/icons/auto.png", "pyqtgraph/icons/ctrl.png"]


def _needs(table):
    return lambda src: table.get(src, {})


@pytest.mark.parametrize(("needs", "left_to_system"), [
    ({"/s/qt": {"libc.so.6": {"GLIBC_2.36"}, "libstdc++.so.6": {"GLIBCXX_3.4.29", "CXXABI_1.3.13"}}}, True),
    ({"/s/qt": {"libc.so.6": {"GLIBC_2.34"}, "libstdc++.so.6": {"GLIBCXX_3.4.29"}}}, True),
    # an older glibc floor: systems that old may have an older libstdc++ than the bundle needs
    ({"/s/qt": {"libc.so.6": {"GLIBC_2.31"}, "libstdc++.so.6": {"GLIBCXX_3.4.21"}}}, False),
    # a library built with a newer GCC than the glibc floor guarantees
    ({"/s/qt": {"libc.so.6": {"GLIBC_2.36"}, "libstdc++.so.6": {"GLIBCXX_3.4.32"}}}, False),
    ({"/s/qt": {"libc.so.6": {"GLIBC_2.36"}, "libgcc_s.so.1": {"GCC_12.0.0"}}}, False),
])
def test_the_cxx_runtime_is_left_to_the_system_only_when_every_possible_system_has_a_new_enough_one(
        needs, left_to_system):
    toc = [("PySide6/Qt/lib/libQt6Core.so.6", "/s/qt", "BINARY"), ("libstdc++.so.6", "/s/stdc", "BINARY"),
           ("libgcc_s.so.1", "/s/gcc", "BINARY"), ("resources/x.json", "/s/x", "DATA")]
    kept, dropped, message = bf.drop_cxx_runtime(toc, _needs(needs))
    assert [d for d, _s, _t in dropped] == (["libstdc++.so.6", "libgcc_s.so.1"] if left_to_system else [])
    assert len(kept) + len(dropped) == len(toc)
    assert ("left to the system" if left_to_system else "bundled") in message


def test_the_cxx_runtime_stays_when_symbol_versions_cannot_be_read():
    toc = [("PySide6/Qt/lib/libQt6Core.so.6", "/s/qt", "BINARY"), ("libstdc++.so.6", "/s/stdc", "BINARY")]
    kept, dropped, message = bf.drop_cxx_runtime(toc, lambda src: None)
    assert dropped == [] and kept == toc and "cannot read" in message


@pytest.mark.skipif(not sys.platform.startswith("linux") or bf.shutil.which("readelf") is None,
                    reason="needs an ELF system and readelf")
def test_symbol_version_needs_are_read_per_library():
    needs = bf.version_needs(sys.executable)
    assert needs is not None and any(version.startswith("GLIBC_2.") for version in needs.get("libc.so.6", ()))


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


def test_links_to_pruned_libraries_are_dropped():
    binaries = [("PySide6/Qt/lib/libQt6Core.so.6", "/s/core", "BINARY")]
    datas = [("libQt6Core.so.6", "PySide6/Qt/lib/libQt6Core.so.6", "SYMLINK"),
             ("libQt6OpenGL.so.6", "PySide6/Qt/lib/libQt6OpenGL.so.6", "SYMLINK"),  # its library was pruned
             ("PySide6/Qt/lib/libx.so", "../../../libQt6Core.so.6", "SYMLINK"),  # to a link, not a file
             ("resources/a.json", "/s/a.json", "DATA")]
    kept, dropped = bf.prune_dangling_symlinks(datas, binaries)
    assert [d for d, _s, _t in dropped] == ["libQt6OpenGL.so.6", "PySide6/Qt/lib/libx.so"]
    assert [d for d, _s, _t in kept] == ["libQt6Core.so.6", "resources/a.json"]


def test_debug_sections_and_symbol_tables_are_stripped_into_copies_only_where_present(tmp_path):
    if not (bf.shutil.which("strip") and bf.shutil.which("readelf")):
        pytest.skip("binutils (strip, readelf) not installed")
    import sysconfig

    libdir = Path(sysconfig.get_config_var("LIBDIR") or "/nonexistent")
    candidates = sorted(libdir.glob("libpython3*.so*"))
    source = next((str(p) for p in candidates if bf.has_strippable_sections(str(p))), None)
    if source is None:
        pytest.skip("this interpreter's libpython carries no debug sections or symbol table")
    toc = [("libpython3.so.1.0", source, "BINARY"), ("libplain.so", "/bin/true", "BINARY"),
           ("numpy.libs/libscipy_openblas64_-x.so", source, "BINARY"), ("base_library.zip", source, "DATA")]
    stripped, saved = bf.strip_binaries(toc, tmp_path, needs_strip=lambda path: path == source)
    assert Path(stripped[0][1]).is_relative_to(tmp_path) and not bf.has_strippable_sections(stripped[0][1])
    assert saved > 0
    # untouched: nothing to strip, an auditwheel-vendored library (stripping breaks OpenBLAS), not a library
    assert stripped[1:] == toc[1:]


def test_the_window_never_imports_a_module_the_bundle_leaves_out():
    # The self-test's window, from the source tree: everything it imports must be in the bundle. pyqtgraph imports
    # the stubbed OpenGL bindings and, inside try/except, QtSvg and QtTest; `decimal` falls back to _pydecimal.
    excluded = set(bf.EXCLUDED_MODULES) | set(bf.EXCLUDED_MODULES_LINUX)
    allowed = {"PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets", "PySide6.QtSvg", "PySide6.QtTest", "_decimal"}
    code = (
        "import json, sys, tempfile, pathlib\n"
        "from vramgui import app, selftest\n"
        "out = pathlib.Path(tempfile.mkdtemp()) / 'x.png'\n"
        "assert selftest.run(str(out), None, create_app=app.create_application,"
        " create_window=app.create_main_window) == 0\n"
        "print(json.dumps(sorted(sys.modules)))\n")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=180, check=False)
    assert proc.returncode == 0, proc.stderr
    loaded = json.loads(proc.stdout.strip().splitlines()[-1])
    used = {name for name in loaded for ex in excluded if name == ex or name.startswith(ex + ".")}
    assert used - allowed == set()
