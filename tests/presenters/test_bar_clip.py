"""The strategy chart's scale break (issue 23): the presenter cuts a bar far above the GPU's memory, so the capacity
line and the bars near it keep the axis; the exact values stay in the texts and tooltips."""

from __future__ import annotations

import pytest

from vramgui.presenters.bar_clip import CLIP_AT, CLIP_WHEN, clip_bars
from vramgui.presenters.view_models import BarSegment, StrategyBarsVM


def _vm(tops: tuple[float, ...], capacity: float | None = 80.0) -> StrategyBarsVM:
    n = len(tops)
    lower = BarSegment("parameters", "P", (0.0,) * n, tuple(t / 2 for t in tops), ("tip",) * n)
    upper = BarSegment("gradients", "G", tuple(t / 2 for t in tops), tuple(t / 2 for t in tops), ("tip",) * n)
    return StrategyBarsVM(
        strategies=tuple(f"s{i}" for i in range(n)), short_labels=tuple(f"s{i}" for i in range(n)),
        segments=(lower, upper), totals=tops, chosen=0, capacity=capacity,
        usable=None if capacity is None else capacity * 0.8, unit="GB", peaks=tops, fits=(False,) * n,
        peak_texts=tuple(f"peak {t:,.1f}" for t in tops), sum_texts=tuple(f"sum {t:,.1f}" for t in tops),
        label_tops=tops)


def test_a_bar_far_above_capacity_is_cut_and_keeps_its_value_in_its_label():
    vm = clip_bars(_vm((1214.8, 120.0, 60.0)))
    assert vm.clipped == (True, False, False)
    assert vm.clip_at == pytest.approx(80.0 * CLIP_AT)
    assert vm.label_tops == (pytest.approx(160.0), 120.0, 60.0)
    assert vm.peaks == (None, 120.0, 60.0)  # no dash above the axis' top
    assert vm.peak_texts[0] == "peak 1,214.8" and vm.totals[0] == 1214.8  # texts and hover values exact
    drawn = [seg.bottoms[0] + seg.heights[0] for seg in vm.segments]
    assert max(drawn) == pytest.approx(160.0) and vm.segments[1].heights[0] == 0.0  # the upper part above the cut
    assert vm.segments[1].heights[1] == 60.0  # the others whole


def test_a_cut_bar_never_stands_lower_than_a_bar_drawn_whole():
    vm = clip_bars(_vm((1000.0, 230.0)))  # 230 < 3 x 80: whole, and above 2 x 80
    assert vm.clipped == (True, False) and vm.clip_at == pytest.approx(253.0)


def test_every_bar_cut_stands_at_twice_the_memory():
    vm = clip_bars(_vm((1000.0, 900.0)))  # no bar drawn whole (a fuzzed scenario found this case)
    assert vm.clipped == (True, True) and vm.clip_at == pytest.approx(160.0)


@pytest.mark.parametrize(("tops", "capacity"), [((200.0, 60.0), 80.0), ((1000.0, 10.0), None)])
def test_nothing_is_cut_below_the_threshold_or_without_a_gpu_memory(tops, capacity):
    vm = _vm(tops, capacity)
    assert max(tops) <= CLIP_WHEN * 80 or capacity is None
    assert clip_bars(vm) is vm
