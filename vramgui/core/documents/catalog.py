"""Model and GPU presets: the entries of the data files in ``resources/presets`` turned into typed presets,
and the lookup by name. Pure: ``vramgui.io.presets`` reads the files and hands the parsed documents here.

A model preset holds the model's published ``config.json`` values and goes through the same mapping as a
user's file (``vramgui.core.documents.hf_config``), so a preset and an imported config can never be counted differently.
GPU memory is kept in bytes with the unit made explicit: vendors quote "GB" for capacities that are binary
(an "80GB" H100 has 80 GiB = 85,899,345,920 bytes); each entry says which and cites its source.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from vramgui.core.documents.hf_config import architecture_from_config
from vramgui.core.scenario.architecture import count_active_params, count_params
from vramgui.core.scenario.specs import HardwareSpec, ModelSpec
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg
from vramgui.core.text.units import COUNT_SUFFIXES, GB, GiB, parse_rate_exact

_Preset = TypeVar("_Preset")
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
        return aliases_of(self.source)


def aliases_of(source: str) -> tuple[str, ...]:
    """The Hugging Face repository id in a preset's ``source`` link (none when it links elsewhere)."""
    m = re.search(r"huggingface\.co/([^/\s]+/[^/\s]+)", source)
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
    compute: GpuCompute | None = None  # the compute figures (None: not sourced; docs/catalog.md says which)


# PCIe x16, per direction, after line coding (PCI-SIG base specifications: 8 GT/s 128b/130b for 3.0, 16 GT/s for
# 4.0, 32 GT/s for 5.0; 6.0's 64 GT/s PAM4 with 242/256-byte FLITs), to the 0.01 GB/s: what offload moves host data
# over. 16 lanes × 8 GT/s × 128/130 / 8 bits = 15.75 GB/s, and twice that per generation.
PCIE_X16 = {3: 15_750_000_000, 4: 31_500_000_000, 5: 63_000_000_000, 6: 121_000_000_000}


@dataclass(frozen=True)
class GpuCompute:
    """A GPU's dense peaks (TFLOP/s; never the "with sparsity" figures datasheets print beside them), its memory
    bandwidth, the link to its peers inside a node and to the host (bytes/s per direction), with the source."""

    tflops_16bit: float
    memory_bandwidth: int
    source: str
    tflops_fp8: float | None = None
    tflops_tf32: float | None = None
    tflops_fp32: float | None = None
    link_bandwidth: int | None = None  # NVLink / Infinity Fabric per direction; None: PCIe only
    link_name: str = ""
    pcie_generation: int | None = None
    host_bandwidth: int | None = None  # the host link per direction: PCIe x16 of the generation, or NVLink-C2C
    host_link_name: str = ""
    network_bandwidth: int | None = None  # one network port per GPU in the vendor's reference system (DGX)
    network_name: str = ""


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


def model_from_entry(entry: dict[str, Any]) -> ModelPreset:
    """One entry of ``models.json`` (its ``config`` counted through ``architecture_from_config``)."""
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


def _rate(text: str | None) -> int | None:
    return None if text is None else parse_rate_exact(text, "gpus.json")


def compute_from_entry(entry: dict[str, Any] | None) -> GpuCompute | None:
    """The ``compute`` object of a ``gpus.json`` entry (rates written with their unit: "3.35TB/s")."""
    if entry is None:
        return None
    gen = entry.get("pcie_gen")
    host = _rate(entry.get("host_link")) if "host_link" in entry else (PCIE_X16[gen] if gen else None)
    return GpuCompute(
        tflops_16bit=float(entry["tflops_16bit"]), memory_bandwidth=parse_rate_exact(entry["memory_bandwidth"]),
        source=entry["source"], tflops_fp8=entry.get("tflops_fp8"), tflops_tf32=entry.get("tflops_tf32"),
        tflops_fp32=entry.get("tflops_fp32"), link_bandwidth=_rate(entry.get("link")),
        link_name=entry.get("link_name", ""), pcie_generation=gen, host_bandwidth=host,
        host_link_name=entry.get("host_link_name", f"PCIe {gen}.0 x16" if gen else ""),
        network_bandwidth=_rate(entry.get("network")), network_name=entry.get("network_name", ""))


# the fields ``hardware_with_gpu`` sets besides the name and the memory (the window forgets pending edits of them)
GPU_FIGURE_PATHS = tuple(f"hardware.{name}" for name in (
    "tflops_16bit", "tflops_fp8", "tflops_tf32", "tflops_fp32", "memory_bandwidth", "link_bandwidth", "pcie_bandwidth",
    "network_bandwidth"))


def hardware_with_gpu(hw: HardwareSpec, gpu: GpuPreset) -> HardwareSpec:
    """``hw`` with the preset's name, memory and compute figures (the user's own links, price and rate kept; a preset
    without compute figures clears them, so no other GPU's figures stay behind)."""
    c = gpu.compute
    return replace(
        hw, gpu_name=gpu.name, gpu_memory=gpu.memory,
        tflops_16bit=None if c is None else c.tflops_16bit, tflops_fp8=None if c is None else c.tflops_fp8,
        tflops_tf32=None if c is None else c.tflops_tf32, tflops_fp32=None if c is None else c.tflops_fp32,
        memory_bandwidth=None if c is None else c.memory_bandwidth,
        link_bandwidth=None if c is None else c.link_bandwidth, pcie_bandwidth=None if c is None else c.host_bandwidth,
        network_bandwidth=None if c is None else c.network_bandwidth)


def gpu_from_entry(entry: dict[str, Any]) -> GpuPreset:
    """One entry of ``gpus.json``."""
    return GpuPreset(
        key=entry["key"], name=entry["name"], memory=parse_memory(entry["memory"]),
        vendor_unit=entry["vendor_unit"], vendor=entry["vendor"], source=entry["source"],
        vendor_figure=entry["vendor_figure"], memory_label=entry["memory"],
        memory_type=entry.get("memory_type", ""), segment=entry.get("segment", ""), note=entry.get("note", ""),
        compute=compute_from_entry(entry.get("compute")))


def models_from_document(document: Any) -> dict[str, ModelPreset]:
    """All model presets of a parsed ``models.json`` by key, in the file's order."""
    return {p.key: p for p in map(model_from_entry, document["models"])}


class ModelEntries(Mapping[str, ModelPreset]):
    """The model presets of a parsed ``models.json`` by key, in the file's order, each counted
    (``model_from_entry``) when it is first looked up: the command line asks for one model, and counting all of
    them would cost more than the rest of its start-up. ``dict(entries)`` equals ``models_from_document``."""

    def __init__(self, document: Any) -> None:
        self._entries: dict[str, dict[str, Any]] = {e["key"]: e for e in document["models"]}
        self._presets: dict[str, ModelPreset] = {}

    def __getitem__(self, key: str) -> ModelPreset:
        preset = self._presets.get(key)
        if preset is None:
            preset = self._presets[key] = model_from_entry(self._entries[key])
        return preset

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def lookup_names(self) -> dict[str, str]:
        """``model_lookup_names`` of these presets, read from the entries without counting any model."""
        names: dict[str, str] = {}
        for key, e in self._entries.items():
            aliases = aliases_of(e["source"])
            for alias in (*aliases, *(a.split("/", 1)[1] for a in aliases), e["name"], key):
                names[normalize_name(alias)] = key
        return names


def gpus_from_document(document: Any) -> dict[str, GpuPreset]:
    """All GPU presets of a parsed ``gpus.json`` by key, in the file's order."""
    return {g.key: g for g in map(gpu_from_entry, document["gpus"])}


def normalize_name(name: str) -> str:
    """Lower case without separators: "Llama-3.1 8B", "llama_3.1_8b" and "LLAMA 3.1-8B" all match."""
    return re.sub(r"[^a-z0-9.]+", "", name.lower())


def find_preset(name: str, presets: Mapping[str, _Preset], field: str, names: Mapping[str, str]) -> _Preset:
    """The preset ``name`` designates through ``names`` (normalized alias -> key): exact, else the one alias
    containing it; otherwise an InputError on ``field`` listing close matches."""
    wanted = normalize_name(str(name))
    if wanted and wanted in names:
        return presets[names[wanted]]
    containing = list(dict.fromkeys(key for alias, key in names.items() if len(wanted) >= 3 and wanted in alias))
    if len(containing) == 1:  # "4090" -> rtx-4090; "h100" is ambiguous and falls through to the hint
        return presets[containing[0]]
    import difflib  # only for a name that matches no preset: not on the start-up path

    close = difflib.get_close_matches(wanted, list(names), n=5, cutoff=0.5)
    keys = list(dict.fromkeys(containing[:5] + [names[c] for c in close]))
    hint = (Msg.of("allowed.close_matches", names=", ".join(keys)) if keys
            else Msg.of("allowed.known_presets", names=", ".join(list(presets)[:12])))
    raise InputError(field, Msg.of("error.unknown_preset", name=repr(str(name)[:80])), hint)


def gpu_lookup_names(gpus: Mapping[str, GpuPreset]) -> dict[str, str]:
    """Normalized alias -> key: name, name without the vendor, key."""
    names: dict[str, str] = {}
    for key, g in gpus.items():
        for alias in (g.name, g.name.removeprefix(g.vendor).strip(), key):
            names[normalize_name(alias)] = key
    return names
