"""The window's form rows that are no scenario field, declared beside the registry so that no presenter or view names
one: the model preset, how the model is defined, the GPU preset (``UI_ROWS``: a choice the window holds, not the
scenario), and the read-only hints under fields (``HINTS``: "≈ 8.03B", "= 85.90 GB", "2 nodes").

Their words are marked in the "Fields" context, as the registry's are; the presenter translates them.
"""

from __future__ import annotations

from typing import NamedTuple

from vramgui.core.fields import paths
from vramgui.core.fields.table import ESSENTIALS
from vramgui.core.text.mark import QT_TRANSLATE_NOOP

MODEL_PRESET = paths.MODEL_PRESET  # the model's catalog entry ("" none, IMPORTED an imported config.json)
MODEL_MODE = "model.mode"  # where Φ comes from: MODEL_MODES
GPU_PRESET = paths.GPU_PRESET  # the GPU's catalog entry (CUSTOM: custom memory)

PARAMS_HINT = "model.params_hint"
MEMORY_HINT = "hardware.gpu_memory_hint"
NODES_HINT = "parallel.nodes"

MODE_PRESET, MODE_PARAMS, MODE_ARCHITECTURE = "preset", "params", "architecture"


class UiRow(NamedTuple):
    """A row of the form that holds UI state: its key, its form group (the row opens the group), its label,
    tooltip and mnemonic, and for a fixed choice its (value, words) pairs."""

    key: str
    form: str
    label: str
    explanation: str
    mnemonic: str
    choices: tuple[tuple[str, str], ...] = ()


class Hint(NamedTuple):
    """A read-only text under the field ``under``, about the fields ``describes`` (a path ending in "." stands for
    every field below it): an error on one of those hides it."""

    key: str
    under: str
    describes: tuple[str, ...]


_MODE_CHOICES = ((MODE_PRESET, QT_TRANSLATE_NOOP("Fields", "the preset or import")),
                 (MODE_PARAMS, QT_TRANSLATE_NOOP("Fields", "parameter count Φ")),
                 (MODE_ARCHITECTURE, QT_TRANSLATE_NOOP("Fields", "architecture fields")))

UI_ROWS: tuple[UiRow, ...] = (
    UiRow(MODEL_PRESET, ESSENTIALS, QT_TRANSLATE_NOOP("Fields", "Preset"), QT_TRANSLATE_NOOP(
        "Fields",
        "A model from the catalog: its architecture gives Φ exactly and sizes the activations. Type to search."), "S"),
    UiRow(MODEL_MODE, "model", QT_TRANSLATE_NOOP("Fields", "Defined by"), QT_TRANSLATE_NOOP(
        "Fields",
        "Where Φ comes from. A parameter count alone sizes the model states (16Φ for mixed-precision Adam) but not "
        "the activations, which need the architecture."), "D",
        choices=_MODE_CHOICES),
    UiRow(GPU_PRESET, ESSENTIALS, "GPU", QT_TRANSLATE_NOOP(
        "Fields", "A GPU from the catalog (its memory as the vendor states it), or custom memory."), "G"),
)
UI_KEYS = tuple(row.key for row in UI_ROWS)
MODEL_MODES = tuple(value for value, _ in _MODE_CHOICES)

HINTS: tuple[Hint, ...] = (
    Hint(PARAMS_HINT, paths.PARAMS, (paths.PARAMS, paths.ARCH_PREFIX)),
    Hint(MEMORY_HINT, paths.GPU_MEMORY, (paths.GPU_MEMORY,)),
    Hint(NODES_HINT, "parallel.gpus_per_node", (paths.NUM_GPUS, "parallel.gpus_per_node")),
)
