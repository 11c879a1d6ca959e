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
from typing import NamedTuple

from vramgui.core.parallel.layout import stage_layer_counts
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.choices import Attention, Recompute
from vramgui.core.scenario.specs import Scenario
from vramgui.core.time.flops import ModelFlops, model_flops
from vramgui.core.time.rates import MEMORY_CURVE, Rates, efficiency
from vramgui.core.time.rates import clear_cache as clear_rates

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
    """Seconds of ``flops`` done as ``ops`` equal products, each at its size's efficiency (no memory term)."""
    if flops <= 0:
        return 0.0
    return flops / (peak * efficiency(flops / max(ops, 1.0)))


def _memory(nbytes: float, kernels: float, bandwidth: float) -> float:
    if nbytes <= 0:
        return 0.0
    return nbytes / (bandwidth * efficiency(nbytes / max(kernels, 1.0), MEMORY_CURVE))


class Product(NamedTuple):
    """``batch`` matrix products of (m × k) by (k × n): FLOPs, bytes read and written, and their seconds as
    Calculon's "no_overlap" processing mode times them: FLOPs at the size's efficiency plus the bytes at the
    memory's (``calculon/processor.py`` ``_compute_processing_time``). A named tuple: a micro-batch's work makes
    a dozen, a search thousands."""

    flops: float
    nbytes: float
    seconds: float
    weights: float = 0.0  # elements of the (k × n) operand when it is a weight (its gradient is written back)


def product(m: float, k: float, n: float, peak: float, bandwidth: float, elem: float, batch: float = 1.0,
            work: float = 1.0, keep_output: bool = True, weight: bool = True) -> Product:
    """``work``: the share of the FLOPs a kernel does (0.5 for a causal one); ``keep_output`` False: the output
    never leaves the chip (FlashAttention's scores)."""
    if m <= 0 or k <= 0 or n <= 0 or batch <= 0:
        return Product(0.0, 0.0, 0.0)
    flops = 2 * m * k * n * batch
    nbytes = elem * batch * (m * k + k * n + (m * n if keep_output else 0))
    seconds = _gemm(flops * work, 1, peak) + _memory(nbytes, 1, bandwidth)
    return Product(flops, nbytes, seconds, k * n * batch if weight else 0.0)


_KEPT: dict[tuple[object, ...], tuple[Architecture, Work]] = {}  # what a micro-batch's work depends on -> it
_KEPT_MAX = 4096


def micro_batch_work(arch: Architecture, s: Scenario, flops: ModelFlops, rates: Rates, frozen_base: bool,
                     adapter_flops: float, dequant_bytes: float, grad_bytes: float = 0.0) -> Work:
    """The seconds of one micro-batch's forward, backward and recomputation on the slowest stage's GPU (``flops``:
    ``model_flops(arch)``). ``grad_bytes``: what accumulating one weight's gradient moves beyond writing it once in
    the dtype (Megatron-LM's gradient-accumulation fusion reads and writes the fp32 main_grad: 8 − 2 bytes; PyTorch
    adds each micro-batch's gradient into .grad: 4 more bytes once there are several).

    Kept per layout and batch: a plan search estimates every ZeRO stage, offload and recompute level of a layout,
    and the adviser every way out of one scenario; the stage and offload do not change this work. The key holds
    every field ``_work`` reads (the architecture by identity, kept beside the answer so that its id is not reused
    while listed); tests/core/time/test_work_cache.py changes each in turn."""
    p, tr = s.parallel, s.training
    key = (id(arch), p.tp, p.pp, p.cp, p.sp, p.ep, p.expert_tp, p.first_stage_layers, p.last_stage_layers,
           tr.micro_batch, tr.seq_len, tr.moe_imbalance_percent, tr.attention, tr.recompute, rates.matrix,
           rates.matrix_name, rates.scores, rates.memory, frozen_base, adapter_flops, dequant_bytes, grad_bytes)
    hit = _KEPT.get(key)
    if hit is not None and hit[0] is arch:
        return hit[1]
    work = _work(arch, s, flops, rates, frozen_base, adapter_flops, dequant_bytes, grad_bytes)
    if len(_KEPT) >= _KEPT_MAX:
        _KEPT.clear()
    _KEPT[key] = (arch, work)
    return work


def clear_cache() -> None:
    """Forget what the step time keeps between estimates: every micro-batch's work, the rates per hardware, the
    FLOPs per architecture (bench: a cold estimate; tests)."""
    _KEPT.clear()
    clear_rates()
    model_flops.cache_clear()


def _work(arch: Architecture, s: Scenario, flops: ModelFlops, rates: Rates, frozen_base: bool,
          adapter_flops: float, dequant_bytes: float, grad_bytes: float) -> Work:
    p, tr = s.parallel, s.training
    t, seq = p.tp, tr.seq_len
    n = tr.micro_batch * seq / p.cp  # tokens of the micro-batch on this GPU
    layers, head = stage_layers(arch, s, flops)
    n_moe = flops.moe_layers * layers / max(arch.num_layers, 1)
    n_dense = layers - n_moe
    h, f = arch.hidden_size, arch.ffn_size
    g = 2 if arch.gated_mlp else 1  # gate and up in one product (or up alone)
    elem = 1.0 if rates.matrix_name == "fp8" else (4.0 if rates.matrix_name.startswith(("fp32", "tf32")) else 2.0)
    pk, bw = rates.matrix, rates.memory
    d, e = flops.dense, flops.moe
    # forward products of one block, by kind (Linear weights as (k × n) with k the input width)
    proj_width = d.attention_proj / 2 / h / 2 / t  # two products (qkv, out), each k = h
    proj = [product(n, h, proj_width, pk, bw, elem)] * 2
    dense_mlp = [product(n, h, g * f / t, pk, bw, elem), product(n, f / t, h, pk, bw, elem)]
    moe_mlp: list[Product] = []
    if e is not None:
        etp, local = p.expert_tp, max(arch.num_experts // max(p.ep, 1), 1)
        per_expert = n * arch.experts_per_token * p.ep / max(arch.num_experts, 1) * tr.moe_imbalance_percent / 100
        fe = arch.expert_ffn_size
        moe_mlp = [product(per_expert, h, g * fe / etp, pk, bw, elem, batch=local),
                   product(per_expert, fe / etp, h, pk, bw, elem, batch=local)]
        shared = (e.mlp - e.routed - 2 * h * arch.num_experts) / (2 * h * (g + 1))  # shared-expert width
        if shared > 0:
            moe_mlp += [product(n, h, g * shared / t, pk, bw, elem), product(n, shared / t, h, pk, bw, elem)]
        moe_mlp.append(product(n, h, arch.num_experts, pk, bw, elem))  # the router
    heads = arch.num_heads / t
    flash = tr.attention == Attention.FLASH
    causal = 0.5 if flash else 1.0  # FlashAttention skips the masked half; eager attention computes all of it
    hd, vd, b = arch.head_size, arch.value_head_size, tr.micro_batch
    q = n / b  # query positions per sample on this GPU (s/cp)
    scores = [product(q, hd, seq, rates.scores, bw, 2.0, b * heads, causal, not flash, weight=False),
              product(q, seq, vd, rates.scores, bw, 2.0, b * heads, causal, not flash, weight=False)]
    head_p = product(n, h, arch.vocab_size / t, pk, bw, elem) if head else Product(0.0, 0.0, 0.0)
    t_adapters = _gemm(adapter_flops * n / t * layers / max(arch.num_layers, 1), 4 * layers, pk)

    def total(ps: list[Product], blocks: float) -> tuple[float, float]:
        return blocks * sum(x.seconds for x in ps), blocks * sum(x.flops for x in ps)

    weights = layers * sum(x.weights for x in proj) + n_dense * sum(x.weights for x in dense_mlp) + n_moe * sum(
        x.weights for x in moe_mlp) + head_p.weights

    t_proj, f_proj = total(proj, layers)
    t_mlp, f_mlp = total(dense_mlp, n_dense)
    t_moe, f_moe = total(moe_mlp, n_moe)
    t_scores, f_scores = total(scores, layers)
    t_base = t_proj + t_mlp + t_moe + head_p.seconds
    gemm_fwd = f_proj + f_mlp + f_moe + f_scores + head_p.flops
    t_gemm_fwd = t_base + t_scores + t_adapters
    # memory-bound kernels, forward bytes
    replicated = 10 * h * ACT_BYTES / (t if p.sp or t == 1 else 1)  # norms and residual adds
    act = (g + 1) * f * ACT_BYTES / t
    rope = 0 if arch.family == "gpt" else 4 * (arch.num_heads + arch.kv_heads) * hd / t
    softmax = 0.0
    if not flash:
        dropout = (arch.attention_dropout or 0) > 0
        softmax = (4 + (5 if dropout else 0)) * arch.num_heads * seq / t
    mem_fwd = layers * n * (replicated + act + rope + softmax) + dequant_bytes
    t_mem_fwd = _memory(mem_fwd, 6 * layers, bw)
    forward = t_gemm_fwd + t_mem_fwd
    # backward: both gradients (only the data gradient for a frozen base's Linears), twice the kernels' bytes
    base_bwd = 1.0 if frozen_base else 2.0
    # FlashAttention's backward recomputes the scores inside the kernel: five products to the forward's two
    # (Dao 2023, FlashAttention-2 §3.1.2; its benchmark counts the backward as 2.5 × the forward)
    score_bwd = 2.5 if flash else 2.0
    backward = base_bwd * t_base + score_bwd * t_scores + 2 * t_adapters + 2 * t_mem_fwd
    if frozen_base:
        backward += _memory(dequant_bytes, 2 * layers, bw)
    elif grad_bytes:
        backward += _memory(weights * grad_bytes, 4 * layers, bw)
    # recomputation: the whole forward of the blocks (full), or QKᵀ, softmax and PV (selective)
    if tr.recompute == Recompute.FULL:
        recompute, recompute_flops = forward - head_p.seconds, gemm_fwd - head_p.flops
    elif tr.recompute == Recompute.SELECTIVE:
        recompute = t_scores + _memory(layers * n * softmax, 2 * layers, bw)
        recompute_flops = f_scores
    else:
        recompute, recompute_flops = 0.0, 0.0
    done = gemm_fwd - f_scores * (1 - causal)  # what the kernels compute (a causal kernel skips half the scores)
    rate = done / t_gemm_fwd if t_gemm_fwd else pk
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
