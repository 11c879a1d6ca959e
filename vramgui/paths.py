"""Where the bundled data files live (presets, icons, translations, licences).

Resolved from the package's own location, never from ``sys.executable``: from a source checkout or an
editable install ``resources/`` sits beside the ``vramgui`` package; PyInstaller (onedir ``_internal/`` or
onefile's temp dir) is told to put it in the same place relative to the package.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def resources_dir() -> Path:
    """The ``resources`` folder: beside the package (source, editable, frozen) or inside it (wheel)."""
    for candidate in (_PACKAGE_DIR.parent / "resources", _PACKAGE_DIR / "resources"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"vramgui resources folder not found next to {_PACKAGE_DIR}")


def resource_path(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)
