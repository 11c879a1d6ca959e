"""Where the strategy chart cuts a bar far above the GPU's memory (issue 23: Mixtral 8x7B at 8,192 tokens on
8 x A100, whose 1,214.8 GB DDP peak set the y axis and left the capacity line and the ZeRO-3 bars in its bottom few
percent).

A bar (its sum or its step peak) standing higher than ``CLIP_WHEN`` times the GPU's memory is drawn up to
``CLIP_AT`` times the memory (or a tenth above the highest bar drawn whole) and marked as cut; its label keeps the
exact value ("peak 1,214.8"), the hover text the exact bytes. The others are drawn whole, so the capacity line stays
about 40 % of the way up the axis or higher (a scale break, drawn on the cut bars themselves so nobody reads their
height). The factors are a layout choice, not a measurement: 2 keeps whole every bar that one halving of its memory
could bring under the line, 3 cuts only a bar that would squeeze the line into the axis' bottom third. Without a GPU
memory there is no line to keep readable: nothing is cut. The decision is the presenter's; the chart only draws
what this returns.
"""

from __future__ import annotations

import dataclasses

from vramgui.presenters.view_models import BarSegment, StrategyBarsVM

CLIP_AT = 2.0  # x the GPU's memory: a cut bar's drawn height (bars below it are drawn whole)
CLIP_WHEN = 3.0  # x the GPU's memory: a bar higher than this is cut (below, the axis still shows the line well)


def clip_bars(vm: StrategyBarsVM) -> StrategyBarsVM:
    """``vm`` with the bars above ``CLIP_WHEN`` x capacity cut at ``CLIP_AT`` x capacity (``clip_at``, ``clipped``):
    their segments, their peak dash (dropped) and their label's height; texts and tooltips keep the exact values."""
    if not vm.capacity or vm.capacity <= 0:
        return vm
    tops = vm.label_tops or vm.totals
    limit = vm.capacity * CLIP_WHEN
    clipped = tuple(top > limit for top in tops)
    if not any(clipped):
        return vm
    # never below a bar drawn whole: a cut bar stands a tenth above the highest of them
    at = max([vm.capacity * CLIP_AT, *(top * 1.1 for top, cut in zip(tops, clipped, strict=True) if not cut)])
    segments = tuple(_cut(seg, clipped, at) for seg in vm.segments)
    peaks = tuple(None if cut else p for p, cut in zip(vm.peaks, clipped, strict=True)) if vm.peaks else ()
    label_tops = tuple(at if cut else top for top, cut in zip(vm.label_tops, clipped, strict=True)) \
        if vm.label_tops else ()
    return dataclasses.replace(vm, segments=segments, peaks=peaks, label_tops=label_tops, clip_at=at,
                               clipped=clipped)


def _cut(seg: BarSegment, clipped: tuple[bool, ...], at: float) -> BarSegment:
    bottoms = tuple(min(b, at) if cut else b for b, cut in zip(seg.bottoms, clipped, strict=True))
    heights = tuple(max(min(b + h, at) - min(b, at), 0.0) if cut else h
                    for b, h, cut in zip(seg.bottoms, seg.heights, clipped, strict=True))
    return dataclasses.replace(seg, bottoms=bottoms, heights=heights)
