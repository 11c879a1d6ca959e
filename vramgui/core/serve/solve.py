"""Reverse solves for serving: the longest context, the most concurrent sequences, the fewest GPUs that fit.

Each answer is checked by ``serve_estimate`` at it (fits) and at the next value (does not): the KV cache and the
prefill grow with the context and the batch, so a bisection finds the boundary. ``min-gpus`` tries the
tensor-parallel sizes the model's attention heads divide into, smallest first (vLLM's rule), one replica.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from vramgui.core.fields.table import MAX_BATCH, MAX_SEQ
from vramgui.core.scenario.choices import Engine
from vramgui.core.scenario.specs import Scenario
from vramgui.core.serve.estimate import ServeEstimate, serve_estimate
from vramgui.core.serve.validate import validate_serving
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg

QUESTIONS = ("max-context", "max-batch", "min-gpus")
MAX_TP = 1024


@dataclass(frozen=True)
class ServeAnswer:
    question: str
    value: int | None  # None: nothing fits
    estimate: ServeEstimate | None  # at the answer
    bound: int  # the largest value tried


def _needs_memory(s: Scenario) -> None:
    if s.hardware.gpu_memory is None and not (s.serve.engine == Engine.VLLM and s.serve.kv_cache_memory_bytes):
        raise InputError("hardware.gpu_memory", Msg.of("error.serve_solve_memory"), Msg.of("allowed.serve_vllm_pool"))


def _largest(fits: Callable[[int], ServeEstimate | None], low: int,
             high: int) -> tuple[int | None, ServeEstimate | None]:
    """The largest n in low..high with ``fits(n)`` (monotone: fits up to a point, then not)."""
    first = fits(low)
    if first is None:
        return None, None
    best, found = low, first
    lo, hi = low + 1, high
    while lo <= hi:
        mid = (lo + hi) // 2
        got = fits(mid)
        if got is not None:
            best, found, lo = mid, got, mid + 1
        else:
            hi = mid - 1
    return best, found


def _fitting(s: Scenario) -> ServeEstimate | None:
    e = serve_estimate(s)
    return e if e.fits else None


def solve_serving(question: str, s: Scenario) -> ServeAnswer:
    validate_serving(s)
    _needs_memory(s)
    arch = s.model.architecture
    assert arch is not None
    if question == "max-context":
        high = arch.max_position_embeddings or MAX_SEQ
        value, e = _largest(lambda n: _fitting(replace(s, serve=replace(s.serve, context=n))), 1, high)
        return ServeAnswer(question, value, e, high)
    if question == "max-batch":
        value, e = _largest(lambda n: _fitting(replace(s, serve=replace(s.serve, batch=n))), 1, MAX_BATCH)
        return ServeAnswer(question, value, e, MAX_BATCH)
    sizes = [1] if s.serve.engine == Engine.LLAMA_CPP else [
        d for d in range(1, min(arch.num_heads, MAX_TP) + 1) if arch.num_heads % d == 0]
    for tp in sizes:
        e = _fitting(replace(s, parallel=replace(s.parallel, tp=tp, num_gpus=tp)))
        if e is not None:
            return ServeAnswer(question, tp, e, sizes[-1])
    return ServeAnswer(question, None, None, sizes[-1])
