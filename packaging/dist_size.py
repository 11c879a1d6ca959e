"""Print the size of the built binaries: ``python packaging/dist_size.py [--onefile] [--dist DIR]``.

Sizes are apparent file sizes summed (what a download or a USB stick holds), in MB = 10**6 bytes and MiB.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vramgui import __version__  # noqa: E402


def tree_size(path: Path) -> tuple[int, int]:
    """(bytes, files) of a file or a folder; symlinks are counted once, as links."""
    if path.is_file():
        return path.stat().st_size, 1
    files = [p for p in path.rglob("*") if p.is_file() and not p.is_symlink()]
    return sum(p.stat().st_size for p in files), len(files)


def describe(path: Path) -> str:
    size, files = tree_size(path)
    return f"{path}: {size / 1e6:.1f} MB ({size / 2**20:.1f} MiB) in {files} file{'s' if files != 1 else ''}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--onefile", action="store_true", help="report the one-file executable")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="the PyInstaller --distpath")
    args = parser.parse_args(argv)
    if args.onefile:
        candidates = sorted(args.dist.glob(f"vramgui-{__version__}-*"))
        targets = [p for p in candidates if p.is_file()]
    else:
        app = args.dist / "vramgui.app"
        targets = [app if app.is_dir() else args.dist / "vramgui"]
    targets = [p for p in targets if p.exists()]
    if not targets:
        print(f"no {'one-file' if args.onefile else 'one-folder'} build found in {args.dist}", file=sys.stderr)
        return 1
    for target in targets:
        print(describe(target))
    return 0


if __name__ == "__main__":
    sys.exit(main())
