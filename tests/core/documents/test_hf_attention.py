"""config.json -> sliding_window and layer_types, as each transformers configuration class reads them."""

from __future__ import annotations

import pytest

from vramgui.core.documents.catalog import models_from_document
from vramgui.core.documents.hf_attention import shortest_period
from vramgui.core.documents.hf_config import architecture_from_config, config_notes
from vramgui.core.estimate import estimate
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.specs import ModelSpec, Scenario
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import render

BASE = {"hidden_size": 64, "num_hidden_layers": 6, "num_attention_heads": 4, "num_key_value_heads": 2,
        "intermediate_size": 128, "vocab_size": 100}


def _arch(model_type: str, **keys: object) -> Architecture:
    return architecture_from_config({"model_type": model_type, **BASE, **keys})


def test_gemma2_alternates_from_layer_zero_and_gemma3_keeps_every_sixth_layer_full():
    g2 = _arch("gemma2", sliding_window=4096)
    assert (g2.sliding_window, g2.layer_types) == (4096, "sf")
    assert [g2.is_sliding_layer(i) for i in range(4)] == [True, False, True, False]  # (i + 1) % 2
    g3 = _arch("gemma3_text", sliding_window=1024, sliding_window_pattern=6, num_hidden_layers=62)
    assert g3.layer_types == "sssssf"
    assert (g3.sliding_layers, g3.full_layers) == (52, 10)  # full at 5, 11, ..., 59: Gemma 3 27B's 5:1


def test_an_explicit_layer_types_list_wins_and_is_stored_as_its_shortest_period():
    kinds = ["sliding_attention", "full_attention"] * 3
    assert _arch("gpt_oss", sliding_window=128, layer_types=kinds).layer_types == "sf"
    odd = ["full_attention", "full_attention"] + ["sliding_attention"] * 4
    assert _arch("gemma2", sliding_window=64, layer_types=odd).layer_types == "ffssss"
    assert shortest_period("sssssfsssssfss") == "sssssf"


def test_mistral_windows_every_layer_and_null_means_none():
    v01 = _arch("mistral", sliding_window=4096)
    assert (v01.sliding_window, v01.layer_types, v01.sliding_layers) == (4096, "", 6)
    v03 = _arch("mistral", sliding_window=None)
    assert (v03.sliding_window, v03.sliding_layers, v03.full_layers) == (None, 0, 6)


def test_a_missing_key_takes_the_class_default_and_says_so():
    config = {"model_type": "mistral", **BASE}
    assert architecture_from_config(config).sliding_window == 4096  # MistralConfig.sliding_window = 4096
    notes = [render(n) for n in config_notes(config, "mistral")]
    assert notes == ["config.json has no sliding_window: mistral's default 4,096 applies (MistralConfig)"]
    assert config_notes({**config, "sliding_window": None}, "mistral") == ()
    gemma3 = {"model_type": "gemma3", "text_config": {**BASE, "sliding_window": 512}}
    assert architecture_from_config(gemma3).layer_types == "sssssf"
    assert [dict(n.params)["key"] for n in config_notes(gemma3, "gemma3_text")] == ["sliding_window_pattern"]


def test_qwen_windows_only_with_use_sliding_window_from_max_window_layers():
    assert _arch("qwen2", sliding_window=131072, use_sliding_window=False).sliding_window is None
    on = _arch("qwen2", sliding_window=32, use_sliding_window=True, max_window_layers=4)
    assert (on.sliding_window, on.layer_types, on.sliding_layers) == (32, "ffffss", 2)


def test_families_without_windows_ignore_the_keys():
    assert _arch("llama", sliding_window=4096).sliding_window is None


@pytest.mark.parametrize(("keys", "field"), [
    ({"sliding_window": -1}, "config.sliding_window"),
    ({"sliding_window": "4k"}, "config.sliding_window"),
    ({"sliding_window": 8, "layer_types": ["sliding_attention"] * 5}, "config.layer_types"),
    ({"sliding_window": 8, "layer_types": ["chunked_attention"] * 6}, "config.layer_types"),
    ({"sliding_window": 8, "layer_types": "sf"}, "config.layer_types"),
])
def test_bad_attention_keys_name_the_key(keys, field):
    with pytest.raises(InputError) as err:
        _arch("gemma2", **keys)
    assert err.value.field == field


@pytest.mark.parametrize(("arch", "message"), [
    (Architecture(num_layers=4, sliding_window=8, layer_types="sx"), "is not a pattern of s (sliding) and f"),
    (Architecture(num_layers=1, sliding_window=8, layer_types="sf"), "is not a pattern of s (sliding) and f"),
    (Architecture(num_layers=4, layer_types="sf"), "names sliding layers but no sliding window is set"),
])
def test_a_scenario_layer_pattern_is_checked(arch, message):
    with pytest.raises(InputError) as err:
        estimate(Scenario(model=ModelSpec(architecture=arch)))
    assert err.value.field == "model.architecture.layer_types"
    assert message in render(err.value.msg)


def test_presets_carry_the_published_windows():
    import json
    from pathlib import Path
    doc = json.loads((Path(__file__).parents[3] / "resources/presets/models.json").read_text())
    archs = {k: p.spec.architecture for k, p in models_from_document(doc).items()}
    seen = {k: (a.sliding_window, a.layer_types) for k, a in archs.items() if a and a.sliding_window}
    assert seen == {
        "mistral-7b-v0.1": (4096, ""), "gemma-2-2b": (4096, "sf"), "gemma-2-9b": (4096, "sf"),
        "gemma-2-27b": (4096, "sf"), "gemma-3-1b": (512, "sssssf"), "gemma-3-27b-text": (1024, "sssssf"),
        "gpt-oss-20b": (128, "sf"), "gpt-oss-120b": (128, "sf"), "phi-3-mini": (2047, ""),
    }
