"""config.json -> Architecture (pure mapping): supported families, defaults, bad values, bounded counts."""

from __future__ import annotations

import pytest

from vramgui.core.documents.hf_config import SUPPORTED_MODEL_TYPES, architecture_from_config
from vramgui.core.scenario.architecture import count_params
from vramgui.core.text.errors import InputError


def test_required_model_types_are_supported():
    for model_type in ("gpt2", "llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "gemma",
                       "gemma2", "gemma3_text", "phi3", "gpt_neox", "falcon", "deepseek_v3"):
        assert model_type in SUPPORTED_MODEL_TYPES


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
