"""Preset lists for the choice fields, from the presets (``vramgui.io.presets``), cached once per process; and what
the form shows of a preset beyond its name: the GPU's memory, the names a search of the model list matches.

An empty dict when the catalog is missing or broken, so the window still opens (custom model and GPU only).
"""

from __future__ import annotations

import re
from functools import cache

SEARCH_SEPARATOR = "|"  # between an item's names in its search text: no match runs from one name into the next


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


def search_form(text: str) -> str:
    """``text`` as a search compares it: lower case without spaces, '-', '_', '.' or other punctuation, so the
    CLI key "llama-3.1-8b", the name "Llama 3.1 8B" and "llama_3_1_8b" are one."""
    return re.sub(r"[\W_]+", "", text.casefold())


def model_search_text(key: str, shown: str) -> str:
    """What a search of the model list matches for the item ``key`` shown as ``shown``: that text, the CLI key
    (``--preset llama-3-8b``) and the Hugging Face repository id with and without its owner."""
    names = [shown, key]
    preset = model_presets().get(key)
    if preset is not None:
        names += [preset.name, *preset.aliases, *(alias.split("/", 1)[-1] for alias in preset.aliases)]
    forms = [search_form(name) for name in names]
    return SEARCH_SEPARATOR.join(dict.fromkeys(form for form in forms if form))


def gpu_choice_text(key: str, shown: str) -> str:
    """A GPU preset as its list shows it: its name and the memory one device holds, in the catalog's exact unit
    ("NVIDIA GeForce RTX 4090 · 24 GiB"); any other item (custom memory) as it is."""
    preset = gpu_presets().get(key)
    if preset is None or not preset.memory_label:
        return shown
    return f"{shown} · {preset.memory_label}"
