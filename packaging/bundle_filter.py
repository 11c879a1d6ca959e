"""What the frozen vramgui leaves out, and the pruning of PyInstaller's TOCs that applies it.

Used by ``vramgui.spec``; kept in its own module so the rules are unit-tested (tests/packaging) and every
exclusion carries its reason. Each rule was measured by building and running the frozen self-test
(docs/packaging.md lists the sizes). ``PySide6.QtOpenGL`` and ``PySide6.QtOpenGLWidgets`` (9.7 MB with the
libQt6OpenGL/libQt6OpenGLWidgets libraries that only they and the dropped Wayland GL plugins link) are excluded
although pyqtgraph imports them unconditionally: plain exclusion kills the app at launch (docs/packaging.md, "Size:
what is left out, and why"), so the run-time hook rthooks/pyi_rth_vramgui_no_qtopengl.py answers those two names with
stubs that raise ImportError on use (and a QOpenGLWidget placeholder class that pyqtgraph can subclass and test
isinstance against). pyqtgraph touches the bindings only in its OpenGL paths (useOpenGL, GL widgets), which vramgui
never enables.

A TOC entry is PyInstaller's ``(dest_name, src_path, typecode)`` tuple.
"""

from __future__ import annotations

import fnmatch
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterable
from pathlib import Path, PurePath

TocEntry = tuple[str, str, str]

# Python modules the app never imports at run time. Analysis(excludes=...) stops them being followed.
EXCLUDED_MODULES: tuple[str, ...] = (
    # Qt bindings other than PySide6, and Qt modules vramgui does not use. pyqtgraph imports QtSvg and QtTest
    # inside try/except (FailedImport) and QtSvg only for its SVG exporter; PySide6 imports QtNetwork only on
    # Windows, guarded, to probe OpenSSL. PySide6.QtOpenGL is replaced by a stub at run time (module docstring);
    # QtOpenGLWidgets is kept.
    # QtOpenGL and QtOpenGLWidgets are replaced by stubs at run time (the module docstring). QtSvg: pyqtgraph imports
    # it inside try/except (a FailedImport placeholder) and uses it only for its SVG exporter, which the app never
    # opens (its plots have no context menu); Qt's own SVG library and plugins stay: icon themes draw with them.
    "PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets", "PySide6.QtSvg",
    "PyQt5", "PyQt6", "PySide2", "PySide6.QtNetwork", "PySide6.QtTest", "PySide6.QtDBus",
    "PySide6.QtQml", "PySide6.QtQuick", "PySide6.QtQuickWidgets", "PySide6.QtPdf", "PySide6.QtSql", "PySide6.QtXml",
    "PySide6.QtConcurrent", "PySide6.QtDesigner", "PySide6.QtHelp", "PySide6.QtUiTools",
    "PySide6.QtPrintSupport",
    # pyqtgraph parts with optional third-party back-ends or developer tooling that the app never opens
    # (pyqtgraph.multiprocess and pyqtgraph.reload look similar but are imported unconditionally).
    "pyqtgraph.opengl", "pyqtgraph.examples", "pyqtgraph.jupyter", "pyqtgraph.console", "pyqtgraph.flowchart",
    "pyqtgraph.canvas", "OpenGL", "jupyter_rfb", "IPython",
    "cupy", "numba", "h5py", "matplotlib", "scipy", "pandas", "colorcet", "PIL",
    # numpy's developer tooling and test-suite support; numpy.random and numpy.fft (3.3 MB of extension modules),
    # which numpy 2 imports only on first use and pyqtgraph only for scatter "beeswarm" layouts and the FFT view of
    # its plot context menu (disabled in the app); numpy.ma and numpy.polynomial, imported on first use and by
    # nothing the app loads. tests/packaging/test_bundle_filter.py checks the window never imports an excluded
    # module.
    "numpy.random", "numpy.fft", "numpy.ma", "numpy.polynomial", "numpy._core._multiarray_tests",
    "numpy.f2py", "numpy.distutils", "numpy.testing", "numpy._pyinstaller", "numpy.tests", "pytest",
    "hypothesis", "_pytest", "setuptools", "distutils", "pkg_resources", "pip",
    # Standard library parts with no use offline in a GUI: TLS and OpenSSL hashing (no network ever; hashlib
    # falls back to its built-in digests), terminals, Tk, test/docs tooling, databases.
    "ssl", "_ssl", "_hashlib", "tkinter", "_tkinter", "readline", "curses", "_curses", "sqlite3",
    "_sqlite3", "lib2to3", "pydoc_data", "test", "idlelib", "ensurepip", "venv", "xmlrpc", "http.server",
    # The Unicode database (1.1 MB; only pyqtgraph.units, for its unused config-file parser, and IDNA host names
    # need it) and the C decimal module (0.4 MB; `decimal` falls back to the pure-Python _pydecimal, and only
    # `fractions` imports it here). E-mail, HTTP and URL opening: only reachable through pydoc's help server,
    # importlib.metadata and numpy's URL data sources, none of which the app calls.
    "unicodedata", "_decimal", "email", "http", "urllib.request",
)

# CJK legacy codecs (Big5, Big5-HKSCS, Shift-JIS/EUC-JP, EUC-KR, ISO-2022: 0.7 MB): only for decoding such text, which
# vramgui never does (every file it reads or writes is UTF-8). Left out on Linux only, whose locales are UTF-8 (Python
# cannot start in a locale whose codec is missing); _codecs_cn stays (GB18030 is China's national standard locale
# encoding, and the app speaks Chinese), and on Windows a Chinese console or pipe is cp936 (GBK) anyway.
EXCLUDED_MODULES_LINUX: tuple[str, ...] = (
    "_codecs_hk", "_codecs_iso2022", "_codecs_jp", "_codecs_kr", "_codecs_tw",
)

# Files dropped from the collected binaries and data, as glob patterns on the destination path
# (forward slashes; matched case-insensitively so one list serves Linux, Windows and macOS).
EXCLUDED_FILE_PATTERNS: tuple[str, ...] = (
    # Qt plugins: embedded-device and network back-ends, IMEs beyond compose, image formats the app never
    # reads (it writes PNG, which QtGui handles itself), GTK3 theme (pulls the whole GTK/cairo/pango stack).
    "PySide6/Qt/plugins/egldeviceintegrations/*",
    "PySide6/Qt/plugins/generic/*",
    "PySide6/Qt/plugins/networkinformation/*",
    "PySide6/Qt/plugins/tls/*",
    "PySide6/Qt/plugins/designer/*",
    "PySide6/Qt/plugins/qmltooling/*",
    "PySide6/Qt/plugins/sqldrivers/*",
    "PySide6/Qt/plugins/printsupport/*",
    "PySide6/Qt/plugins/platforms/*eglfs*",
    "PySide6/Qt/plugins/platforms/*linuxfb*",
    "PySide6/Qt/plugins/platforms/*minimalegl*",
    "PySide6/Qt/plugins/platforms/*vnc*",
    "PySide6/Qt/plugins/platforms/*vkkhrdisplay*",
    "PySide6/Qt/plugins/platforminputcontexts/*ibus*",
    "PySide6/Qt/plugins/platforminputcontexts/*virtualkeyboard*",
    "PySide6/Qt/plugins/platformthemes/*gtk3*",
    "PySide6/Qt/plugins/imageformats/*gif*",
    "PySide6/Qt/plugins/imageformats/*jpeg*",
    "PySide6/Qt/plugins/imageformats/*pdf*",
    "PySide6/Qt/plugins/imageformats/*tga*",
    "PySide6/Qt/plugins/imageformats/*tiff*",
    "PySide6/Qt/plugins/imageformats/*wbmp*",
    "PySide6/Qt/plugins/imageformats/*webp*",
    # Wayland: only what a raster widgets window needs is kept (the platform plugin, xdg-shell, the decorations).
    # Graphics integrations are for OpenGL/Vulkan windows and Qt compositors' buffer sharing (they alone link
    # libQt6OpenGL); the other shells are for automotive (IVI), kiosk (fullscreen-shell), Qt's own compositor
    # (qt-shell) and the long-deprecated wl_shell.
    "PySide6/Qt/plugins/wayland-graphics-integration-client/*",
    "PySide6/Qt/plugins/wayland-shell-integration/*ivi-shell*",
    "PySide6/Qt/plugins/wayland-shell-integration/*fullscreen-shell*",
    "PySide6/Qt/plugins/wayland-shell-integration/*qt-shell*",
    "PySide6/Qt/plugins/wayland-shell-integration/*wl-shell*",
    # Same plugin folders under the Windows wheel layout (PySide6/plugins/...).
    "PySide6/plugins/egldeviceintegrations/*", "PySide6/plugins/generic/*",
    "PySide6/plugins/networkinformation/*", "PySide6/plugins/tls/*",
    "PySide6/plugins/imageformats/*gif*", "PySide6/plugins/imageformats/*jpeg*",
    "PySide6/plugins/imageformats/*pdf*", "PySide6/plugins/imageformats/*tga*",
    "PySide6/plugins/imageformats/*tiff*", "PySide6/plugins/imageformats/*wbmp*",
    "PySide6/plugins/imageformats/*webp*", "PySide6/plugins/platforms/*direct2d*",
    # The excluded bindings themselves, should a hook collect them as binaries.
    "PySide6/QtOpenGL.*", "PySide6/QtOpenGLWidgets.*", "PySide6/QtSvg.*",
    # pyqtgraph's logo (the window icon of pg.mkQApp, which the app never calls: it makes its own QApplication)
    # and its colour-map tables (pyqtgraph.colormap.get; the app's charts use fixed colours).
    "pyqtgraph/icons/peegee/*", "pyqtgraph/colors/maps/*",
    # Qt libraries only the dropped plugins/modules load.
    "*Qt6EglFSDeviceIntegration*", "*Qt6EglFsKmsSupport*", "*Qt6Network*", "*Qt6Test*", "*Qt6Pdf*",
    "*Qt6Qml*", "*Qt6Quick*",
    # numpy's test suite data and compiled test helpers shipped in the wheel; the excluded subpackages' files.
    "numpy/*/tests/*", "numpy/tests/*", "numpy/_core/_multiarray_tests.*", "numpy/random/*", "numpy/fft/*",
)

_QT_TRANSLATION = re.compile(r"^PySide6/(?:Qt/)?translations/(?P<base>[a-z]+)_(?P<lang>[A-Za-z_]+)\.qm$")


def app_languages(translations_dir: Path) -> set[str]:
    """Languages vramgui itself ships (``vramgui_<lang>.qm`` or ``<lang>.qm`` in resources/translations)."""
    languages = set()
    for qm in translations_dir.glob("*.qm"):
        stem = qm.stem.removeprefix("vramgui_").removeprefix("vramgui-")
        languages.add(stem)
    return languages


def keep_qt_translation(dest_name: str, languages: set[str]) -> bool:
    """Keep Qt's own ``qtbase_<lang>.qm`` (standard dialogs, buttons) only for the app's languages.

    ``qt_<lang>.qm`` are meta-catalogues loading other modules' files; ``qtbase`` is all a widgets app needs.
    A language ``pt_BR`` also keeps ``qtbase_pt_BR`` or, failing that, ``qtbase_pt``.
    """
    match = _QT_TRANSLATION.match(dest_name.replace("\\", "/"))
    if match is None:
        return True
    if match["base"] != "qtbase":
        return False
    lang = match["lang"]
    return lang in languages or any(code.split("_")[0] == lang for code in languages)


# The C++ runtime (libstdc++ and libgcc_s, 2.3 MB) is left to the system when every system that can run the bundle at
# all has one as new as the bundle needs: a system's glibc is at least the newest the bundle asks for, and each glibc
# release first shipped with a GCC (glibc 2.34: GCC 11 in RHEL 9, Fedora 35, Ubuntu 21.10) whose libstdc++ defines
# GLIBCXX up to the version given here. Every Linux system has a libstdc++ (apt, dnf and zypper are C++ programs).
CXX_RUNTIME: tuple[str, ...] = ("libstdc++.so.6", "libgcc_s.so.1")
CXX_RUNTIME_SHIPPED_WITH_GLIBC: dict[tuple[int, ...], dict[str, tuple[int, ...]]] = {
    (2, 34): {"GLIBCXX": (3, 4, 29), "CXXABI": (1, 3, 13), "GCC": (7, 0, 0)},  # GCC 11's libstdc++ and libgcc_s
}


def version_needs(path: str) -> dict[str, set[str]] | None:
    """The symbol versions an ELF file needs, per library (``readelf -V``'s version-needs section), or None."""
    readelf = shutil.which("readelf")
    if readelf is None:
        return None
    result = subprocess.run([readelf, "-V", "-W", path], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        return None
    needs: dict[str, set[str]] = {}
    current: set[str] | None = None
    section = result.stdout.partition("Version needs section")[2]
    for line in section.splitlines():
        if (found := re.search(r"\bFile: (\S+)", line)) is not None:
            current = needs.setdefault(found[1], set())
        elif current is not None and (found := re.search(r"\bName: (\S+)", line)) is not None:
            current.add(found[1])
    return needs


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text))


def cxx_runtime_from_system(binaries: Iterable[TocEntry],
                            needs: Callable[[str], dict[str, set[str]] | None] = version_needs) -> tuple[bool, str]:
    """Whether the bundle may leave libstdc++/libgcc_s to the system (see CXX_RUNTIME), and why, for the log."""
    newest: dict[str, tuple[int, ...]] = {"GLIBC": (2, 0), "GLIBCXX": (3, 4), "CXXABI": (1, 3), "GCC": (3, 0)}
    for dest_name, src, typecode in binaries:
        if typecode == "SYMLINK" or not _is_shared_library(dest_name) or PurePath(dest_name).name in CXX_RUNTIME:
            continue
        found = needs(src)
        if found is None:
            return False, f"C++ runtime bundled: cannot read the symbol versions {PurePath(dest_name).name} needs"
        for version in (v for versions in found.values() for v in versions):
            family, _, number = version.partition("_")
            if family in newest and number[:1].isdigit():
                newest[family] = max(newest[family], _version(number))
    shipped = max((since for since in CXX_RUNTIME_SHIPPED_WITH_GLIBC if newest["GLIBC"] >= since), default=None)
    floor = CXX_RUNTIME_SHIPPED_WITH_GLIBC.get(shipped, {}) if shipped else {}
    ok = bool(floor) and all(newest[family] <= floor[family] for family in floor)
    needed = ", ".join(f"{family} {'.'.join(map(str, value))}" for family, value in newest.items())
    why = (f"; systems with glibc {'.'.join(map(str, shipped))}+ ship GLIBCXX "
           f"{'.'.join(map(str, floor['GLIBCXX']))} or newer" if ok and shipped else "")
    return ok, f"C++ runtime {'left to the system' if ok else 'bundled'}: the bundle needs {needed}{why}"


def drop_cxx_runtime(binaries: Iterable[TocEntry],
                     needs: Callable[[str], dict[str, set[str]] | None] = version_needs,
                     ) -> tuple[list[TocEntry], list[TocEntry], str]:
    """(kept, dropped, log line): libstdc++/libgcc_s out of the TOC when cxx_runtime_from_system says so."""
    entries = list(binaries)
    ok, message = cxx_runtime_from_system(entries, needs)
    if not ok:
        return entries, [], message
    kept = [entry for entry in entries if PurePath(entry[0]).name not in CXX_RUNTIME]
    return kept, [entry for entry in entries if PurePath(entry[0]).name in CXX_RUNTIME], message


def _matches(dest_name: str, patterns: Iterable[str]) -> bool:
    normalized = dest_name.replace("\\", "/").lower()
    return any(fnmatch.fnmatchcase(normalized, pattern.lower()) for pattern in patterns)


def prune_toc(toc: Iterable[TocEntry], languages: set[str],
              patterns: Iterable[str] = EXCLUDED_FILE_PATTERNS) -> tuple[list[TocEntry], list[TocEntry]]:
    """Split a TOC into (kept, dropped) by the file patterns and the Qt translation rule."""
    patterns = tuple(patterns)
    kept: list[TocEntry] = []
    dropped: list[TocEntry] = []
    for entry in toc:
        dest_name = entry[0]
        if _matches(dest_name, patterns) or not keep_qt_translation(dest_name, languages):
            dropped.append(entry)
        else:
            kept.append(entry)
    return kept, dropped


def _is_shared_library(dest_name: str) -> bool:
    name = PurePath(dest_name).name.lower()
    return ".so" in name or name.endswith((".dll", ".pyd", ".dylib"))


def prune_orphan_libraries(binaries: Iterable[TocEntry],
                           get_imports: Callable[[str], Iterable[tuple[str, str | None]]],
                           ) -> tuple[list[TocEntry], list[TocEntry]]:
    """Drop bundled shared libraries that no kept extension module, plugin or library links against.

    PyInstaller collects the link-time dependencies of every plugin it saw *before* the plugins are pruned, so
    dropping e.g. the GTK3 theme plugin still leaves cairo/pango/gtk's libraries behind. Roots are Python
    extension modules, Qt plugins and libpython; ``get_imports(src)`` (PyInstaller's
    ``bindepend.get_imports``) gives each file's imported library names. Files that are not shared libraries
    are always kept.
    """
    entries = list(binaries)
    by_name: dict[str, list[TocEntry]] = {}
    for entry in entries:
        by_name.setdefault(PurePath(entry[0]).name.lower(), []).append(entry)

    def is_root(entry: TocEntry) -> bool:
        dest = entry[0].replace("\\", "/").lower()
        base = PurePath(dest).name
        return (entry[2] == "EXTENSION" or "/plugins/" in f"/{dest}" or base.startswith(("libpython", "python3"))
                or not _is_shared_library(dest))

    needed: set[int] = set()
    queue = [entry for entry in entries if is_root(entry)]
    needed.update(id(entry) for entry in queue)
    while queue:
        entry = queue.pop()
        if entry[2] == "SYMLINK":
            continue
        for name, _path in get_imports(entry[1]):
            for dep in by_name.get(PurePath(name).name.lower(), ()):
                if id(dep) not in needed:
                    needed.add(id(dep))
                    queue.append(dep)
    kept = [entry for entry in entries if id(entry) in needed]
    dropped = [entry for entry in entries if id(entry) not in needed]
    return kept, dropped


def _section_names(path: str) -> set[str] | None:
    readelf = shutil.which("readelf")
    if readelf is None:
        return None
    result = subprocess.run([readelf, "-S", "-W", path], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        return None
    return set(re.findall(r"\]\s+(\.\S+)", result.stdout))


def prune_dangling_symlinks(datas: Iterable[TocEntry], binaries: Iterable[TocEntry]
                            ) -> tuple[list[TocEntry], list[TocEntry]]:
    """Drop the SYMLINK entries (PyInstaller files them under ``a.datas``) whose target is no longer collected.

    PyInstaller links e.g. ``libQt6OpenGL.so.6`` at the top of the bundle to ``PySide6/Qt/lib/libQt6OpenGL.so.6``;
    once the library itself is pruned, the link would dangle. ``src`` of a SYMLINK entry is the target, relative to
    the link's folder. Returns (kept datas, dropped)."""
    entries = list(datas)
    collected = {PurePath(dest.replace("\\", "/")).as_posix() for dest, _src, kind in [*entries, *binaries]
                 if kind != "SYMLINK"}
    kept: list[TocEntry] = []
    dropped: list[TocEntry] = []
    for entry in entries:
        dest, src, kind = entry
        target = os.path.normpath(os.path.join(os.path.dirname(dest.replace("\\", "/")), src.replace("\\", "/")))
        (dropped if kind == "SYMLINK" and PurePath(target).as_posix() not in collected else kept).append(entry)
    return kept, dropped


def has_debug_info(path: str) -> bool:
    """True for an ELF file with a ``.debug_info`` section (pyenv-built CPython ships libpython with one)."""
    return ".debug_info" in (_section_names(path) or ())


def has_strippable_sections(path: str) -> bool:
    """True for an ELF file with debug sections or a static symbol table (``.symtab``): neither is needed to load
    or run it (the loader uses ``.dynsym``); they only name functions in a debugger."""
    names = _section_names(path)
    return any(name == ".symtab" or name.startswith(".debug") for name in names or ())


def _vendored_by_auditwheel(dest_name: str) -> bool:
    """Libraries auditwheel copied into a wheel's ``<name>.libs/`` folder (patchelf-rewritten: never strip them)."""
    return any(part.endswith(".libs") for part in PurePath(dest_name.replace("\\", "/")).parts[:-1])


def strip_binaries(binaries: Iterable[TocEntry], work_dir: Path,
                   needs_strip: Callable[[str], bool] = has_strippable_sections) -> tuple[list[TocEntry], int]:
    """Replace shared libraries that carry debug sections or symbol tables by ``strip --strip-unneeded`` copies
    made in ``work_dir``; the sources (the venv, the system) are never touched.

    Not PyInstaller's own ``strip=True``: that also strips auditwheel's patched ``numpy.libs/libscipy_openblas*.so``
    and breaks it ("ELF load command address/offset not page-aligned"); every ``*.libs/`` library is left as it is.
    On this project's machine: libpython and lib-dynload (pyenv's debug info, 35 -> 9 MB), the ICU and numpy
    libraries' symbol tables (3.6 MB). Returns the new TOC and the bytes saved."""
    strip = shutil.which("strip")
    result: list[TocEntry] = []
    saved = 0
    for dest_name, src, typecode in binaries:
        if (strip is None or typecode == "SYMLINK" or not src or not _is_shared_library(dest_name)
                or _vendored_by_auditwheel(dest_name) or not needs_strip(src)):
            result.append((dest_name, src, typecode))
            continue
        target = work_dir / "stripped" / dest_name
        target.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([strip, "--strip-unneeded", "-o", str(target), src], check=True)
        saved += Path(src).stat().st_size - target.stat().st_size
        result.append((dest_name, str(target), typecode))
    return result, saved


def describe(dropped: Iterable[TocEntry]) -> str:
    """Dropped files summarised per folder with their sizes, for the build log."""
    groups: dict[str, list[int]] = {}
    for dest_name, src, _typecode in dropped:
        size = Path(src).stat().st_size if src and Path(src).is_file() else 0
        parts = PurePath(dest_name.replace("\\", "/")).parts
        folder = "/".join(parts[:-1]) or parts[-1]
        count_size = groups.setdefault(folder, [0, 0])
        count_size[0] += 1
        count_size[1] += size
    lines = [f"  - {folder}: {count} files, {size / 1e6:.2f} MB" for folder, (count, size) in sorted(groups.items())]
    total = sum(size for _count, size in groups.values())
    lines.append(f"  = {sum(count for count, _size in groups.values())} files, {total / 1e6:.1f} MB")
    return "\n".join(lines)
