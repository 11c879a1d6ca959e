"""The step peak on the "By strategy" chart: a dash at each bar's peak (the core's ``estimate(variant).peak``), red
with a ✕ where the peak is above the usable memory even when the bar (the sum) is below it, a legend entry, the
peak's tooltip; and the same on the Compare tab."""

from __future__ import annotations

import numpy as np
import pytest

from tests.views.helpers import type_into
from vramgui.core.estimate import estimate
from vramgui.core.solve import questions as solve
from vramgui.core.text.units import format_bytes
from vramgui.views.main_window import COMPARE_TAB

GB = 10**9


def _dashes(line) -> dict[float, float]:
    """x of each dash's middle -> its height, from a ``connect="pairs"`` item."""
    xs, ys = line.getData()
    if xs is None:
        return {}
    return {round((xs[i] + xs[i + 1]) / 2, 6): ys[i] for i in range(0, len(xs), 2)}


def test_the_peak_dashes_stand_at_the_cores_step_peak_of_every_variant(window):
    chart, scenario = window.strategy_chart, window.presenter.scenario
    peaks = [estimate(sc).peak.bytes / GB for _, sc in solve.strategy_variants(scenario)]
    dashes = _dashes(chart.marks.fits_line) | _dashes(chart.marks.over_line)
    assert [dashes[float(i)] for i in range(len(peaks))] == pytest.approx(peaks)
    xs, _ = chart.marks.fits_line.getData()
    assert xs[1] - xs[0] > 0.62  # slightly wider than the bar
    stacked = sum(item.opts["height"] for item in chart.bars.values() if item.isVisible())
    assert list(stacked) == pytest.approx([estimate(sc).per_gpu_total / GB
                                           for _, sc in solve.strategy_variants(scenario)])  # bars: still the sum
    legend = [label.text for _, label in chart.legend.items]
    assert "step peak (decides fits)" in legend
    assert legend.index("step peak (decides fits)") > legend.index("Parameters")
    labels = [label.textItem.toPlainText() for label in chart.marks.labels if label.isVisible()]
    assert labels[2].splitlines() == [f"peak {peaks[2]:,.1f}", f"sum {estimate(scenario).per_gpu_total / GB:,.1f}"]


def test_a_bar_below_usable_whose_peak_is_above_is_marked_as_not_fitting(qtbot, seed_window):
    window = seed_window  # the seed's worked example, every group open
    type_into(qtbot, window.inputs.editors["hardware.gpu_memory"], "50GB")  # usable 40 GB
    chart = window.strategy_chart
    vm = chart.vm
    zero1 = vm.keys.index("zero1")
    est = estimate({st.key: sc for st, sc in solve.strategy_variants(window.presenter.scenario)}["zero1"])
    assert est.per_gpu_total <= est.usable < est.peak.bytes  # the sum fits, the peak does not
    assert vm.totals[zero1] < vm.usable and vm.fits[zero1] is False
    over = _dashes(chart.marks.over_line)
    assert over[float(zero1)] == pytest.approx(est.peak.bytes / GB)
    assert float(zero1) not in _dashes(chart.marks.fits_line)
    assert chart.marks.labels[zero1].textItem.toPlainText().startswith("✕ peak")
    assert "✕ does not fit" in [label.text for _, label in chart.legend.items]
    zero3 = vm.keys.index("zero3")
    assert vm.fits[zero3] and float(zero3) in _dashes(chart.marks.fits_line)


def test_the_y_range_holds_every_peak_and_its_label(window):
    chart = window.strategy_chart
    (_, top) = chart.plot.vb.viewRange()[1]
    assert top > max(chart.vm.label_tops) and top > chart.vm.capacity


def test_hovering_above_a_bar_gives_the_peak_and_the_sum(window):
    chart, vm = window.strategy_chart, window.strategy_chart.vm
    zero3 = vm.keys.index("zero3")
    est = estimate({st.key: sc for st, sc in solve.strategy_variants(window.presenter.scenario)}["zero3"])
    text = chart.hover_text(zero3, (vm.totals[zero3] + vm.peaks[zero3]) / 2)  # between the bar's top and its peak
    assert f"Step peak: {format_bytes(est.peak.bytes)} (at the " in text
    assert f"sum of components: {format_bytes(est.per_gpu_total)}" in text
    assert "Step peak" in chart.hover_text(zero3, 1.0)  # a segment's hover says it too


def test_pinned_bars_show_their_peak_and_the_fit_by_it(qtbot, seed_window):
    window = seed_window  # the seed's worked example, every group open
    type_into(qtbot, window.inputs.editors["hardware.gpu_memory"], "50GB")
    window.pin_current()  # ZeRO-2: fits by its peak
    window.inputs.editors["parallel.zero_stage"].setCurrentIndex(
        window.inputs.editors["parallel.zero_stage"].findData("1"))
    window.pin_current()  # ZeRO-1: the sum fits, the peak does not
    assert window.chart_tabs.currentIndex() == COMPARE_TAB
    view, pinned = window.compare_view, window.compare_presenter.pinned
    peaks = [estimate(p.scenario).peak.bytes / GB for p in pinned]
    assert _dashes(view.marks.fits_line) == pytest.approx({0.0: peaks[0]})
    assert _dashes(view.marks.over_line) == pytest.approx({1.0: peaks[1]})
    assert [view.table.item(r, 3).text() for r in range(2)] == ["Yes", "No"]
    assert view.table.item(1, 1).text() == format_bytes(estimate(pinned[1].scenario).peak.bytes)
    assert np.all(view.plot.getPlotItem().vb.viewRange()[1][1] > np.array(peaks))
