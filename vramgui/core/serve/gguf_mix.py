"""The tensor types a GGUF file type mixes, as llama.cpp's quantizer picks them.

``src/llama-quant.cpp``: ``tensor_allows_quantization`` (only 2-D and 3-D weights; no norms, no ``ffn_gate_inp``
router, no position embedding: 1-D tensors stay F32 as ``convert_hf_to_gguf.py`` wrote them, routers F16),
``llama_tensor_get_type_impl`` (the per-tensor rules of each file type) and ``tensor_type_fallback`` (a row length
that the block does not divide falls back: Q4_K -> Q5_0, Q5_K -> Q5_1, Q6_K -> Q8_0, and to F16 when that fails too).
The rules reproduced, for the file types offered:

* the output (and a tied token embedding): Q6_K (Q8_0 under a Q8_0 file, for Falcon, or when 256 does not divide
  the row); an untied token embedding: the file type's own type;
* attn_v (also attn_qkv and MLA's attn_kv_b): Q6_K under Q4_K_M / Q5_K_M for the layers ``use_more_bits`` picks
  (``i < n/8 || i >= 7n/8 || (i - n/8) % 3 == 2``); Q5_K in a Llama 70B under Q4_K_M; Q8_0 with 8 experts;
* attn_k: Q8_0 with 8 experts; attn_output: Q5_K with 8 experts under Q4_K_M;
* ffn_down: Q6_K under Q4_K_M / Q5_K_M where ``use_more_bits`` (Falcon under Q4_K_M: Q6_K below n/16, else Q5_K
  where ``use_more_bits``, else Q4_K); with experts the layer is the block's (``blk.N.``) and n the number of
  ffn_down tensors;
* everything else: the file type's type (Q8_0, Q6_K, Q5_K, Q4_K, Q4_0).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.choices import WeightFormat
from vramgui.core.serve.formats import GGML_TYPES, GGUF_FTYPES
from vramgui.core.serve.tensors import ServedTensors, Tensor

_FALLBACK = {"Q4_K": "Q5_0", "Q5_K": "Q5_1", "Q6_K": "Q8_0", "Q2_K": "Q4_0", "Q3_K": "Q4_0"}
_MIXED = (WeightFormat.GGUF_Q4_K_M, WeightFormat.GGUF_Q5_K_M)
ATTN_V = ("attn_v", "attn_qkv", "attn_kv_b")


@dataclass(frozen=True)
class GgufBytes:
    linear: int  # the blocks' quantised weights
    embedding: int
    head: int
    types: tuple[tuple[str, int], ...]  # ggml type -> elements stored in it (the mix), most elements first


def use_more_bits(i: int, n: int) -> bool:
    """llama-quant.cpp ``use_more_bits``: the first and last eighth of the layers and every third in between."""
    return i < n // 8 or i >= 7 * n // 8 or (i - n // 8) % 3 == 2


def _fallback(name: str, n_cols: int) -> str:
    t = GGML_TYPES[name]
    if n_cols % t.block == 0:
        return name
    fallback = _FALLBACK.get(name, "F16")
    return fallback if n_cols % GGML_TYPES[fallback].block == 0 else "F16"


def _output_type(fmt: WeightFormat, arch: Architecture, n_cols: int) -> str:
    base = GGUF_FTYPES[fmt]
    if arch.model_type == "falcon" or n_cols % GGML_TYPES[base].block:
        return "Q8_0"
    return base if base == "Q8_0" else "Q6_K"


def _block_type(fmt: WeightFormat, arch: Architecture, t: Tensor, counters: dict[str, tuple[int, int]]) -> str:
    base = GGUF_FTYPES[fmt]
    eight = arch.num_experts == 8
    seventy = arch.model_type == "llama" and arch.num_layers == 80 and arch.kv_heads < arch.num_heads
    if t.role in ATTN_V:
        i, n = counters["attn_v"]
        kind = base
        if fmt in _MIXED and use_more_bits(i, n):
            kind = "Q6_K"
        if seventy and kind in ("Q3_K", "Q4_K"):
            kind = "Q5_K"
        return "Q8_0" if eight else kind
    if t.role == "attn_k":
        return "Q8_0" if eight else base
    if t.role == "attn_output":
        return "Q5_K" if eight and fmt == WeightFormat.GGUF_Q4_K_M and arch.model_type != "falcon" else base
    if t.role == "ffn_down":
        i, n = counters["ffn_down"]
        if arch.num_experts > 1:
            i = t.layer  # layer_info: the block number parsed from the tensor name
        if fmt == WeightFormat.GGUF_Q4_K_M and arch.model_type == "falcon":
            return "Q6_K" if i < n // 16 else "Q5_K" if use_more_bits(i, n) else "Q4_K"
        if fmt in _MIXED and use_more_bits(i, n):
            return "Q6_K"
    return base


def gguf_bytes(fmt: WeightFormat, arch: Architecture, served: ServedTensors) -> GgufBytes:
    """Bytes of the blocks' weights, the embedding and the output in file type ``fmt`` (tp = 1)."""
    linears = served.linears
    totals = Counter(("attn_v" if t.role in ATTN_V else t.role) for t in linears)
    seen: Counter[str] = Counter()
    types: Counter[str] = Counter()
    linear = 0
    for t in linears:
        key = "attn_v" if t.role in ATTN_V else t.role
        kind = _fallback(_block_type(fmt, arch, t, {k: (seen[k], totals[k]) for k in ("attn_v", "ffn_down")}),
                         t.n_in)
        seen[key] += 1
        linear += t.copies * GGML_TYPES[kind].row_bytes(t.n_in) * t.n_out
        types[kind] += t.elements
    h = arch.hidden_size
    out_kind = _output_type(fmt, arch, h)
    embed_kind = out_kind if arch.tied_embeddings else _fallback(GGUF_FTYPES[fmt], h)
    embedding = GGML_TYPES[embed_kind].row_bytes(h) * arch.vocab_size
    head = 0 if arch.tied_embeddings else GGML_TYPES[out_kind].row_bytes(h) * arch.vocab_size
    types[embed_kind] += h * arch.vocab_size
    if not arch.tied_embeddings:
        types[out_kind] += h * arch.vocab_size
    return GgufBytes(linear, embedding, head, tuple(types.most_common()))
