"""The config's dropout probabilities and use_cache in the ``hf`` profile, pinned to measurement.

Measured with ``.venv-validate/bin/python -m bench.validate.amp_check --only dropout`` (torch 2.13.0+cpu,
transformers 5.24.0, pure bf16): dropout routed through ``torch.native_dropout`` (the 1-byte mask CUDA keeps), SDPA
with its attention dropout at 0 (CUDA's flash kernel keeps no mask; the CPU would fall back to the math kernel).
No torch needed here.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from vramgui.core.activations.estimate import estimate_activations
from vramgui.core.documents.hf_config import architecture_from_config
from vramgui.core.fields import registry as fields
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.specs import ParallelSpec, TrainingSpec
from vramgui.core.text.errors import InputError

TOLERANCE = 0.03

CONFIGS: dict[str, dict[str, Any]] = {
    "llama-gqa": {"model_type": "llama", "vocab_size": 2048, "hidden_size": 128, "intermediate_size": 352,
                  "num_hidden_layers": 2, "num_attention_heads": 8, "num_key_value_heads": 2,
                  "max_position_embeddings": 512},
    "qwen2": {"model_type": "qwen2", "vocab_size": 3000, "hidden_size": 96, "intermediate_size": 256,
              "num_hidden_layers": 2, "num_attention_heads": 6, "num_key_value_heads": 2,
              "tie_word_embeddings": True, "max_position_embeddings": 512},
    "mistral": {"model_type": "mistral", "vocab_size": 1500, "hidden_size": 96, "intermediate_size": 224,
                "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
                "max_position_embeddings": 512, "sliding_window": 4096},
    "gpt2": {"model_type": "gpt2", "vocab_size": 2048, "n_embd": 128, "n_layer": 2, "n_head": 4,
             "n_positions": 512},
}
VARIANTS: dict[str, dict[str, Any]] = {
    "no-dropout": {"attn_pdrop": 0.0, "resid_pdrop": 0.0, "embd_pdrop": 0.0},
    "no-cache": {"use_cache": False},
    "resid-only": {"attn_pdrop": 0.0, "embd_pdrop": 0.0},
    "attn-dropout": {"attention_dropout": 0.1},
}

# (variant, config, attention, recompute, micro-batch, sequence, measured bytes at 2 layers, measured one layer)
MEASURED = [
    ("no-dropout", "gpt2", "eager", "none", 2, 128, 6_432_772, 2_099_200),
    ("no-dropout", "gpt2", "eager", "full", 2, 128, 2_430_980, 65_536),
    ("no-dropout", "gpt2", "sdpa", "none", 2, 128, 6_178_820, 1_972_224),
    ("no-dropout", "gpt2", "sdpa", "full", 2, 128, 2_365_444, 65_536),
    ("no-cache", "gpt2", "eager", "none", 2, 128, 7_383_044, 2_557_952),
    ("no-cache", "gpt2", "eager", "full", 2, 128, 2_463_748, 65_536),
    ("no-cache", "gpt2", "sdpa", "none", 2, 128, 6_080_516, 1_906_688),
    ("no-cache", "gpt2", "sdpa", "full", 2, 128, 2_398_212, 65_536),
    ("resid-only", "gpt2", "eager", "none", 2, 128, 6_563_844, 2_164_736),
    ("resid-only", "gpt2", "sdpa", "none", 2, 128, 6_309_892, 2_037_760),
    ("attn-dropout", "llama-gqa", "eager", "none", 2, 128, 9_061_380, 3_344_384),
    ("attn-dropout", "llama-gqa", "eager", "full", 2, 128, 2_570_244, 65_536),
    ("attn-dropout", "llama-gqa", "sdpa", "none", 2, 128, 5_211_140, 1_419_264),
    ("attn-dropout", "llama-gqa", "sdpa", "full", 2, 128, 2_504_708, 65_536),
    ("attn-dropout", "qwen2", "eager", "none", 2, 128, 8_266_756, 2_492_416),
    ("attn-dropout", "qwen2", "eager", "full", 2, 128, 3_446_788, 49_152),
    ("attn-dropout", "qwen2", "sdpa", "none", 2, 128, 5_395_460, 1_056_768),
    ("attn-dropout", "mistral", "eager", "none", 2, 128, 5_686_276, 1_968_128),
]


def _arch(key: str, variant: str | None = None, layers: int = 2) -> Architecture:
    config = {**CONFIGS[key], **(VARIANTS[variant] if variant else {})}
    config["n_layer" if key == "gpt2" else "num_hidden_layers"] = layers
    return architecture_from_config(config)


def _total(arch: Architecture, attention: str, recompute: str = "none", b: int = 2, s: int = 128) -> int:
    training = TrainingSpec(micro_batch=b, seq_len=s, recompute=recompute,
                            attention="eager" if attention == "eager" else "flash")
    return estimate_activations(arch, training, ParallelSpec(), "bf16").total


def _id(row: tuple) -> str:
    return "-".join(str(x) for x in row[:6])


@pytest.mark.parametrize("row", MEASURED, ids=_id)
def test_dropout_and_cache_variants_match_the_measured_bytes(row: tuple) -> None:
    variant, key, attention, recompute, b, s, total, layer = row
    est = _total(_arch(key, variant), attention, recompute, b, s)
    deeper = _total(_arch(key, variant, 3), attention, recompute, b, s)
    assert abs(est - total) <= TOLERANCE * total
    assert abs((deeper - est) - layer) <= TOLERANCE * layer


def test_gpt2_without_dropout_drops_every_mask() -> None:
    est = estimate_activations(_arch("gpt2", "no-dropout"), TrainingSpec(micro_batch=2, seq_len=128,
                                                                          attention="eager"), ParallelSpec(), "bf16")
    assert not any("dropout" in t.key for t in est.terms)


def test_eager_attention_dropout_keeps_the_mask_and_the_dropped_probabilities_instead_of_the_cast() -> None:
    a, s, b = 8, 128, 2
    plain = estimate_activations(_arch("llama-gqa"), TrainingSpec(micro_batch=b, seq_len=s, attention="eager"),
                                 ParallelSpec(), "bf16")
    dropped = estimate_activations(_arch("llama-gqa", "attn-dropout"),
                                   TrainingSpec(micro_batch=b, seq_len=s, attention="eager"), ParallelSpec(), "bf16")
    assert dropped.per_layer - plain.per_layer == a * s * s * b  # + 1-byte mask (the cast copy becomes the output)
    keys = {t.key for t in dropped.terms}
    assert {"layers.attention_dropout_mask", "layers.attention_probs_dropped"} <= keys
    assert "layers.attention_probs_cast" not in keys


def test_sdpa_attention_dropout_keeps_no_mask() -> None:
    assert _total(_arch("llama-gqa", "attn-dropout"), "sdpa") == _total(_arch("llama-gqa"), "sdpa")


def test_use_cache_matters_only_for_gpt2_without_checkpointing() -> None:
    gpt2, no_cache = _arch("gpt2"), _arch("gpt2", "no-cache")
    assert _total(gpt2, "sdpa") - _total(no_cache, "sdpa") == 2 * 2 * 2 * 128 * 128 * 2  # 2·B·s·b·h per layer
    assert _total(gpt2, "sdpa", "full") == _total(no_cache, "sdpa", "full")
    llama = _arch("llama-gqa")
    assert _total(llama, "eager") == _total(replace(llama, use_cache=False), "eager")


@pytest.mark.parametrize("attention", ["eager", "sdpa"])
@pytest.mark.parametrize("recompute", ["none", "selective", "full"])
def test_unset_probabilities_keep_the_family_code_defaults(attention: str, recompute: str) -> None:
    """None = GPT-2's 0.1 for the GPT-2 code path, no dropout elsewhere: a Scenario built in code keeps its
    numbers."""
    gpt = Architecture(family="gpt", num_layers=2, hidden_size=128, num_heads=4, ffn_size=512, vocab_size=2048,
                       norm="layernorm", learned_pos_embeddings=True, max_position_embeddings=512, fused_qkv=True)
    explicit = replace(gpt, attention_dropout=0.1, residual_dropout=0.1, embedding_dropout=0.1)
    assert _total(gpt, attention, recompute) == _total(explicit, attention, recompute)
    assert _total(_arch("gpt2"), attention, recompute) == _total(replace(_arch("gpt2"), attention_dropout=None,
                                                                         residual_dropout=None,
                                                                         embedding_dropout=None),
                                                                 attention, recompute)
    llama = Architecture(num_layers=2, hidden_size=128, num_heads=8, num_kv_heads=2, ffn_size=352, vocab_size=2048)
    assert _total(llama, attention, recompute) == _total(replace(llama, attention_dropout=0.0), attention, recompute)


def test_config_keys_map_onto_the_architecture() -> None:
    gpt2 = architecture_from_config({**CONFIGS["gpt2"], "attn_pdrop": 0.2, "resid_pdrop": 0.0, "use_cache": False})
    assert (gpt2.attention_dropout, gpt2.residual_dropout, gpt2.embedding_dropout, gpt2.use_cache) == (
        0.2, 0.0, 0.1, False)
    assert architecture_from_config(CONFIGS["llama-gqa"]).attention_dropout is None
    assert _arch("qwen2", "attn-dropout").attention_dropout == 0.1


@pytest.mark.parametrize("value", [1.0, -0.1, "0.1", True, float("nan")])
def test_config_probabilities_outside_0_to_1_are_refused_naming_the_key(value: object) -> None:
    with pytest.raises(InputError) as err:
        architecture_from_config({**CONFIGS["llama-gqa"], "attention_dropout": value})
    assert err.value.field == "config.attention_dropout"


def test_registry_ranges_for_the_new_fields() -> None:
    for name in ("attention_dropout", "residual_dropout", "embedding_dropout"):
        f = fields.field("model.architecture." + name)
        assert (f.kind, f.low, f.high, f.high_open, f.optional, f.default) == ("fraction", 0.0, 1.0, True, True, None)
        assert fields.check(f, 0.1) == 0.1
        with pytest.raises(InputError):
            fields.check(f, 1.0)
    use_cache = fields.field("model.architecture.use_cache")
    assert (use_cache.kind, use_cache.default) == ("bool", True)
