"""Activation accounting: Korthikanti et al. 2022 closed forms (fused profile), properties, bad input."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vramgui.core.activations.estimate import ActivationEstimate, estimate_activations
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.specs import ParallelSpec, TrainingSpec
from vramgui.core.text.errors import InputError

# Korthikanti et al. 2022, Table 3 (s = 2048, v = 51200, b = 1 here).
GPT3_175B = Architecture(family="gpt", num_layers=96, hidden_size=12288, num_heads=96, ffn_size=4 * 12288,
                         vocab_size=51200, norm="layernorm")
MT_NLG_530B = Architecture(family="gpt", num_layers=105, hidden_size=20480, num_heads=128, ffn_size=4 * 20480,
                           vocab_size=51200, norm="layernorm")
GPT_1T = Architecture(family="gpt", num_layers=128, hidden_size=25600, num_heads=160, ffn_size=4 * 25600,
                      vocab_size=51200, norm="layernorm")
LLAMA_SMALL = Architecture(family="llama", num_layers=4, hidden_size=256, num_heads=8, num_kv_heads=2,
                           ffn_size=688, vocab_size=32000)


def fused(arch: Architecture, *, s: int = 2048, b: int = 1, t: int = 1, p: int = 1, sp: bool = False,
          recompute: str = "none", attention: str = "eager", dtype: str = "fp16") -> ActivationEstimate:
    training = TrainingSpec(micro_batch=b, seq_len=s, recompute=recompute, attention=attention,
                            implementation="fused")
    parallel = ParallelSpec(num_gpus=t * p, tp=t, pp=p, sp=sp)
    return estimate_activations(arch, training, parallel, dtype)


@pytest.mark.parametrize("arch", [GPT3_175B, MT_NLG_530B, GPT_1T], ids=["175B", "530B", "1T"])
def test_fused_layer_is_sbh_34_plus_5as_over_h(arch: Architecture) -> None:
    s, b, h, a = 2048, 1, arch.hidden_size, arch.num_heads
    assert fused(arch).per_layer == s * b * h * 34 + 5 * a * s * s * b  # eq. 1: sbh(34 + 5as/h)


def test_gpt3_attention_term_is_80_against_34() -> None:
    # Section 5: for GPT-3 175B (a = 96, s = 2048, h = 12288) 5as/h = 80, larger than the linear 34.
    sbh = 2048 * 12288
    assert fused(GPT3_175B).per_layer == sbh * (34 + 80)


@pytest.mark.parametrize("arch", [GPT3_175B, MT_NLG_530B, GPT_1T], ids=["175B", "530B", "1T"])
def test_fused_tensor_parallel_variants_follow_table_2(arch: Architecture) -> None:
    s, b, h, a, t = 2048, 1, arch.hidden_size, arch.num_heads, 8
    sbh = s * b * h
    attention = 5 * a * s * s * b // t
    assert fused(arch, t=t).per_layer == sbh * 10 + sbh * 24 // t + attention  # eq. 2
    assert fused(arch, t=t, sp=True).per_layer == sbh * 34 // t + attention  # eq. 3
    assert fused(arch, t=t, recompute="selective").per_layer == sbh * 10 + sbh * 24 // t
    assert fused(arch, t=t, sp=True, recompute="selective").per_layer == sbh * 34 // t
    assert fused(arch, t=t, recompute="full").per_layer == 2 * sbh
    assert fused(arch, t=t, sp=True, recompute="full").per_layer == 2 * sbh // t


def test_fused_first_stage_holds_p_microbatches_of_l_over_p_layers() -> None:
    # 175B with t = 8, p = 8, SP + selective: first stage = L layers' worth + p embedding dropout masks.
    est = fused(GPT3_175B, t=8, p=8, sp=True, recompute="selective")
    sbh = 2048 * 12288
    assert est.stage == 0 and est.in_flight == 8 and est.layers == 96
    assert est.total == 96 * (sbh * 34 // 8) + 8 * sbh // 8
    assert est.total == sum(term.bytes for term in est.terms)


def test_fused_without_pipeline_adds_output_layer_4sbh_over_t_times_1_plus_v_over_h() -> None:
    arch = dataclasses.replace(GPT3_175B, num_layers=2)
    est = fused(arch, t=8, sp=True, recompute="selective")
    sbh = 2048 * 12288
    extra = est.total - 2 * est.per_layer
    # embedding dropout mask sbh/t, then Section 4.3's 4sbh/t(1 + v/h) = 4sbh/t + 4sbv/t
    assert extra == sbh // 8 + 4 * sbh // 8 + 4 * 2048 * 51200 // 8


def test_fused_flash_drops_the_as2_term_and_keeps_fp32_row_statistics() -> None:
    sbh, a = 2048 * 12288, 96
    assert fused(GPT3_175B, attention="flash").per_layer == 34 * sbh + 4 * a * 2048


def test_fused_fp32_scales_the_16_bit_terms() -> None:
    one = fused(GPT3_175B, s=512, recompute="selective", dtype="fp32").per_layer
    sbh = 512 * 12288
    assert one == (16 * 4 + 2) * sbh  # (16B + 2)sbh with B = 4; B = 2 gives 34


def hf(arch: Architecture, **kw) -> ActivationEstimate:
    training = TrainingSpec(micro_batch=kw.get("b", 1), seq_len=kw.get("s", 512),
                            recompute=kw.get("recompute", "none"), attention=kw.get("attention", "flash"))
    parallel = ParallelSpec(num_gpus=kw.get("t", 1) * kw.get("p", 1), tp=kw.get("t", 1), pp=kw.get("p", 1),
                            sp=kw.get("sp", False))
    return estimate_activations(arch, training, parallel, kw.get("dtype", "bf16"))


def test_hf_logits_dominate_for_a_large_vocabulary() -> None:
    est = hf(dataclasses.replace(LLAMA_SMALL, vocab_size=256000), s=1024)
    logits = next(t for t in est.terms if t.key == "output.log_softmax")
    assert logits.bytes == 4 * 1024 * 256000
    assert logits.bytes > est.total / 2


def test_hf_full_recompute_keeps_only_the_layer_input() -> None:
    est = hf(LLAMA_SMALL, b=2, s=128, recompute="full")
    assert est.per_layer == 2 * 2 * 128 * 256


def test_hf_eager_gqa_keeps_expanded_kv_sdpa_does_not() -> None:
    eager = hf(LLAMA_SMALL, s=64, attention="eager")
    flash = hf(LLAMA_SMALL, s=64, attention="flash")
    kv_eager = next(t for t in eager.terms if t.key == "layers.k_v")
    kv_flash = next(t for t in flash.terms if t.key == "layers.k_v")
    assert kv_eager.bytes == 4 * kv_flash.bytes  # 8 heads against 2 KV heads


def test_moe_layers_count_routed_token_slots() -> None:
    moe = dataclasses.replace(LLAMA_SMALL, num_experts=8, experts_per_token=2, moe_ffn_size=344)
    one = dataclasses.replace(moe, experts_per_token=1)
    assert hf(moe).per_layer > hf(one).per_layer > hf(dataclasses.replace(LLAMA_SMALL, ffn_size=100)).per_layer


def test_global_batch_limits_microbatches_in_flight() -> None:
    training = TrainingSpec(micro_batch=1, seq_len=256, global_batch=2)
    est = estimate_activations(LLAMA_SMALL, training, ParallelSpec(num_gpus=4, pp=4), "bf16")
    assert est.in_flight <= 2


@settings(max_examples=60, deadline=None)
@given(
    b=st.integers(1, 8), s=st.integers(1, 4096), layers=st.integers(1, 48),
    family=st.sampled_from(["gpt", "llama"]), implementation=st.sampled_from(["hf", "fused"]),
    attention=st.sampled_from(["eager", "flash"]), dtype=st.sampled_from(["fp32", "fp16", "bf16"]),
    t=st.sampled_from([1, 2, 4]), p=st.sampled_from([1, 2, 4]), sp=st.booleans(),
)
def test_totals_are_sums_of_terms_and_grow_with_batch_sequence_and_depth(
    b: int, s: int, layers: int, family: str, implementation: str, attention: str, dtype: str, t: int, p: int,
    sp: bool,
) -> None:
    s = s - s % t or t
    p = min(p, layers)
    arch = Architecture(family=family, num_layers=layers, hidden_size=512, num_heads=8, num_kv_heads=4,
                        ffn_size=1376, vocab_size=32000)

    def run(**change) -> ActivationEstimate:
        values = dict(b=b, s=s, layers=layers, recompute="none")
        values.update(change)
        training = TrainingSpec(micro_batch=values["b"], seq_len=values["s"], recompute=values["recompute"],
                                attention=attention, implementation=implementation)
        a = dataclasses.replace(arch, num_layers=values["layers"])
        return estimate_activations(a, training, ParallelSpec(num_gpus=t * p, tp=t, pp=p, sp=sp), dtype)

    base = run()
    assert base.total == sum(term.bytes for term in base.terms) > 0
    assert all(term.bytes > 0 for term in base.terms)
    assert run(b=b + 1).total > base.total
    assert run(s=s + t).total > base.total
    assert run(layers=layers + p).total > base.total
    # Both recompute modes keep less than none. (Full is not always below selective: under HF eager attention
    # the checkpointed layers also keep the b·s² causal mask, which can outweigh one short model's layers.)
    assert run(recompute="full").total <= base.total
    assert run(recompute="selective").total <= base.total


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (dict(tp=3), "parallel.tp"),
        (dict(pp=9), "parallel.pp"),
        (dict(num_kv_heads=3), "model.architecture.num_kv_heads"),
        (dict(micro_batch=0), "training.micro_batch"),
        (dict(seq_len=-1), "training.seq_len"),
        (dict(attention="paged"), "training.attention"),
        (dict(dtype="int4"), "precision.dtype"),
        (dict(sp=True, tp=2, seq_len=15), "training.seq_len"),
        (dict(num_experts=4, experts_per_token=5), "model.architecture.experts_per_token"),
    ],
)
def test_impossible_shapes_raise_input_error_naming_the_field(change: dict, field: str) -> None:
    arch = dataclasses.replace(LLAMA_SMALL, num_layers=8, **{k: v for k, v in change.items()
                                                              if k in {"num_kv_heads", "num_experts",
                                                                       "experts_per_token"}})
    training = TrainingSpec(micro_batch=change.get("micro_batch", 1), seq_len=change.get("seq_len", 128),
                            attention=change.get("attention", "flash"))
    parallel = ParallelSpec(num_gpus=8, tp=change.get("tp", 1), pp=change.get("pp", 1), sp=change.get("sp", False))
    with pytest.raises(InputError) as err:
        estimate_activations(arch, training, parallel, change.get("dtype", "bf16"))
    assert err.value.field == field


def test_last_pipeline_stage_wins_when_the_logits_dominate() -> None:
    arch = dataclasses.replace(LLAMA_SMALL, num_layers=4, vocab_size=1_000_000)
    est = estimate_activations(arch, TrainingSpec(micro_batch=1, seq_len=512), ParallelSpec(num_gpus=2, pp=2),
                               "bf16")
    assert (est.stage, est.in_flight, est.layers) == (1, 1, 2)
    assert any(t.key == "output.log_softmax" for t in est.terms)
    assert not any(t.key.startswith("embedding.") for t in est.terms)


def test_hf_tensor_parallel_splits_heads_and_mlp_and_sequence_parallel_the_rest() -> None:
    one = hf(LLAMA_SMALL, s=256)
    tp = hf(LLAMA_SMALL, s=256, t=2)
    tp_sp = hf(LLAMA_SMALL, s=256, t=2, sp=True)
    assert tp_sp.per_layer * 2 == one.per_layer  # everything split in two
    assert tp_sp.per_layer < tp.per_layer < one.per_layer  # without SP the norms stay whole
