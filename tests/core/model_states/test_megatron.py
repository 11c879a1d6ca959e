"""Expert, context and interleaved/uneven pipeline parallelism against Megatron-LM's own
``megatron/training/theoretical_memory_usage.py`` under ``--convention megatron --implementation fused``.

The reference numbers are hand-derived from that file's expressions (cited per function beside each helper); where
it covers a case the figures agree up to the terms it forgets, which are pinned exactly; where it does not cover a
case (CP, uneven stages, EP drawn from data-parallel ranks) the ratio is pinned and docs/conventions.md says why.
Model: a GPT-style MoE in Megatron's own layout (LayerNorm, GELU experts, no biases, untied embeddings) so that
its formula's shapes are vramgui's; K = 2 of E = 8 experts of width 1024.
"""

from __future__ import annotations

import dataclasses

import pytest

from vramgui.core.estimate import estimate
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.specs import ModelSpec, ParallelSpec, Scenario, TrainingSpec
from vramgui.io.presets import find_model

GPT = Architecture(family="gpt", model_type="megatron_gpt", num_layers=8, hidden_size=1024, num_heads=16,
                   ffn_size=4096, vocab_size=32000, norm="layernorm", attention_bias=False,
                   attention_out_bias=False, mlp_bias=False)
MOE = dataclasses.replace(GPT, num_experts=8, experts_per_token=2, moe_ffn_size=1024)
S, B = 2048, 1


def scenario(arch: Architecture, **par: object) -> Scenario:
    return Scenario(model=ModelSpec(architecture=arch),
                    training=TrainingSpec(micro_batch=B, seq_len=S, recompute="selective", implementation="fused"),
                    parallel=ParallelSpec(sp=True, **par), convention="megatron")  # type: ignore[arg-type]


def megatron_activations(arch: Architecture, t: int, pp: int, moe: bool = False, ep: int = 1, etp: int = 1,
                         vpp: int | None = None) -> float:
    """compute_activation_memory (SP + selective recompute): 18sbh + 4sbf per dense layer; per MoE layer 18sbh
    + 4·K·sbh/ep (dispatched tokens) + 4·K·sbf_e/(etp·ep); + (8sb + sbh)·pp embedding; × the interleaving penalty
    1 + (pp - 1)/(pp·vpp); + 4sbh(1 + v/h) when pp = 1; the TP part / t."""
    h, v, f, n = arch.hidden_size, arch.vocab_size, arch.ffn_size, arch.num_layers
    sbh = S * B * h
    k, fe = arch.experts_per_token, arch.expert_ffn_size
    tp_part = (18 * sbh + (0 if moe else 4 * S * B * f)) * n + 8 * S * B * pp + sbh * pp
    ep_part = 4 * k * sbh * n if moe else 0
    ex_part = 4 * k * S * B * fe * n if moe else 0
    scale = 1 + (pp - 1) / (pp * vpp) if vpp else 1
    tp_part, ep_part, ex_part = tp_part * scale, ep_part * scale, ex_part * scale
    if pp == 1:
        tp_part += sbh * 4 * (1 + v / h)
    return tp_part / t + ep_part / ep + ex_part / (etp * ep)


def megatron_states(arch: Architecture, world: int, tp: int, pp: int, ep: int = 1, etp: int | None = None,
                    cp: int = 1, experts_apart: bool = True) -> float:
    """compute_weight_and_optimizer_memory with the distributed optimizer (6 + 12/dp bytes per parameter of the
    most loaded shard: the first stage, block/pp + embedding, /tp). ``experts_apart``: the later revision that
    splits TP-sharded, replicated (norms, router) and expert-sharded parameters, the latter at 6 + 12/edp;
    otherwise commit 00caa53 (NVIDIA/Megatron-LM), which divides every parameter by tp and none by ep."""
    etp = tp if etp is None else etp
    h, v, f, n = arch.hidden_size, arch.vocab_size, arch.ffn_size, arch.num_layers
    attn, ln, emb, final = 4 * h * h, 4 * h, h * v, 2 * h
    moe_layers = n if arch.is_moe else 0
    routed = 2 * h * arch.expert_ffn_size * arch.num_experts
    router = h * arch.num_experts
    dp, edp = world // (tp * pp * cp), world // (etp * ep * pp)
    untied = emb / tp if pp == 1 else 0
    if not experts_apart:
        block = (attn + 2 * h * f + ln) * (n - moe_layers) + (attn + routed + ln + router) * moe_layers + final
        return ((block / pp + emb) / tp + untied) * (6 + 12 / dp)
    tp_sharded = ((attn + 2 * h * f) * (n - moe_layers) + attn * moe_layers) / pp
    replicated = (ln * n + router * moe_layers + final) / pp
    experts = routed * moe_layers / pp / (etp * ep)
    return ((tp_sharded + emb) / tp + untied + replicated) * (6 + 12 / dp) + experts * (6 + 12 / edp)


def activations(s: Scenario) -> int:
    value = estimate(s).bytes_of("activations")
    assert value is not None
    return value


def states(s: Scenario) -> int:
    e = estimate(s)
    return sum(e.bytes_of(k) or 0 for k in ("parameters", "gradients", "optimizer_states"))


def test_dense_tp_sp_is_megatrons_formula_less_the_token_ids():
    # the fused profile keeps no int64 token ids (Megatron's "input to embedding", 8sb per micro-batch in flight)
    assert activations(scenario(GPT, num_gpus=2, tp=2)) == megatron_activations(GPT, 2, 1) - 8 * S * B / 2


def test_moe_with_ep_equal_to_tp_is_megatrons_formula_plus_the_router_and_permutation_tensors():
    # ep = tp, etp = 1: the expert grid spans the TP group, the one case in which dividing the dispatched tokens
    # by ep (theoretical_memory_usage.py) equals what a rank receives; vramgui adds the router's fp32 softmax (4E),
    # the load-balancing scores (2E), top-k and sorted indices (2 × 8K) and the unpermutation's probabilities (2K)
    # per token on the rank (sb/t), which the file does not count
    e, k = MOE.num_experts, MOE.experts_per_token
    router = MOE.num_layers * (6 * e + 18 * k) * S * B // 2
    got = activations(scenario(MOE, num_gpus=2, tp=2, ep=2, etp=1))
    assert got == megatron_activations(MOE, 2, 1, moe=True, ep=2, etp=1) - 8 * S * B / 2 + router


def test_moe_with_ep_from_data_parallel_ranks_keeps_each_ranks_tokens():
    # ep = 4 over tp = 2 x dp = 2: each rank still receives its own b·s·K/t slots (balanced); the file divides them
    # by ep as if the expert group split one replica's tokens
    got = activations(scenario(MOE, num_gpus=4, tp=2, ep=4, etp=1))
    assert got == activations(scenario(MOE, num_gpus=2, tp=2, ep=2, etp=1))
    assert got / megatron_activations(MOE, 2, 1, moe=True, ep=4, etp=1) == pytest.approx(1.1913, abs=1e-4)


def test_interleaved_pipeline_holds_megatrons_penalty_of_layers():
    s = scenario(GPT, num_gpus=8, tp=2, pp=4, vpp=2)
    act = estimate(s).activation_detail
    assert act is not None and act.in_flight == 11  # (pp - 1)·2 + (vpp - 1)·pp + 1 chunk forwards
    assert act.layers == GPT.num_layers * (1 + 3 / 8)  # L·(1 + (pp - 1)/(pp·vpp)), the file's penalty
    sbh = S * B * GPT.hidden_size
    # the embedding's dropout mask: chunk 0 holds 2pp - 1 = 7 forwards; the file scales (8sb + sbh)·pp by the
    # penalty instead (pp·1.375 = 5.5)
    assert activations(s) == act.layers * 34 * sbh // 2 + 7 * sbh // 2
    assert activations(s) / megatron_activations(GPT, 2, 4, vpp=2) == pytest.approx(1.0038, abs=1e-4)


def test_plain_1f1b_matches_and_uneven_first_stage_is_found():
    assert activations(scenario(GPT, num_gpus=8, tp=2, pp=4)) == megatron_activations(GPT, 2, 4) - 8 * S * B * 4 / 2
    # 6 of 8 layers on the first stage, 2 micro-batches in flight there: 12 layers' worth, where the file prices L
    uneven = activations(scenario(GPT, num_gpus=4, tp=2, pp=2, first_stage_layers=6))
    assert uneven / megatron_activations(GPT, 2, 2) == pytest.approx(1.4963, abs=1e-4)


def test_context_parallel_halves_the_activations_the_file_keeps_whole():
    cp1 = activations(scenario(GPT, num_gpus=2, tp=2))
    cp2 = activations(scenario(GPT, num_gpus=4, tp=2, cp=2))
    assert cp2 * 2 == cp1
    assert cp2 / megatron_activations(GPT, 2, 1) == pytest.approx(0.5, abs=1e-4)


def test_dense_states_are_the_later_revisions_and_cp_shards_over_dp_times_cp():
    # norms replicated over TP (the later revision's split, Megatron-Core's code); commit 00caa53 halves them
    assert states(scenario(GPT, num_gpus=8, tp=2)) == megatron_states(GPT, 8, 2, 1)
    assert states(scenario(GPT, num_gpus=8, tp=2)) > megatron_states(GPT, 8, 2, 1, experts_apart=False)
    # Megatron-Core's distributed optimizer shards over dp·cp; the file divides by dp alone
    with_cp = states(scenario(GPT, num_gpus=8, tp=2, cp=2))
    assert with_cp == states(scenario(GPT, num_gpus=8, tp=2))
    assert with_cp / megatron_states(GPT, 8, 2, 1, cp=2) == pytest.approx(0.75, abs=1e-9)


def final_norm_on_the_last_stage(h: int, pp: int, n_d: int) -> float:
    """The file spreads the final norm over the stages (``final_layernorm / pp`` on each, replicated) and prices
    the first; Megatron-Core builds it on the last stage, the most loaded one with an untied output layer: that
    stage holds (1 - 1/pp)·norm more, at 6 + 12/N_d bytes per parameter."""
    return (h - h / pp) * (6 + 12 / n_d)


@pytest.mark.parametrize(("par", "ref"), [
    (dict(num_gpus=8, tp=1, ep=8), dict(world=8, tp=1, pp=1, ep=8)),
    (dict(num_gpus=8, tp=2, ep=2), dict(world=8, tp=2, pp=1, ep=2)),
    (dict(num_gpus=16, tp=2, ep=4, etp=1, pp=2), dict(world=16, tp=2, pp=2, ep=4, etp=1)),
])
def test_moe_states_follow_the_expert_split(par, ref):
    # TP-sharded, replicated (norms, router) and expert-sharded parameters priced apart, to the byte; with pp > 1 the
    # final norm sits on the last stage (``final_norm_on_the_last_stage``)
    got = states(scenario(MOE, **par))
    pp, n_d = ref["pp"], ref["world"] // (ref["tp"] * ref["pp"])
    assert got == megatron_states(MOE, **ref) + (final_norm_on_the_last_stage(2 * MOE.hidden_size, pp, n_d)
                                                 if pp > 1 else 0)
    # the first revision divides the experts by tp alone, not by ep·etp, and shards their states over dp
    assert got < megatron_states(MOE, **ref, experts_apart=False)


def test_mixtral_done_means_command_states_match_megatrons_expert_split():
    spec = find_model("mixtral-8x7b").spec

    def mixtral(cp: int) -> Scenario:
        return Scenario(model=spec, training=TrainingSpec(seq_len=8192, implementation="fused"),
                        parallel=ParallelSpec(num_gpus=64, tp=2, ep=8, pp=4, vpp=2, cp=cp), convention="megatron")

    def reference(cp: int) -> float:  # the later revision's formula with SwiGLU (3/2) and GQA (k = a/4)
        h, v, fe, e, n, world, tp, pp, ep = 4096, 32000, 14336, 8, 32, 64, 2, 4, 8
        dp, edp = world // (tp * pp * cp), world // (tp * ep * pp)
        tp_sharded = (2 * h * h * (1 + 8 / 32) * n / pp + h * v) / tp
        replicated = ((2 * h + h * e) * n + h) / pp
        experts = 2 * h * fe * e * 1.5 * n / pp / (tp * ep)
        return (tp_sharded + replicated) * (6 + 12 / dp) + experts * (6 + 12 / edp)

    assert reference(1) == 14_435_851_776
    assert states(mixtral(1)) == 14_435_874_816 == reference(1) + final_norm_on_the_last_stage(4096, 4, 8)
    assert states(mixtral(2)) == states(mixtral(1))  # dp·cp = 8 either way (the file: dp = 4 with cp = 2)
    assert states(mixtral(2)) / reference(2) == pytest.approx(0.9763, abs=1e-4)
