"""Scenario -> serving memory on one GPU: weights, the KV cache, the prefill peak and the CUDA context, each a
keyed ``Part``; with vLLM its pool, blocks and concurrency, with llama.cpp its cells (``engines``)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from vramgui.core.scenario.choices import Engine
from vramgui.core.scenario.specs import Scenario
from vramgui.core.serve import engines
from vramgui.core.serve.kv import kv_row
from vramgui.core.serve.prefill import hf_mask_bytes, hf_model_bytes_per_token, prefill_part
from vramgui.core.serve.validate import validate_serving
from vramgui.core.serve.weights import weight_bytes, weights_part
from vramgui.core.step.terms import DEFAULT_CUDA_CONTEXT
from vramgui.core.terms import Derivation, Part, Term
from vramgui.core.text.message import Msg, english, render

GiB = 2**30
SOURCE_KV = "vllm/v1/kv_cache_interface.py, vllm/v1/core/kv_cache_utils.py; llama.cpp llama-kv-cache(-iswa).cpp; " \
            "transformers cache_utils.py (docs/serving.md)"
SOURCE_CONTEXT = "CUDA context + cuBLAS workspace (pytorch#107667, #28113; docs/peak.md)"


def vllm_defaults(gpu_memory: int | None, gpu_name: str | None) -> tuple[int, int]:
    """(max_num_batched_tokens, max_num_seqs) of ``vllm serve`` (``EngineArgs.get_batch_defaults``, OpenAI API
    server): 8192 and 1024 on a GPU of 70 GiB or more that is no A100, else 2048 and 256."""
    big = gpu_memory is not None and gpu_memory >= 70 * GiB and "a100" not in (gpu_name or "").lower()
    return (8192, 1024) if big else (2048, 256)


@dataclass(frozen=True)
class ServeEstimate:
    scenario: Scenario
    weights: Part
    kv: Part  # what --batch sequences of --context tokens keep
    activations: Part
    context: Part  # CUDA context (hf, llama.cpp) or nothing (vLLM counts it outside its share)
    kv_bytes_per_token: int  # all layers, one GPU
    pool: Part | None  # vLLM: the whole KV pool it allocates
    fits: bool | None
    headroom: int | None
    vllm: engines.VllmCache | None = None
    vllm_available: int | None = None
    llama_cpp: engines.LlamaCppCache | None = None
    notes: tuple[Msg, ...] = ()

    @property
    def components(self) -> tuple[Part, ...]:
        held = self.pool if self.pool is not None else self.kv
        return (self.weights, held, self.activations, self.context)

    @property
    def peak_bytes(self) -> int:
        return sum(p.bytes for p in self.components)

    def to_dict(self) -> dict[str, Any]:
        parts = self.components
        out: dict[str, Any] = {
            "engine": str(self.scenario.serve.engine), "weights_format": str(self.scenario.serve.weights),
            "weights_bytes": self.weights.bytes, "kv_bytes_per_token": self.kv_bytes_per_token,
            "kv_cache_bytes": self.kv.bytes, "activations_bytes": self.activations.bytes,
            "peak": {"bytes": self.peak_bytes, "components": {p.key: p.bytes for p in parts},
                     "formulas": {p.key: p.formula for p in parts},
                     "derivations": {p.key: p.derivation for p in parts},
                     "sources": {p.key: p.source for p in parts}},
            "gpu_memory": self.scenario.hardware.gpu_memory, "fits": self.fits, "headroom": self.headroom,
            "tp": self.scenario.parallel.tp, "replicas": self.scenario.parallel.num_gpus // self.scenario.parallel.tp,
            "notes": [render(n, english) for n in self.notes],
        }
        if self.vllm is not None:
            c = self.vllm
            out["vllm"] = {"page_size_bytes": c.page_size_bytes, "block_size": c.block_size,
                           "num_blocks": c.num_blocks, "kv_cache_tokens": c.kv_cache_tokens,
                           "max_concurrency": round(c.max_concurrency, 4), "blocks_per_request": c.blocks_per_request,
                           "group_size": c.group_size, "groups": dict(c.groups),
                           "available_kv_bytes": self.vllm_available}
        if self.llama_cpp is not None:
            out["llama_cpp"] = {"cells": self.llama_cpp.cells, "swa_cells": self.llama_cpp.swa_cells}
        return out


def _bytes_part(n: int, key: str, symbol: str, label: Msg, source: str) -> Part:
    return Part(n, Derivation((Term(n, symbol=symbol, label=label, style="bytes"),), n), source, key=key)


def _blocks_part(n_blocks: int, block_bytes: int, key: str, symbol: str, label: Msg) -> Part:
    """``n_blocks`` vLLM blocks of ``block_bytes`` (one page of every layer of a group)."""
    n = n_blocks * block_bytes
    term = Term(n, block_bytes, symbol, n_blocks, coefficient_symbol="page·L_group", label=label, style="grouped")
    return Part(n, Derivation((term,), n), SOURCE_KV, key=key)


def _cells_part(lc: engines.LlamaCppCache) -> Part:
    """llama.cpp: the cells of each cache × its layers × one cell's K and V row."""
    terms = [Term(lc.cells * lc.full_layers * lc.row_bytes, lc.row_bytes, "cells·L_full", lc.cells * lc.full_layers,
                  coefficient_symbol="row_kv", label=Msg.of("deriv.serve_cells", cells=lc.cells,
                                                            layers=lc.full_layers), style="grouped")]
    if lc.swa_cells:
        terms.append(Term(lc.swa_cells * lc.swa_layers * lc.row_bytes, lc.row_bytes, "swa_cells·L_swa",
                          lc.swa_cells * lc.swa_layers, coefficient_symbol="row_kv",
                          label=Msg.of("deriv.serve_swa_cells", cells=lc.swa_cells, layers=lc.swa_layers),
                          style="grouped"))
    return Part(lc.bytes, Derivation(tuple(terms), lc.bytes), SOURCE_KV, key="kv_cache")


@lru_cache(maxsize=512)
def serve_estimate(s: Scenario) -> ServeEstimate:
    arch = validate_serving(s)
    v, tp = s.serve, s.parallel.tp
    dtype = v.kv_dtype
    row = kv_row(arch, v.engine, dtype, tp)
    weights = weight_bytes(arch, v.weights, tp, s.finetune.double_quant)
    w_part = weights_part(weights, v.weights, embedding_on_host=v.engine == Engine.LLAMA_CPP)
    per_token = row.bytes * arch.num_layers
    notes: list[Msg] = []
    extra = s.overhead.extra
    cuda = DEFAULT_CUDA_CONTEXT if s.overhead.cuda_context is None else s.overhead.cuda_context
    if v.engine == Engine.VLLM:
        batched, seqs = vllm_defaults(s.hardware.gpu_memory, s.hardware.gpu_name)
        batched = v.max_num_batched_tokens or batched
        acts = prefill_part(arch, batched, tp, min(seqs, batched), 8)  # fp32 logits + the sampler's fp32 copy
        if v.kv_cache_memory_bytes is not None:
            available = v.kv_cache_memory_bytes
        else:
            assert s.hardware.gpu_memory is not None
            requested = int(Fraction(s.hardware.gpu_memory) * Fraction(v.gpu_memory_utilization))
            available = requested - weights.total - acts.bytes - extra
            notes.append(Msg.of("note.serve_vllm_non_torch"))
        cache = engines.vllm_cache(arch, row, v.block_size, max(available, 0), v.context, v.batch, batched)
        if arch.is_mla and v.block_size < 64:
            notes.append(Msg.of("note.serve_vllm_mla_block", block=v.block_size))
        block = cache.page_size_bytes * cache.group_size
        kv = _blocks_part(v.batch * cache.blocks_per_request, block, "kv_cache", "batch·blocks",
                          Msg.of("deriv.serve_vllm_needed", blocks=cache.blocks_per_request, batch=v.batch))
        pool = _blocks_part(cache.num_blocks, block, "kv_pool", "num_blocks", Msg.of("deriv.serve_vllm_pool"))
        context = _bytes_part(extra, "other", "extra", Msg.of("deriv.serve_extra"), "--extra")
        fits: bool | None = available > 0 and cache.num_blocks >= v.batch * cache.blocks_per_request
        if s.hardware.gpu_memory is not None and v.kv_cache_memory_bytes is None:
            fits = fits and s.hardware.gpu_memory - cuda >= requested  # vLLM: free memory < desired utilization
        headroom: int | None = available - cache.needed_bytes
        return ServeEstimate(s, w_part, kv, acts, context, per_token, pool, fits, headroom, cache, available,
                             notes=tuple(notes))
    if v.engine == Engine.LLAMA_CPP:
        lc = engines.llama_cpp_cache(arch, row, v.context, v.batch, v.ubatch)
        kv = _cells_part(lc)
        tokens = min(v.ubatch, v.context * v.batch)  # the worst-case graph reserves logits for every ubatch token
        acts = prefill_part(arch, tokens, tp, tokens, 4)
        if arch.sliding_window is not None and not lc.swa_cells and arch.sliding_layers:
            notes.append(Msg.of("note.serve_llama_cpp_no_swa", model_type=arch.model_type))
    else:
        kv = _bytes_part(engines.hf_cache_bytes(arch, row, v.context, v.batch), "kv_cache", "KV",
                         Msg.of("deriv.serve_dynamic_cache"), SOURCE_KV)
        acts = prefill_part(arch, v.context * v.batch, tp, v.batch, 6,  # last-position logits + their fp32 copy
                            hf_model_bytes_per_token(arch), hf_mask_bytes(arch, v.batch, v.context))
        lc = None
    context = _bytes_part(cuda + extra, "cuda_context", "C_cuda", Msg.of("deriv.serve_context"), SOURCE_CONTEXT)
    total = w_part.bytes + kv.bytes + acts.bytes + context.bytes
    usable = None if s.hardware.gpu_memory is None else int(s.hardware.gpu_memory * (1 - s.hardware.reserve))
    fits = None if usable is None else total <= usable
    headroom = None if usable is None else usable - total
    return ServeEstimate(s, w_part, kv, acts, context, per_token, None, fits, headroom, llama_cpp=lc,
                         notes=tuple(notes))
