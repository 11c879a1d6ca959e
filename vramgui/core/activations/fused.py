"""The ``fused`` activation profile: Megatron-LM / Megatron-Core kernels, after Korthikanti et al. 2022.

Korthikanti, Casper, Lym, McAfee, Andersch, Shoeybi, Catanzaro, "Reducing Activation Recomputation in Large
Transformer Models" (MLSys 2023, arXiv:2205.05198), Section 4. Per GPT layer and micro-batch, with 16-bit
activations and 1-byte dropout masks:

* attention block 11sbh + 5as²b: QKV input 2sbh, Q and K 4sbh, softmax output 2as²b, softmax dropout mask
  as²b, dropout output 2as²b, V 2sbh, output projection input 2sbh, attention dropout mask sbh;
* MLP 19sbh (h → 4h → h): first linear input 2sbh, GeLU input 8sbh, second linear input 8sbh, dropout mask sbh;
* two LayerNorm inputs 4sbh.

Total sbh(34 + 5as/h) (eq. 1); with tensor parallelism sbh(10 + 24/t + 5as/(ht)) (eq. 2); with sequence
parallelism sbh(34/t + 5as/(ht)) (eq. 3); selective recompute (Section 5) drops the 5as²b/t core-attention
term (sbh·34/t); full recompute keeps only the layer input, 2sbh. Section 4.3: the input embedding dropout mask
(sbh/t per micro-batch in flight on the first stage) and the output layer (final LayerNorm and output projection
inputs 4sbh/t, fp32 logits for the cross entropy 4sbv/t).

Generalised here to B bytes per element (the paper's 2, 16-bit), an MLP of size f (the paper's 4h), flash
attention (softmax statistics, fp32 per row, instead of the a·s² tensors) and - an extension that is not in the
paper - Llama-style blocks (RMSNorm, SwiGLU whose first linear layer yields 2f columns, grouped-query K/V with k
heads, no dropout) and routed experts.
"""

from __future__ import annotations

from vramgui.core.activations.common import RawTerm, Shape, per_element
from vramgui.core.activations.moe import fused_moe_terms
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.choices import Attention, Loss, Recompute

SOURCE = (
    "Korthikanti et al. 2022, 'Reducing Activation Recomputation in Large Transformer Models' "
    "(arXiv:2205.05198), Section 4 (eqs. 1-3, 4.2.3 pipeline, 4.3 input/output layers) and Section 5"
)


def layer_terms(sh: Shape, arch: Architecture, moe: bool) -> list[RawTerm]:
    """Saved tensors of one transformer layer for one micro-batch (``moe``: the layer has routed experts)."""
    gpt = arch.family == "gpt"
    ffn = arch.ffn_size
    B, b, h, d = sh.dtype_bytes, sh.b, sh.h, sh.d
    s, sr = sh.s, sh.s_rep
    sp_note = "/t" if sh.sp else ""
    if sh.recompute == Recompute.FULL:
        return [RawTerm("checkpoint_input", "layer input (checkpoint)", B * b * sr * h, f"{B}·s·b·h{sp_note}")]
    terms = [
        RawTerm("norm_inputs", "norm inputs (2 per layer)", 2 * B * b * sr * h, f"2·{B}·s·b·h{sp_note}"),
        per_element("qkv_input", "QKV projection input", B, b * sr * h, f"s·b·h{sp_note}"),
        RawTerm("q_k", "Q, K (for Q·Kᵀ)", B * b * s * (sh.a_t + sh.kv_t) * d, f"{B}·s·b·(a+k)·d/t"),
        RawTerm("v", "V", B * b * s * sh.kv_t * d, f"{B}·s·b·k·d/t"),
        per_element("attn_out_proj_input", "output projection input", B, b * s * sh.a_t * d, "s·b·a·d/t"),
    ]
    if sh.recompute != Recompute.SELECTIVE:
        if sh.attention == Attention.EAGER:
            probs = b * sh.a_t * s * s
            terms.append(RawTerm("softmax_output", "softmax output", B * probs, f"{B}·a·s²·b/t"))
            if gpt:
                terms.append(RawTerm("softmax_dropout_mask", "softmax dropout mask", probs, "a·s²·b/t"))
                terms.append(RawTerm("softmax_dropout_output", "softmax dropout output", B * probs, f"{B}·a·s²·b/t"))
        else:
            terms.append(RawTerm("flash_softmax_stats", "flash softmax statistics (fp32)", 4 * b * sh.a_t * s,
                                 "4·a·s·b/t"))
    if gpt:
        terms.append(RawTerm("attention_dropout_mask", "attention dropout mask", b * sr * h, f"s·b·h{sp_note}"))
    terms.append(per_element("mlp_input", "MLP input", B, b * sr * h, f"s·b·h{sp_note}"))
    terms.extend(fused_moe_terms(sh, arch) if moe else _mlp_terms(sh, gpt, ffn))
    if gpt:
        terms.append(RawTerm("mlp_dropout_mask", "MLP dropout mask", b * sr * h, f"s·b·h{sp_note}"))
    return terms


def _mlp_terms(sh: Shape, gpt: bool, ffn: int) -> list[RawTerm]:
    B, b, s = sh.dtype_bytes, sh.b, sh.s
    fl = sh.split(ffn)
    if gpt:
        return [
            RawTerm("gelu_input", "GeLU input", B * b * s * fl, f"{B}·s·b·f/t"),
            per_element("mlp_second_linear_input", "second linear input", B, b * s * fl, "s·b·f/t"),
        ]
    return [
        RawTerm("swiglu_input", "SwiGLU input (gate and up)", B * b * s * 2 * fl, f"{B}·s·b·2f/t"),
        per_element("mlp_second_linear_input", "second linear input", B, b * s * fl, "s·b·f/t"),
    ]


def input_terms(sh: Shape, arch: Architecture) -> list[RawTerm]:
    """Section 4.3: the embedding dropout mask (GPT only; Llama-style models have no dropout)."""
    if arch.family != "gpt":
        return []
    return [RawTerm("embedding_dropout_mask", "embedding dropout mask", sh.b * sh.s_rep * sh.h,
                    "s·b·h" + ("/t" if sh.sp else ""))]


def output_terms(sh: Shape, arch: Architecture) -> list[RawTerm]:
    """Section 4.3: final norm input, output projection input (4sbh/t with SP) and fp32 logits (4sbv/t)."""
    B, b, sr, h = sh.dtype_bytes, sh.b, sh.s_rep, sh.h
    sp_note = "/t" if sh.sp else ""
    terms = [
        RawTerm("final_norm_input", "final norm input", B * b * sr * h, f"{B}·s·b·h{sp_note}"),
        RawTerm("output_layer_input", "output projection input", B * b * sr * h, f"{B}·s·b·h{sp_note}"),
    ]
    if sh.loss == Loss.HF:  # a chunked/fused cross-entropy never materialises the fp32 logits
        terms.append(RawTerm("logits_fp32", "logits for the cross entropy (fp32)", 4 * b * sh.s * sh.split(sh.v),
                             "4·s·b·v/t"))
    return terms
