"""``vramgui serve``: the serving memory of one GPU as a table, or JSON; with ``--solve`` a reverse solve."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from vramgui.core.documents.gguf_config import GgufHeader
from vramgui.core.scenario.specs import Scenario
from vramgui.core.serve.estimate import ServeEstimate, serve_estimate
from vramgui.core.serve.formats import FILE_TYPES, tensor_bytes
from vramgui.core.serve.solve import solve_serving
from vramgui.core.serve.weights import weight_bytes
from vramgui.core.terms import render_derivation
from vramgui.core.text.message import Msg, english, render
from vramgui.core.text.units import format_bytes

EXIT_NOTHING_FITS = 1
_LABELS = {"weights": "weights", "kv_cache": "KV cache", "kv_pool": "KV pool (vLLM)", "activations": "prefill peak",
           "cuda_context": "CUDA context", "other": "other"}


def _table(e: ServeEstimate, unit: str) -> str:
    s = e.scenario
    v = s.serve
    head = (f"{s.model.name}: {v.batch} × {v.context:,} tokens, {v.weights} weights, {v.kv_dtype} KV cache, "
            f"engine {v.engine}, tp {s.parallel.tp}")
    lines = [head, ""]
    for p in e.components:
        lines.append(f"  {_LABELS.get(p.key, p.key):<16} {format_bytes(p.bytes, unit):>12}   "
                     f"{render_derivation(p.deriv, unit, english)}")
    lines.append(f"  {'total':<16} {format_bytes(e.peak_bytes, unit):>12}")
    lines.append(f"  KV per token: {e.kv_bytes_per_token:,} bytes (all layers, one GPU); "
                 f"{v.batch} × {v.context:,} tokens keep {format_bytes(e.kv.bytes, unit)}")
    if e.vllm is not None:
        c = e.vllm
        lines.append(f"  vLLM: page {c.page_size_bytes:,} bytes × {c.group_size} layers per block, "
                     f"{c.num_blocks:,} blocks, GPU KV cache size {c.kv_cache_tokens:,} tokens, maximum concurrency "
                     f"for {v.context:,} tokens per request {c.max_concurrency:.2f}x")
    if e.llama_cpp is not None:
        lc = e.llama_cpp
        swa = f", SWA cache {lc.swa_cells:,} cells" if lc.swa_cells else ""
        lines.append(f"  llama.cpp: {lc.cells:,} cells{swa}")
    if e.fits is not None:
        verdict = "fits" if e.fits else "does NOT fit"
        lines.append(f"  {verdict}: headroom {format_bytes(e.headroom, unit)}")
    lines += [f"note: {render(n, english)}" for n in e.notes]
    return "\n".join(lines)


def serve_output(s: Scenario, unit: str) -> tuple[dict[str, Any], str]:
    e = serve_estimate(s)
    return e.to_dict(), _table(e, unit)


def serve_solve_output(question: str, s: Scenario, unit: str) -> tuple[dict[str, Any], str, int]:
    answer = solve_serving(question, s)
    data: dict[str, Any] = {"question": question, "answer": answer.value, "bound": answer.bound,
                            "estimate": None if answer.estimate is None else answer.estimate.to_dict()}
    if answer.value is None or answer.estimate is None:
        return data, f"{question}: nothing fits (up to {answer.bound:,})", EXIT_NOTHING_FITS
    what = {"max-context": "tokens per sequence", "max-batch": "concurrent sequences", "min-gpus": "GPUs (tp)"}
    text = f"{question}: {answer.value:,} {what[question]}\n\n" + _table(answer.estimate, unit)
    return data, text, 0


def gguf_weights(s: Scenario, header: GgufHeader, weights_given: bool) -> tuple[Scenario, list[Msg]]:
    """The scenario with the file's own type as ``--weights`` (unless given), and a note comparing the file's
    tensor bytes with vramgui's count for that format."""
    notes: list[Msg] = []
    file_type = header.metadata.get("general.file_type")
    fmt = FILE_TYPES.get(file_type) if isinstance(file_type, int) else None
    if not weights_given and fmt is not None:
        s = replace(s, serve=replace(s.serve, weights=fmt))
    sizes = [tensor_bytes(t.ggml_type, t.dims) for t in header.tensors]
    arch = s.model.architecture
    if arch is None or any(n is None for n in sizes):
        return s, notes
    file_bytes = sum(n for n in sizes if n is not None)
    ours = weight_bytes(arch, s.serve.weights, 1, s.finetune.double_quant).total
    notes.append(Msg.of("note.gguf_bytes", file=f"{file_bytes:,}", weights=str(s.serve.weights), ours=f"{ours:,}",
                        diff=f"{(ours - file_bytes) / max(file_bytes, 1):+.2%}"))
    return s, notes
