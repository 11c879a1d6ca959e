"""What one token of one layer keeps in the KV cache on one GPU, by architecture, dtype and engine.

* MHA, GQA and MQA keep K and V for each KV head: ``kv_heads · (head_dim + v_head_dim)`` elements per token and
  layer; MoE blocks keep the same cache as dense ones (experts are MLPs).
* MLA (DeepSeek-V2/V3): vLLM caches the compressed latent and the RoPE key, ``kv_lora_rank + qk_rope_head_dim``
  elements for a single "head" (``MLAAttentionSpec``, num_kv_heads 1) on every tensor-parallel rank; llama.cpp
  keeps K rows of ``kv_lora_rank + qk_rope_head_dim`` and V rows of ``kv_lora_rank`` (``hparams.n_embd_head_k_mla``,
  ``n_embd_head_v_mla``, one KV head); transformers caches the expanded per-head K (``qk_nope + qk_rope``) and V
  (``v_head_dim``) of every head (``DeepseekV3Attention`` passes ``key_states``/``value_states`` to the cache).
* Tensor parallelism: vLLM ``ModelConfig.get_num_kv_heads``: ``max(1, total_num_kv_heads // tp)`` (replicated
  when there are fewer KV heads than ranks); transformers' TP plans split the heads the same way.
* Element sizes: 16-bit 2 bytes, vLLM ``fp8`` 1 byte (``get_dtype_size(torch.uint8)``); llama.cpp rows are
  ``ggml_row_size(type, n)``: f16 2 bytes, q8_0 34 bytes and q4_0 18 bytes per 32 elements.
"""

from __future__ import annotations

from dataclasses import dataclass

from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.choices import Engine, KvDType
from vramgui.core.serve.formats import GGML_TYPES

_GGML_KV = {KvDType.AUTO: "F16", KvDType.FP16: "F16", KvDType.BF16: "BF16", KvDType.Q8_0: "Q8_0",
            KvDType.Q4_0: "Q4_0"}  # llama.cpp --cache-type-k/-v (default f16)
ALLOWED_KV = {Engine.VLLM: (KvDType.AUTO, KvDType.FP16, KvDType.BF16, KvDType.FP8),
              Engine.HF: (KvDType.AUTO, KvDType.FP16, KvDType.BF16),
              Engine.LLAMA_CPP: (KvDType.AUTO, KvDType.FP16, KvDType.BF16, KvDType.Q8_0, KvDType.Q4_0)}


@dataclass(frozen=True)
class KvRow:
    """Per token and layer on one GPU: the K and V rows in bytes (and their element counts)."""

    k_elements: int
    v_elements: int
    k_bytes: int
    v_bytes: int
    heads: int  # KV heads per GPU (1 for MLA's latent under vLLM and llama.cpp)

    @property
    def bytes(self) -> int:
        return self.k_bytes + self.v_bytes


def kv_heads_per_gpu(arch: Architecture, tp: int) -> int:
    return max(1, arch.kv_heads // tp)


def element_bytes(dtype: KvDType) -> int:
    """vLLM and transformers: bytes per cached element."""
    return 1 if dtype == KvDType.FP8 else 2


def kv_row(arch: Architecture, engine: Engine, dtype: KvDType, tp: int = 1) -> KvRow:
    if arch.is_mla and engine != Engine.HF:
        k = arch.kv_lora_rank + arch.qk_rope_head_dim
        if engine == Engine.VLLM:  # one latent row: MLAAttentionSpec.real_page_size_bytes has no factor 2
            return KvRow(k, 0, k * element_bytes(dtype), 0, 1)
        v = arch.kv_lora_rank
        kind = GGML_TYPES[_GGML_KV[dtype]]
        return KvRow(k, v, kind.row_bytes(k), kind.row_bytes(v), 1)
    heads = arch.num_heads if arch.is_mla else kv_heads_per_gpu(arch, tp)
    if arch.is_mla:
        heads = max(1, heads // tp)
    k, v = heads * arch.head_size, heads * arch.value_head_size
    if engine == Engine.LLAMA_CPP:
        kind = GGML_TYPES[_GGML_KV[dtype]]
        return KvRow(k, v, kind.row_bytes(k), kind.row_bytes(v), heads)
    size = element_bytes(dtype)
    return KvRow(k, v, k * size, v * size, heads)


def row_fits_blocks(row: KvRow, dtype: KvDType) -> bool:
    """llama.cpp quantised rows need a multiple of the type's 32-element block."""
    block = GGML_TYPES[_GGML_KV.get(dtype, "F16")].block
    return row.k_elements % block == 0 and row.v_elements % block == 0
