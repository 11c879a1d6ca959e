"""Model and GPU presets, read from the data files in ``resources/presets`` (JSON, standard library).

A model preset holds the model's published ``config.json`` values and goes through the same importer as a
user's file (``vramgui.core.hf_config``), so a preset and an imported config can never be counted differently.
GPU memory is kept in bytes with the unit made explicit: vendors quote "GB" for capacities that are binary
(an "80GB" H100 has 80 GiB = 85,899,345,920 bytes); each entry says which and cites its source.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from vramgui.core.architecture import count_active_params, count_params
from vramgui.core.errors import InputError
from vramgui.core.hf_config import architecture_from_config
from vramgui.core.specs import ModelSpec
from vramgui.core.units import COUNT_SUFFIXES, GB, GiB
from vramgui.paths import resource_path

_COUNT_RE = re.compile(r"^\s*([0-9][0-9,]*(?:\.[0-9]+)?)\s*([KMBT]?)\s*$", re.IGNORECASE)
_MEMORY_RE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(GiB|GB)\s*$")


@dataclass(frozen=True)
class ModelPreset:
    key: str
    name: str
    family: str  # a display label ("Llama 3.1", "Mixtral (MoE)"), not Architecture.family
    spec: ModelSpec
    official_params: int  # the figure the source states, as a number (e.g. "8B" -> 8_000_000_000)
    official_label: str  # that figure as the source writes it
    source: str  # where the architecture numbers come from (the published config.json)
    official_source: str = ""  # where the official parameter count is stated
    note: str = ""
    difference: str = ""  # why the exact count differs from the official figure beyond its rounding
    official_active: int | None = None  # MoE: activated parameters per token, as stated
    official_active_label: str = ""
    active_difference: str = ""

    @property
    def params(self) -> int:
        assert self.spec.params is not None
        return self.spec.params

    @property
    def active_params(self) -> int:
        assert self.spec.architecture is not None
        return count_active_params(self.spec.architecture)

    @property
    def aliases(self) -> tuple[str, ...]:
        """The Hugging Face repository id the config came from, e.g. ``meta-llama/Meta-Llama-3-8B``."""
        m = re.search(r"huggingface\.co/([^/\s]+/[^/\s]+)", self.source)
        return (m.group(1),) if m else ()


@dataclass(frozen=True)
class GpuPreset:
    key: str
    name: str
    memory: int  # bytes one device holds
    vendor_unit: str  # "GB" or "GiB": the unit the vendor quotes (vendor_figure vendor_unit)
    vendor: str
    source: str
    vendor_figure: float = 0.0
    memory_label: str = ""  # the memory with its explicit unit, e.g. "80 GiB"
    memory_type: str = ""
    segment: str = ""  # consumer, workstation, datacenter
    note: str = ""

    @property
    def memory_gib(self) -> float:
        return self.memory / GiB

    @property
    def memory_gb(self) -> float:
        return self.memory / GB


def parse_official_count(label: str) -> tuple[int, int]:
    """``"7.61B"`` -> (7_610_000_000, 5_000_000): the count and half a unit of its last stated digit (the
    rounding it allows). Plain digit strings (``"162,322,944"``) are exact: tolerance 0."""
    m = _COUNT_RE.match(label)
    if not m:
        raise ValueError(f"not a parameter count: {label!r}")
    digits, suffix = m.group(1).replace(",", ""), m.group(2).upper()
    scale = COUNT_SUFFIXES[suffix]  # _COUNT_RE admits only K, M, B, T
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    value = round(float(digits) * scale) if decimals else int(digits) * scale
    tolerance = 0 if scale == 1 else scale // (2 * 10**decimals)
    return value, tolerance


def parse_memory(label: str) -> int:
    """``"80 GiB"`` -> 85_899_345_920; ``"80 GB"`` -> 80_000_000_000. The unit must be written."""
    m = _MEMORY_RE.match(label)
    if not m:
        raise ValueError(f"not a memory size with GB or GiB: {label!r}")
    return round(float(m.group(1)) * (GiB if m.group(2) == "GiB" else GB))


def _load(name: str) -> dict[str, Any]:
    with open(resource_path("presets", name), encoding="utf-8") as fh:
        return json.load(fh)


def _model(entry: dict[str, Any]) -> ModelPreset:
    arch = architecture_from_config(entry["config"])
    official, _ = parse_official_count(entry["official"])
    active_label = entry.get("official_active", "")
    return ModelPreset(
        key=entry["key"], name=entry["name"], family=entry["family"],
        spec=ModelSpec(name=entry["name"], params=count_params(arch), architecture=arch),
        official_params=official, official_label=entry["official"], source=entry["source"],
        official_source=entry.get("official_source", ""), note=entry.get("note", ""),
        difference=entry.get("difference", ""),
        official_active=parse_official_count(active_label)[0] if active_label else None,
        official_active_label=active_label, active_difference=entry.get("active_difference", ""))


def _gpu(entry: dict[str, Any]) -> GpuPreset:
    return GpuPreset(
        key=entry["key"], name=entry["name"], memory=parse_memory(entry["memory"]),
        vendor_unit=entry["vendor_unit"], vendor=entry["vendor"], source=entry["source"],
        vendor_figure=entry["vendor_figure"], memory_label=entry["memory"],
        memory_type=entry.get("memory_type", ""), segment=entry.get("segment", ""), note=entry.get("note", ""))


@cache
def _models() -> dict[str, ModelPreset]:
    return {p.key: p for p in map(_model, _load("models.json")["models"])}


@cache
def _gpus() -> dict[str, GpuPreset]:
    return {g.key: g for g in map(_gpu, _load("gpus.json")["gpus"])}


def model_presets() -> dict[str, ModelPreset]:
    """All model presets by key, in the data file's order."""
    return dict(_models())


def gpu_presets() -> dict[str, GpuPreset]:
    """All GPU presets by key, in the data file's order."""
    return dict(_gpus())


def normalize_name(name: str) -> str:
    """Lower case without separators: "Llama-3.1 8B", "llama_3.1_8b" and "LLAMA 3.1-8B" all match."""
    return re.sub(r"[^a-z0-9.]+", "", name.lower())


def _find(name: str, presets: dict[str, Any], field: str, names: dict[str, str]) -> Any:
    wanted = normalize_name(str(name))
    if wanted and wanted in names:
        return presets[names[wanted]]
    containing = list(dict.fromkeys(key for alias, key in names.items() if len(wanted) >= 3 and wanted in alias))
    if len(containing) == 1:  # "4090" -> rtx-4090; "h100" is ambiguous and falls through to the hint
        return presets[containing[0]]
    close = difflib.get_close_matches(wanted, list(names), n=5, cutoff=0.5)
    keys = list(dict.fromkeys(containing[:5] + [names[c] for c in close]))
    hint = f"close matches: {', '.join(keys)}" if keys else f"known: {', '.join(list(presets)[:12])}, ..."
    raise InputError(field, f"unknown preset {str(name)[:80]!r}", hint)


@cache
def _model_names() -> dict[str, str]:
    names: dict[str, str] = {}
    for key, p in _models().items():
        for alias in (*p.aliases, *(a.split("/", 1)[1] for a in p.aliases), p.name, key):
            names[normalize_name(alias)] = key
    return names


@cache
def _gpu_names() -> dict[str, str]:
    names: dict[str, str] = {}
    for key, g in _gpus().items():
        for alias in (g.name, g.name.removeprefix(g.vendor).strip(), key):
            names[normalize_name(alias)] = key
    return names


def find_model(name: str) -> ModelPreset:
    """A model preset by key, display name or Hugging Face repo id; case and separators do not matter."""
    return _find(name, _models(), "model.preset", _model_names())


def find_gpu(name: str) -> GpuPreset:
    """A GPU preset by key or name ("h100-sxm", "NVIDIA H100 SXM 80GB", "H100 SXM 80GB")."""
    return _find(name, _gpus(), "hardware.gpu", _gpu_names())
