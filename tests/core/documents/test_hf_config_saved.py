"""config.json as transformers 5 writes it (``save_pretrained``), for every supported model_type and every key that
changes the built model: vramgui's count equals the model transformers builds (recorded by
``bench/validate/config_keys.py`` with transformers 5.24.0 on the meta device), a key is read under every name it has
had, and a key config.json leaves out is named in a note with the value used, never defaulted silently."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vramgui.core.documents.hf_config import (
    SUPPORTED_MODEL_TYPES,
    architecture_from_config,
    config_notes,
    read_architecture,
)
from vramgui.core.scenario.architecture import count_param_tensors, count_params
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import render

SAVED = json.loads((Path(__file__).resolve().parents[2] / "fixtures" / "hf_configs" /
                    "transformers_saved.json").read_text())
CASES = {case["name"]: case for case in SAVED["cases"]}
REFUSED = {"deepseek_v2:mlp_bias=true"}  # DeepseekV2MLP biases on the dense and shared MLPs only: not modelled


def test_every_supported_model_type_was_saved_and_built():
    assert SAVED["transformers"].startswith("5.")
    assert {name.split(":")[0] for name in CASES} == set(SUPPORTED_MODEL_TYPES)
    assert len(CASES) > 10 * len(SUPPORTED_MODEL_TYPES) // 2  # the base and the keys that shape each family


@pytest.mark.parametrize("name", sorted(set(CASES) - REFUSED))
def test_saved_config_counts_what_transformers_builds(name):
    arch = architecture_from_config(CASES[name]["config"])
    assert (count_params(arch), count_param_tensors(arch)) == (CASES[name]["numel"], CASES[name]["tensors"])


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_unmodelled_key_is_refused_by_name(name):
    key = name.split(":")[1].split("=")[0]
    with pytest.raises(InputError) as err:
        architecture_from_config(CASES[name]["config"])
    assert err.value.field == f"config.{key}"


def test_qwen3_moe_expert_count_is_read_under_transformers_5_name():
    config = CASES["qwen3_moe:num_experts=8"]["config"]
    assert "num_experts" not in config and config["num_local_experts"] == 8  # how transformers 5 saves it
    assert architecture_from_config(config).num_experts == 8
    older = {k: v for k, v in config.items() if k != "num_local_experts"} | {"num_experts": 8}  # 4.x's name
    assert count_params(architecture_from_config(older)) == CASES["qwen3_moe:num_experts=8"]["numel"]


@pytest.mark.parametrize(("model_type", "names"), [
    ("qwen3_moe", ("num_experts", "num_local_experts")), ("qwen2_moe", ("num_experts", "num_local_experts")),
    ("mixtral", ("num_local_experts", "num_experts")), ("gpt_oss", ("num_local_experts", "num_experts")),
    ("deepseek_v3", ("n_routed_experts", "num_local_experts")), ("deepseek_v2", ("n_routed_experts", "num_experts")),
])
def test_expert_count_is_read_under_every_name(model_type, names):
    config = dict(CASES[f"{model_type}:base"]["config"])
    for name in names:
        config.pop(name, None)
    for name in names:
        assert architecture_from_config({**config, name: 3}).num_experts == 3


def test_two_names_of_one_key_that_disagree_are_an_error():
    config = {**CASES["qwen3_moe:base"]["config"], "num_experts": 8}  # beside num_local_experts 4
    with pytest.raises(InputError) as err:
        architecture_from_config(config)
    names = {"num_experts", "num_local_experts"}
    assert err.value.field.removeprefix("config.") in names
    assert (names - {err.value.field.removeprefix("config.")}).pop() in str(err.value)  # the other name, too
    agreeing = {**CASES["qwen3_moe:base"]["config"], "num_experts": 4}
    assert architecture_from_config(agreeing).num_experts == 4


def test_a_saved_config_sets_every_key_vramgui_reads():
    """What save_pretrained writes leaves nothing to a default (so no note)."""
    for name in ("llama:base", "qwen3:base", "gpt2:base", "deepseek_v3:base", "falcon:base", "mixtral:base"):
        assert read_architecture(CASES[name]["config"]).notes == (), name
    # Qwen3MoeConfig has no head_dim field; Qwen3MoeAttention takes getattr(config, "head_dim", hidden / heads)
    notes = read_architecture(CASES["qwen3_moe:base"]["config"]).notes
    assert [render(n).rsplit(": ", 1)[1] for n in notes] == ["head_dim = 16"]


@pytest.mark.parametrize("name", [f"{t}:base" for t in SUPPORTED_MODEL_TYPES])
def test_each_key_left_out_is_an_error_or_a_note_naming_it(name):
    config = CASES[name]["config"]
    base = read_architecture(config)
    for key in config:
        if key == "model_type":
            continue
        try:
            reading = read_architecture({k: v for k, v in config.items() if k != key})
        except InputError as err:
            refused = err  # a dimension that must be present: the error names it
            assert key in refused.field or key in str(refused)
            continue
        if key == "max_position_embeddings" and reading.architecture.max_position_embeddings == 0:
            continue  # rotary positions: unknown (0) rather than a default; no parameter depends on it
        if reading.architecture != base.architecture:
            left_out = {k: v for k, v in config.items() if k != key}  # the attention span's notes: hf_attention.py
            notes = reading.notes + config_notes(left_out, reading.architecture.model_type)
            shown = " ".join(render(n) for n in notes)
            # the default is named, with the value used; without layer_types the attention reader names the key
            # whose default takes its place (hf_attention.py: sliding_window_pattern, max_window_layers)
            instead = {"layer_types": ("layer_types", "sliding_window_pattern", "max_window_layers")}
            assert any(k in shown for k in instead.get(key, (key,))), (name, key)


def test_default_note_names_key_and_value():
    reading = read_architecture({"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2,
                                 "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100,
                                 "attention_bias": False, "mlp_bias": False, "tie_word_embeddings": False,
                                 "attention_dropout": 0.0})
    assert [render(n) for n in reading.notes] == [
        "not set in config.json, read as the transformers configuration class's defaults: num_key_value_heads = 4, "
        "head_dim = 16"]
