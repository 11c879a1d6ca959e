"""FLOPs of a step from the architecture (vramgui.core.time.flops) against the published formulas."""

from __future__ import annotations

import pytest

from vramgui.core.scenario.architecture import Architecture
from vramgui.core.time.flops import model_flops
from vramgui.io.presets import find_model


def _gpt(h: int, layers: int, heads: int, vocab: int = 51200) -> Architecture:
    return Architecture(family="gpt", num_layers=layers, hidden_size=h, num_heads=heads, ffn_size=4 * h,
                        vocab_size=vocab, tied_embeddings=True, norm="layernorm")


@pytest.mark.parametrize(("h", "layers", "heads"), [(6144, 48, 64), (12288, 96, 96), (20480, 105, 128),
                                                    (25600, 128, 160)])
def test_gpt_model_flops_are_korthikantis_72bslh2(h, layers, heads):
    """Korthikanti et al. 2022 App. A: model FLOPs per iteration = 72·B·s·L·h²·(1 + s/(6h) + V/(12·h·L))."""
    s, vocab, batch = 2048, 51200, 4
    ours = 3 * model_flops(_gpt(h, layers, heads)).forward_per_token(s) * batch * s
    paper = 72 * batch * s * layers * h**2 * (1 + s / (6 * h) + vocab / (12 * h * layers))
    assert ours == pytest.approx(paper, rel=1e-12)


def test_full_recomputation_is_narayanans_eq3():
    """Narayanan et al. 2021 eq. 3: with full recomputation, 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h))."""
    h, layers, s, vocab, batch = 12288, 96, 2048, 51200, 1536
    f = model_flops(_gpt(h, layers, 96))
    hardware = (3 * f.forward_per_token(s) + f.layers_per_token(s)) * batch * s
    assert hardware == pytest.approx(96 * batch * s * layers * h**2 * (1 + s / (6 * h) + vocab / (16 * layers * h)),
                                     rel=1e-12)


def megatron_flops(arch: Architecture, batch: int, s: int) -> float:
    """Megatron-LM ``megatron/training/training.py`` ``num_floating_point_operations`` (GQA, SwiGLU, MoE top-k)."""
    h, nh = arch.hidden_size, arch.num_heads
    q = arch.head_size * nh
    topk = arch.experts_per_token if arch.is_moe else 1
    ffn = arch.expert_ffn_size if arch.is_moe else arch.ffn_size
    gated = 3 / 2 if arch.gated_mlp else 1
    return 12 * batch * s * arch.num_layers * h * h * (
        (1 + arch.kv_heads / nh + s / h) * q / h + ffn / h * topk * gated + arch.vocab_size / (2 * arch.num_layers * h))


@pytest.mark.parametrize("preset", ["llama-3-8b", "llama-3-70b", "qwen2.5-7b"])
def test_dense_gqa_swiglu_models_match_megatrons_formula(preset):
    arch = find_model(preset).spec.architecture
    assert arch is not None
    ours = 3 * model_flops(arch).forward_per_token(4096) * 8 * 4096
    assert ours == pytest.approx(megatron_flops(arch, 8, 4096), rel=1e-12)


def test_moe_counts_the_active_experts_and_the_router():
    arch = find_model("mixtral-8x7b").spec.architecture
    assert arch is not None
    ours = 3 * model_flops(arch).forward_per_token(4096) * 4096
    router = 6 * arch.hidden_size * arch.num_experts * arch.num_layers * 4096  # Megatron leaves it out
    assert ours == pytest.approx(megatron_flops(arch, 1, 4096) + router, rel=1e-12)


def test_mla_counts_its_down_and_up_projections():
    arch = find_model("deepseek-v3").spec.architecture
    assert arch is not None and arch.is_mla
    f = model_flops(arch)
    h, nh = arch.hidden_size, arch.num_heads
    q = h * arch.q_lora_rank + arch.q_lora_rank * nh * arch.head_size
    kv = h * (arch.kv_lora_rank + arch.qk_rope_head_dim) + arch.kv_lora_rank * nh * (
        arch.head_size - arch.qk_rope_head_dim + arch.value_head_size)
    assert f.dense.attention_proj == 2 * (q + kv + nh * arch.value_head_size * h)
    assert f.moe is not None and f.dense_layers == arch.dense_layers


def test_the_head_is_counted_whether_tied_or_not():
    tied, untied = _gpt(1024, 4, 16), Architecture(**{**_gpt(1024, 4, 16).__dict__, "tied_embeddings": False})
    assert model_flops(tied).head == model_flops(untied).head == 2 * 1024 * 51200
