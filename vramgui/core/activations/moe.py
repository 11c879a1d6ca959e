"""Routed experts' saved activations for both profiles, on the GPU that receives the most routed tokens.

Which tokens a GPU's experts see (``Shape.received``, Megatron-Core ``megatron/core/transformer/moe/
token_dispatcher.py`` ``MoEAlltoAllTokenDispatcher``): the router picks K experts for each of the rank's
b·s_rep tokens (s/cp, and /t under sequence parallelism), the token copies are permuted by expert
(``moe_utils.permute``), sent over the EP group with an all-to-all and gathered over the ETP group; with balanced
routing each EP rank receives 1/ep of the ep ranks' slots, so its experts process etp·b·s_rep·K slots (the ETP
gather only under SP, where each TP rank holds other tokens), each with 1/etp of the expert's columns. The routing
imbalance raises that share for the most loaded rank; a capacity factor (``moe_utils.get_capacity``:
⌈tokens·K/E · factor⌉ per expert and source rank) caps it, dropping the rest (Megatron's default drop policy, no
padding to capacity). What stays with the rank's own tokens: the router, the permutation indices and the
unpermutation (the expert outputs come back by the reverse all-to-all and are weighted by the routing
probabilities there, ``moe_utils.unpermute``). The all-to-all buffers themselves are not saved for backward (the
autograd function of ``all_to_all`` keeps only the split sizes) and are not part of this figure.
"""

from __future__ import annotations

from vramgui.core.activations.common import RawTerm, Shape, per_element
from vramgui.core.scenario.architecture import Architecture

INT64 = 8
FP32 = 4


def shared_width(arch: Architecture) -> int:
    """The shared experts' total intermediate width (0: none)."""
    shared = arch.shared_expert_ffn_size
    return arch.expert_ffn_size * arch.shared_experts if shared is None else shared


def fused_moe_terms(sh: Shape, arch: Architecture) -> list[RawTerm]:
    """Megatron-Core's MoE layer (``megatron/core/transformer/moe/moe_layer.py``: TopKRouter, the all-to-all
    dispatcher, TEGroupedMLP / GroupedMLP experts, SharedExpertMLP), tensor by tensor, for one micro-batch."""
    B, h, gpt = sh.dtype_bytes, sh.h, arch.family == "gpt"
    experts, top_k = arch.num_experts, arch.experts_per_token
    tokens = sh.b * sh.s_rep  # this rank's tokens entering the layer
    n = tokens * top_k  # the token slots it routes
    r = sh.received(top_k)  # the slots its experts process
    f = sh.split_expert(arch.expert_ffn_size)
    t = "/t" if sh.sp else ""
    terms = [
        # router.py TopKRouter.routing -> moe_utils.topk_softmax_with_capacity: softmax in fp32 keeps its output,
        # topk keeps its indices; the load-balancing loss (switch_load_balancing_loss_func) keeps the scores
        RawTerm("router_softmax", "router: softmax output (fp32)", FP32 * tokens * experts, f"4·s·b·E{t}"),
        RawTerm("router_topk_indices", "router: top-k indices (int64)", INT64 * n, f"8·s·b·K{t}"),
        RawTerm("router_aux_loss_scores", "router: scores for the load-balancing loss", B * tokens * experts,
                f"{B}·s·b·E{t}"),
        # moe_utils.permute: index_select by the sorted token indices
        RawTerm("permutation_indices", "permutation: sorted token indices (int64)", INT64 * n, f"8·s·b·K{t}"),
        per_element("experts_received_tokens", "experts: received tokens (grouped GEMM input)", B, r * h, "R·h"),
        RawTerm("experts_first_linear_output", "experts: first linear output (activation input)",
                B * r * (f if gpt else 2 * f), f"{B}·R·{'' if gpt else '2·'}f/etp"),
        per_element("experts_second_linear_input", "experts: second linear input", B, r * f, "R·f/etp"),
        # moe_utils.unpermute: expert outputs (back by the reverse all-to-all) times the routing probabilities
        RawTerm("unpermutation", "unpermutation: returned expert outputs + routing probabilities", B * n * h + B * n,
                f"{B}·s·b·K·h{t} + {B}·s·b·K{t}"),
    ]
    fs = shared_width(arch)
    if fs:  # SharedExpertMLP: a dense MLP of the shared width over every token, split by t
        width = sh.split(fs)
        terms.append(RawTerm("shared_experts", "shared experts: first linear output + second linear input",
                             B * sh.b * sh.s * (2 if gpt else 3) * width, f"{B}·s·b·{2 if gpt else 3}·f_shared/t"))
    return terms


def _amp(sh: Shape) -> bool:
    return sh.amp and sh.dtype_bytes < FP32


def hf_moe_terms(sh: Shape, arch: Architecture) -> list[RawTerm]:
    """Routed experts (``grouped_mm``). Mixtral-style routers renormalise the top-k weights in fp32 (the division
    keeps numerator and sum); Qwen2-MoE (``norm_topk_prob`` false by default) keeps them in the dtype, unscaled.
    The experts' own tensors count the slots this GPU receives (``Shape.received``: b·s·K without expert
    parallelism), the router's and the routing indices the rank's own."""
    B, b, s, h = sh.dtype_bytes, sh.b, sh.s, sh.h
    experts, top_k = arch.num_experts, arch.experts_per_token
    f = sh.split_expert(arch.expert_ffn_size)
    n = b * s * top_k  # routed token slots
    r = sh.received(top_k)
    if arch.model_type == "gpt_oss":
        return _gpt_oss_moe_terms(sh, n, r, f)
    renorm = arch.model_type != "qwen2_moe"
    weight_bytes = FP32 if renorm else B
    # autocast has no kernel for grouped_mm (AutocastCUDA falls through): the experts run on the fp32 stream
    E_ = FP32 if _amp(sh) else B
    fp32 = " (fp32: grouped_mm is no autocast op)" if _amp(sh) else ""
    terms = [
        RawTerm("router_softmax", "router: fp32 softmax", FP32 * b * s * experts, "4·s·b·E"),
        RawTerm("router_topk_indices", "router: top-k indices (int64)", INT64 * n, "8·s·b·K"),
        RawTerm("experts_inputs_outputs", "experts: gathered inputs + outputs" + fp32, 2 * E_ * r * h, f"2·{E_}·R·h"),
        RawTerm("experts_mlp", "experts: gate/up, SiLU, product" + fp32, 4 * E_ * r * f, f"4·{E_}·R·f/etp"),
        RawTerm("experts_routing", "experts: routing weights + token indices (int64)",
                weight_bytes * n + 3 * INT64 * n + FP32 * experts, f"{weight_bytes}·s·b·K + 24·s·b·K + 4·E"),
    ]
    if renorm:
        terms.append(RawTerm("router_topk_weights", "router: top-k weights and their sum (fp32)",
                             FP32 * n + FP32 * b * s, "4·s·b·K + 4·s·b"))
    shared = shared_width(arch)
    if shared:
        fs = sh.split(shared)
        terms.append(RawTerm("shared_experts", "shared experts: gate, SiLU(gate), up, product", 4 * B * b * s * fs,
                             f"4·{B}·s·b·f_shared/t"))
        if arch.shared_expert_gate:  # sigmoid(gate(x)) * shared_expert(x) keeps both factors
            terms.append(RawTerm("shared_expert_gate", "shared expert output + sigmoid gate", B * b * s * h + B * b * s,
                                 f"{B}·s·b·h + {B}·s·b"))
    return terms


def _gpt_oss_moe_terms(sh: Shape, n: int, r: int, f: int) -> list[RawTerm]:
    """gpt-oss: softmax over the top-k router logits only (in the dtype); clamped SwiGLU with a sigmoid gate
    (gate/up output 2f, five f-wide intermediates); routing weight in the dtype; int64 indices."""
    B, b, s, h = sh.dtype_bytes, sh.b, sh.s, sh.h
    k = n // (b * s)
    return [
        RawTerm("router_topk", "router: top-k softmax and indices", B * n + INT64 * n, f"{B}·s·b·K + 8·s·b·K"),
        RawTerm("experts_inputs_outputs", "experts: gathered inputs + outputs", 2 * B * r * h, f"2·{B}·R·h"),
        RawTerm("experts_mlp", "experts: gate/up output + clamped-SwiGLU intermediates", 7 * B * r * f,
                f"7·{B}·R·f/etp"),
        RawTerm("experts_routing", "experts: routing weights + token indices (int64)", B * n + 4 * INT64 * n + FP32 * k,
                f"{B}·s·b·K + 32·s·b·K"),
    ]
