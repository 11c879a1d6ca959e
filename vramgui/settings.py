"""Typed access to the app's settings, over an INJECTED ``QSettings`` (never created at import time).

Every value is read raw and converted here rather than with ``QSettings.value(type=...)``: an INI file read by
another process returns strings, a one-element list comes back as a plain string, and a corrupt or foreign file
can hold anything. A value that does not convert falls back to that key's default and never raises, so a damaged
settings file costs the user their window layout at worst - never their scenario files, which live elsewhere.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings

from vramgui.core.documents import scenario as scenario_doc
from vramgui.core.scenario.specs import Scenario
from vramgui.io import comparison_files
from vramgui.io.comparison_files import ComparisonEntry

log = logging.getLogger(__name__)

ORGANIZATION = "vramgui"
APPLICATION = "vramgui"
UNITS = ("GB", "GiB")
FOLDER_KINDS = ("open", "save", "export")
MAX_RECENT = 8
SETTINGS_VERSION = 1


def open_settings(path: str | os.PathLike | None = None) -> Settings:
    """The app's settings: an INI file in the standard per-user config location (e.g.
    ``~/.config/vramgui/vramgui.ini``), or at ``path`` (``--settings FILE``, tests)."""
    if path is None:
        qsettings = QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORGANIZATION, APPLICATION)
    else:
        qsettings = QSettings(os.fspath(path), QSettings.Format.IniFormat)
    return Settings(qsettings)


def _as_str(raw: Any) -> str | None:
    if isinstance(raw, str):
        return raw
    if isinstance(raw, QByteArray):
        try:
            return bytes(raw.data()).decode("utf-8")
        except UnicodeDecodeError:
            return None
    return None


def _as_int(raw: Any) -> int | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    text = _as_str(raw)
    if text is not None:
        try:
            return int(text.strip())
        except ValueError:
            return None
    return None


def _as_str_list(raw: Any) -> list[str]:
    """QSettings INI gives a list, a bare string (one element), or None/empty (no elements)."""
    if raw is None or raw == "":
        return []
    if isinstance(raw, (list, tuple)):
        return [s for s in (_as_str(item) for item in raw) if s]
    text = _as_str(raw)
    return [text] if text else []


class Settings:
    """Typed getters/setters; each getter returns its default for a missing or unusable value."""

    def __init__(self, qsettings: QSettings) -> None:
        self.qsettings = qsettings
        if qsettings.status() != QSettings.Status.NoError:
            log.warning("settings file %s is unreadable or corrupt (%s); using defaults",
                        qsettings.fileName(), qsettings.status())

    # --- plumbing -------------------------------------------------------------------------------------
    def _raw(self, key: str) -> Any:
        try:
            return self.qsettings.value(key)
        except Exception:  # noqa: BLE001 - a foreign file may hold a type Qt cannot hand to Python
            log.warning("settings key %s unreadable; using default", key)
            return None

    def _set(self, key: str, value: Any) -> None:
        self.qsettings.setValue(key, value)

    def sync(self) -> None:
        self.qsettings.setValue("settings/version", SETTINGS_VERSION)
        self.qsettings.sync()

    def file_name(self) -> str:
        return self.qsettings.fileName()

    # --- window ---------------------------------------------------------------------------------------
    def window_geometry(self) -> QByteArray | None:
        """Bytes from ``QWidget.saveGeometry()`` (hand them to ``restoreGeometry``, which rejects garbage)."""
        raw = self._raw("window/geometry")
        return raw if isinstance(raw, QByteArray) and not raw.isEmpty() else None

    def set_window_geometry(self, geometry: QByteArray) -> None:
        self._set("window/geometry", QByteArray(geometry))

    def window_state(self) -> QByteArray | None:
        """Bytes from ``QMainWindow.saveState()`` (dock/toolbar layout)."""
        raw = self._raw("window/state")
        return raw if isinstance(raw, QByteArray) and not raw.isEmpty() else None

    def set_window_state(self, state: QByteArray) -> None:
        self._set("window/state", QByteArray(state))

    def splitter_sizes(self, name: str) -> list[int] | None:
        """Sizes of splitter ``name`` (stored as "300,700" so INI keeps them intact), or None."""
        raw = self._raw(f"window/splitter_{name}")
        items = raw if isinstance(raw, (list, tuple)) else (_as_str(raw) or "").split(",")
        sizes = [_as_int(item) for item in items]
        if not sizes or any(s is None or s < 0 for s in sizes) or not any(sizes):
            return None
        return sizes  # type: ignore[return-value]

    def set_splitter_sizes(self, name: str, sizes: Sequence[int]) -> None:
        self._set(f"window/splitter_{name}", ",".join(str(int(s)) for s in sizes))

    def open_form_groups(self) -> frozenset[str]:
        """The form's groups the user left open (names as ``presenters.form.groups.FOLDING``); none on a first run.
        Stored as JSON in one string: INI keeps a list of one as a bare string and an empty list as nothing."""
        text = _as_str(self._raw("window/open_groups"))
        try:
            names = json.loads(text) if text else []
        except ValueError:
            return frozenset()
        return frozenset(n for n in names if isinstance(n, str)) if isinstance(names, list) else frozenset()

    def set_open_form_groups(self, names: Sequence[str]) -> None:
        self._set("window/open_groups", json.dumps(sorted(names)))

    # --- scenario -------------------------------------------------------------------------------------
    def last_scenario(self) -> Scenario | None:
        """The scenario open when the app last closed, or None (missing, corrupt, or from a newer version)."""
        text = _as_str(self._raw("scenario/last"))
        if not text:
            return None
        try:
            return scenario_doc.loads(text)
        except scenario_doc.ScenarioError as err:
            log.warning("ignoring the saved last scenario: %s", err)
            return None

    def set_last_scenario(self, scenario: Scenario | None) -> None:
        if scenario is None:
            self.qsettings.remove("scenario/last")
        else:
            self._set("scenario/last", scenario_doc.dumps(scenario, indent=None))

    def last_file(self) -> str | None:
        """The scenario file shown when the app last closed (None: untitled, or the file is gone)."""
        value = _as_str(self._raw("scenario/last_file"))
        return value if value and Path(value).is_file() else None

    def set_last_file(self, path: str | os.PathLike | None) -> None:
        if path is None:
            self.qsettings.remove("scenario/last_file")
        else:
            self._set("scenario/last_file", os.path.abspath(os.fspath(path)))

    # --- comparison ------------------------------------------------------------------------------------
    def pinned_scenarios(self, max_entries: int) -> list[ComparisonEntry]:
        """The Compare tab's pins when the app last closed, as a comparison document (``vramgui.io.comparison_files``
        in one line); [] when there were none or the text is unusable (corrupt, from a newer version)."""
        text = _as_str(self._raw("compare/pinned"))
        if not text:
            return []
        try:
            return list(comparison_files.loads(text, max_entries=max_entries))
        except comparison_files.ComparisonError as err:
            log.warning("ignoring the saved pinned scenarios: %s", err)
            return []

    def set_pinned_scenarios(self, entries: Sequence[ComparisonEntry]) -> None:
        if entries:
            self._set("compare/pinned", comparison_files.dumps(entries, indent=None))
        else:
            self.qsettings.remove("compare/pinned")

    # --- preferences ----------------------------------------------------------------------------------
    def unit(self) -> str:
        """"GB" (10^9 bytes, the default: vendors' and the seed's unit) or "GiB" (2^30)."""
        value = _as_str(self._raw("display/unit"))
        return value if value in UNITS else "GB"

    def set_unit(self, unit: str) -> None:
        if unit not in UNITS:
            raise ValueError(f"unit must be one of {UNITS}, not {unit!r}")
        self._set("display/unit", unit)

    def language(self) -> str:
        """A language code such as "zh_CN" or "en", or "" to follow the system locale (the default)."""
        value = _as_str(self._raw("display/language"))
        if not value or len(value) > 20 or not value.replace("_", "").replace("-", "").isalnum():
            return ""
        return value

    def set_language(self, language: str) -> None:
        self._set("display/language", language or "")

    # --- folders --------------------------------------------------------------------------------------
    def last_folder(self, kind: str) -> str:
        """Last folder used to ``kind`` ("open", "save", "export") files; the home folder if unset or gone."""
        if kind not in FOLDER_KINDS:
            raise ValueError(f"folder kind must be one of {FOLDER_KINDS}, not {kind!r}")
        value = _as_str(self._raw(f"folders/{kind}"))
        if value and Path(value).is_dir():
            return value
        return str(Path.home())

    def set_last_folder(self, kind: str, folder: str | os.PathLike) -> None:
        if kind not in FOLDER_KINDS:
            raise ValueError(f"folder kind must be one of {FOLDER_KINDS}, not {kind!r}")
        path = Path(folder)
        self._set(f"folders/{kind}", str(path if path.is_dir() or not path.suffix else path.parent))

    # --- recent files ---------------------------------------------------------------------------------
    def recent_files(self) -> list[str]:
        """Most recent first, at most ``MAX_RECENT``, no duplicates, only files that still exist."""
        seen: set[str] = set()
        result = []
        for item in _recent_list(self._raw("recent/files")):
            key = _normalise(item)
            if key in seen or not Path(item).is_file():
                continue
            seen.add(key)
            result.append(item)
        return result[:MAX_RECENT]

    def add_recent_file(self, path: str | os.PathLike) -> list[str]:
        new = os.path.abspath(os.fspath(path))
        files = [new] + [f for f in self.recent_files() if _normalise(f) != _normalise(new)]
        self._set_recent(files[:MAX_RECENT])
        return files[:MAX_RECENT]

    def remove_recent_file(self, path: str | os.PathLike) -> list[str]:
        files = [f for f in self.recent_files() if _normalise(f) != _normalise(path)]
        self._set_recent(files)
        return files

    def clear_recent_files(self) -> None:
        self.qsettings.remove("recent/files")

    def _set_recent(self, files: list[str]) -> None:
        # JSON in one string: survives INI's list quirks (one-element lists, commas in names) unchanged
        self._set("recent/files", json.dumps(files, ensure_ascii=False))


def _recent_list(raw: Any) -> list[str]:
    text = _as_str(raw)
    if text and text.lstrip().startswith("["):
        try:
            data = json.loads(text)
        except ValueError:
            return []
        return [item for item in data if isinstance(item, str) and item] if isinstance(data, list) else []
    return _as_str_list(raw)  # a plain list (hand-edited or older file)


def _normalise(path: str | os.PathLike) -> str:
    return os.path.normcase(os.path.abspath(os.fspath(path)))
