"""What the frozen vramgui leaves out, and the pruning of PyInstaller's TOCs that applies it.

Used by ``vramgui.spec``; kept in its own module so the rules are unit-tested (tests/packaging) and every
exclusion carries its reason. Each rule was measured by building and running the frozen self-test
(docs/packaging.md lists the sizes). ``PySide6.QtOpenGL`` (the 8.9 MB Python binding) is excluded although pyqtgraph
imports it unconditionally: plain exclusion kills the app at launch (docs/packaging.md, "Size: what is left out, and
why"), so the run-time hook rthooks/pyi_rth_vramgui_no_qtopengl.py answers that one name with a stub that raises
ImportError on use. pyqtgraph touches the binding only in its OpenGL paths (useOpenGL, GL widgets), which vramgui
never enables. ``libQt6OpenGL`` and the ``PySide6.QtOpenGLWidgets`` binding stay (QOpenGLWidget needs them;
importing QtOpenGLWidgets does not load the QtOpenGL binding).

A TOC entry is PyInstaller's ``(dest_name, src_path, typecode)`` tuple.
"""

from __future__ import annotations

import fnmatch
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
    "PySide6.QtOpenGL", "PyQt5", "PyQt6", "PySide2", "PySide6.QtNetwork", "PySide6.QtTest", "PySide6.QtDBus",
    "PySide6.QtQml", "PySide6.QtQuick", "PySide6.QtQuickWidgets", "PySide6.QtPdf", "PySide6.QtSql", "PySide6.QtXml",
    "PySide6.QtConcurrent", "PySide6.QtDesigner", "PySide6.QtHelp", "PySide6.QtUiTools",
    "PySide6.QtPrintSupport",
    # pyqtgraph parts with optional third-party back-ends or developer tooling that the app never opens
    # (pyqtgraph.multiprocess and pyqtgraph.reload look similar but are imported unconditionally).
    "pyqtgraph.opengl", "pyqtgraph.examples", "pyqtgraph.jupyter", "pyqtgraph.console", "pyqtgraph.flowchart",
    "pyqtgraph.canvas", "OpenGL", "jupyter_rfb", "IPython",
    "cupy", "numba", "h5py", "matplotlib", "scipy", "pandas", "colorcet", "PIL",
    # numpy's developer tooling and test-suite support.
    "numpy.f2py", "numpy.distutils", "numpy.testing", "numpy._pyinstaller", "numpy.tests", "pytest",
    "hypothesis", "_pytest", "setuptools", "distutils", "pkg_resources", "pip",
    # Standard library parts with no use offline in a GUI: TLS and OpenSSL hashing (no network ever; hashlib
    # falls back to its built-in digests), terminals, Tk, test/docs tooling, databases.
    "ssl", "_ssl", "_hashlib", "tkinter", "_tkinter", "readline", "curses", "_curses", "sqlite3",
    "_sqlite3", "lib2to3", "pydoc_data", "test", "idlelib", "ensurepip", "venv", "xmlrpc", "http.server",
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
    # Same plugin folders under the Windows wheel layout (PySide6/plugins/...).
    "PySide6/plugins/egldeviceintegrations/*", "PySide6/plugins/generic/*",
    "PySide6/plugins/networkinformation/*", "PySide6/plugins/tls/*",
    "PySide6/plugins/imageformats/*gif*", "PySide6/plugins/imageformats/*jpeg*",
    "PySide6/plugins/imageformats/*pdf*", "PySide6/plugins/imageformats/*tga*",
    "PySide6/plugins/imageformats/*tiff*", "PySide6/plugins/imageformats/*wbmp*",
    "PySide6/plugins/imageformats/*webp*", "PySide6/plugins/platforms/*direct2d*",
    # The QtOpenGL binding itself, should a hook collect it as a binary (not QtOpenGLWidgets.*, not libQt6OpenGL).
    "PySide6/QtOpenGL.*",
    # Qt libraries only the dropped plugins/modules load.
    "*Qt6EglFSDeviceIntegration*", "*Qt6EglFsKmsSupport*", "*Qt6Network*", "*Qt6Test*", "*Qt6Pdf*",
    "*Qt6Qml*", "*Qt6Quick*",
    # numpy's test suite data and compiled test helpers shipped in the wheel.
    "numpy/*/tests/*", "numpy/tests/*",
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


def has_debug_info(path: str) -> bool:
    """True for an ELF file with a ``.debug_info`` section (pyenv-built CPython ships libpython with one)."""
    readelf = shutil.which("readelf")
    if readelf is None:
        return False
    result = subprocess.run([readelf, "-S", "-W", path], capture_output=True, text=True, check=False)
    return result.returncode == 0 and ".debug_info" in result.stdout


def strip_debug_info(binaries: Iterable[TocEntry], work_dir: Path,
                     needs_strip: Callable[[str], bool] = has_debug_info) -> tuple[list[TocEntry], int]:
    """Replace binaries that carry debug sections by ``strip --strip-debug`` copies made in ``work_dir``.

    Not PyInstaller's own ``strip=True``: that strips every library, and stripping the auditwheel-patched
    ``numpy.libs/libscipy_openblas*.so`` breaks it ("ELF load command address/offset not page-aligned").
    Only files with debug sections are touched (on this machine: libpython and lib-dynload, 35 MB -> 9 MB).
    Returns the new TOC and the bytes saved.
    """
    strip = shutil.which("strip")
    result: list[TocEntry] = []
    saved = 0
    for dest_name, src, typecode in binaries:
        if strip is None or typecode == "SYMLINK" or not src or not needs_strip(src):
            result.append((dest_name, src, typecode))
            continue
        target = work_dir / "stripped" / dest_name
        target.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([strip, "--strip-debug", "-o", str(target), src], check=True)
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
