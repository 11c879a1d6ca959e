"""FLOPs of one token through the model, from the Architecture: what a step's compute time is made of.

Counting (Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU Clusters Using
Megatron-LM", App. "Floating-point operations", eq. 3; Megatron-LM ``megatron/training/training.py``
``num_floating_point_operations``): a matrix product of an m×k by a k×n matrix is 2mkn FLOPs; the forward pass of a
Linear with W weights is 2W FLOPs per token; the backward pass is twice the forward (the data gradient and the weight
gradient, each one product of the same size). Embedding lookups, norms, activations and softmax are not counted
(they are memory-bound work, timed from bytes in ``vramgui.core.time.model``).

Attention scores (QKᵀ) and the weighted sum over values (PV) cost 2·s·n_h·d_qk + 2·s·n_h·d_v FLOPs per token and
layer over the WHOLE s×s score matrix: the convention of Narayanan eq. 3, Korthikanti et al. 2022 App. A and
Megatron-LM's formula, so MFU here is comparable with theirs. A causal kernel (FlashAttention) skips about half of
that work; that saving shows up as a faster attention product in the time, not as fewer model FLOPs.

What is counted per token and layer (forward): the attention projections (q, k, v and output; GQA's smaller k/v;
MLA's down- and up-projections), the MLP (two matrices, or three for a gated SwiGLU MLP), for an MoE block the
router, ``experts_per_token`` routed experts and the shared experts (Megatron: ``moe_router_topk`` experts), and the
LM head (2·h·V per token: tied or not, the product is done).
"""

from __future__ import annotations

from dataclasses import dataclass

from vramgui.core.memo import by_identity
from vramgui.core.scenario.architecture import Architecture, moe_blocks_between


@dataclass(frozen=True)
class LayerFlops:
    """Forward FLOPs per token of one decoder block, by the kind of work (the GEMM sizes differ)."""

    attention_proj: int  # q/k/v/out (MLA: the down- and up-projections too)
    mlp: int  # dense MLP, or router + routed top-k experts + shared experts
    score_per_position: int  # QKᵀ and PV: this many FLOPs per token for each position attended to (× s)
    routed: int = 0  # of ``mlp``: the routed experts (their GEMMs are per expert: smaller)
    kv_width: int = 0  # per token: the K and V values the attention reads (n_kv·d_qk + n_kv·d_v), for CP's ring

    def per_token(self, seq_len: int) -> int:
        return self.attention_proj + self.mlp + self.score_per_position * seq_len


@dataclass(frozen=True)
class ModelFlops:
    """Forward FLOPs per token of the whole model, split by block kind (dense and MoE blocks differ)."""

    dense: LayerFlops
    moe: LayerFlops | None
    dense_layers: int
    moe_layers: int
    head: int  # the LM head, 2·h·V

    def forward_per_token(self, seq_len: int) -> int:
        total = self.dense_layers * self.dense.per_token(seq_len) + self.head
        if self.moe is not None:
            total += self.moe_layers * self.moe.per_token(seq_len)
        return total

    def layers_per_token(self, seq_len: int) -> int:
        """The decoder blocks' share (what recomputation repeats)."""
        return self.forward_per_token(seq_len) - self.head

    def scores_per_token(self, seq_len: int) -> int:
        """QKᵀ and PV of every block (what selective recomputation repeats)."""
        return (self.dense_layers + self.moe_layers) * self.dense.score_per_position * seq_len


def _attention(arch: Architecture) -> tuple[int, int, int]:
    """(projection weights, score FLOPs per position, K+V width) of one block's attention."""
    h, nh, hd, vd, kv = arch.hidden_size, arch.num_heads, arch.head_size, arch.value_head_size, arch.kv_heads
    if arch.is_mla:  # DeepSeek-V2/V3 multi-head latent attention (transformers DeepseekV3Attention)
        q = h * arch.q_lora_rank + arch.q_lora_rank * nh * hd if arch.q_lora_rank else h * nh * hd
        kv_proj = h * (arch.kv_lora_rank + arch.qk_rope_head_dim)
        kv_proj += arch.kv_lora_rank * nh * (hd - arch.qk_rope_head_dim + vd)
        weights = q + kv_proj + nh * vd * h
        width = nh * hd + nh * vd  # K and V are expanded per head before the product
    else:
        weights = h * nh * hd + 2 * h * kv * hd + nh * hd * h
        width = kv * hd + kv * vd
    return weights, 2 * nh * hd + 2 * nh * vd, width


def _mlp_weights(arch: Architecture, width: int) -> int:
    return (3 if arch.gated_mlp else 2) * arch.hidden_size * width


@by_identity()  # the architecture alone: sweeps over layouts, batches and GPUs ask again and again (by identity
# first: hashing a frozen Architecture costs more than most of the arithmetic that uses it)
def model_flops(arch: Architecture) -> ModelFlops:
    """Forward FLOPs per token (see the module docstring for what is counted and why)."""
    proj, score, width = _attention(arch)
    dense = LayerFlops(2 * proj, 2 * _mlp_weights(arch, arch.ffn_size), score, kv_width=width)
    moe = None
    n_moe = moe_blocks_between(arch)
    if n_moe:
        shared = arch.shared_expert_ffn_size
        if shared is None:
            shared = arch.expert_ffn_size * arch.shared_experts
        routed = 2 * arch.experts_per_token * _mlp_weights(arch, arch.expert_ffn_size)
        mlp = 2 * arch.hidden_size * arch.num_experts + routed + 2 * _mlp_weights(arch, shared)
        moe = LayerFlops(2 * proj, mlp, score, routed=routed, kv_width=width)
    return ModelFlops(dense, moe, arch.num_layers - n_moe, n_moe, 2 * arch.hidden_size * arch.vocab_size)
