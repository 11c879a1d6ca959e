"""Preset lists for the choice fields, from the presets (``vramgui.io.presets``), cached once per process.

An empty dict when the catalog is missing or broken, so the window still opens (custom model and GPU only).
"""

from __future__ import annotations

from functools import cache


@cache
def model_presets() -> dict:
    try:
        from vramgui.io.presets import model_presets as load
    except ImportError:
        return {}
    return dict(load())


@cache
def gpu_presets() -> dict:
    try:
        from vramgui.io.presets import gpu_presets as load
    except ImportError:
        return {}
    return dict(load())
