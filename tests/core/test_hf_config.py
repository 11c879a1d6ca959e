"""Offline import of config.json: every supported family, defaults, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vramgui.core.architecture import count_params
from vramgui.core.catalog import model_presets
from vramgui.core.errors import InputError
from vramgui.core.hf_config import (
    SUPPORTED_MODEL_TYPES,
    architecture_from_config,
    load_model_spec,
)
from vramgui.paths import resource_path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "hf_configs"


def _write(tmp_path: Path, data, name: str = "config.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return path


def test_required_model_types_are_supported():
    for model_type in ("gpt2", "llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "gemma",
                       "gemma2", "gemma3_text", "phi3", "gpt_neox", "falcon", "deepseek_v3"):
        assert model_type in SUPPORTED_MODEL_TYPES


@pytest.mark.parametrize("key", list(model_presets()))
def test_preset_config_written_to_disk_imports_to_the_same_count(tmp_path, key):
    preset = model_presets()[key]
    # the preset's config is the published config.json subset; written to a folder it must import the same
    raw = next(m for m in json.loads(resource_path("presets", "models.json").read_text())["models"]
               if m["key"] == key)["config"]
    folder = tmp_path / key
    folder.mkdir()
    _write(folder, raw)
    spec = load_model_spec(folder)
    assert spec.params == preset.params == count_params(spec.architecture)
    assert spec.name == key


def test_unsupported_model_type_lists_supported_ones(tmp_path):
    with pytest.raises(InputError) as err:
        load_model_spec(_write(tmp_path, {"model_type": "bert", "hidden_size": 768}))
    assert "bert" in str(err.value) and "llama" in str(err.value) and "deepseek_v3" in str(err.value)


def test_remote_code_model_is_rejected_without_running_anything(tmp_path):
    cfg = {"model_type": "my_custom", "auto_map": {"AutoModelForCausalLM": "modeling_x.MyModel"}}
    with pytest.raises(InputError, match="trust_remote_code"):
        load_model_spec(_write(tmp_path, cfg))


def test_missing_dimension_names_the_key(tmp_path):
    with pytest.raises(InputError) as err:
        load_model_spec(_write(tmp_path, {"model_type": "llama", "hidden_size": 4096}))
    assert err.value.field.startswith("config.")


def test_wrong_types_are_rejected(tmp_path):
    base = {"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
            "intermediate_size": 128, "vocab_size": 100}
    for key, bad in (("hidden_size", "64"), ("num_hidden_layers", -1), ("vocab_size", 1.5), ("tie_word_embeddings", 1),
                     ("num_attention_heads", True), ("hidden_size", 10**30)):
        with pytest.raises(InputError) as err:
            architecture_from_config({**base, key: bad})
        assert key in err.value.field


def test_gemma3_multimodal_config_counts_its_language_model():
    text = {"hidden_size": 1152, "num_hidden_layers": 26, "num_attention_heads": 4, "num_key_value_heads": 1,
            "head_dim": 256, "intermediate_size": 6912, "vocab_size": 262144}
    wrapped = architecture_from_config({"model_type": "gemma3", "text_config": text})
    direct = architecture_from_config({"model_type": "gemma3_text", **text})
    assert count_params(wrapped) == count_params(direct) == 999_885_952


def test_legacy_falcon_model_type_alias():
    cfg = {"model_type": "RefinedWebModel", "hidden_size": 4544, "n_layer": 32, "n_head": 71, "vocab_size": 65024}
    assert count_params(architecture_from_config(cfg)) == 6_921_720_704


@pytest.mark.skipif(not FIXTURES.is_dir(), reason="fixtures not written yet")
@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*/config.json")) if FIXTURES.is_dir() else [])
def test_fixture_configs_import(path):
    expected = json.loads((path.parent / "expected.json").read_text())
    spec = load_model_spec(path.parent)
    assert spec.params == expected["params"]
