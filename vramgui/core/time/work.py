"""The work of one micro-batch on one GPU of the slowest pipeline stage: its matrix products (by size, so each
runs at its own efficiency) and its memory-bound kernels, forward and backward.

Matrix products: the FLOPs of ``vramgui.core.time.flops`` for the stage's blocks (and the LM head on the last
stage), for the micro-batch's b·s/cp tokens, split over tp (Megatron-LM column/row-parallel Linears; Shoeybi et al.
2019 §3), the routed experts over their etp·ep grid with the routing imbalance on the most loaded rank. The
backward is twice the forward (data and weight gradients), only the data gradient for a frozen base (LoRA/QLoRA:
no weight gradient is formed for a weight that does not train; Hu et al. 2021). With FlashAttention the causal
kernel skips the masked half of QKᵀ/PV (Dao 2023, FlashAttention-2 §3.1.1); eager attention computes all of it.

Memory-bound kernels (bytes read and written, 16-bit activations): per block and token in the forward, the norms
(read and write h each: 4h·b), the two residual adds (6h·b), the MLP activation (gated: read 2f, write f; GELU: read
f, write f), RoPE on q and k (Llama-style), and with eager attention the softmax over n_h·s scores (read and write:
4·n_h·s bytes at 16 bits, plus 5·n_h·s for a dropout's mask and output); the backward moves twice the forward's
bytes. Norms and residual adds are repeated on every TP rank unless sequence parallelism splits them (Korthikanti
et al. 2022 §4.2.2); everything else splits over tp.
"""

from __future__ import annotations

from dataclasses import dataclass

from vramgui.core.parallel.layout import stage_layer_counts
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.choices import Attention, Recompute
from vramgui.core.scenario.specs import Scenario
from vramgui.core.time.flops import ModelFlops
from vramgui.core.time.rates import MEMORY_CURVE, Rates, efficiency

ACT_BYTES = 2  # activations in 16 bits (the elementwise kernels' traffic)


@dataclass(frozen=True)
class Work:
    """One micro-batch on the slowest stage's GPU: seconds of each kind of work, and the FLOPs behind them."""

    forward: float  # forward products and kernels
    backward: float
    recompute: float  # what recomputation repeats in the backward
    scores_forward: float  # of ``forward``: the attention products (what a CP ring can hide behind)
    recompute_flops: float  # forward products recomputation repeats
    gemm_flops: float  # forward products (a term's numbers)
    gemm_rate: float  # their effective FLOP/s (peak × efficiency, weighted)
    memory_bytes: float  # forward memory-bound bytes
    layers: int  # blocks on the slowest stage
    head: bool  # whether it holds the LM head


def stage_layers(arch: Architecture, s: Scenario, flops: ModelFlops) -> tuple[int, bool]:
    """The slowest pipeline rank: its block count and whether it is the last (the LM head's)."""
    counts = stage_layer_counts(arch.num_layers, s.parallel)
    per_layer = flops.layers_per_token(s.training.seq_len) / max(arch.num_layers, 1)
    work = [(n * per_layer + (flops.head if r == len(counts) - 1 else 0), r) for r, n in enumerate(counts)]
    _, slowest = max(work)
    return counts[slowest], slowest == len(counts) - 1


def _gemm(flops: float, ops: float, peak: float) -> float:
    """Seconds of ``flops`` done as ``ops`` equal products, each at its size's efficiency."""
    if flops <= 0:
        return 0.0
    return flops / (peak * efficiency(flops / max(ops, 1.0)))


def _memory(nbytes: float, kernels: float, bandwidth: float) -> float:
    if nbytes <= 0:
        return 0.0
    return nbytes / (bandwidth * efficiency(nbytes / max(kernels, 1.0), MEMORY_CURVE))


def micro_batch_work(arch: Architecture, s: Scenario, flops: ModelFlops, rates: Rates, frozen_base: bool,
                     adapter_flops: float, dequant_bytes: float) -> Work:
    """The seconds of one micro-batch's forward, backward and recomputation on the slowest stage's GPU."""
    p, tr = s.parallel, s.training
    t, seq = p.tp, tr.seq_len
    tokens = tr.micro_batch * seq / p.cp
    layers, head = stage_layers(arch, s, flops)
    n_moe = flops.moe_layers * layers / max(arch.num_layers, 1)
    n_dense = layers - n_moe
    imbalance = tr.moe_imbalance_percent / 100
    d, e = flops.dense, flops.moe
    # forward FLOPs of this GPU, by kind: projections and dense MLPs split over tp, experts over etp·ep
    proj = layers * d.attention_proj * tokens / t
    mlp = n_dense * d.mlp * tokens / t
    routed = shared = 0.0
    if e is not None:
        routed = n_moe * e.routed * tokens / t * imbalance
        shared = n_moe * (e.mlp - e.routed) * tokens / t
    scores = layers * d.score_per_position * seq * tokens / t
    head_flops = flops.head * tokens / t if head else 0.0
    causal = 0.5 if tr.attention == Attention.FLASH else 1.0  # the work a causal kernel does
    # products: two per block for the projections (qkv, out), two for an MLP (gate/up, down), per expert for the
    # routed experts (tokens·k·ep/E each), one batched product per QKᵀ and PV
    per_expert_ops = 2 * layers * max(arch.num_experts // max(p.ep, 1), 1) if e is not None else 1
    t_proj = _gemm(proj, 2 * layers, rates.matrix)
    t_mlp = _gemm(mlp + shared, 2 * layers, rates.matrix)
    t_routed = _gemm(routed, per_expert_ops, rates.matrix)
    t_scores = _gemm(scores * causal, 2 * layers, rates.scores)
    t_head = _gemm(head_flops, 1, rates.matrix)
    t_adapters = _gemm(adapter_flops * tokens / t * layers / max(arch.num_layers, 1), 4 * layers, rates.matrix)
    gemm_fwd = proj + mlp + routed + shared + scores + head_flops
    t_gemm_fwd = t_proj + t_mlp + t_routed + t_scores + t_head + t_adapters
    # memory-bound kernels, forward bytes
    h, f = arch.hidden_size, arch.ffn_size
    replicated = 10 * h * ACT_BYTES / (t if p.sp or t == 1 else 1)  # norms and residual adds
    act = (3 if arch.gated_mlp else 2) * f * ACT_BYTES / t
    rope = 0 if arch.family == "gpt" else 4 * (arch.num_heads + arch.kv_heads) * arch.head_size / t
    softmax = 0.0
    if tr.attention != Attention.FLASH:
        dropout = (arch.attention_dropout or 0) > 0
        softmax = (4 + (5 if dropout else 0)) * arch.num_heads * seq / t
    per_token_layer = replicated + act + rope + softmax
    mem_fwd = layers * tokens * per_token_layer + dequant_bytes
    t_mem_fwd = _memory(mem_fwd, 6 * layers, rates.memory)
    forward = t_gemm_fwd + t_mem_fwd
    # backward: both gradients (only the data gradient for a frozen base's Linears), twice the kernels' bytes
    base_bwd = 1.0 if frozen_base else 2.0
    t_base = t_proj + t_mlp + t_routed + t_head
    backward = base_bwd * t_base + 2 * t_scores + 2 * t_adapters + 2 * t_mem_fwd
    if frozen_base:
        backward += _memory(dequant_bytes, 2 * layers, rates.memory)
    # recomputation: the whole forward of the blocks (full), or QKᵀ, softmax and PV (selective)
    if tr.recompute == Recompute.FULL:
        recompute = forward - t_head
        recompute_flops = gemm_fwd - head_flops
    elif tr.recompute == Recompute.SELECTIVE:
        recompute = t_scores + _memory(layers * tokens * softmax, 2 * layers, rates.memory)
        recompute_flops = scores
    else:
        recompute, recompute_flops = 0.0, 0.0
    done = gemm_fwd - scores * (1 - causal)  # what the kernels compute (a causal kernel skips half the scores)
    rate = done / t_gemm_fwd if t_gemm_fwd else rates.matrix
    return Work(forward, backward, recompute, t_scores, recompute_flops, gemm_fwd, rate, mem_fwd, layers, head)


def params_only_work(s: Scenario, params: int, rates: Rates) -> Work:
    """Without an architecture: 2Φ forward FLOPs per token (Kaplan et al. 2020 §2.1, C ≈ 6N per token for forward and
    backward), all in large products split over tp·pp, no attention term and no memory-bound kernels (their shapes
    are not known); full recomputation repeats the forward, selective nothing that can be sized."""
    p, tr = s.parallel, s.training
    tokens = tr.micro_batch * tr.seq_len / p.cp
    fwd = 2 * params * tokens / (p.tp * p.pp)
    seconds = _gemm(fwd, 1, rates.matrix)
    recompute = seconds if tr.recompute == Recompute.FULL else 0.0
    return Work(seconds, 2 * seconds, recompute, 0.0, fwd if recompute else 0.0, fwd,
                fwd / seconds if seconds else rates.matrix, 0.0, 1, True)
