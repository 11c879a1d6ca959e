"""Bytes of one weight tensor in each storage format, from the format's own tensor layout.

* 16-bit: two bytes an element.
* ``fp8`` - vLLM ``Fp8LinearMethod.create_weights`` (``model_executor/layers/quantization/fp8.py``): an e4m3 weight
  of one byte an element and a per-tensor fp32 ``weight_scale`` (checkpoints with static activation scales add
  an fp32 ``input_scale``, not counted); the bias stays 16-bit.
* ``int8`` / ``nf4`` - bitsandbytes ``Int8Params`` / ``Params4bit`` (``vramgui.core.finetune.adapters``, measured to
  the byte there): int8 + an fp32 scale per output row; two weights a byte + an fp32 absmax per 64 (double
  quantisation: a uint8 absmax, an fp32 absmax per 256 blocks, the 256-entry map).
* ``gptq-int4`` - AutoGPTQ ``QuantLinear`` (``auto_gptq/nn_modules/qlinear/qlinear_cuda.py``, bits 4, group 128):
  ``qweight`` int32 (in·4/32, out), ``qzeros`` int32 (⌈in/128⌉, out·4/32), ``scales`` fp16 (⌈in/128⌉, out),
  ``g_idx`` int32 (in), ``bias`` fp16 (out): 4 + (16 + 4)/128 = 4.16 bits a weight, + 32 bits per input row.
* ``awq-int4`` - AutoAWQ ``WQLinear_GEMM`` (``awq/modules/linear/gemm.py``, w_bit 4, group 128): ``qweight`` int32
  (in, out/8), ``qzeros`` int32 (in/128, out/8), ``scales`` fp16 (in/128, out), ``bias`` fp16: no g_idx.
* GGUF - ggml's block structs (``ggml/src/ggml-common.h``; ``GGML_QUANT_SIZES`` in gguf-py ``gguf/constants.py``):
  a row of ``ne[0]`` elements is ``ne[0] / block`` blocks of ``type_size`` bytes (``ggml_row_size``).

Embeddings, the LM head, norms, routers and biases are not these formats' Linear layers: they stay 16-bit (GPTQ,
AWQ, bitsandbytes, fp8); GGUF keeps 1-D tensors in F32 and picks the embedding and output types itself
(``vramgui.core.serve.gguf_mix``).
"""

from __future__ import annotations

from dataclasses import dataclass

from vramgui.core.finetune.adapters import quantised_weight_bytes
from vramgui.core.parallel.layout import ceil_div
from vramgui.core.scenario.choices import WeightFormat

GROUP = 128  # GPTQ/AWQ group_size of the usual 4-bit checkpoints (quantize_config.json "group_size": 128)
FP8_SCALE_BYTES = 4  # Fp8LinearMethod weight_scale: one fp32 per tensor (per-tensor scaling)


@dataclass(frozen=True)
class GgmlType:
    """One ggml tensor type: ``block`` elements stored in ``size`` bytes (``GGML_QUANT_SIZES``)."""

    name: str
    block: int
    size: int

    def row_bytes(self, n_cols: int) -> int:
        """``ggml_row_size``: bytes of a row of ``n_cols`` elements (``n_cols`` a multiple of the block)."""
        return n_cols // self.block * self.size


# gguf-py gguf/constants.py GGML_QUANT_SIZES (block size, type size); ggml-common.h block_q8_0 = {ggml_half d;
# int8_t qs[32]} (34), block_q4_0 = {ggml_half d; uint8_t qs[16]} (18), block_q4_K = {ggml_half d, dmin; uint8_t
# scales[12]; uint8_t qs[128]} (144), block_q5_K (176), block_q6_K = {uint8_t ql[128], qh[64]; int8_t scales[16];
# ggml_half d} (210)
GGML_TYPES = {t.name: t for t in (
    GgmlType("F32", 1, 4), GgmlType("F16", 1, 2), GgmlType("BF16", 1, 2), GgmlType("Q8_0", 32, 34),
    GgmlType("Q4_0", 32, 18), GgmlType("Q4_1", 32, 20), GgmlType("Q5_0", 32, 22), GgmlType("Q5_1", 32, 24),
    GgmlType("Q2_K", 256, 84), GgmlType("Q3_K", 256, 110), GgmlType("Q4_K", 256, 144), GgmlType("Q5_K", 256, 176),
    GgmlType("Q6_K", 256, 210),
)}
GGUF_FTYPES = {  # the file type -> its default tensor type (llama-quant.cpp llama_model_quantize_impl)
    WeightFormat.GGUF_Q8_0: "Q8_0", WeightFormat.GGUF_Q6_K: "Q6_K", WeightFormat.GGUF_Q5_K_M: "Q5_K",
    WeightFormat.GGUF_Q4_K_M: "Q4_K", WeightFormat.GGUF_Q4_0: "Q4_0",
}
BNB = (WeightFormat.INT8, WeightFormat.NF4)
INT4 = (WeightFormat.GPTQ_INT4, WeightFormat.AWQ_INT4)


def is_gguf(fmt: WeightFormat) -> bool:
    return fmt in GGUF_FTYPES


def linear_bytes(fmt: WeightFormat, n_in: int, n_out: int, bias: bool, double_quant: bool = False) -> int:
    """One quantisable Linear (weight ``n_out × n_in``, and its bias) in ``fmt`` (not GGUF: ``gguf_mix``)."""
    b = 2 * n_out if bias else 0
    n = n_in * n_out
    if fmt in (WeightFormat.BF16, WeightFormat.FP16):
        return 2 * n + b
    if fmt == WeightFormat.FP8:
        return n + FP8_SCALE_BYTES + b
    if fmt in BNB:
        return quantised_weight_bytes(n_in, n_out, str(fmt), double_quant) + b
    if fmt in INT4:
        groups = ceil_div(n_in, GROUP)
        packed = ceil_div(n_in, 8) * n_out * 4  # qweight: 8 nibbles per int32
        zeros = groups * ceil_div(n_out, 8) * 4
        scales = groups * n_out * 2
        g_idx = 4 * n_in if fmt == WeightFormat.GPTQ_INT4 else 0
        return packed + zeros + scales + g_idx + b
    raise ValueError(f"{fmt} is a GGUF file type: gguf_mix sizes its tensors")


# ggml.h enum ggml_type ids (the GGUF tensor table's type field) -> (name, block, type size); gguf-py
# gguf/constants.py GGML_QUANT_SIZES
GGML_IDS: dict[int, GgmlType] = {i: GgmlType(n, b, z) for i, (n, b, z) in {
    0: ("F32", 1, 4), 1: ("F16", 1, 2), 2: ("Q4_0", 32, 18), 3: ("Q4_1", 32, 20), 6: ("Q5_0", 32, 22),
    7: ("Q5_1", 32, 24), 8: ("Q8_0", 32, 34), 9: ("Q8_1", 32, 36), 10: ("Q2_K", 256, 84), 11: ("Q3_K", 256, 110),
    12: ("Q4_K", 256, 144), 13: ("Q5_K", 256, 176), 14: ("Q6_K", 256, 210), 15: ("Q8_K", 256, 292),
    16: ("IQ2_XXS", 256, 66), 17: ("IQ2_XS", 256, 74), 18: ("IQ3_XXS", 256, 98), 19: ("IQ1_S", 256, 50),
    20: ("IQ4_NL", 32, 18), 21: ("IQ3_S", 256, 110), 22: ("IQ2_S", 256, 82), 23: ("IQ4_XS", 256, 136),
    24: ("I8", 1, 1), 25: ("I16", 1, 2), 26: ("I32", 1, 4), 27: ("I64", 1, 8), 28: ("F64", 1, 8),
    29: ("IQ1_M", 256, 56), 30: ("BF16", 1, 2), 34: ("TQ1_0", 256, 54), 35: ("TQ2_0", 256, 66),
    39: ("MXFP4", 32, 17),
}.items()}
# gguf-py LlamaFileType (general.file_type) -> the format it is
FILE_TYPES = {1: WeightFormat.FP16, 32: WeightFormat.BF16, 7: WeightFormat.GGUF_Q8_0, 18: WeightFormat.GGUF_Q6_K,
              17: WeightFormat.GGUF_Q5_K_M, 15: WeightFormat.GGUF_Q4_K_M, 2: WeightFormat.GGUF_Q4_0}


def tensor_bytes(ggml_type: int, dims: tuple[int, ...]) -> int | None:
    """``ggml_nbytes`` of a tensor: rows of ``ne[0]`` elements times the other dimensions; None for a type vramgui
    does not know or a row its block does not divide."""
    kind = GGML_IDS.get(ggml_type)
    if kind is None or not dims or dims[0] % kind.block:
        return None
    rows = 1
    for d in dims[1:]:
        rows *= d
    return kind.row_bytes(dims[0]) * rows
