"""Which system libraries Qt's X11 platform plugin (xcb) needs and cannot find, each named with its package.

Qt aborts the whole process when its platform plugin does not load ("Could not load the Qt platform plugin "xcb"",
then SIGABRT), naming one library at best. So before the QApplication exists, vramgui reads the plugin's own list of
libraries (the ELF ``DT_NEEDED`` entries of ``libqxcb.so``, and of the Qt or bundled libraries it pulls in), looks
each one up where the dynamic loader would, and names every missing one with the Debian/Ubuntu and Fedora package
that has it, plus one install command. Pure Python: no Qt import, no subprocess unless a library has to be asked of
the system (``ctypes.util.find_library``, about a millisecond each), so the check costs a few milliseconds in the
frozen app (everything but libGL and libxcb travels with it) and a few tens from a source install.

The packaging uses the same table: ``packaging/xcb_bundle.py`` fetches the Debian packages named here when the
build machine lacks a library, so the frozen app bundles them whatever the build machine has.
"""

from __future__ import annotations

import ctypes.util
import importlib.util
import os
import re
import struct
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

PLUGIN_NAME = "libqxcb.so"

# soname -> (Debian/Ubuntu package, Fedora package). The xcb plugin's own needs (Qt 6.5+: libxcb-cursor, ...) and
# what Qt's Gui/Core libraries that it loads need from the system.
PACKAGES: dict[str, tuple[str, str]] = {
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb"),
    "libxcb-xinput.so.0": ("libxcb-xinput0", "libxcb"),
    "libxcb-glx.so.0": ("libxcb-glx0", "libxcb"),
    "libxcb.so.1": ("libxcb1", "libxcb"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb"),
    "libX11.so.6": ("libx11-6", "libX11"),
    "libXau.so.6": ("libxau6", "libXau"),
    "libXdmcp.so.6": ("libxdmcp6", "libXdmcp"),
    "libGL.so.1": ("libgl1", "libglvnd-glx"),
    "libEGL.so.1": ("libegl1", "libglvnd-egl"),
    "libOpenGL.so.0": ("libopengl0", "libglvnd-opengl"),
    "libfontconfig.so.1": ("libfontconfig1", "fontconfig"),
    "libfreetype.so.6": ("libfreetype6", "freetype"),
    "libglib-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libgthread-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libdbus-1.so.3": ("libdbus-1-3", "dbus-libs"),
    "libz.so.1": ("zlib1g", "zlib"),
    "libzstd.so.1": ("libzstd1", "libzstd"),
    "libstdc++.so.6": ("libstdc++6", "libstdc++"),
    "libgcc_s.so.1": ("libgcc-s1", "libgcc"),
}

# glibc itself: always there (nothing runs without it), never worth a look-up.
_GLIBC = re.compile(r"^(?:libc|libm|libdl|libpthread|librt|libresolv|libutil|ld-linux[-\w]*)\.so(?:\.|$)")

_DT_NULL, _DT_NEEDED, _DT_STRTAB, _DT_STRSZ, _DT_RPATH, _DT_RUNPATH = 0, 1, 5, 10, 15, 29
_PT_LOAD, _PT_DYNAMIC = 1, 2


@dataclass(frozen=True)
class DynamicInfo:
    """What the dynamic loader reads from one ELF file."""

    needed: tuple[str, ...]  # DT_NEEDED sonames, in order
    search_path: tuple[str, ...]  # DT_RUNPATH (or DT_RPATH without one), split on ':'; "$ORIGIN" not expanded


def read_dynamic(path: str | os.PathLike[str]) -> DynamicInfo:
    """The DT_NEEDED entries and the RUNPATH of an ELF shared object (32/64-bit, either byte order).

    Reads only the headers, the dynamic section and its string table (Qt's libraries are megabytes). Raises
    ValueError for a file that is not ELF or that this reader cannot follow, OSError when it cannot be read."""
    with open(path, "rb") as handle:
        try:
            return _parse_dynamic(handle)
        except (struct.error, StopIteration, UnicodeDecodeError) as exc:
            raise ValueError(f"{path}: malformed ELF file ({type(exc).__name__})") from None


def _read_at(handle: BinaryIO, offset: int, size: int) -> bytes:
    handle.seek(offset)
    data = handle.read(size)
    if len(data) != size:
        raise struct.error("truncated file")
    return data


def _parse_dynamic(handle: BinaryIO) -> DynamicInfo:
    ident = handle.read(64)
    if ident[:4] != b"\x7fELF" or len(ident) < 52 or ident[4] not in (1, 2) or ident[5] not in (1, 2):
        raise ValueError("not an ELF file")
    is64, order = ident[4] == 2, "<" if ident[5] == 1 else ">"
    if is64:
        (phoff,) = struct.unpack_from(order + "Q", ident, 0x20)
        phentsize, phnum = struct.unpack_from(order + "HH", ident, 0x36)
    else:
        (phoff,) = struct.unpack_from(order + "I", ident, 0x1C)
        phentsize, phnum = struct.unpack_from(order + "HH", ident, 0x2A)
    headers = _read_at(handle, phoff, phentsize * phnum)
    loads: list[tuple[int, int, int]] = []
    dynamic: tuple[int, int] | None = None
    for at in range(0, len(headers), phentsize):
        if is64:
            p_type, _flags, p_offset, p_vaddr, _paddr, p_filesz = struct.unpack_from(order + "IIQQQQ", headers, at)
        else:
            p_type, p_offset, p_vaddr, _paddr, p_filesz = struct.unpack_from(order + "IIIII", headers, at)
        if p_type == _PT_LOAD:
            loads.append((p_vaddr, p_offset, p_filesz))
        elif p_type == _PT_DYNAMIC:
            dynamic = (p_offset, p_filesz)
    if dynamic is None:  # statically linked: needs nothing
        return DynamicInfo((), ())
    entry = struct.Struct(order + ("qQ" if is64 else "iI"))
    table = _read_at(handle, dynamic[0], dynamic[1] - dynamic[1] % entry.size)
    tags: list[tuple[int, int]] = []
    for tag, value in entry.iter_unpack(table):
        if tag == _DT_NULL:
            break
        tags.append((tag, value))
    strtab_vaddr = next(value for tag, value in tags if tag == _DT_STRTAB)
    strtab_size = next((value for tag, value in tags if tag == _DT_STRSZ), 1 << 20)
    strtab_offset = next(offset + strtab_vaddr - vaddr for vaddr, offset, size in loads
                         if vaddr <= strtab_vaddr < vaddr + size)
    handle.seek(strtab_offset)
    strings = handle.read(strtab_size)

    def string(index: int) -> str:
        end = strings.find(b"\0", index)
        if index >= len(strings) or end < 0:
            raise struct.error("string outside the string table")
        return strings[index:end].decode()

    needed = tuple(string(value) for tag, value in tags if tag == _DT_NEEDED)
    runpath = [string(value) for tag, value in tags if tag == _DT_RUNPATH]
    search = runpath or [string(value) for tag, value in tags if tag == _DT_RPATH]
    return DynamicInfo(needed, tuple(d for text in search for d in text.split(":") if d))


def link_name(soname: str) -> str:
    """``libxcb-icccm.so.4`` -> ``xcb-icccm``: the name ``ctypes.util.find_library`` (and ``-l``) takes."""
    return re.sub(r"\.so(?:\..*)?$", "", soname).removeprefix("lib")


def system_has(soname: str) -> bool:
    """Whether the system can provide ``soname`` (the loader's cache, then the compiler's and linker's paths)."""
    return ctypes.util.find_library(link_name(soname)) is not None


def _expand(directory: str, origin: Path) -> Path:
    return Path(directory.replace("${ORIGIN}", str(origin)).replace("$ORIGIN", str(origin)))


def missing_libraries(plugin: str | os.PathLike[str], *, system: Callable[[str], bool] = system_has,
                      extra_dirs: Sequence[str | os.PathLike[str]] = (),
                      environ: Mapping[str, str] | None = None,
                      read: Callable[[Path], DynamicInfo] = read_dynamic) -> list[str]:
    """The sonames that ``plugin`` needs, directly or through the libraries that travel with it, and that neither
    travel with it nor are on the system; in the order first met.

    A library is looked for as a file in the needing object's RUNPATH (``$ORIGIN`` expanded), ``LD_LIBRARY_PATH``
    and ``extra_dirs`` (the frozen app's folder); one found there is read in turn. Anything else is asked of
    ``system`` (tests inject it). glibc's own libraries are not checked."""
    env = os.environ if environ is None else environ
    env_dirs = [Path(d) for d in env.get("LD_LIBRARY_PATH", "").split(":") if d]
    extra = [Path(d) for d in extra_dirs]
    queue, seen, missing = [Path(plugin)], set(), []
    while queue:
        obj = queue.pop(0)
        try:
            info = read(obj)
        except (OSError, ValueError):
            continue  # a file the loader may still take: no verdict on its needs
        dirs = [_expand(d, obj.parent) for d in info.search_path] + env_dirs + extra
        for soname in info.needed:
            if soname in seen or _GLIBC.match(soname):
                continue
            seen.add(soname)
            found = next((d / soname for d in dirs if (d / soname).is_file()), None)
            if found is not None:
                queue.append(found)
            elif not system(soname):
                missing.append(soname)
    return missing


def would_use_xcb(environ: Mapping[str, str]) -> bool:
    """Whether Qt would pick its xcb plugin: ``QT_QPA_PLATFORM`` names it (first, or after Wayland entries with no
    Wayland display), or it is unset on an X11 session (DISPLAY without WAYLAND_DISPLAY)."""
    forced = environ.get("QT_QPA_PLATFORM", "").strip()
    if not forced:
        return bool(environ.get("DISPLAY")) and not environ.get("WAYLAND_DISPLAY")
    for entry in forced.split(";"):
        name = entry.split(":", 1)[0].strip()
        if name.startswith("wayland") and not environ.get("WAYLAND_DISPLAY"):
            continue
        return name == "xcb"
    return False


def find_plugin(environ: Mapping[str, str] | None = None) -> Path | None:
    """Qt's ``libqxcb.so`` as Qt would find it: QT_QPA_PLATFORM_PLUGIN_PATH, else beside PySide6 (source install or
    frozen bundle). Looks the package up without importing it (no Qt library is loaded)."""
    env = os.environ if environ is None else environ
    folders = [Path(env["QT_QPA_PLATFORM_PLUGIN_PATH"])] if env.get("QT_QPA_PLATFORM_PLUGIN_PATH") else []
    try:
        spec = importlib.util.find_spec("PySide6")
    except (ImportError, ValueError):
        spec = None
    roots = [Path(p) for p in (spec.submodule_search_locations or ())] if spec is not None else []
    bundle = getattr(sys, "_MEIPASS", None)  # the frozen app's folder (PyInstaller)
    if bundle:
        roots.append(Path(bundle) / "PySide6")
    folders += [root / "Qt" / "plugins" / "platforms" for root in roots]
    return next((folder / PLUGIN_NAME for folder in folders if (folder / PLUGIN_NAME).is_file()), None)


def distribution_family(os_release: str) -> str | None:
    """``debian`` or ``fedora`` from /etc/os-release's ID and ID_LIKE (Ubuntu, Mint: debian; RHEL, Rocky: fedora)."""
    words: set[str] = set()
    for line in os_release.splitlines():
        key, _, value = line.partition("=")
        if key.strip() in ("ID", "ID_LIKE"):
            words.update(value.strip().strip("\"'").lower().split())
    if words & {"debian", "ubuntu"}:
        return "debian"
    if words & {"fedora", "rhel", "centos"}:
        return "fedora"
    return None


def _read_os_release() -> str:
    for path in ("/etc/os-release", "/usr/lib/os-release"):
        try:
            return Path(path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
    return ""


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def message(missing: Sequence[str], family: str | None) -> str:
    """What to tell the user: every missing library with its packages, then the one command that installs them."""
    width = max(len(name) for name in missing)
    what = "this system library is" if len(missing) == 1 else "these system libraries are"
    lines = [f"vramgui: Qt's X11 platform plugin (xcb) cannot load: {what} missing:"]
    for name in missing:
        debian, fedora = PACKAGES.get(name, ("", ""))
        where = f"Debian/Ubuntu: {debian}, Fedora: {fedora}" if debian else "package unknown: search for the file name"
        lines.append(f"    {name.ljust(width)}  ({where})")
    apt = "sudo apt install " + " ".join(_unique(PACKAGES[n][0] for n in missing if n in PACKAGES))
    dnf = "sudo dnf install " + " ".join(_unique(PACKAGES[n][1] for n in missing if n in PACKAGES))
    them = "it" if len(missing) == 1 else "them"
    if any(name in PACKAGES for name in missing):
        if family in ("debian", "fedora"):
            lines.append(f"  Install {them} with:  {apt if family == 'debian' else dnf}")
        else:
            lines += [f"  Install {them} with:", f"    Debian/Ubuntu:  {apt}", f"    Fedora:         {dnf}"]
    lines.append("  Or use the command line, which needs no display: vramgui --help")
    return "\n".join(lines) + "\n"


def xcb_problem(environ: Mapping[str, str] | None = None, *, plugin: str | os.PathLike[str] | None = None,
                system: Callable[[str], bool] = system_has, os_release: str | None = None) -> str | None:
    """The message naming what Qt's xcb plugin lacks here, or None: Qt would not use xcb, the plugin is not found
    (no verdict: Qt speaks for itself), or nothing is missing. Linux only; call it before creating a QApplication."""
    env = os.environ if environ is None else environ
    if not would_use_xcb(env):
        return None
    found = Path(plugin) if plugin is not None else find_plugin(env)
    if found is None or not found.is_file():
        return None
    bundle = getattr(sys, "_MEIPASS", None)
    extra = [bundle] if bundle else []
    missing = missing_libraries(found, system=system, extra_dirs=extra, environ=env)
    if not missing:
        return None
    return message(missing, distribution_family(_read_os_release() if os_release is None else os_release))
