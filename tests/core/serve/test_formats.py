"""Weight bytes per storage format, from each format's own tensor layout (shapes and block structs)."""

from __future__ import annotations

import pytest

from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.choices import WeightFormat as W
from vramgui.core.serve.formats import GGML_TYPES, linear_bytes
from vramgui.core.serve.gguf_mix import gguf_bytes, use_more_bits
from vramgui.core.serve.tensors import served_tensors
from vramgui.core.serve.weights import weight_bytes
from vramgui.io import presets


def test_ggml_block_structs():
    # ggml-common.h: block_q8_0 {ggml_half d; int8_t qs[32]}, block_q4_0 {ggml_half d; uint8_t qs[16]},
    # block_q4_K {ggml_half d, dmin; uint8_t scales[12]; uint8_t qs[128]}, block_q6_K {ql[128], qh[64], scales[16], d}
    sizes = {n: (GGML_TYPES[n].block, GGML_TYPES[n].size) for n in ("Q8_0", "Q4_0", "Q4_K", "Q5_K", "Q6_K")}
    assert sizes == {"Q8_0": (32, 2 + 32), "Q4_0": (32, 2 + 16), "Q4_K": (256, 2 + 2 + 12 + 128),
                     "Q5_K": (256, 2 + 2 + 12 + 32 + 128), "Q6_K": (256, 128 + 64 + 16 + 2)}
    bits = {n: 8 * t.size / t.block for n, t in GGML_TYPES.items() if t.block > 1}
    assert (bits["Q8_0"], bits["Q4_0"], bits["Q4_K"], bits["Q6_K"]) == (8.5, 4.5, 4.5, 6.5625)


def test_awq_and_gptq_4096_square_linear_from_their_tensor_shapes():
    # WQLinear_GEMM(w_bit 4, group 128, in 4096, out 4096): qweight int32 (4096, 512), qzeros int32 (32, 512),
    # scales fp16 (32, 4096); QuantLinear adds g_idx int32 (4096,)
    awq = 4096 * 512 * 4 + 32 * 512 * 4 + 32 * 4096 * 2
    assert linear_bytes(W.AWQ_INT4, 4096, 4096, bias=False) == awq == 8_716_288
    assert linear_bytes(W.GPTQ_INT4, 4096, 4096, bias=False) == awq + 4 * 4096
    assert 8 * awq / 4096**2 == pytest.approx(4.15625)  # the "≈ 4.16 bits" of group-128 int4


def test_bitsandbytes_and_fp8_linears():
    n = 4096 * 4096
    assert linear_bytes(W.INT8, 4096, 4096, False) == n + 4 * 4096  # Int8Params + SCB (fp32 per row)
    nf4 = linear_bytes(W.NF4, 4096, 4096, False)
    assert nf4 == n // 2 + 4 * (n // 64) + 64  # packed nibbles + fp32 absmax per 64 + the 16-entry code
    assert 8 * nf4 / n == pytest.approx(4.5, abs=1e-4)
    dq = linear_bytes(W.NF4, 4096, 4096, False, double_quant=True)
    assert 8 * dq / n == pytest.approx(4.127, abs=1e-3)  # QLoRA paper: 4.127 bits with double quantisation
    assert linear_bytes(W.FP8, 4096, 4096, True) == n + 4 + 2 * 4096  # e4m3 + fp32 scale + 16-bit bias


def test_use_more_bits_picks_the_layers_llama_quant_does():
    # i < n/8 || i >= 7n/8 || (i - n/8) % 3 == 2, n = 32: 0-3, 28-31 and 6, 9, ..., 27
    assert [i for i in range(32) if use_more_bits(i, 32)] == [0, 1, 2, 3, 6, 9, 12, 15, 18, 21, 24, 27, 28, 29, 30,
                                                            31]


def test_llama_3_8b_q4_k_m_mix():
    arch = presets.find_model("llama-3-8b").spec.architecture
    g = gguf_bytes(W.GGUF_Q4_K_M, arch, served_tensors(arch))
    kinds = dict(g.types)
    # attn_v and ffn_down of 16 of 32 layers in Q6_K, the output Q6_K, the rest (token embedding included) Q4_K
    v, down = 4096 * 1024, 14336 * 4096
    assert kinds["Q6_K"] == 16 * (v + down) + 128256 * 4096
    assert set(kinds) == {"Q4_K", "Q6_K"}
    assert g.head == 128256 * 4096 // 256 * 210 and g.embedding == 128256 * 4096 // 256 * 144


def test_a_row_the_block_does_not_divide_falls_back():
    arch = Architecture(num_layers=1, hidden_size=320, num_heads=5, ffn_size=640, vocab_size=1000)  # 320 % 256 != 0
    kinds = dict(gguf_bytes(W.GGUF_Q4_K_M, arch, served_tensors(arch)).types)
    assert "Q4_K" not in kinds and "Q5_0" in kinds and "Q8_0" in kinds  # Q4_K -> Q5_0, Q6_K -> Q8_0


def test_eight_experts_keep_attention_v_and_k_in_q8_0():
    arch = presets.find_model("mixtral-8x7b").spec.architecture
    w = weight_bytes(arch, W.GGUF_Q4_K_M)
    assert dict(w.types)["Q8_0"] == 32 * 2 * 4096 * 1024  # attn_k and attn_v of every layer
    assert dict(weight_bytes(arch, W.GGUF_Q4_0).types)["Q8_0"] == 32 * 2 * 4096 * 1024  # whatever the file type


@pytest.mark.parametrize(("key", "fmt", "gib"), [
    # runyard.dev, "Q4_K_M vs Q5_K_M vs Q6_K vs Q8_0" (Llama-3.1-8B: "16-bit ... 14.96 GB", "Q4_K_M ... 4.57 GB",
    # GiB as llama.cpp prints them); the files add their tokenizer and metadata (a few MB)
    ("llama-3.1-8b", W.BF16, 14.96),
    ("llama-3.1-8b", W.GGUF_Q4_K_M, 4.57),
])
def test_published_file_sizes(key, fmt, gib):
    arch = presets.find_model(key).spec.architecture
    assert weight_bytes(arch, fmt).total / 2**30 == pytest.approx(gib, abs=0.01)


def test_tensor_parallel_splits_and_replicates_kv_heads():
    arch = presets.find_model("llama-3-70b").spec.architecture  # 8 KV heads
    whole = weight_bytes(arch, W.BF16).total
    tp8, tp16 = weight_bytes(arch, W.BF16, tp=8).total, weight_bytes(arch, W.BF16, tp=16).total
    assert whole / 8 < tp8 < whole / 8 * 1.001  # norms whole on every rank
    served = served_tensors(arch, 16)
    k = next(t for t in served.linears if t.role == "attn_k")
    assert k.n_out == 128  # max(1, 8 // 16) = 1 KV head, replicated
    assert tp16 > whole / 16
