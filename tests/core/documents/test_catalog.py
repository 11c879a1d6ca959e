"""Presets: every count recomputed and compared with the official figure; GPU memory in bytes."""

from __future__ import annotations

import pytest

from vramgui.core.documents.catalog import GiB, parse_memory, parse_official_count
from vramgui.core.scenario.architecture import count_active_params, count_params
from vramgui.core.text.errors import InputError
from vramgui.io.presets import find_gpu, find_model, gpu_presets, model_presets

MODELS = model_presets()
GPUS = gpu_presets()


def test_enough_presets():
    assert len(MODELS) >= 30 and len(GPUS) >= 20


@pytest.mark.parametrize("key", list(MODELS))
def test_preset_count_matches_official_figure_or_explains_why(key):
    preset = MODELS[key]
    exact = count_params(preset.spec.architecture)
    assert preset.spec.params == exact
    official, tolerance = parse_official_count(preset.official_label)
    within = abs(exact - official) <= tolerance
    # A difference note exists exactly when the official figure does not round to the exact count.
    assert within != bool(preset.difference), (exact, preset.official_label, preset.difference)
    assert abs(exact - official) <= 0.05 * official  # never more than 5 % off, note or not


@pytest.mark.parametrize("key", [k for k, p in MODELS.items() if p.official_active_label])
def test_moe_active_count_matches_official_figure_or_explains_why(key):
    preset = MODELS[key]
    active = count_active_params(preset.spec.architecture)
    official, tolerance = parse_official_count(preset.official_active_label)
    assert (abs(active - official) <= tolerance) != bool(preset.active_difference)
    assert preset.spec.architecture.is_moe


@pytest.mark.parametrize("key", list(MODELS))
def test_preset_has_sources(key):
    preset = MODELS[key]
    assert preset.source and preset.official_source and preset.family and preset.name


def test_required_families_are_present():
    keys = " ".join(MODELS)
    for needle in ("gpt2", "gpt3-175b", "llama-2", "llama-3-", "llama-3.1", "llama-3.2", "llama-3.3", "mistral-7b",
                   "mixtral-8x7b", "mixtral-8x22b", "qwen2.5-0.5b", "qwen2.5-72b", "qwen3-8b", "qwen3-30b-a3b",
                   "gemma-2", "gemma-3", "phi-3", "phi-4", "deepseek-v3", "falcon", "pythia", "gpt-neox"):
        assert needle in keys, needle


@pytest.mark.parametrize("key", list(GPUS))
def test_gpu_memory_in_bytes_with_vendor_unit_and_source(key):
    gpu = GPUS[key]
    assert gpu.vendor_unit in ("GB", "GiB")
    assert gpu.source and gpu.note and gpu.vendor
    assert gpu.memory == parse_memory(gpu.memory_label)
    assert gpu.memory % 2**20 == 0  # whole MiB: capacities are binary


def test_an_80gb_h100_has_80_gib():
    assert find_gpu("H100 SXM 80GB").memory == 80 * 2**30 == 85_899_345_920


def test_rtx_4090_has_24_gib():
    gpu = find_gpu("rtx 4090")
    assert gpu.memory == 24 * GiB and gpu.vendor_unit == "GB"


def test_vendor_unit_is_kept_as_quoted():
    assert find_gpu("tpu-v4").vendor_unit == "GiB"  # Google's v4 page: "32 GiB"
    assert find_gpu("tpu-v5e").vendor_unit == "GB"  # its v5e page: "16 GB", for the same binary HBM
    assert find_gpu("tpu-v5e").memory == 16 * GiB


def test_required_gpus_are_present():
    for name in ("rtx-3090", "rtx-4090", "rtx-5090", "rtx-a6000", "rtx-6000-ada", "l40s", "v100-16gb", "v100-32gb",
                 "a100-40gb", "a100-80gb", "h100-sxm", "h200", "b200", "mi250x", "mi300x", "ascend-910b"):
        assert name in GPUS


@pytest.mark.parametrize("name", ["Meta-Llama-3-8B", "meta-llama/Meta-Llama-3-8B", "LLAMA_3_8B", "llama-3-8b",
                                  "Meta Llama 3 8B"])
def test_find_model_forgives_case_and_separators(name):
    assert find_model(name).key == "llama-3-8b"


def test_find_gpu_by_unique_fragment():
    assert find_gpu("4090").key == "rtx-4090"


def test_unknown_model_lists_close_matches():
    with pytest.raises(InputError) as err:
        find_model("llama 8b")
    assert "llama-3-8b" in str(err.value)
    assert err.value.field == "model.preset"


def test_ambiguous_gpu_lists_candidates():
    with pytest.raises(InputError) as err:
        find_gpu("h100")
    assert "h100-sxm" in str(err.value) and "h100-pcie" in str(err.value)


@pytest.mark.parametrize(("label", "value", "tolerance"), [
    ("124M", 124_000_000, 500_000), ("7.61B", 7_610_000_000, 5_000_000), ("175.0B", 175_000_000_000, 50_000_000),
    ("162,322,944", 162_322_944, 0), ("70B", 70_000_000_000, 500_000_000),
])
def test_parse_official_count(label, value, tolerance):
    assert parse_official_count(label) == (value, tolerance)


@pytest.mark.parametrize("label", ["", "7 apples", "B7", "-3B"])
def test_parse_official_count_rejects_garbage(label):
    with pytest.raises(ValueError):
        parse_official_count(label)


def test_parse_memory_needs_an_explicit_unit():
    assert parse_memory("80 GB") == 80 * 10**9
    with pytest.raises(ValueError):
        parse_memory("80")


def test_docs_list_every_preset_with_its_exact_count():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[3] / "docs" / "catalog.md").read_text(encoding="utf-8")
    for key, preset in MODELS.items():
        assert f"| `{key}` |" in doc and f"{preset.params:,}" in doc, key
    for key, gpu in GPUS.items():
        assert f"| `{key}` |" in doc and f"{gpu.memory:,}" in doc, key


@pytest.mark.parametrize("key", list(GPUS))
def test_memory_is_the_vendor_figure_read_as_binary(key):
    gpu = GPUS[key]
    per_device = gpu.vendor_figure / (2 if key == "mi250x" else 1)  # the MI250X package holds two devices
    assert gpu.memory == per_device * GiB


def test_no_two_presets_share_a_lookup_name():
    from vramgui.core.documents.catalog import normalize_name

    seen: dict[str, str] = {}
    for key, p in MODELS.items():
        for alias in {normalize_name(a) for a in (*p.aliases, *(a.split("/", 1)[1] for a in p.aliases), p.name, key)}:
            assert seen.setdefault(alias, key) == key, (alias, key, seen[alias])
    seen = {}
    for key, g in GPUS.items():
        for alias in {normalize_name(a) for a in (g.name, g.name.removeprefix(g.vendor).strip(), key)}:
            assert seen.setdefault(alias, key) == key, (alias, key, seen[alias])
