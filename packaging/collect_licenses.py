"""Gather the licence texts of everything the frozen app ships into resources/licenses/.

Sources, in order of preference: the licence files inside each installed wheel's ``*.dist-info``, the
interpreter's own ``LICENSE.txt`` (Python, PSF), and for the (L)GPL texts that the PySide6/shiboken6 wheels
name in their metadata (``License: LGPL-3.0-only OR GPL-2.0-only OR GPL-3.0-only``) but do not ship, the
verbatim FSF texts from Debian's ``/usr/share/common-licenses``. The outputs are committed; re-run after
upgrading a bundled dependency:

    .venv/bin/python packaging/collect_licenses.py
"""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "licenses"
COMMON_LICENSES = Path("/usr/share/common-licenses")

QT_NOTICE = """\
Qt for Python (PySide6 {pyside}, shiboken6 {shiboken}) and the Qt {pyside} libraries
======================================================================================

vramgui's binaries bundle the Qt libraries and the PySide6/shiboken6 Python bindings, unmodified, as
published on PyPI by The Qt Company (package metadata: "License: {licence}").
vramgui uses them under the GNU Lesser General Public License version 3 (LGPL-3.0-only); its text is in
LGPL-3.0.txt, and the GNU General Public License version 3 it supplements is in GPL-3.0.txt.

  Copyright (C) The Qt Company Ltd. and other contributors.

Your rights under the LGPL include replacing the Qt libraries with a modified version. They are kept as
separate shared libraries: in the one-folder build they are the files under
  _internal/PySide6/Qt/lib/   (Linux),  _internal/PySide6/   (Windows),  Contents/Frameworks/ (macOS)
and may be swapped for compatible builds of the same Qt version. The one-file build unpacks the same
libraries to a temporary folder at start-up; use the one-folder build if you want to replace them.

Source code of Qt and of Qt for Python: https://download.qt.io/official_releases/ (qt/ and QtForPython/),
and https://code.qt.io/ (qt/qtbase, pyside/pyside-setup). Licensing: https://www.qt.io/licensing/

The Qt libraries contain third-party code under their own permissive licences (among them ICU, the
Unicode licence; FreeType, HarfBuzz, libpng, zlib, PCRE2, double-conversion, md4c). Their notices are
listed in Qt's documentation: https://doc.qt.io/qt-6/licenses-used-in-qt.html
"""

INDEX = """\
Third-party software in vramgui's binaries
==========================================

- vramgui {vramgui}: MIT licence. File: vramgui-LICENSE.txt
- Python {python}: PSF License Agreement. File: Python-LICENSE.txt
- Qt, PySide6 and shiboken6 {pyside}: LGPL-3.0. Files: Qt-PySide6-NOTICE.txt, LGPL-3.0.txt, GPL-3.0.txt
- pyqtgraph {pyqtgraph}: MIT licence. File: pyqtgraph-LICENSE.txt
- numpy {numpy}: BSD-3-Clause, followed by the licences of the libraries its wheel bundles
  (OpenBLAS, LAPACK, GCC runtime libgfortran/libquadmath). File: numpy-LICENSE.txt

These files are shown in Help -> About and lie in the distribution folder (licenses/ beside the
program, and resources/licenses/ inside the bundle).
"""


def _dist_licence_text(dist_name: str) -> str:
    """Concatenate every licence file a wheel ships in its dist-info (top-level first)."""
    dist = metadata.distribution(dist_name)
    files = [f for f in dist.files or () if ".dist-info/licenses/" in str(f) or
             str(f).rsplit("/", 1)[-1].upper().startswith(("LICENSE", "COPYING"))]
    files = [f for f in files if ".dist-info" in str(f)]
    files.sort(key=lambda f: (str(f).count("/"), str(f)))
    if not files:
        raise FileNotFoundError(f"{dist_name} ships no licence file in its dist-info")
    parts = []
    for file in files:
        text = Path(dist.locate_file(file)).read_text(encoding="utf-8")
        label = str(file).split(".dist-info/", 1)[1]
        parts.append(text if len(parts) == 0 else f"\n\n===== {label} =====\n\n{text}")
    return "".join(parts)


def _vramgui_version() -> str:
    sys.path.insert(0, str(ROOT))
    from vramgui import __version__

    return __version__


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    versions = {name: metadata.version(name) for name in ("PySide6-Essentials", "shiboken6", "pyqtgraph", "numpy")}
    python_licence = next(p for p in (Path(sys.base_prefix) / "lib" / f"python{sys.version_info.major}."
                                      f"{sys.version_info.minor}" / "LICENSE.txt",
                                      Path(sys.base_prefix) / "LICENSE.txt") if p.is_file())
    licence_field = metadata.metadata("PySide6-Essentials").get("License", "LGPL-3.0-only")
    outputs = {
        "vramgui-LICENSE.txt": (ROOT / "LICENSE").read_text(encoding="utf-8"),
        "Python-LICENSE.txt": python_licence.read_text(encoding="utf-8"),
        "Qt-PySide6-NOTICE.txt": QT_NOTICE.format(pyside=versions["PySide6-Essentials"],
                                                  shiboken=versions["shiboken6"], licence=licence_field),
        "LGPL-3.0.txt": (COMMON_LICENSES / "LGPL-3").read_text(encoding="utf-8"),
        "GPL-3.0.txt": (COMMON_LICENSES / "GPL-3").read_text(encoding="utf-8"),
        "pyqtgraph-LICENSE.txt": _dist_licence_text("pyqtgraph"),
        "numpy-LICENSE.txt": _dist_licence_text("numpy"),
        "README.txt": INDEX.format(vramgui=_vramgui_version(), python=".".join(map(str, sys.version_info[:3])),
                                   pyside=versions["PySide6-Essentials"], pyqtgraph=versions["pyqtgraph"],
                                   numpy=versions["numpy"]),
    }
    for name, text in outputs.items():
        (OUT / name).write_text(text, encoding="utf-8")
        print(f"{OUT / name}: {len(text)} chars")
    return 0


if __name__ == "__main__":
    sys.exit(main())
