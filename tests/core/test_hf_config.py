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


FIXTURE_DIRS = sorted(p.parent for p in FIXTURES.glob("*/config.json"))


def test_every_supported_family_has_a_published_config_fixture():
    types = {json.loads((d / "config.json").read_text())["model_type"] for d in FIXTURE_DIRS}
    assert set(SUPPORTED_MODEL_TYPES) <= types


@pytest.mark.parametrize("folder", FIXTURE_DIRS, ids=lambda d: d.name)
def test_published_config_imports_to_the_expected_count(folder):
    expected = json.loads((folder / "expected.json").read_text())
    spec = load_model_spec(folder / "config.json")
    assert spec.params == count_params(spec.architecture) == expected["params"], expected["source"]


def test_folder_without_config_is_a_clear_error(tmp_path):
    with pytest.raises(InputError, match="cannot open"):
        load_model_spec(tmp_path)


def test_oversized_config_is_refused_unread(tmp_path):
    path = tmp_path / "config.json"
    with open(path, "wb") as fh:
        fh.truncate(9 * 2**20)  # sparse: 9 MiB of zeros without writing them
    with pytest.raises(InputError, match="read at most"):
        load_model_spec(path)


@pytest.mark.parametrize("raw, message", [
    (b"\xff\xfe{}", "UTF-8"),
    (b'{"model_type": "llama", ', "not valid JSON"),
    (b"[" * 100_000 + b"]" * 100_000, "nested"),
    (b"[1, 2, 3]", "JSON object"),
    (b"", "not valid JSON"),
    (b'{"model_type": "llama", "hidden_size": NaN, "num_hidden_layers": 2, "num_attention_heads": 2,'
     b' "intermediate_size": 8, "vocab_size": 10}', "whole number"),
    (b'{"model_type": "llama", "hidden_size": 1e400, "num_hidden_layers": 2, "num_attention_heads": 2,'
     b' "intermediate_size": 8, "vocab_size": 10}', "whole number"),
    (b'{"model_type": ["llama"]}', "model_type"),
    (b'{"model_type": "llama", "hidden_size": ' + b"9" * 5000 + b"}", "cannot be read"),
])
def test_malformed_config_gives_clear_error(tmp_path, raw, message):
    path = tmp_path / "config.json"
    path.write_bytes(raw)
    with pytest.raises(InputError) as err:
        load_model_spec(path)
    assert message in str(err.value)


def test_fifo_instead_of_config_is_refused_without_blocking(tmp_path):
    import os
    os.mkfifo(tmp_path / "config.json")
    with pytest.raises(InputError, match="not a regular file"):
        load_model_spec(tmp_path)


def test_absurd_sizes_are_bounded_so_counting_stays_cheap():
    cfg = {"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 10**9, "num_attention_heads": 4,
           "intermediate_size": 128, "vocab_size": 100}
    with pytest.raises(InputError, match="out of range"):
        architecture_from_config(cfg)


def test_nonempty_mlp_only_layers_is_refused_rather_than_miscounted():
    cfg = {"model_type": "qwen3_moe", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
           "intermediate_size": 128, "vocab_size": 100, "mlp_only_layers": [0]}
    with pytest.raises(InputError, match="mlp_only_layers"):
        architecture_from_config(cfg)


def test_nested_wrapper_configs_do_not_recurse():
    cfg: dict = {"model_type": "gemma3", "text_config": {}}
    inner = cfg["text_config"]
    for _ in range(300):
        inner["model_type"] = "gemma3"
        inner["text_config"] = {}
        inner = inner["text_config"]
    with pytest.raises(InputError, match="missing"):
        architecture_from_config(cfg)


def test_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "config.json"
    cfg = {"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
           "intermediate_size": 128, "vocab_size": 100}
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(cfg).encode())
    assert load_model_spec(path).params == count_params(architecture_from_config(cfg))


def test_folder_import_is_reachable_from_hf_config():
    from vramgui.core.hf_config import import_model

    result = import_model(FIXTURES.parent / "hf_saved" / "gpt2")
    assert result.weights.params == result.config_params == 7232


def test_saved_deepseek_v3_folder_estimates_despite_unused_kv_heads_default():
    """transformers saves num_key_value_heads=128 beside 2 MLA heads; MLA ignores it, so must we."""
    from pathlib import Path

    from vramgui.core.estimate import estimate
    from vramgui.core.hf_config import load_model_spec
    from vramgui.core.specs import ParallelSpec, Scenario

    folder = Path(__file__).parents[1] / "fixtures" / "hf_saved" / "deepseek_v3"
    spec = load_model_spec(folder)
    assert spec.architecture.kv_heads == spec.architecture.num_heads
    est = estimate(Scenario(model=spec, parallel=ParallelSpec(num_gpus=2, zero_stage=3)))
    assert est.bytes_of("activations") > 0
