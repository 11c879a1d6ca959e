"""The ``hf`` activation profile: per-tensor accounting of Hugging Face transformers' PyTorch implementations.

Each term names the tensors autograd saves for backward in ``modeling_llama.py`` / ``modeling_mistral.py`` /
``modeling_qwen2.py`` / ``modeling_mixtral.py`` / ``modeling_gpt2.py`` (transformers 5.x, PyTorch 2.x) and
``ForCausalLMLoss``. Every coefficient was read off the code and then checked tensor by tensor with
``torch.autograd.graph.saved_tensors_hooks`` by the harness in ``bench/validate`` (see docs/activations.md and
docs/accuracy.md). Notable facts that the fused formulas miss:

* RMSNorm upcasts its input to fp32 and keeps it (4·s·b·h), then keeps the normalised tensor cast back and its
  weighted output (2·B·s·b·h) and the fp32 reciprocal RMS per row.
* Eager attention keeps the fp32 softmax output (4·a·s²·b) and, for 16-bit dtypes, its cast copy used by P·V;
  with grouped-query attention it keeps the K/V copies expanded to all a heads (``repeat_kv``). SDPA/flash keeps
  Q, K, V at their own head counts, the output and the fp32 log-sum-exp per row.
* SwiGLU keeps gate, SiLU(gate), up and their product: 4·B·s·b·f. GPT-2's ``gelu_new`` (tanh approximation in
  Python ops) keeps four f-wide tensors plus the second linear layer's input: 5·B·s·b·f.
* Dropout (GPT-2, p > 0) keeps a 1-byte mask per element (``native_dropout``, the CUDA kernel).
* The loss keeps the fp32 log-softmax of the logits (4·s·b·v) whatever the dtype; the dtype logits themselves
  are returned to the caller but not saved for backward.
* Mixtral-style experts (``grouped_mm``, the transformers 5 default) keep per routed token slot the gathered
  input, the gate/up output (2f), SiLU, the product, the expert output, the routing weight (fp32) and int64
  indices; the router keeps its fp32 softmax and the top-k.
"""

from __future__ import annotations

from vramgui.core.activations_common import RawTerm, Shape

SOURCE = (
    "Hugging Face transformers 5.x modeling_llama/mistral/qwen2/mixtral/gpt2 and ForCausalLMLoss, tensor by "
    "tensor; calibrated against torch.autograd.graph.saved_tensors_hooks measurements (docs/accuracy.md)"
)

INT64 = 8
FP32 = 4


def _norm_terms(sh: Shape, rms: bool, label: str) -> list[RawTerm]:
    B, b, sr, h = sh.dtype_bytes, sh.b, sh.s_rep, sh.h
    t = "/t" if sh.sp else ""
    if rms:
        return [
            RawTerm(f"{label} RMSNorm: fp32 input copy", FP32 * b * sr * h, f"4·s·b·h{t}"),
            RawTerm(f"{label} RMSNorm: normalised + weighted output", 2 * B * b * sr * h, f"2·{B}·s·b·h{t}"),
            RawTerm(f"{label} RMSNorm: 1/rms per row (fp32)", FP32 * b * sr, f"4·s·b{t}"),
        ]
    return [
        RawTerm(f"{label} LayerNorm: input + output", 2 * B * b * sr * h, f"2·{B}·s·b·h{t}"),
        RawTerm(f"{label} LayerNorm: mean, 1/std (fp32)", 2 * FP32 * b * sr, f"8·s·b{t}"),
    ]


def _attention_terms(sh: Shape, gpt: bool) -> list[RawTerm]:
    B, b, s, d = sh.dtype_bytes, sh.b, sh.s, sh.d
    a, kv = sh.a_t, sh.kv_t
    eager = sh.attention == "eager"
    core = sh.recompute != "selective"  # selective: the core attention is recomputed (Megatron's definition)
    kv_heads = a if (eager or gpt) else kv  # eager repeat_kv expands K/V to all heads; GPT-2 is multi-head
    terms = [
        RawTerm("Q" + ("" if gpt else " after RoPE"), B * b * s * a * d, f"{B}·s·b·a·d/t"),
        RawTerm("K, V" + (" (expanded to a heads)" if kv_heads != kv else ""), 2 * B * b * s * kv_heads * d,
                f"2·{B}·s·b·{'a' if kv_heads == a and kv != a else 'k'}·d/t"),
    ]
    if core and eager:
        probs = b * a * s * s
        if gpt:  # softmax in the dtype, dropout mask (1 byte), dropout output
            terms.append(RawTerm("attention probabilities", B * probs, f"{B}·a·s²·b/t"))
            terms.append(RawTerm("attention dropout mask", probs, "a·s²·b/t"))
            terms.append(RawTerm("attention probabilities after dropout", B * probs, f"{B}·a·s²·b/t"))
        else:  # softmax(dtype=float32) keeps its fp32 output; .to(dtype) makes the copy P·V keeps
            terms.append(RawTerm("attention probabilities (fp32 softmax)", FP32 * probs, "4·a·s²·b/t"))
            if B != FP32:
                terms.append(RawTerm("attention probabilities cast to dtype", B * probs, f"{B}·a·s²·b/t"))
    elif core:
        terms.append(RawTerm("attention log-sum-exp per row (fp32)", FP32 * b * a * s, "4·a·s·b/t"))
    terms.append(RawTerm("attention output (o_proj input)", B * b * s * a * d, f"{B}·s·b·a·d/t"))
    if gpt:
        t = "/t" if sh.sp else ""
        terms.append(RawTerm("attention residual dropout mask", b * sh.s_rep * sh.h, f"s·b·h{t}"))
    return terms


def _mlp_terms(sh: Shape, gpt: bool, ffn: int) -> list[RawTerm]:
    B, b, s = sh.dtype_bytes, sh.b, sh.s
    f = sh.split(ffn)
    if gpt:
        t = "/t" if sh.sp else ""
        return [
            RawTerm("MLP gelu_new intermediates + second linear input", 5 * B * b * s * f, f"5·{B}·s·b·f/t"),
            RawTerm("MLP residual dropout mask", b * sh.s_rep * sh.h, f"s·b·h{t}"),
        ]
    return [RawTerm("MLP gate, SiLU(gate), up, product", 4 * B * b * s * f, f"4·{B}·s·b·f/t")]


def _moe_terms(sh: Shape, experts: int, top_k: int, ffn: int, shared: int) -> list[RawTerm]:
    B, b, s, h = sh.dtype_bytes, sh.b, sh.s, sh.h
    f = sh.split(ffn)
    n = b * s * top_k  # routed token slots
    terms = [
        RawTerm("router: fp32 softmax", FP32 * b * s * experts, "4·s·b·E"),
        RawTerm("router: top-k indices (int64), weights and their sum (fp32)",
                INT64 * n + FP32 * n + FP32 * b * s, "8·s·b·K + 4·s·b·K + 4·s·b"),
        RawTerm("experts: gathered inputs + outputs", 2 * B * n * h, f"2·{B}·s·b·K·h"),
        RawTerm("experts: gate/up, SiLU, product", 4 * B * n * f, f"4·{B}·s·b·K·f/t"),
        RawTerm("experts: routing weights (fp32) + token indices (int64)",
                FP32 * n + 3 * INT64 * n + FP32 * experts, "4·s·b·K + 24·s·b·K + 4·E"),
    ]
    if shared:
        fs = sh.split(shared * ffn)
        terms.append(RawTerm("shared experts: gate, SiLU(gate), up, product", 4 * B * b * s * fs,
                             f"4·{B}·s·b·{shared}·f/t"))
    return terms


def layer_terms(sh: Shape, gpt: bool, ffn: int, moe: tuple[int, int, int, int] | None) -> list[RawTerm]:
    """Saved tensors of one decoder layer for one micro-batch.

    ``moe`` is (experts, experts per token, expert FFN size, shared experts) for a routed-expert MLP.
    """
    if sh.recompute == "full":  # gradient checkpointing saves the layer's positional input only
        t = "/t" if sh.sp else ""
        return [RawTerm("layer input (checkpoint)", sh.dtype_bytes * sh.b * sh.s_rep * sh.h, f"{sh.dtype_bytes}·s·b·h{t}")]
    rms = not gpt
    terms = _norm_terms(sh, rms, "attention")
    terms += _attention_terms(sh, gpt)
    terms += _norm_terms(sh, rms, "MLP")
    if moe is not None:
        terms += _moe_terms(sh, *moe)
    else:
        terms += _mlp_terms(sh, gpt, ffn)
    return terms


def input_terms(sh: Shape, gpt: bool) -> list[RawTerm]:
    """Embedding: token ids kept by the embedding backward; GPT-2's position ids and embedding dropout mask;
    RoPE's cos/sin (1·s·d each, shared by all layers; passed as keyword arguments, so not checkpointed)."""
    b, s = sh.b, sh.s
    terms = [RawTerm("token ids (int64)", INT64 * b * s, "8·s·b")]
    if gpt:
        terms.append(RawTerm("position ids (int64)", INT64 * s, "8·s"))
        t = "/t" if sh.sp else ""
        terms.append(RawTerm("embedding dropout mask", b * sh.s_rep * sh.h, f"s·b·h{t}"))
    elif sh.recompute != "full":
        B = sh.dtype_bytes
        terms.append(RawTerm("RoPE cos, sin", 2 * B * s * sh.d, f"2·{B}·s·d"))
    return terms


def output_terms(sh: Shape, gpt: bool) -> list[RawTerm]:
    """Final norm, LM-head input, the loss's fp32 log-softmax over the vocabulary, labels."""
    b, s = sh.b, sh.s
    terms = _norm_terms(sh, not gpt, "final")  # its weighted output is the LM head's saved input
    terms.append(RawTerm("log-softmax of the logits (fp32)", FP32 * b * s * sh.split(sh.v), "4·s·b·v/t"))
    terms.append(RawTerm("labels (int64) + loss weight", INT64 * b * s + FP32, "8·s·b + 4"))
    return terms
