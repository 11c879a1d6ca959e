"""The step peak beside the per-GPU sum on the "By strategy" bars: the presenter gives each bar its peak (what decides
the fit), whether it fits by it, the label's two lines and the tooltip; the bars still stack the sum."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vramgui.core.estimate import estimate
from vramgui.core.solve import questions as solve
from vramgui.core.text.units import format_bytes, to_unit
from vramgui.presenters import results
from vramgui.presenters.form.groups import default_scenario

GB = 10**9


def _with_memory(memory: int):
    s = default_scenario()
    return replace(s, hardware=replace(s.hardware, gpu_memory=memory, reserve=0.2))


def test_each_bar_carries_the_step_peak_of_its_variant_in_the_display_unit(qapp):
    scenario = _with_memory(80 * GB)
    bars = results.compute(scenario, "GiB").result.bars
    variants = [estimate(sc) for _, sc in solve.strategy_variants(scenario)]
    assert len(bars.peaks) == len(bars.fits) == len(bars.peak_texts) == len(bars.sum_texts) == len(variants)
    for i, est in enumerate(variants):
        assert bars.peaks[i] == pytest.approx(to_unit(est.peak.bytes, "GiB"))
        assert bars.totals[i] == pytest.approx(to_unit(est.per_gpu_total, "GiB"))  # the bar is still the sum
        assert bars.fits[i] is est.fits is (est.peak.bytes <= est.usable)
        assert bars.label_tops[i] == pytest.approx(max(bars.peaks[i], bars.totals[i]))
        assert bars.peak_texts[i] == f"peak {to_unit(est.peak.bytes, 'GiB'):,.1f}"
        assert bars.sum_texts[i] == f"sum {to_unit(est.per_gpu_total, 'GiB'):,.1f}"


def test_a_strategy_whose_sum_fits_but_whose_peak_does_not_is_marked_as_not_fitting(qapp):
    scenario = _with_memory(50 * GB)  # usable 40 GB: ZeRO-1's sum is 38.5 GB, its step peak 46.1 GB
    bars = results.compute(scenario).result.bars
    zero1 = bars.keys.index("zero1")
    assert bars.totals[zero1] < bars.usable < bars.peaks[zero1]
    assert bars.fits[zero1] is False
    zero3 = bars.keys.index("zero3")
    assert bars.peaks[zero3] < bars.usable and bars.fits[zero3] is True


def test_the_tooltip_names_the_peak_its_moment_and_the_sum(qapp):
    scenario = _with_memory(80 * GB)
    bars = results.compute(scenario).result.bars
    est = estimate(solve.strategy_variants(scenario)[1][1])  # ZeRO-1
    tip = bars.peak_tooltips[1]
    assert tip == (f"Step peak: {format_bytes(est.peak.bytes)} (at the optimizer step, steady state) — "
                   f"sum of components: {format_bytes(est.per_gpu_total)}")
    assert all(tip in seg.tooltips[1] for seg in bars.segments)  # every segment's hover says it too


def test_without_gpu_memory_the_fit_is_not_judged(qapp):
    s = default_scenario()
    bars = results.compute(replace(s, hardware=replace(s.hardware, gpu_memory=None))).result.bars
    assert set(bars.fits) == {None} and all(p is not None for p in bars.peaks)
