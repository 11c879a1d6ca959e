"""The frozen app bundles every library Qt's platform plugins need, whatever the build machine has installed.

PyInstaller collects a plugin's libraries from the build machine and, when one is not installed there, only warns
("Library not found: could not resolve 'libxcb-icccm.so.4'") and ships without it: the build then starts on the
build machine and aborts on every desktop that lacks the library (Qt 6.5+'s xcb plugin needs libxcb-cursor0,
libxcb-icccm4, libxcb-keysyms1, ...; minimal Debian/Ubuntu installs and containers lack some). So the spec walks the
dependency tree of the platform plugins it keeps (``bundle_plugin_dependencies``), adds what it finds in a folder of
fetched libraries, and fails the build naming anything still missing. PyInstaller's own exclusion list
(``PyInstaller.depend.dylib.include_library``: glibc, libGL/libEGL, libxcb.so.1, libwayland-*) says what must come
from the user's system instead; the app's pre-start check (vramgui/io/xcb_libs.py) names those when they are absent.

``python packaging/xcb_bundle.py fetch`` (run by ``make dist`` and by the frozen smoke test) puts the libraries the
build machine lacks into build/xcb-libs without installing anything: it downloads their Debian packages with
``apt-get download`` and unpacks them with ``dpkg-deb -x``. Nothing is fetched when everything is installed, and
on other systems it says what to install instead.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path, PurePath

ROOT = Path(__file__).resolve().parent.parent
for _path in (ROOT, Path(__file__).resolve().parent):  # vramgui, and bundle_filter beside this file
    if str(_path) not in sys.path:
        sys.path.append(str(_path))

from vramgui.io.xcb_libs import (  # noqa: E402
    PACKAGES,
    DynamicInfo,
    find_plugin,
    missing_libraries,
    read_dynamic,
    system_has,
)

TocEntry = tuple[str, str, str]
DEFAULT_DIR = ROOT / "build" / "xcb-libs"
ALLOW_MISSING_ENV = "VRAMGUI_ALLOW_MISSING_XCB"  # build anyway, with a warning (the smoke test, when nothing fetches)
# Roots of the walk: the platform plugins (and the xcb plugin's GL integrations) that bundle_filter keeps.
_ROOT_FOLDERS = ("plugins/platforms/", "plugins/xcbglintegrations/")


class FetchError(RuntimeError):
    """The missing libraries cannot be fetched here; the message says why and what to install instead."""


def library_dirs(fetched: Path) -> list[Path]:
    """The folders holding shared libraries in a ``fetch`` result (``<dir>/root/usr/lib/<triplet>``, ...)."""
    root = Path(fetched) / "root"
    if not root.is_dir():
        return []
    return sorted({path.parent for path in root.rglob("*.so*") if path.is_file()})


def _is_root(dest_name: str) -> bool:
    dest = dest_name.replace("\\", "/")
    return dest.endswith(".so") and any(folder in dest for folder in _ROOT_FOLDERS)


def bundle_plugin_dependencies(binaries: Iterable[TocEntry], extra_dirs: Sequence[Path],
                               include: Callable[[str], bool],
                               read: Callable[[Path], DynamicInfo] = read_dynamic,
                               ) -> tuple[list[TocEntry], list[TocEntry], list[tuple[str, str]]]:
    """Make the TOC hold every library the kept platform plugins need, directly or through bundled libraries.

    ``include(soname)`` is False for what must come from the user's system (PyInstaller's exclusion list).
    A library the TOC lacks is taken from ``extra_dirs`` (fetched packages) when it is there. Returns the new TOC,
    the entries added, and the (soname, needed by) pairs still missing."""
    toc = list(binaries)
    by_name = {PurePath(dest).name: (dest, src, kind) for dest, src, kind in toc}
    roots = sorted((dest for dest, _src, kind in toc if _is_root(dest) and kind != "SYMLINK"),
                   key=lambda dest: ("/platforms/" not in f"/{dest}", dest))  # missing ones named by the plugin first
    src_of = {dest: src for dest, src, _kind in toc}
    queue = [(dest, Path(src_of[dest])) for dest in roots]
    seen: set[str] = set()
    added: list[TocEntry] = []
    missing: list[tuple[str, str]] = []
    while queue:
        dest, src = queue.pop(0)
        try:
            needed = read(src).needed
        except (OSError, ValueError):
            continue
        for soname in needed:
            if soname in seen or not include(soname) or soname.startswith("ld-linux"):
                continue
            seen.add(soname)
            entry = by_name.get(soname)
            if entry is not None:
                if entry[2] != "SYMLINK":
                    queue.append((entry[0], Path(entry[1])))
                else:  # PyInstaller's top-level link to a library in PySide6/Qt/lib: read the real one
                    real = next((e for e in toc if PurePath(e[0]).name == soname and e[2] != "SYMLINK"), None)
                    if real is not None:
                        queue.append((real[0], Path(real[1])))
                continue
            found = next((d / soname for d in extra_dirs if (d / soname).is_file()), None)
            if found is None:
                missing.append((soname, PurePath(dest).name))
                continue
            new = (soname, str(found.resolve()), "BINARY")
            toc.append(new)
            added.append(new)
            by_name[soname] = new
            queue.append((soname, found.resolve()))
    return toc, added, missing


def missing_message(missing: Sequence[tuple[str, str]], fetched_dir: Path = DEFAULT_DIR) -> str:
    """Why the build stops: each library, who needs it, its packages; then the two ways out."""
    lines = ["vramgui.spec: the bundle would lack libraries that Qt's platform plugins need, because this build "
             "machine does not have them (the app would abort on every desktop that lacks them too):"]
    for soname, needed_by in missing:
        debian, fedora = PACKAGES.get(soname, ("?", "?"))
        lines.append(f"    {soname}  (needed by {needed_by}; Debian/Ubuntu: {debian}, Fedora: {fedora})")
    debs = " ".join(dict.fromkeys(PACKAGES[s][0] for s, _n in missing if s in PACKAGES))
    lines += [f"  Either install them on the build machine (sudo apt install {debs}),",
              f"  or fetch them without installing: python packaging/xcb_bundle.py fetch --dest {fetched_dir}",
              "  (make dist does that itself), then build again."]
    return "\n".join(lines)


def _pyinstaller_include() -> Callable[[str], bool]:
    try:
        from PyInstaller.depend.dylib import include_library
    except ImportError:  # without PyInstaller: its Linux exclusions that concern the plugins
        return lambda name: not name.startswith(("libGL.", "libEGL.", "libOpenGL.", "libxcb.so", "libwayland-"))
    return include_library


def lacking_on_build_machine(plugin: Path | None = None, include: Callable[[str], bool] | None = None,
                             system: Callable[[str], bool] = system_has) -> list[str]:
    """The libraries the installed PySide6's platform plugins (those bundle_filter keeps) need, PyInstaller would
    bundle, and this machine does not have (so a build would ship without them)."""
    include = include or _pyinstaller_include()
    plugin = plugin or find_plugin({})
    if plugin is None:
        return []
    import bundle_filter  # beside this file; the spec imports it the same way

    candidates = sorted(plugin.parent.glob("*.so")) + sorted((plugin.parent.parent / "xcbglintegrations").glob("*.so"))
    toc = [(f"PySide6/Qt/plugins/{path.parent.name}/{path.name}", str(path), "BINARY") for path in candidates]
    kept, _dropped = bundle_filter.prune_toc(toc, set())
    plugins = [Path(src) for _dest, src, _kind in kept]
    lacking: list[str] = []
    for path in plugins:
        lacking += [name for name in missing_libraries(path, system=system, environ={})
                    if include(name) and name not in lacking]
    return lacking


def _run(command: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False, timeout=120)


def fetch(sonames: Sequence[str], dest: Path = DEFAULT_DIR) -> list[Path]:
    """Download and unpack the Debian packages that hold ``sonames`` into ``dest`` (nothing is installed).

    Returns the library folders. Raises FetchError when a library has no known package, apt-get/dpkg-deb are not
    there, or the download fails."""
    unknown = [name for name in sonames if name not in PACKAGES]
    if unknown:
        raise FetchError(f"no known package for {', '.join(unknown)}")
    apt, dpkg = shutil.which("apt-get"), shutil.which("dpkg-deb")
    if apt is None or dpkg is None:
        raise FetchError("fetching needs apt-get and dpkg-deb (Debian, Ubuntu); install the packages instead")
    packages = sorted({PACKAGES[name][0] for name in sonames})
    dest = Path(dest)
    work = dest.with_name(f"{dest.name}.tmp-{os.getpid()}")
    shutil.rmtree(work, ignore_errors=True)
    (work / "debs").mkdir(parents=True)
    try:
        result = _run([apt, "download", *packages], cwd=work / "debs")
        if result.returncode != 0 and hasattr(os, "geteuid") and os.geteuid() == 0:  # no package lists yet
            _run([apt, "update", "-qq"])
            result = _run([apt, "download", *packages], cwd=work / "debs")
        if result.returncode != 0:
            raise FetchError(f"apt-get download {' '.join(packages)} failed: {result.stderr.strip()[-800:]}")
        for deb in sorted((work / "debs").glob("*.deb")):
            unpacked = _run([dpkg, "-x", str(deb), str(work / "root")])
            if unpacked.returncode != 0:
                raise FetchError(f"dpkg-deb -x {deb.name} failed: {unpacked.stderr.strip()[-800:]}")
        dirs = library_dirs(work)
        absent = [name for name in sonames if not any((d / name).is_file() for d in dirs)]
        if absent:
            raise FetchError(f"the packages {' '.join(packages)} do not hold {', '.join(absent)}")
        if dest.exists():  # an earlier fetch: merge (another run may be reading it)
            shutil.copytree(work / "root", dest / "root", symlinks=True, dirs_exist_ok=True)
        else:
            work.rename(dest)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return library_dirs(dest)


def fetch_lacking(dest: Path = DEFAULT_DIR) -> tuple[list[str], str]:
    """Fetch what a build here would lack, unless ``dest`` has it already; (sonames fetched, a line for the log)."""
    if not sys.platform.startswith("linux"):
        return [], "not Linux: the platform plugins' libraries come with Qt"
    lacking = lacking_on_build_machine()
    dirs = library_dirs(dest)
    to_fetch = [name for name in lacking if not any((d / name).is_file() for d in dirs)]
    if not lacking:
        return [], "the build machine has every library the platform plugins need"
    if not to_fetch:
        return [], f"{', '.join(lacking)}: not installed here, already fetched into {dest}"
    fetch(to_fetch, dest)
    return to_fetch, f"{', '.join(to_fetch)}: not installed here, fetched into {dest}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    fetch_parser = sub.add_parser("fetch", help="fetch the libraries this build machine lacks into --dest")
    fetch_parser.add_argument("--dest", type=Path, default=DEFAULT_DIR)
    sub.add_parser("lacking", help="list the libraries a build here would lack")
    args = parser.parse_args(argv)
    if args.command == "lacking":
        print("\n".join(lacking_on_build_machine()) or "nothing")
        return 0
    try:
        _fetched, line = fetch_lacking(args.dest)
    except FetchError as exc:
        print(f"xcb_bundle: cannot fetch the missing libraries: {exc}", file=sys.stderr)
        return 1
    print(f"xcb_bundle: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
