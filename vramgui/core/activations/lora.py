"""The ``hf`` activation profile under LoRA / QLoRA: what autograd keeps when the base is frozen.

Autograd saves an operand only for the gradients it must compute (``derivatives.yaml``: a matmul keeps its input
for the weight's gradient, its weight for the input's). With every base parameter frozen (peft marks only
``lora_*`` trainable):

* a frozen Linear (plain, ``Int8Params`` or ``Params4bit``: bitsandbytes' ``MatMul4Bit`` keeps no input) keeps
  nothing of its input; the norms' weight multiply keeps no normalised tensor; the frozen embedding keeps no
  token ids (GPT-2: no position ids);
* each adapter (peft ``tuners/lora/layer.py`` ``Linear.forward``: ``result + lora_B(lora_A(dropout(x))) * scaling``,
  after ``_cast_input_dtype(x, lora_A.weight.dtype)``) keeps its input: a copy cast to the adapters' dtype (fp32
  adapters over a bf16 model: 4 bytes per element, one copy per adapter even where q, k, v read the same tensor), or
  the shared input itself when the dtypes agree; with dropout > 0 the 1-byte mask and the dropped-out input instead;
  and the rank-r intermediate ``lora_A(x)`` that ``lora_B`` keeps;
* the SwiGLU product is kept only by an adapter on ``down_proj``; eager attention's output only by one on
  ``o_proj`` (SDPA keeps its output anyway);
* without gradient checkpointing the embedding output needs no gradient, so the first block's first norm keeps
  nothing (a negative term on the first stage); with checkpointing, ``enable_input_require_grads`` (HF Trainer,
  ``prepare_model_for_kbit_training``) makes it need one and the checkpoint keeps every layer's input as in full
  training;
* bitsandbytes' ``MatMul8bitLt`` (an int8 base) keeps every frozen Linear's input on ``ctx.tensors`` when it needs
  an input gradient: the norm outputs and the SwiGLU product again (invisible to ``saved_tensors_hooks``, live
  all the same).

Measured with peft 0.21 and bitsandbytes 0.50 (bench/validate/lora_measure.py, docs/accuracy.md). Post-norm blocks,
autocast and routed experts are counted as in full training (an upper bound; ``supported`` says when).
"""

from __future__ import annotations

from dataclasses import dataclass

from vramgui.core.activations import hf
from vramgui.core.activations.common import RawTerm, Shape
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.choices import Attention, Recompute

FP32 = 4
INT64 = 8


@dataclass(frozen=True)
class LoraActs:
    """The adapters as the activation model needs them: rank, dropout, adapter dtype bytes, and per adapted
    Linear what it reads (``norm1``, ``attn_out``, ``norm2``, ``mlp_mid``), its input width and block kind."""

    rank: int
    dropout: float
    adapter_bytes: int
    modules: tuple[tuple[str, int, bool], ...]  # (reads, n_in, in an MoE block)
    int8_base: bool = False  # bitsandbytes MatMul8bitLt keeps each frozen Linear's input on its ctx


def supported(arch: Architecture, amp: bool) -> bool:
    """Block styles whose LoRA terms are modelled tensor by tensor (the rest: full training's, an upper bound)."""
    return not amp and arch.model_type not in hf.POST_NORM_TYPES and not arch.is_moe


def _shared(sh: Shape, acts: LoraActs) -> bool:
    """The adapters read the very tensor the base reads (same dtype, no dropout): it is kept once, not copied."""
    return acts.adapter_bytes == sh.dtype_bytes and acts.dropout == 0


def _norms(sh: Shape, st: hf.Style, key: str, label: str, count: int, kept_outputs: int) -> list[RawTerm]:
    B, b, sr, h = sh.dtype_bytes, sh.b, sh.s_rep, sh.h
    n = f"{count}·" if count != 1 else ""
    if st.rms:
        terms = [RawTerm(f"{key}_rmsnorm_input_fp32", f"{label} RMSNorm: fp32 input copy", count * FP32 * b * sr * h,
                         f"{n}4·s·b·h"),
                 RawTerm(f"{key}_rmsnorm_rstd", f"{label} RMSNorm: 1/rms per row (fp32)", count * FP32 * b * sr,
                         f"{n}4·s·b")]
        if st.gemma_norm:
            terms.append(RawTerm(f"{key}_rmsnorm_weight", f"{label} RMSNorm: 1 + weight (fp32)", count * FP32 * h,
                                 f"{n}4·h"))
    else:
        inputs = 1 if st.shared_input else count
        terms = [RawTerm(f"{key}_layernorm_input", f"{label} LayerNorm: input", inputs * B * b * sr * h,
                         f"{inputs}·{B}·s·b·h"),
                 RawTerm(f"{key}_layernorm_stats", f"{label} LayerNorm: mean, 1/std (fp32)", count * 2 * FP32 * b * sr,
                         f"{n}8·s·b")]
    if kept_outputs:
        terms.append(RawTerm(f"{key}_norm_output_adapters", f"{label} norm output (kept by the adapters)",
                             kept_outputs * B * b * sr * h, f"{kept_outputs}·{B}·s·b·h"))
    return terms


def _adapter_terms(sh: Shape, acts: LoraActs, moe: bool) -> list[RawTerm]:
    A, b, s, r = acts.adapter_bytes, sh.b, sh.s, acts.rank
    mods = [(reads, n_in) for reads, n_in, in_moe in acts.modules if in_moe == moe]
    if not mods:
        return []
    inputs = sum(n_in for _, n_in in mods)
    terms = []
    if acts.dropout > 0:
        terms.append(RawTerm("lora_dropout", "LoRA dropout masks and dropped-out inputs", (1 + A) * b * s * inputs,
                             f"(1 + {A})·s·b·Σin"))
    elif not _shared(sh, acts):
        terms.append(RawTerm("lora_input_casts", f"LoRA inputs cast to the adapter dtype ({A} bytes)",
                             A * b * s * inputs, f"{A}·s·b·Σin"))
    terms.append(RawTerm("lora_intermediates", "LoRA rank-r intermediates (lora_A output)", A * b * s * r * len(mods),
                         f"{len(mods)}·{A}·s·b·r"))
    return terms


def layer_terms(sh: Shape, arch: Architecture, moe: bool, acts: LoraActs) -> list[RawTerm]:
    if sh.recompute == Recompute.FULL or not supported(arch, sh.amp):
        return hf.layer_terms(sh, arch, moe)
    st = hf.Style.of(arch)
    B, b, s = sh.dtype_bytes, sh.b, sh.s
    reads = {r for r, _, in_moe in acts.modules if in_moe == moe}
    shared = _shared(sh, acts)
    kept = [shared and "norm1" in reads, shared and "norm2" in reads]
    terms = _norms(sh, st, "block", "block", st.norms, sum(kept[: st.fed]))
    attn = hf._attention_terms(sh, st, arch.value_head_size)  # noqa: SLF001 - the same tensors, one profile
    if sh.attention == Attention.EAGER and not (shared and "attn_out" in reads):
        attn = [t for t in attn if t.key != "attention_output"]
    terms += attn
    f = sh.split(arch.ffn_size)
    if st.gated:
        terms.append(RawTerm("mlp_gate_silu_up", "MLP gate, SiLU(gate), up", 3 * B * b * s * f, f"3·{B}·s·b·f/t"))
    else:
        n = st.gelu_saved
        terms.append(RawTerm("mlp_activation", "MLP " + ("gelu_new intermediates" if n == 4 else "GELU input"),
                             n * B * b * s * f, f"{n}·{B}·s·b·f/t"))
    if (shared and "mlp_mid" in reads) or acts.int8_base:
        terms.append(RawTerm("mlp_second_linear_input", "MLP second linear input (kept by its adapter or MatMul8bitLt)",
                             B * b * s * f, f"{B}·s·b·f/t"))
    if acts.int8_base:  # the norm outputs the adapters do not keep already; eager: the attention output
        n_norms = st.fed - sum(kept[: st.fed])
        terms.append(RawTerm("norm_outputs_int8", "norm outputs kept by MatMul8bitLt (int8 base)",
                             n_norms * B * b * sh.s_rep * sh.h, f"{n_norms}·{B}·s·b·h"))
        if sh.attention == Attention.EAGER and not (shared and "attn_out" in reads):
            terms.append(RawTerm("attention_output_int8", "attention output kept by MatMul8bitLt (int8 base)",
                                 B * b * s * sh.a_t * arch.value_head_size, f"{B}·s·b·a·d_v/t"))
    terms += hf._mlp_dropout(sh, st)  # noqa: SLF001
    terms += _adapter_terms(sh, acts, moe)
    return [t for t in terms if t.bytes]


def input_terms(sh: Shape, arch: Architecture, acts: LoraActs) -> list[RawTerm]:
    """The embedding is frozen: no token ids (nor GPT-2's position ids) kept; without checkpointing its output
    needs no gradient, so the first norm keeps nothing and GPT-2's embedding dropout keeps no mask."""
    full = sh.recompute == Recompute.FULL
    terms = [t for t in hf.input_terms(sh, arch) if t.key not in ("token_ids", "position_ids")]
    if full or not supported(arch, sh.amp):
        return terms
    terms = [t for t in terms if t.key != "embedding_dropout_mask"]
    st = hf.Style.of(arch)
    first = _norms(sh, st, "first_block", "first block", 1, 0)
    n = sum(t.bytes for t in first)
    readers = [n_in for reads, n_in, moe in acts.modules if reads == "norm1" and not moe]
    if acts.dropout > 0:  # dropout on an input that needs no gradient keeps no mask
        n += sum(readers) * sh.b * sh.s
    if acts.int8_base and not (_shared(sh, acts) and readers):  # nor does MatMul8bitLt keep that input
        n += sh.dtype_bytes * sh.b * sh.s_rep * sh.h
    terms.append(RawTerm("first_norm_frozen_input",
                         "first block: its first norm keeps nothing (the frozen embedding needs no gradient)", -n,
                         "-(first norm's saved tensors)"))
    return terms


def output_terms(sh: Shape, arch: Architecture, acts: LoraActs) -> list[RawTerm]:
    """The final norm keeps its statistics but no output (the frozen LM head keeps no input)."""
    if not supported(arch, sh.amp):
        return hf.output_terms(sh, arch)
    st = hf.Style.of(arch)
    terms = _norms(sh, st, "final", "final", 1, 0) if st.final_norm else []
    kept = ("log_softmax", "labels", "softcapped_logits")
    return terms + [t for t in hf.output_terms(sh, arch) if t.key in kept]
