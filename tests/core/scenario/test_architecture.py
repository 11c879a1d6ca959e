"""Exact parameter counts against figures published by others (the issue, model reports, the Pythia table)."""

from __future__ import annotations

import dataclasses

import pytest

from vramgui.core.scenario.architecture import (
    Architecture,
    count_active_params,
    count_param_tensors,
    count_params,
    embedding_params,
    expert_params,
    head_params,
    largest_layer_params,
    layer_params,
)
from vramgui.io.presets import find_model, model_presets

# Figures stated by third parties, to the parameter.
PUBLISHED_EXACT = {
    "gpt2": 124_439_808,  # issue #3; HF openai-community/gpt2
    "mistral-7b-v0.1": 7_241_732_096,  # issue #3
    "llama-3-8b": 8_030_261_248,  # issue #3
    "gemma-7b": 786_432_000 + 7_751_248_896,  # Gemma report Table 2: embedding + non-embedding
    "gemma-2-9b": 917_504_000 + 8_324_201_984,  # Gemma 2 report Table 2
    "gemma-2-27b": 1_179_648_000 + 26_047_480_320,  # Gemma 2 report Table 2
    "pythia-160m": 162_322_944,  # EleutherAI/pythia README
    "pythia-12b": 11_846_072_320,  # EleutherAI/pythia README
    "deepseek-v3": 671_026_419_200 - 58 * 256,  # checkpoint main model minus e_score_correction_bias buffers
}


@pytest.mark.parametrize(("key", "expected"), sorted(PUBLISHED_EXACT.items()))
def test_count_matches_published_exact_figure(key, expected):
    assert count_params(find_model(key).spec.architecture) == expected


def test_gpt2_tied_head_counts_once_and_untying_adds_the_matrix():
    arch = find_model("gpt2").spec.architecture
    untied = dataclasses.replace(arch, tied_embeddings=False)
    assert count_params(untied) - count_params(arch) == 50257 * 768
    assert head_params(arch) == 2 * 768  # ln_f only
    assert head_params(arch, include_tied=True) == 2 * 768 + 50257 * 768


@pytest.mark.parametrize("key", list(model_presets()))
def test_parts_add_up_to_the_total(key):
    arch = model_presets()[key].spec.architecture
    total = count_params(arch)
    assert embedding_params(arch) + sum(layer_params(arch)) + head_params(arch) == total
    assert len(layer_params(arch)) == arch.num_layers
    assert 0 < count_active_params(arch) <= total
    assert 0 < largest_layer_params(arch) < total


def test_gpt2_parameter_tensors_match_module_list():
    # wte, wpe, 12 x (ln_1 w/b, c_attn w/b, c_proj w/b, ln_2 w/b, c_fc w/b, mlp.c_proj w/b), ln_f w/b
    assert count_param_tensors(find_model("gpt2").spec.architecture) == 2 + 12 * 12 + 2


def test_llama_parameter_tensors():
    # embed, 32 x (2 norms + q k v o + gate up down), norm, lm_head
    assert count_param_tensors(find_model("llama-3-8b").spec.architecture) == 1 + 32 * 9 + 2


def test_mixtral_expert_layouts_differ_in_tensors_not_in_numel():
    arch = find_model("mixtral-8x7b").spec.architecture
    # transformers 5: router + gate_up_proj + down_proj per block; 4.x: router + 8 x 3 Linear
    assert count_param_tensors(arch, "fused") == 1 + 32 * (2 + 4 + 1 + 2) + 2
    assert count_param_tensors(arch, "per_expert") == 1 + 32 * (2 + 4 + 1 + 24) + 2


def test_mixtral_active_params_count_two_of_eight_experts():
    arch = find_model("mixtral-8x7b").spec.architecture
    assert expert_params(arch) == 3 * 4096 * 14336
    assert count_params(arch) - count_active_params(arch) == 32 * 6 * 3 * 4096 * 14336


def test_largest_layer_follows_deepspeed_module_rule():
    llama = find_model("llama-3-8b").spec.architecture
    assert largest_layer_params(llama) == 128256 * 4096  # embed_tokens / lm_head
    mixtral = find_model("mixtral-8x7b").spec.architecture
    assert largest_layer_params(mixtral, "fused") == 8 * 3 * 4096 * 14336  # one MixtralExperts module
    assert largest_layer_params(mixtral, "per_expert") == 32000 * 4096


def test_deepseek_v3_dense_and_moe_blocks_differ():
    arch = find_model("deepseek-v3").spec.architecture
    sizes = layer_params(arch)
    assert sizes[0] == sizes[2] != sizes[3] == sizes[60]
    attention = 7168 * 1536 + 1536 + 1536 * 128 * 192 + 7168 * 576 + 512 + 512 * 128 * 256 + 128 * 128 * 7168
    assert sizes[0] == 2 * 7168 + attention + 3 * 7168 * 18432
    moe = 256 * 7168 + 256 * 3 * 7168 * 2048 + 3 * 7168 * 2048
    assert sizes[3] == 2 * 7168 + attention + moe


def test_falcon_norm_and_qkv_variants():
    f7 = find_model("falcon-7b").spec.architecture  # multi-query, one LayerNorm per block
    assert layer_params(f7)[0] == 2 * 4544 + 4544 * (4544 + 2 * 64) + 4544 * 4544 + 2 * 4544 * 4 * 4544
    f40 = find_model("falcon-40b").spec.architecture  # new architecture: 8 kv groups, ln_attn + ln_mlp
    assert layer_params(f40)[0] == 4 * 8192 + 8192 * (128 + 16) * 64 + 8192 * 8192 + 2 * 8192 * 4 * 8192


def test_qwen3_adds_per_head_qk_norms():
    arch = find_model("qwen3-8b").spec.architecture
    without = dataclasses.replace(arch, qk_norm=False)
    assert count_params(arch) - count_params(without) == 36 * 2 * 128


def test_gemma2_has_four_norms_per_block():
    arch = find_model("gemma-2-9b").spec.architecture
    assert arch.norms_per_layer == 4 and arch.tied_embeddings


def test_unknown_expert_layout_is_rejected():
    with pytest.raises(ValueError):
        count_param_tensors(Architecture(), "sideways")


def test_default_architecture_is_a_plain_llama_block():
    arch = Architecture(num_layers=1, hidden_size=8, num_heads=2, ffn_size=16, vocab_size=10)
    assert count_params(arch) == 10 * 8 + (2 * 8 + 4 * 8 * 8 + 3 * 8 * 16) + 8 + 10 * 8


@pytest.mark.parametrize(("layers", "dense", "step"), [(61, 3, 1), (24, 0, 2), (10, 0, 3), (7, 2, 3), (5, 5, 1),
                                                 (4, 9, 1), (1, 0, 1), (0, 0, 1), (12, 1, 4)])
def test_block_kinds_match_a_layer_by_layer_walk(layers, dense, step):
    from vramgui.core.scenario.architecture import _kinds, is_moe_layer

    arch = Architecture(num_layers=layers, hidden_size=8, num_heads=2, ffn_size=16, vocab_size=10, num_experts=4,
                        experts_per_token=2, moe_ffn_size=8, dense_layers=dense, moe_layer_step=step)
    walk: dict[bool, tuple[int, int]] = {}
    for i in range(layers):
        kind = is_moe_layer(arch, i)
        first, n = walk.get(kind, (i, 0))
        walk[kind] = (first, n + 1)
    assert _kinds(arch) == walk
    assert count_params(arch) == embedding_params(arch) + sum(layer_params(arch)) + head_params(arch)


def test_counting_does_not_walk_every_layer():
    import time

    arch = find_model("deepseek-v3").spec.architecture
    huge = dataclasses.replace(arch, num_layers=10**8)
    start = time.monotonic()
    count_params(huge), count_active_params(huge), count_param_tensors(huge), largest_layer_params(huge)
    assert time.monotonic() - start < 1
