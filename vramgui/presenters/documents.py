"""Scenario files for the window: open, save and recognise a dropped file, through ``vramgui.io``.

Views reach the core and io only through presenters (import-linter contract "views-through-presenters"); this is
the file side of the main window's actions. Qt-free: plain functions over ``vramgui.io``.
"""

from __future__ import annotations

import os

from vramgui.core.documents.scenario import PresetRef, ScenarioDocument, ScenarioError
from vramgui.core.scenario.specs import Scenario
from vramgui.io.comparison_files import SCHEMA as COMPARISON_SCHEMA
from vramgui.io.hf_config import read_config
from vramgui.io.scenario_files import load_document, save_scenario

__all__ = ["PresetRef", "SaveError", "ScenarioDocument", "ScenarioError", "dropped_kind", "load_document",
           "looks_like_hf_config", "save_document"]


class SaveError(OSError):
    """A scenario file could not be written; the old file (if any) is untouched. ``str()`` is the reason only
    (never the name of the temporary file)."""


def save_document(path: str | os.PathLike[str], scenario: Scenario, preset: PresetRef | None = None) -> None:
    """Write ``scenario`` to ``path`` with the app's atomic writer (``vramgui.io.scenario_files.save_scenario``);
    raises ``SaveError`` and leaves ``path`` as it was when anything fails."""
    try:
        save_scenario(path, scenario, preset=preset)
    except OSError as err:
        raise SaveError(err.strerror or str(err)) from err


def dropped_kind(path: str | os.PathLike[str]) -> str:
    """What a dropped .json is: ``"model"`` (a Hugging Face ``config.json``: an object with ``model_type`` /
    ``architectures`` and no vramgui ``schema``), ``"comparison"`` (a vramgui comparison file) or ``"scenario"``
    (anything else: the scenario reader says what is wrong with it). Read once like an imported config (regular
    files only, capped), so a dropped FIFO or huge file cannot stall the window."""
    try:
        data = read_config(path)
    except ValueError:
        return "scenario"
    if data.get("schema") == COMPARISON_SCHEMA:
        return "comparison"
    return "model" if "schema" not in data and ("model_type" in data or "architectures" in data) else "scenario"


def looks_like_hf_config(path: str | os.PathLike[str]) -> bool:
    """Whether a dropped .json is a Hugging Face ``config.json`` to import as a model (``dropped_kind``)."""
    return dropped_kind(path) == "model"
