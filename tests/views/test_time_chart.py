"""The "Time and cost" tab: a stacked bar of step time per strategy at the presenter's seconds, each bar's time over
its step peak (red with a ✕ where the peak does not fit), hover texts with the derivations, a note when the GPU has no
compute figures; the summary's time lines, the breakdown following the tab, and the comparison's time columns."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtGui import QImage

from tests.views.helpers import choose, edit
from vramgui.core.estimate import estimate
from vramgui.presenters.time_results import seconds_text
from vramgui.presenters.view_models import BarSegment, TimeBarsVM
from vramgui.views.charts.time import TimeChart
from vramgui.views.main_window import COMPARE_TAB, TIME_TAB


def _vm(fits=(True, False), note="") -> TimeBarsVM:
    segments = () if note else (
        BarSegment("compute", "compute", (0.0, 0.0), (1.0, 2.0), ("A\ncompute: 1 s", "B\ncompute: 2 s")),
        BarSegment("dp_comm", "data-parallel communication", (1.0, 2.0), (0.5, 0.0), ("A\ndp: 0.5 s", "B\ndp: 0")),
    )
    return TimeBarsVM(strategies=("A", "B"), short_labels=("A", "B"), keys=("a", "b"), segments=segments,
                      totals=(0.0, 0.0) if note else (1.5, 2.0), chosen=0,
                      time_texts=("—", "—") if note else ("1.5 s", "2 s"), peak_texts=("peak 40.0 GB", "peak 90.0 GB"),
                      fits=fits, bar_tooltips=("A: 1.5 s", "B: 2 s"), axis_label="Time per step (s)", note=note)


def _chart(qtbot) -> TimeChart:
    """A chart of its own, shown (not a fixture: a chart a fixture still holds when qtbot closes it crashes
    pyqtgraph's ``GraphicsView.close``, the other charts' as well)."""
    widget = TimeChart()
    qtbot.addWidget(widget)
    widget.resize(700, 420)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_bars_stack_the_presenters_seconds_and_label_time_over_peak(qtbot):
    chart = _chart(qtbot)
    vm = _vm()
    chart.show_time(vm)
    for seg in vm.segments:
        opts = chart.bars[seg.key].opts
        assert np.allclose(opts["height"], seg.heights) and np.allclose(opts["y0"], seg.bottoms)
    labels = [label.textItem.toPlainText() for label in chart.marks.labels[:2]]
    assert labels[0].startswith("1.5 s") and "peak 40.0 GB" in labels[0]
    assert labels[1].startswith("✕ 2 s") and "peak 90.0 GB" in labels[1]  # its peak does not fit
    legend = [label.text for _, label in chart.legend.items]
    assert legend[:2] == ["compute", "data-parallel communication"] and legend[-1] == "✕ does not fit"
    assert chart.plot.vb.viewRange()[1][0] == 0 and chart.plot.vb.viewRange()[1][1] > 2.0


def test_hover_names_the_part_under_the_pointer_then_the_bar(qtbot):
    chart = _chart(qtbot)
    chart.show_time(_vm())
    assert chart.hover_text(0.0, 0.5) == "A\ncompute: 1 s"
    assert chart.hover_text(0.0, 1.2) == "A\ndp: 0.5 s"
    assert chart.hover_text(1.0, 2.1) == "B: 2 s"  # over the bar: its time, throughput and peak
    assert chart.hover_text(0.5, 0.5) == ""  # between the bars


def test_no_time_shows_the_note_instead_of_bars_and_legend(qtbot):
    chart = _chart(qtbot)
    chart.show_time(_vm(fits=(None, None), note="No step time: the GPU has no compute figures."))
    assert chart.note.isVisible() and "compute figures" in chart.note.toPlainText()
    assert not chart.legend.isVisible()
    chart.show_time(_vm())  # a GPU with figures again
    assert not chart.note.isVisible() and chart.legend.isVisible()


def test_the_window_shows_time_beside_the_peak_for_every_strategy(window):
    choose(window.inputs.editors["model.preset"], "llama-3-8b")
    choose(window.inputs.editors["hardware.gpu"], "h100-sxm")
    window.chart_tabs.setCurrentIndex(TIME_TAB)
    result = window.presenter.result
    chart, vm = window.time_chart, result.time_bars
    assert chart.vm is vm and vm.strategies == result.bars.strategies and vm.chosen == result.bars.chosen
    est = estimate(window.presenter.scenario)
    assert vm.totals[vm.chosen] == pytest.approx(est.time.step_seconds)
    assert seconds_text(est.time.step_seconds) in chart.marks.labels[vm.chosen].textItem.toPlainText()
    assert window.summary.values["step_time"].isVisibleTo(window)
    assert seconds_text(est.time.step_seconds) in window.summary.values["step_time"].text()
    assert window.breakdown_panel.section == "time"  # the tab shows the time's rows with their derivations
    assert window.breakdown.rows[-1].key == "step_time" and "s" in window.breakdown.rows[-1].value_text
    window.chart_tabs.setCurrentIndex(0)
    assert window.breakdown_panel.section == "peak"  # the section chosen before comes back


def test_a_gpu_without_compute_figures_says_why_everywhere(seed_window):
    window = seed_window  # the seed's worked example, every group open
    choose(window.inputs.editors["model.preset"], "llama-3-8b")
    edit(window, "hardware.gpu", "custom")  # a memory size only
    edit(window, "hardware.gpu_memory", "80GB")
    window.chart_tabs.setCurrentIndex(TIME_TAB)
    assert window.presenter.computed.estimate.time is None
    assert window.time_chart.note.isVisible()
    assert "compute figures" in window.summary.values["step_time"].text()
    assert "choose a GPU preset" in window.summary.values["step_time"].toolTip()
    assert not window.summary.values["training"].isVisibleTo(window)


def test_the_time_chart_exports_a_png(tmp_path, window):
    choose(window.inputs.editors["model.preset"], "llama-3-8b")
    choose(window.inputs.editors["hardware.gpu"], "h100-sxm")
    window.chart_tabs.setCurrentIndex(TIME_TAB)
    path = tmp_path / "time.png"
    window.export_chart(str(path), 1200)
    assert QImage(str(path)).width() == 1200 and window.current_chart() is window.time_chart


def test_compare_lists_time_and_cost_columns(window):
    choose(window.inputs.editors["model.preset"], "llama-3-8b")
    choose(window.inputs.editors["hardware.gpu"], "h100-sxm")
    window.pin_current()
    assert window.chart_tabs.currentIndex() == COMPARE_TAB
    table = window.compare_view.table
    headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert headers[-4:] == ["Step time", "Throughput", "Time to train", "Cost"]
    est = estimate(window.presenter.scenario)
    assert table.item(0, headers.index("Step time")).text() == seconds_text(est.time.step_seconds)
    ticks = [text for _, text in window.compare_view.plot.getPlotItem().getAxis("bottom")._tickLevels[0]]
    assert ticks[0].endswith(seconds_text(est.time.step_seconds) + "/step")
