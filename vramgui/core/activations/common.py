"""Shared pieces of the activation accounting: the training shape as seen by one GPU, and term helpers.

Symbols follow Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large Transformer Models",
arXiv:2205.05198): s sequence length, b micro-batch, h hidden size, a attention heads, t tensor-parallel size,
v vocabulary size, L layers, p pipeline-parallel size; plus f (MLP intermediate size), k (key/value heads),
d (head size), B (bytes per element of the activation dtype).
"""

from __future__ import annotations

from dataclasses import dataclass

from vramgui.core.memo import dict_init
from vramgui.core.parallel.layout import ceil_div
from vramgui.core.scenario.architecture import Architecture


@dict_init
@dataclass(frozen=True)
class Shape:
    """The dimensions one GPU sees for one micro-batch of one layer (tensor/sequence parallel applied)."""

    b: int  # micro-batch
    s: int  # sequence length
    h: int  # hidden size
    a: int  # attention heads (whole model)
    kv: int  # key/value heads (whole model)
    d: int  # head size
    v: int  # vocabulary size
    t: int  # tensor-parallel size
    sp: bool  # Megatron sequence parallelism
    dtype_bytes: int  # B
    attention: str  # "eager" or "flash"
    recompute: str  # "none", "selective" or "full"
    loss: str = "hf"  # "hf" (fp32 log-softmax kept) or "chunked" (a fused cross-entropy keeps no logits)
    amp: bool = False  # torch.autocast over fp32 weights: low-precision weight copies and casts are kept
    # routed experts (vramgui.core.activations.moe): expert tensor-parallel size (0 = t), the factor by which the
    # experts' tokens are gathered over the ETP group (etp under SP, else 1) and the share the most loaded rank
    # receives in percent, min(imbalance, capacity factor)
    etp: int = 0
    route_gather: int = 1
    route_pct: int = 100

    @property
    def a_t(self) -> int:
        """Attention heads on one GPU (heads are split across the tensor-parallel group)."""
        return ceil_div(self.a, self.t)

    @property
    def kv_t(self) -> int:
        """Key/value heads on one GPU (replicated when there are fewer KV heads than GPUs, as in Megatron)."""
        return ceil_div(self.kv, self.t)

    @property
    def s_rep(self) -> int:
        """Rows of the tensors outside the tensor-parallel regions: split by SP, otherwise replicated."""
        return ceil_div(self.s, self.t) if self.sp else self.s

    def split(self, n: int) -> int:
        """A dimension split across the tensor-parallel group (heads, MLP columns, vocabulary)."""
        return ceil_div(n, self.t)

    def split_expert(self, n: int) -> int:
        """An expert's MLP columns split across the expert tensor-parallel group."""
        return ceil_div(n, self.etp or self.t)

    def received(self, top_k: int) -> int:
        """Routed token slots the experts of the most loaded rank process: the rank's own b·s_rep·K slots,
        gathered over its ETP group, times the received share (Megatron-Core MoEAlltoAllTokenDispatcher:
        all-to-all over EP, then all-gather over ETP; balanced routing gives each EP rank 1/ep of ep ranks'
        slots)."""
        return ceil_div(self.b * self.s_rep * top_k * self.route_gather * self.route_pct, 100)


@dict_init
@dataclass(frozen=True)
class RawTerm:
    """One group of saved tensors for one micro-batch (not yet multiplied by layers or micro-batches).

    ``key`` is its identity (snake_case): terms are merged, looked up and picked for FP8 by it, never by
    ``name``, which is English for display only. ``elements``: for a term of ``width``-byte elements, the
    expression of their count (``formula`` is ``{width}·{elements}``), so FP8 can restate it per byte without
    parsing the formula."""

    key: str
    name: str
    bytes: int
    formula: str
    elements: str = ""


def per_element(key: str, name: str, width: int, n: int, elements: str) -> RawTerm:
    """``n`` elements of ``width`` bytes each, written ``{width}·{elements}``."""
    return RawTerm(key, name, width * n, f"{width}·{elements}", elements)


def linear_weights(sh: Shape, arch: Architecture, moe: bool) -> int:
    """Elements of the nn.Linear weights of one block on one GPU (heads, MLP columns split by t). Routed experts
    (grouped_mm over 3-D parameters) are no Linear; the router and shared experts are."""
    h, d, dv, a, kv = sh.h, sh.d, arch.value_head_size, sh.a_t, sh.kv_t
    if arch.is_mla:
        q = h * arch.q_lora_rank + arch.q_lora_rank * a * d if arch.q_lora_rank else h * a * d
        attn = q + h * (arch.kv_lora_rank + arch.qk_rope_head_dim) + arch.kv_lora_rank * a * (
            d - arch.qk_rope_head_dim + dv)
    else:
        attn = h * (a * d + kv * (d + dv))
    attn += a * dv * h
    if not moe:
        return attn + (3 if arch.gated_mlp else 2) * h * sh.split(arch.ffn_size)
    shared = arch.shared_expert_ffn_size
    if shared is None:
        shared = arch.expert_ffn_size * arch.shared_experts
    mlp = h * arch.num_experts + (3 if arch.gated_mlp else 2) * h * sh.split(shared) if shared else h * arch.num_experts
    return attn + mlp + (h if shared and arch.shared_expert_gate else 0)


def norm_readers(arch: Architecture, moe: bool) -> int:
    """nn.Linear layers of one block that read the pre-norm outputs: q, k, v (one fused; MLA: q_a/q and kv_a),
    gate and up (one fused or not gated); in an MoE block the router, the shared experts' gate/up and gate."""
    attn = 2 if arch.is_mla else 1 if arch.fused_qkv else 3
    if not moe:
        return attn + (2 if arch.gated_mlp and not arch.fused_gate_up else 1)
    shared = arch.shared_expert_ffn_size
    if shared is None:
        shared = arch.expert_ffn_size * arch.shared_experts
    return attn + 1 + (2 + (1 if arch.shared_expert_gate else 0) if shared else 0)
