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
* Dropout with p > 0 (the architecture's fields; None: GPT-2's code default 0.1, no dropout elsewhere) keeps a
  1-byte mask per element (``native_dropout``, the CUDA kernel); SDPA's attention dropout keeps none.
* GPT-2's per-head Q is a view of the fused c_attn output and keeps all of it (3·B·s·b·h) where it is saved as a
  view; the KV-cache update of a plain training forward copies K and V.
* Gradient checkpointing keeps each layer's input plus the keyword inputs bound into the checkpointed call
  (RoPE tables, position ids, and for eager attention the b·s² additive causal mask).
* Autocast (``Shape.amp``) keeps every Linear weight cast to the dtype (its weight cache), an fp32 residual
  stream (norm inputs, normalised tensors) and one cast of each fp32 norm output per Linear reading it.
* The loss keeps the fp32 log-softmax of the logits (4·s·b·v) whatever the dtype; the dtype logits themselves
  are returned to the caller but not saved for backward.
* Mixtral-style experts (``grouped_mm``, the transformers 5 default) keep per routed token slot the gathered
  input, the gate/up output (2f), SiLU, the product, the expert output, the routing weight (fp32) and int64
  indices; the router keeps its fp32 softmax and the top-k.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from vramgui.core.activations.common import RawTerm, Shape, linear_weights, norm_readers
from vramgui.core.activations.moe import hf_moe_terms
from vramgui.core.memo import by_identity
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.choices import Attention, Loss, Recompute

SOURCE = (
    "Hugging Face transformers 5.x modeling_llama/mistral/qwen2/mixtral/gpt2 and ForCausalLMLoss, tensor by "
    "tensor; calibrated against torch.autograd.graph.saved_tensors_hooks measurements (docs/accuracy.md)"
)

INT64 = 8
FP32 = 4


GELU_NEW_TYPES = ("", "gpt2", "gptj", "gpt_neo", "codegen", "gpt_bigcode")  # activation_function "gelu_new"
GEMMA_TYPES = ("gemma", "gemma2", "gemma3", "gemma3_text")  # RMSNorm: x·(1 + w) in fp32, then cast
POST_NORM_TYPES = ("olmo2", "olmo3")  # norms after attention and MLP (on the residual branch), none before


@dataclass(frozen=True)
class Style:
    """Which code path of transformers an architecture takes, as far as saved tensors are concerned."""

    gpt2: bool  # GPT-2 code: fused c_attn views, KV-cache copies, dropout 0.1, learned positions
    rms: bool  # RMSNorm (fp32 upcast) rather than LayerNorm
    norms: int  # hidden-size norms per block
    fed: int  # how many of them feed a linear layer (which saves their output)
    raw_inputs: int  # linear layers reading the residual stream directly (post-norm blocks)
    shared_input: bool  # the block's norms read the same tensor (parallel attention + MLP)
    norm_fp32_weight: bool  # the weight is applied in fp32 (normalised tensor kept in fp32)
    gemma_norm: bool  # keeps its fp32 (1 + weight) per call
    final_norm: bool
    gated: bool  # gate/up/down MLP (SwiGLU/GeGLU) rather than two matrices
    gelu_saved: int  # f-wide tensors the non-gated activation keeps: 4 for gelu_new (Python ops), 1 for GELU
    qk_norm: bool  # RMSNorm on queries and keys (Qwen3, Gemma 3 per head; OLMo 2 over the projection)
    qk_norm_per_head: bool
    rope: bool
    legacy_falcon: bool = False  # Falcon's own attention: softmax in the dtype, K/V expanded to all heads
    softcap: bool = False  # Gemma 2: tanh soft-capping of attention scores (eager) and of the final logits
    sinks: bool = False  # gpt-oss attention sinks (eager: an extra softmax column, row max kept)
    attn_p: float = 0.0  # attention-probability dropout
    resid_p: float = 0.0  # dropout on the attention and MLP outputs (two masks per block)
    embd_p: float = 0.0  # dropout on the embedding output
    use_cache: bool = True  # GPT-2: the KV-cache update copies K and V

    @classmethod
    def of(cls, arch: Architecture) -> Style:
        """The style of ``arch``: the architecture alone decides it, so it is worked out once per model."""
        return _style_of(arch)

    @classmethod
    def derive(cls, arch: Architecture) -> Style:
        """The style of ``arch`` worked out from its fields (``of`` keeps the answer)."""
        gpt2 = arch.family == "gpt" and arch.model_type in ("", "gpt2")
        gemma = arch.model_type in GEMMA_TYPES
        post = arch.model_type in POST_NORM_TYPES
        norms = arch.norms_per_layer
        fed = 0 if post else min(norms, 2)  # Gemma 2/3: of 4 norms the 2 pre-norms feed linears
        code_p = 0.1 if gpt2 else 0.0  # GPT2Config's attn_pdrop/resid_pdrop/embd_pdrop; the other profiles: none

        def p(value: float | None) -> float:
            return code_p if value is None else value
        return cls(
            gpt2=gpt2, rms=arch.norm != "layernorm", norms=norms, fed=fed, raw_inputs=2 if post else 0,
            shared_input=arch.parallel_attn and norms == 2,
            norm_fp32_weight=gemma or post or arch.model_type == "gpt_oss", gemma_norm=gemma,
            final_norm=arch.final_norm, gated=arch.family != "gpt",
            gelu_saved=4 if arch.model_type in GELU_NEW_TYPES else 1, qk_norm=arch.qk_norm,
            qk_norm_per_head=getattr(arch, "qk_norm_per_head", True),
            rope=not (gpt2 or arch.learned_pos_embeddings), legacy_falcon=arch.model_type == "falcon",
            softcap=arch.model_type == "gemma2", sinks=arch.attention_sinks,
            attn_p=p(arch.attention_dropout), resid_p=p(arch.residual_dropout), embd_p=p(arch.embedding_dropout),
            use_cache=arch.use_cache,
        )


@by_identity(256)
def _style_of(arch: Architecture) -> Style:
    return Style.derive(arch)


def _amp(sh: Shape) -> bool:
    """Autocast to a 16-bit dtype over fp32 weights (with an fp32 dtype there is nothing to cast)."""
    return sh.amp and sh.dtype_bytes < FP32


def _norm_terms(sh: Shape, st: Style, key: str, label: str, count: int, fed: int, shared_input: bool = False,
                casts: int = 1) -> list[RawTerm]:
    """``count`` hidden-size norms, ``fed`` of which feed a linear layer that keeps their output (under autocast:
    read the fp32 residual stream, and ``casts`` linear layers each keep a cast of their output). ``key`` prefixes
    the terms' keys, ``label`` their names."""
    if _amp(sh) and fed:
        return _amp_norm_terms(sh, st, key, label, count, fed, shared_input, casts)
    B, b, sr, h = sh.dtype_bytes, sh.b, sh.s_rep, sh.h
    t = "/t" if sh.sp else ""
    n = f"{count}·" if count != 1 else ""
    terms = []
    if st.rms:
        normed = FP32 if st.norm_fp32_weight else B
        terms += [
            RawTerm(f"{key}_rmsnorm_input_fp32", f"{label} RMSNorm: fp32 input copy", count * FP32 * b * sr * h,
                    f"{n}4·s·b·h{t}"),
            RawTerm(f"{key}_rmsnorm_normalised", f"{label} RMSNorm: normalised tensor", count * normed * b * sr * h,
                    f"{n}{normed}·s·b·h{t}"),
            RawTerm(f"{key}_rmsnorm_rstd", f"{label} RMSNorm: 1/rms per row (fp32)", count * FP32 * b * sr,
                    f"{n}4·s·b{t}"),
        ]
        if st.gemma_norm:
            terms.append(RawTerm(f"{key}_rmsnorm_weight", f"{label} RMSNorm: 1 + weight (fp32)", count * FP32 * h,
                                 f"{n}4·h"))
    else:
        inputs = 1 if shared_input else count
        terms += [
            RawTerm(f"{key}_layernorm_input", f"{label} LayerNorm: input", inputs * B * b * sr * h,
                    f"{inputs}·{B}·s·b·h{t}"),
            RawTerm(f"{key}_layernorm_stats", f"{label} LayerNorm: mean, 1/std (fp32)", count * 2 * FP32 * b * sr,
                    f"{n}8·s·b{t}"),
        ]
    if fed:
        terms.append(RawTerm(f"{key}_norm_output", f"{label} norm output (next linear's input)", fed * B * b * sr * h,
                             f"{fed}·{B}·s·b·h{t}" if fed != 1 else f"{B}·s·b·h{t}"))
    return terms


def _amp_norm_terms(sh: Shape, st: Style, key: str, label: str, count: int, fed: int, shared_input: bool,
                    casts: int) -> list[RawTerm]:
    """Autocast: the ``fed`` pre-norms read the fp32 residual stream (input kept as it is, normalised tensor in
    fp32); every Linear reading their fp32 output keeps its own cast (autocast caches leaf weights only). Other
    norms (Gemma 2/3's post-branch norms) read a branch output in the dtype, as without autocast."""
    B, b, sr, h = sh.dtype_bytes, sh.b, sh.s_rep, sh.h
    t = "/t" if sh.sp else ""
    n = f"{fed}·" if fed != 1 else ""
    if st.rms:
        terms = [
            RawTerm(f"{key}_rmsnorm_input_fp32_stream", f"{label} RMSNorm: input (fp32 residual stream)",
                    fed * FP32 * b * sr * h, f"{n}4·s·b·h{t}"),
            RawTerm(f"{key}_rmsnorm_normalised_fp32", f"{label} RMSNorm: normalised tensor (fp32)",
                    fed * FP32 * b * sr * h, f"{n}4·s·b·h{t}"),
            RawTerm(f"{key}_rmsnorm_rstd", f"{label} RMSNorm: 1/rms per row (fp32)", fed * FP32 * b * sr,
                    f"{n}4·s·b{t}"),
        ]
        if st.gemma_norm:
            terms.append(RawTerm(f"{key}_rmsnorm_weight", f"{label} RMSNorm: 1 + weight (fp32)", fed * FP32 * h,
                                 f"{n}4·h"))
    else:
        inputs = 1 if shared_input else fed
        terms = [
            RawTerm(f"{key}_layernorm_input_fp32_stream", f"{label} LayerNorm: input (fp32 residual stream)",
                    inputs * FP32 * b * sr * h, f"{inputs}·4·s·b·h{t}"),
            RawTerm(f"{key}_layernorm_stats", f"{label} LayerNorm: mean, 1/std (fp32)", fed * 2 * FP32 * b * sr,
                    f"{n}8·s·b{t}"),
        ]
    if count > fed:
        plain = replace(sh, amp=False)
        terms += _norm_terms(plain, st, f"{key}_post_branch", f"{label} post-branch", count - fed, 0)
    terms.append(RawTerm(f"{key}_norm_output_casts",
                         f"{label} norm outputs cast to the dtype (autocast, one per Linear reading them)",
                         casts * B * b * sr * h, f"{casts}·{B}·s·b·h{t}"))
    return terms


def _block_norm_terms(sh: Shape, st: Style, arch: Architecture, moe: bool = False) -> list[RawTerm]:
    casts = norm_readers(arch, moe)
    terms = _norm_terms(sh, st, "block", "block", st.norms, st.fed, st.shared_input, casts)
    if st.raw_inputs and _amp(sh):  # post-norm blocks under autocast: each linear casts the fp32 stream
        B = sh.dtype_bytes
        terms.append(RawTerm("block_input_casts",
                             "block inputs cast to the dtype (autocast, post-norm: one per Linear)",
                             casts * B * sh.b * sh.s_rep * sh.h, f"{casts}·{B}·s·b·h"))
    elif st.raw_inputs:  # post-norm blocks: q/k/v and gate/up keep the residual stream itself
        B = sh.dtype_bytes
        terms.append(RawTerm("block_inputs", "block inputs of the linear layers (post-norm)",
                             st.raw_inputs * B * sh.b * sh.s_rep * sh.h, f"{st.raw_inputs}·{B}·s·b·h"))
    return terms


def _qk_norm_terms(sh: Shape, st: Style) -> list[RawTerm]:
    """RMSNorm on Q and K before RoPE: fp32 copy, normalised tensor, 1/rms per row (output feeds RoPE, unsaved)."""
    B, b, s, d = sh.dtype_bytes, sh.b, sh.s, sh.d
    elems = b * s * (sh.a_t + sh.kv_t) * d
    rows = b * s * (sh.a_t + sh.kv_t) if st.qk_norm_per_head else 2 * b * s
    normed = FP32 if st.norm_fp32_weight else B
    extra = 2 * FP32 * d if st.gemma_norm else 0
    return [RawTerm("qk_norm", "Q/K RMSNorm: fp32 copy, normalised, 1/rms",
                    (FP32 + normed) * elems + FP32 * rows + extra, f"(4 + {normed})·s·b·(a + k)·d/t + 4·rows")]


def _attention_terms(sh: Shape, st: Style, v_dim: int) -> list[RawTerm]:
    B, b, s, d = sh.dtype_bytes, sh.b, sh.s, sh.d
    a, kv = sh.a_t, sh.kv_t
    eager = sh.attention == Attention.EAGER
    core = sh.recompute != Recompute.SELECTIVE  # selective: the core attention is recomputed (Megatron's definition)
    if st.gpt2:
        terms = _gpt2_qkv_terms(sh, st, eager)
    else:
        # eager repeat_kv expands K/V to all heads; SDPA takes them as they are (Falcon expands them for both)
        kv_heads = a if eager or st.legacy_falcon else kv
        k_sym = "a" if kv_heads != kv else "k"
        terms = [
            RawTerm("q", "Q" + (" after RoPE" if st.rope else ""), B * b * s * a * d, f"{B}·s·b·a·d/t"),
            RawTerm("k_v", "K, V" + (" (expanded to a heads)" if kv_heads != kv else ""),
                    B * b * s * kv_heads * (d + v_dim), f"{B}·s·b·{k_sym}·(d + d_v)/t"),
        ]
        if st.qk_norm:
            terms += _qk_norm_terms(sh, st)
    dropped = st.attn_p > 0 and not st.sinks  # gpt-oss's sink path: not modelled
    if core and eager:
        probs = b * a * s * s
        if st.gpt2 or st.legacy_falcon:  # softmax in the dtype; its output is what P·V keeps without dropout
            # autocast: the scores in the dtype plus the fp32 causal mask promote to fp32 (GPT-2)
            soft = FP32 if _amp(sh) and st.gpt2 else B
            terms.append(RawTerm("attention_probs", "attention probabilities" + (" (fp32)" if soft != B else ""),
                                 soft * probs, f"{soft}·a·s²·b/t"))
            if soft != B and not dropped:
                terms.append(RawTerm("attention_probs_cast", "attention probabilities cast to dtype", B * probs,
                                     f"{B}·a·s²·b/t"))
        elif st.sinks:  # gpt-oss: one sink column, softmax in the dtype after subtracting the row max
            terms.append(RawTerm("attention_probs_sinks", "attention probabilities with sink column",
                                 B * b * a * s * (s + 1), f"{B}·a·s·(s + 1)·b/t"))
            terms.append(RawTerm("attention_row_max_indices", "row-max indices (int64)", INT64 * b * a * s,
                                 "8·a·s·b/t"))
        else:  # softmax(dtype=float32) keeps its fp32 output; .to(dtype) makes the copy P·V keeps
            if st.softcap:
                terms.append(RawTerm("softcapped_scores", "soft-capped scores (tanh output)", B * probs,
                                     f"{B}·a·s²·b/t"))
            terms.append(RawTerm("attention_probs_fp32", "attention probabilities (fp32 softmax)", FP32 * probs,
                                 "4·a·s²·b/t"))
            if B != FP32 and not dropped:  # with dropout the cast copy feeds native_dropout, which keeps the mask
                terms.append(RawTerm("attention_probs_cast", "attention probabilities cast to dtype", B * probs,
                                     f"{B}·a·s²·b/t"))
        if dropped:  # native_dropout keeps its 1-byte mask; P·V keeps the dropout output
            terms.append(RawTerm("attention_dropout_mask", "attention dropout mask", probs, "a·s²·b/t"))
            terms.append(RawTerm("attention_probs_dropped", "attention probabilities after dropout", B * probs,
                                 f"{B}·a·s²·b/t"))
    elif core:
        terms.append(RawTerm("attention_lse", "attention log-sum-exp per row (fp32)", FP32 * b * a * s, "4·a·s·b/t"))
    terms.append(RawTerm("attention_output", "attention output (o_proj input)", B * b * s * a * v_dim,
                         f"{B}·s·b·a·d_v/t"))
    if st.resid_p > 0:
        t = "/t" if sh.sp else ""
        terms.append(RawTerm("attention_residual_dropout_mask", "attention residual dropout mask", b * sh.s_rep * sh.h,
                             f"s·b·h{t}"))
    return terms


def _gpt2_qkv_terms(sh: Shape, st: Style, eager: bool) -> list[RawTerm]:
    """GPT-2 splits one fused c_attn output into per-head views. In a training forward the KV cache is on
    (``use_cache`` defaults to true, except under gradient checkpointing) and its update copies K and V. SDPA
    saves the Q view, which keeps the whole fused output alive; eager attention reshapes Q for ``bmm`` - a copy,
    except with b = 1 where the reshape is again a view of the fused output."""
    B, b, s, a, d = sh.dtype_bytes, sh.b, sh.s, sh.a_t, sh.d
    kv = RawTerm("k_v", "K, V (KV-cache copies)", 2 * B * b * s * a * d, f"2·{B}·s·b·a·d/t")
    if not st.use_cache:  # K and V stay views of the fused output: nothing is copied for the cache
        return [RawTerm("fused_qkv", "fused QKV output (kept by the Q, K, V views)", 3 * B * b * s * a * d,
                        f"3·{B}·s·b·a·d/t")]
    if not eager or b == 1:
        return [RawTerm("fused_qkv", "fused QKV output (kept by the Q view)", 3 * B * b * s * a * d,
                        f"3·{B}·s·b·a·d/t"), kv]
    return [RawTerm("q", "Q (copy for bmm)", B * b * s * a * d, f"{B}·s·b·a·d/t"), kv]


def _mlp_terms(sh: Shape, st: Style, ffn: int) -> list[RawTerm]:
    B, b, s = sh.dtype_bytes, sh.b, sh.s
    f = sh.split(ffn)
    if st.gated:
        return [RawTerm("mlp", "MLP gate, SiLU(gate), up, product", 4 * B * b * s * f, f"4·{B}·s·b·f/t"),
                *_mlp_dropout(sh, st)]
    n = st.gelu_saved + 1
    act = "gelu_new intermediates" if st.gelu_saved == 4 else "GELU input"
    if st.gelu_saved == 4 and _amp(sh):
        # CUDA autocast runs torch.pow in fp32: pow keeps x cast to fp32, and what follows is fp32 (tanh,
        # 1 + tanh, the product); 0.5·x stays in the dtype; the second linear keeps its cast of the product
        return [RawTerm("mlp", "MLP gelu_new under autocast: fp32 x, tanh, 1 + tanh; 0.5·x, second linear input",
                        (3 * FP32 + 2 * B) * b * s * f, f"(12 + 2·{B})·s·b·f/t"), *_mlp_dropout(sh, st)]
    terms = [RawTerm("mlp", f"MLP {act} + second linear input", n * B * b * s * f, f"{n}·{B}·s·b·f/t")]
    return terms + _mlp_dropout(sh, st)


def _mlp_dropout(sh: Shape, st: Style) -> list[RawTerm]:
    terms = []
    if st.resid_p > 0:
        t = "/t" if sh.sp else ""
        terms.append(RawTerm("mlp_residual_dropout_mask", "MLP residual dropout mask", sh.b * sh.s_rep * sh.h,
                             f"s·b·h{t}"))
    return terms


def layer_terms(sh: Shape, arch: Architecture, moe: bool) -> list[RawTerm]:
    """Saved tensors of one decoder layer for one micro-batch (``moe``: the layer has routed experts)."""
    if sh.recompute == Recompute.FULL:  # gradient checkpointing saves the layer's positional input only
        t = "/t" if sh.sp else ""
        B = FP32 if _amp(sh) else sh.dtype_bytes  # autocast: the residual stream is fp32
        # autocast: the checkpoint drops the weight casts too (its replay casts again)
        return [RawTerm("checkpoint_input", "layer input (checkpoint)", B * sh.b * sh.s_rep * sh.h, f"{B}·s·b·h{t}")]
    st = Style.of(arch)
    v_dim = arch.value_head_size
    terms = _block_norm_terms(sh, st, arch, moe) + _attention_terms(sh, st, v_dim)
    terms += hf_moe_terms(sh, arch) + _mlp_dropout(sh, st) if moe else _mlp_terms(sh, st, arch.ffn_size)
    if _amp(sh):  # autocast's weight cache: each Linear's weight cast once, kept by the matmul for backward
        B = sh.dtype_bytes
        terms.append(RawTerm("linear_weight_casts", "the block's Linear weights in the dtype (autocast weight cache)",
                             B * linear_weights(sh, arch, moe), f"{B}·(Linear weights of the block)/t"))
    return [t for t in terms if t.bytes]


def input_terms(sh: Shape, arch: Architecture) -> list[RawTerm]:
    """Embedding: token ids kept by the embedding backward; GPT-2's position ids and embedding dropout mask;
    RoPE's cos/sin (1·s·d each, shared by all layers). Under full recompute the checkpointed layers also keep
    their keyword inputs (position ids, cos/sin) and, for eager attention, the causal mask."""
    st = Style.of(arch)
    b, s, B = sh.b, sh.s, sh.dtype_bytes
    full = sh.recompute == Recompute.FULL
    terms = [RawTerm("token_ids", "token ids (int64)", INT64 * b * s, "8·s·b")]
    if st.gpt2:
        terms.append(RawTerm("position_ids", "position ids (int64)", INT64 * s, "8·s"))
    if st.embd_p > 0:
        t = "/t" if sh.sp else ""
        terms.append(RawTerm("embedding_dropout_mask", "embedding dropout mask", b * sh.s_rep * sh.h, f"s·b·h{t}"))
    if st.rope:
        # OLMo 2 keeps its RoPE tables in fp32; under autocast they follow the fp32 embedding output
        rb = FP32 if arch.model_type in POST_NORM_TYPES or _amp(sh) else B
        terms.append(RawTerm("rope_tables", "RoPE cos, sin", 2 * rb * s * sh.d, f"2·{rb}·s·d"))
        if full:  # keyword arguments of every checkpointed layer, kept until backward replays it
            terms.append(RawTerm("position_ids_checkpoint", "position ids (int64, checkpoint keyword input)", INT64 * s,
                                 "8·s"))
    if full and sh.attention == Attention.EAGER:  # the additive causal mask, shared by all checkpointed layers
        mb = FP32 if _amp(sh) else B  # in the embedding output's dtype
        terms.append(RawTerm("causal_mask_checkpoint", "causal mask (checkpoint input)", mb * b * s * s, f"{mb}·b·s²"))
    return terms


def output_terms(sh: Shape, arch: Architecture) -> list[RawTerm]:
    """Final norm, LM-head input, the loss's fp32 log-softmax over the vocabulary, labels."""
    st = Style.of(arch)
    b, s = sh.b, sh.s
    if st.final_norm:
        terms = _norm_terms(sh, st, "final", "final", 1, 1)  # its output is the LM head's saved input (or its cast)
    else:
        B = sh.dtype_bytes
        terms = [RawTerm("lm_head_input", "LM head input", B * b * sh.s_rep * sh.h, f"{B}·s·b·h")]
    if _amp(sh):  # the LM head's weight (the embedding matrix when tied) cast by autocast, kept by the matmul
        B = sh.dtype_bytes
        terms.append(RawTerm("lm_head_weight_cast", "LM head weight in the dtype (autocast weight cache)",
                             B * sh.split(sh.v) * sh.h, f"{B}·v·h/t"))
    if st.softcap:
        terms.append(RawTerm("softcapped_logits", "soft-capped logits (tanh output)",
                             sh.dtype_bytes * b * s * sh.split(sh.v), f"{sh.dtype_bytes}·s·b·v/t"))
    if sh.loss == Loss.HF:  # a chunked/fused cross-entropy (Liger, Megatron) never materialises fp32 logits
        terms.append(RawTerm("log_softmax", "log-softmax of the logits (fp32)", FP32 * b * s * sh.split(sh.v),
                             "4·s·b·v/t"))
    # labels are padded by one and shifted; with b = 1 the shifted view is already contiguous and keeps all s + 1
    rows = b * s + (1 if b == 1 else 0)
    terms.append(RawTerm("labels", "labels (int64) + loss weight", INT64 * rows + FP32, "8·s·b + 4"))
    return terms
