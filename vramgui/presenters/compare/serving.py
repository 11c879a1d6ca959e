"""A pinned serving scenario (``serve.active``) in the comparison: ``vramgui serve``'s parts as the bar's segments,
its peak as the mark, its fit and headroom; a training pin keeps the training figures (``presenter._compute``)."""

from __future__ import annotations

from vramgui.core.scenario.specs import Scenario
from vramgui.core.scenario.strategy import Strategy
from vramgui.core.serve.estimate import serve_estimate
from vramgui.core.step.components import STACK_KEYS
from vramgui.presenters.compare.models import Figures
from vramgui.presenters.serve_results import usable_bytes

# a serving bar's segments, bottom to top (``ServeEstimate.components``: vLLM holds its pool, the others the cache)
SERVE_KEYS = ("weights", "kv_pool", "kv_cache", "activations", "cuda_context", "other")


def stack_keys(figures: list[Figures]) -> tuple[str, ...]:
    """The segments of the bars: training's, then serving's where a serving scenario is pinned."""
    keys = [k for f in figures for k, _ in f.components]
    return (*STACK_KEYS, *(k for k in SERVE_KEYS if k in keys and k not in STACK_KEYS))


def serve_figures(scenario: Scenario) -> Figures:
    """The serving estimate's numbers; raises ``InputError`` as ``vramgui serve`` does."""
    est = serve_estimate(scenario)
    parts = {p.key: p.bytes for p in est.components}
    usable = usable_bytes(est)
    return Figures(
        components=tuple((k, parts[k]) for k in SERVE_KEYS if k in parts),
        total=est.peak_bytes, usable=usable, fits=est.fits, headroom=est.headroom,
        max_micro_batch=None, accumulation_steps=1, strategy=Strategy.of(scenario), notes=est.notes,
        peak=est.peak_bytes,
    )
