"""Shared by the packaging tests: hand-made ELF files, and running a command as if some system libraries were not
installed.

``make_elf(needed, runpath)`` writes the bytes of a minimal shared object (what vramgui/io/xcb_libs.py and
packaging/xcb_bundle.py read from Qt's plugins).

``without_system_libraries(["libxcb-icccm.so.4", ...])`` gives a command prefix that runs its command in a private
mount namespace where every copy of those libraries is gone: each folder that holds one is overlaid (overlayfs) and
the files are deleted in the overlay, and the loader's cache (/etc/ld.so.cache) is rebuilt without them and bound
over the real one. So dlopen, ``ldconfig -p``, ``ctypes.util.find_library`` and PyInstaller all see a machine that
lacks the libraries, the way a container or a minimal desktop does; nothing changes outside the namespace. The
prefix is checked before it is returned (the libraries must really be gone inside); where namespaces or overlays
are not permitted the test is skipped with the reason.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

_DEFAULT_DIRS = ("/lib", "/usr/lib", "/lib64", "/usr/lib64", "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
                 "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu")

# $1: work dir; then folders to overlay, "--", files to delete, "--", the command.
_SCRIPT = r"""
set -e
work=$1; shift; n=0
while [ "$1" != "--" ]; do
  n=$((n + 1)); mkdir -p "$work/upper$n" "$work/work$n"
  mount -t overlay overlay -o "lowerdir=$1,upperdir=$work/upper$n,workdir=$work/work$n" "$1"; shift
done
shift
while [ "$1" != "--" ]; do rm -f "$1"; shift; done
shift
if ldconfig -C "$work/ld.so.cache" 2>/dev/null; then mount --bind "$work/ld.so.cache" /etc/ld.so.cache; fi
exec "$@"
"""

_PROBE = r"""
import ctypes, ctypes.util, json, re, sys
seen = {}
for soname in sys.argv[1:]:
    try:
        ctypes.CDLL(soname)
        loads = True
    except OSError:
        loads = False
    link = re.sub(r"\.so(\..*)?$", "", soname).removeprefix("lib")
    seen[soname] = {"dlopen": loads, "find_library": ctypes.util.find_library(link)}
print(json.dumps(seen))
"""


def system_copies(soname: str) -> list[Path]:
    """Every file on this machine the loader could open for ``soname``: the cache's entries and the default folders,
    links and their targets."""
    candidates: set[Path] = set()
    ldconfig = shutil.which("ldconfig") or "/sbin/ldconfig"
    listing = subprocess.run([ldconfig, "-p"], capture_output=True, text=True, check=False).stdout
    for line in listing.splitlines():
        name, _, target = line.strip().partition(" => ")
        if name.split(" (")[0] == soname:
            candidates.add(Path(target))
    candidates.update(Path(d) / soname for d in _DEFAULT_DIRS)
    found: set[Path] = set()
    for path in candidates:
        if path.exists():
            real = Path(os.path.realpath(path))
            found.update({real.parent / path.name, real})
            found.update(real.parent.glob(soname + "*"))
    return sorted(found)


def _prefixes() -> list[list[str]]:
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("unshare (util-linux) not available: cannot make a mount namespace here")
    base = ["--mount", "--propagation", "private"]
    return [[unshare, *base], [unshare, "--map-root-user", *base]]


@pytest.fixture
def without_system_libraries(tmp_path):
    """A function: sonames -> command prefix running its command where those libraries are not installed."""

    def prefix(sonames: list[str]) -> list[str]:
        if not sys.platform.startswith("linux"):
            pytest.skip("mount namespaces and overlays are Linux features")
        files = sorted({path for soname in sonames for path in system_copies(soname)})
        folders = sorted({str(Path(os.path.realpath(path.parent))) for path in files})
        deletions = [str(Path(os.path.realpath(path.parent)) / path.name) for path in files]
        reasons = []
        for index, command in enumerate(_prefixes()):
            work = tmp_path / f"hide{index}"
            work.mkdir(exist_ok=True)
            candidate = [*command, "sh", "-c", _SCRIPT, "sh", str(work), *folders, "--", *deletions, "--"]
            probe = subprocess.run([*candidate, sys.executable, "-c", _PROBE, *sonames], capture_output=True,
                                   text=True, check=False, timeout=60)
            if probe.returncode != 0:
                reasons.append(f"{' '.join(command[1:])}: {probe.stderr.strip()[-300:]}")
                continue
            seen = json.loads(probe.stdout.strip().splitlines()[-1])
            still = {name: found for name, found in seen.items() if found["dlopen"] or found["find_library"]}
            assert not still, f"hid {deletions}, yet the system still provides {still}"
            return candidate
        pytest.skip("cannot hide system libraries here (mount namespace or overlayfs not permitted: "
                    + "; ".join(reasons) + ")")

    return prefix


def _make_elf(needed: list[str], runpath: str | None = None, *, is64: bool = True, little: bool = True) -> bytes:
    """A minimal shared object: ELF header, a PT_LOAD over the whole file, a PT_DYNAMIC, a string table."""
    order = "<" if little else ">"
    strings = b"\0"
    offsets = []
    for name in [*needed, *([runpath] if runpath else [])]:
        offsets.append(len(strings))
        strings += name.encode() + b"\0"
    header_size, ph_size = (64, 56) if is64 else (52, 32)
    strtab_at = header_size + 2 * ph_size
    dyn_at = strtab_at + len(strings) + (-len(strings)) % 8
    tags = [(1, offset) for offset in offsets[:len(needed)]]
    if runpath:
        tags.append((29, offsets[-1]))
    tags += [(5, strtab_at), (10, len(strings)), (0, 0)]
    entry = order + ("qQ" if is64 else "iI")
    dynamic = b"".join(struct.pack(entry, tag, value) for tag, value in tags)
    total = dyn_at + len(dynamic)
    ident = b"\x7fELF" + bytes([2 if is64 else 1, 1 if little else 2, 1]) + bytes(9)
    if is64:
        header = ident + struct.pack(order + "HHIQQQIHHHHHH", 3, 62, 1, 0, header_size, 0, 0, header_size, ph_size,
                                     2, 64, 0, 0)
        phdrs = (struct.pack(order + "IIQQQQQQ", 1, 5, 0, 0, 0, total, total, 0x1000)
                 + struct.pack(order + "IIQQQQQQ", 2, 6, dyn_at, dyn_at, dyn_at, len(dynamic), len(dynamic), 8))
    else:
        header = ident + struct.pack(order + "HHIIIIIHHHHHH", 3, 20, 1, 0, header_size, 0, 0, header_size, ph_size,
                                     2, 40, 0, 0)
        phdrs = (struct.pack(order + "IIIIIIII", 1, 0, 0, 0, total, total, 5, 0x1000)
                 + struct.pack(order + "IIIIIIII", 2, dyn_at, dyn_at, dyn_at, len(dynamic), len(dynamic), 6, 4))
    body = header + phdrs + strings
    return body + bytes(dyn_at - len(body)) + dynamic



@pytest.fixture
def make_elf():
    """``make_elf(needed, runpath=None, *, is64=True, little=True) -> bytes`` (a minimal ELF shared object)."""
    return _make_elf
