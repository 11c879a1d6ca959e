"""The KV cache as each engine allocates it, reproduced from its code.

**vLLM** (v1): every attention layer gets a page of ``block_size`` tokens, ``2 · block_size · kv_heads ·
head_size · dtype`` bytes (``vllm/v1/kv_cache_interface.py`` ``AttentionSpec.real_page_size_bytes``; MLA one latent
row, ``MLAAttentionSpec``). Layers of one kind share a block table: a model of one kind is one group of all its
layers; a hybrid model (sliding and full layers) is split into groups of equal size, the smaller kind's count (the
larger kind's if it is under 1.5 times the smaller), each kind padded to whole groups
(``vllm/v1/core/kv_cache_utils.py`` ``_get_kv_cache_groups_uniform_page_size``). The pool is cut into
``num_blocks = available // page_size // group_size`` blocks (``get_num_blocks``); vLLM logs ``GPU KV cache size =
num_blocks // groups · block_size`` tokens and ``Maximum concurrency = num_blocks / blocks per request``
(``_report_kv_cache_config``, ``get_max_concurrency_for_kv_cache_config``). A request needs ``⌈len/block⌉`` blocks
of a full-attention group (``FullAttentionSpec.max_memory_usage_bytes``) and ``⌈min(window − 1 +
max_num_batched_tokens, len)/block⌉ + 1`` of a sliding one (``SlidingWindowSpec.max_memory_usage_bytes``).

**llama.cpp**: ``n_ctx`` is padded to 256 (``llama-context.cpp``: ``cparams.n_ctx = GGML_PAD(cparams.n_ctx, 256)``)
and one unified cache holds all sequences; a model with sliding-window layers (Gemma 2, Gemma 3, gpt-oss:
``hparams.set_swa_pattern`` in ``llama-model.cpp``) keeps them in a second cache of ``GGML_PAD(min(n_ctx, n_swa ·
n_seq + n_ubatch), 256)`` cells (``llama-kv-cache-iswa.cpp``). K and V are ``ggml_row_size(type, n_embd_gqa)`` per
cell and layer (``llama-kv-cache.cpp``).

**transformers** (``generate`` with ``DynamicCache``, ``cache_utils.py``): each layer keeps K and V of every token
of every sequence; a sliding-window layer (``DynamicSlidingWindowLayer``) keeps the last ``window − 1`` as a view of
the prompt's K and V, so at the prefill it still holds them all.
"""

from __future__ import annotations

from dataclasses import dataclass

from vramgui.core.parallel.layout import ceil_div
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.serve.kv import KvRow

LLAMA_CPP_PAD = 256
HYBRID_GROUP_RATIO = 1.5  # _get_kv_cache_groups_uniform_page_size: max < 1.5 · min -> group size = max
LLAMA_CPP_SWA_FAMILIES = ("gemma2", "gemma3_text", "gpt_oss")  # llama-model.cpp set_swa_pattern(2 / 6 / 2)


@dataclass(frozen=True)
class VllmCache:
    page_size_bytes: int  # one layer's page
    block_size: int
    group_size: int  # layers sharing one pool tensor (all layers for a model of one kind)
    groups: tuple[tuple[str, int], ...]  # (kind "full"/"sliding", groups of that kind)
    num_blocks: int
    blocks_per_request: int  # at the context length asked
    needed_bytes: int  # what --batch requests of --context tokens take from the pool

    @property
    def group_count(self) -> int:
        return sum(n for _, n in self.groups)

    @property
    def kv_cache_tokens(self) -> int:
        """vLLM's "GPU KV cache size: N tokens" (``num_blocks // len(groups) * block_size``)."""
        return self.num_blocks // max(self.group_count, 1) * self.block_size

    @property
    def max_concurrency(self) -> float:
        return self.num_blocks / self.blocks_per_request if self.blocks_per_request else 0.0


def vllm_groups(arch: Architecture) -> tuple[int, tuple[tuple[str, int], ...]]:
    """(group size, groups per kind) of vLLM's hybrid allocator for ``arch``."""
    sliding, full = arch.sliding_layers, arch.full_layers
    kinds = [(k, n) for k, n in (("full", full), ("sliding", sliding)) if n]
    if len(kinds) == 1:
        return kinds[0][1], ((kinds[0][0], 1),)
    small, large = min(sliding, full), max(sliding, full)
    size = large if large < small * HYBRID_GROUP_RATIO else small
    return size, tuple((k, ceil_div(n, size)) for k, n in kinds)


def vllm_blocks_per_request(arch: Architecture, kind: str, tokens: int, block: int, batched: int) -> int:
    if kind == "full":
        return ceil_div(tokens, block)
    window = arch.sliding_window or tokens
    return ceil_div(min(window - 1 + batched, tokens), block) + 1


def vllm_cache(arch: Architecture, row: KvRow, block: int, available: int, context: int, batch: int,
               batched: int) -> VllmCache:
    page = block * row.bytes
    size, groups = vllm_groups(arch)
    num_blocks = max(int(available // page // size), 0) if page else 0
    per_request = sum(n * vllm_blocks_per_request(arch, kind, context, block, batched) for kind, n in groups)
    needed = batch * per_request * page * size
    return VllmCache(page, block, size, groups, num_blocks, per_request, needed)


@dataclass(frozen=True)
class LlamaCppCache:
    cells: int  # the full-attention cache (n_ctx padded)
    swa_cells: int  # the sliding-window layers' cache (0: none)
    full_layers: int
    swa_layers: int
    row_bytes: int  # K + V of one cell and layer

    @property
    def bytes(self) -> int:
        return self.row_bytes * (self.cells * self.full_layers + self.swa_cells * self.swa_layers)


def pad(n: int, to: int) -> int:
    return ceil_div(n, to) * to


def llama_cpp_cache(arch: Architecture, row: KvRow, context: int, batch: int, ubatch: int) -> LlamaCppCache:
    cells = pad(context * batch, LLAMA_CPP_PAD)
    if arch.sliding_window is None or arch.model_type not in LLAMA_CPP_SWA_FAMILIES or not arch.sliding_layers:
        return LlamaCppCache(cells, 0, arch.num_layers, 0, row.bytes)
    swa = pad(min(cells, arch.sliding_window * batch + ubatch), LLAMA_CPP_PAD)
    return LlamaCppCache(cells, swa, arch.full_layers, arch.sliding_layers, row.bytes)


def hf_cache_bytes(arch: Architecture, row: KvRow, context: int, batch: int) -> int:
    """At the prefill every layer holds the whole prompt: a sliding layer's ``keys[:, :, -window + 1:, :]`` is a
    view of the concatenated prompt, which keeps its storage alive until the next step (measured:
    bench/validate/serve_measure.py); from then on it keeps ``window - 1`` tokens."""
    return batch * row.bytes * context * arch.num_layers
