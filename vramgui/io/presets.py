"""The bundled model and GPU presets (``resources/presets/*.json``), read once per process.

The files go through the capped JSON reader (``vramgui.io.files.read_json``); turning their entries into
presets and finding one by name is the pure ``vramgui.core.documents.catalog``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from vramgui.core.documents.catalog import (
    GpuPreset,
    ModelEntries,
    ModelPreset,
    find_preset,
    gpu_lookup_names,
    gpus_from_document,
    normalize_name,
)
from vramgui.core.fields.paths import GPU_PRESET, MODEL_PRESET
from vramgui.io.files import read_json
from vramgui.paths import resource_path

MAX_PRESET_FILE_BYTES = 4 * 2**20  # models.json is ~40 kB, gpus.json ~12 kB
MAX_PRESET_DEPTH = 16  # models.json nests four levels (models[].config.rope_scaling)
MAX_PRESET_ITEMS = 200_000


def read_preset_file(name: str) -> Any:
    """A parsed file of ``resources/presets``; FileReadError / JsonError when it is missing or broken."""
    return read_json(resource_path("presets", name), max_bytes=MAX_PRESET_FILE_BYTES, max_depth=MAX_PRESET_DEPTH,
                     max_items=MAX_PRESET_ITEMS, what="preset file")


@cache
def _models() -> ModelEntries:
    """Each model counted when first looked up (``find_model`` counts only the one it finds)."""
    return ModelEntries(read_preset_file("models.json"))


@cache
def _gpus() -> dict[str, GpuPreset]:
    return gpus_from_document(read_preset_file("gpus.json"))


@cache
def _model_names() -> dict[str, str]:
    return _models().lookup_names()


@cache
def _gpu_names() -> dict[str, str]:
    return gpu_lookup_names(_gpus())


def model_presets() -> dict[str, ModelPreset]:
    """All model presets by key, in the data file's order."""
    return dict(_models())


def gpu_presets() -> dict[str, GpuPreset]:
    """All GPU presets by key, in the data file's order."""
    return dict(_gpus())


def find_model(name: str) -> ModelPreset:
    """A model preset by key, display name or Hugging Face repo id; case and separators do not matter."""
    return find_preset(name, _models(), MODEL_PRESET, _model_names())


def find_gpu(name: str) -> GpuPreset:
    """A GPU preset by key or name ("h100-sxm", "NVIDIA H100 SXM 80GB", "H100 SXM 80GB")."""
    return find_preset(name, _gpus(), GPU_PRESET, _gpu_names())


def exact_model(name: str) -> ModelPreset | None:
    """The preset ``name`` designates exactly (key, display name or Hugging Face repo id, with or without its owner;
    case and separators do not matter), else None: never a close match, which would be a guess."""
    names = _model_names()
    key = names.get(normalize_name(name)) or (names.get(normalize_name(name.split("/", 1)[1])) if "/" in name
                                              else None)
    return None if key is None else _models()[key]
