"""The "One training step" tab and the peak in the window: one stacked bar per moment at the presenter's numbers,
the peak marked at the tallest bar, a PNG export, the new inputs in their groups, bad input kept stale, and the
language switch keeping the tab and the breakdown's choice."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtGui import QImage

from tests.views.helpers import choose, type_into
from vramgui import app
from vramgui.core.estimate import estimate
from vramgui.core.text.units import format_bytes
from vramgui.views.main_window import STEP_TAB


def _llama(window) -> None:
    choose(window.inputs.editors["model.preset"], "llama-3-8b")
    window.chart_tabs.setCurrentIndex(STEP_TAB)


def test_one_stacked_bar_per_phase_at_the_presenters_numbers_and_the_peak_marked(window):
    _llama(window)
    window.inputs.editors["training.global_batch"].setText("32")  # accumulation: the later micro-batches too
    window.presenter.on_field_edited("training.global_batch", "32")
    chart, vm = window.step_chart, window.presenter.result.step
    est = estimate(window.presenter.scenario)
    assert chart.vm is vm and len(vm.x) == len(est.peak.phases) > 8
    for seg in vm.segments:
        opts = chart.bars[seg.key].opts
        assert list(opts["x"]) == list(vm.x)
        assert np.allclose(opts["height"], seg.heights) and np.allclose(opts["y0"], seg.bottoms)
    tops = np.sum([chart.bars[s.key].opts["height"] for s in vm.segments], axis=0)
    assert np.allclose(tops, vm.totals)
    xs, ys = chart.peak_marker.getData()
    assert list(xs) == [vm.x[int(np.argmax(vm.totals))]] and ys[0] == pytest.approx(max(vm.totals))
    assert format_bytes(est.peak.bytes) in chart.peak_label.textItem.toPlainText()
    ticks = [text for _, text in chart.plot.getAxis("bottom")._tickLevels[0]]
    assert any("first step" in t for t in ticks) and any("steady state" in t for t in ticks)


def test_the_headline_names_the_phase_and_the_sum_stays_visible(window):
    _llama(window)
    est = estimate(window.presenter.scenario)
    summary = window.summary
    assert summary.total.text() == f"Peak {format_bytes(est.peak.bytes)} per GPU"
    assert summary.moment.text().startswith("at the ") and summary.moment.isVisibleTo(window)
    assert format_bytes(est.per_gpu_total) in summary.sum.text() and summary.sum.isVisibleTo(window)
    assert summary.fits_kind == ("ok" if est.fits else "bad")


def test_the_breakdown_shows_the_peak_first_and_the_sum_on_request(window):
    _llama(window)
    panel, est = window.breakdown_panel, estimate(window.presenter.scenario)
    assert panel.section == "peak" and window.breakdown.rows[-1].bytes == est.peak.bytes
    assert window.breakdown.item(window.breakdown.rowCount() - 1, 0).font().bold()
    choose(panel.choice, "sum")
    assert window.breakdown.rows[-1].key == "total" and window.breakdown.rows[-1].bytes == est.per_gpu_total


def test_the_step_chart_exports_a_png_with_its_caption(tmp_path, window):
    _llama(window)
    path = tmp_path / "step.png"
    window.export_chart(str(path), 1200)
    image = QImage(str(path))
    assert image.width() == 1200 and image.height() > 400
    assert window.current_chart() is window.step_chart
    assert "no recomputation" in window.presenter.result.caption


def test_bad_input_shows_the_inline_error_and_never_new_numbers(qtbot, window):
    _llama(window)
    before, vm = window.summary.total.text(), window.step_chart.vm
    type_into(qtbot, window.inputs.editors["overhead.cuda_context"], "lots")
    assert window.inputs.error_text("overhead.cuda_context")
    assert window.presenter.is_stale and not window.summary.stale_banner.isHidden()
    assert window.summary.total.text() == before and not window.summary.total.isEnabled()
    assert not window.summary.moment.isEnabled() and not window.breakdown_panel.isEnabled()
    assert window.step_chart.vm is vm and window.step_chart.plot.opacity() < 1
    type_into(qtbot, window.inputs.editors["overhead.cuda_context"], "2GB")
    assert not window.presenter.is_stale and window.step_chart.plot.opacity() == 1
    assert window.step_chart.vm is not vm and window.summary.total.text() != before


def test_the_new_inputs_sit_in_their_groups_with_defaults_and_reasons(window):
    inputs = window.inputs
    for group, paths in (("training", ("precision.optimizer_impl", "training.loss")),
                         ("strategy", ("parallel.ddp_bucket_view",)),
                         ("overheads", ("overhead.zero3_prefetch", "overhead.reduce_bucket"))):
        for path in paths:
            assert inputs.groups[group].isAncestorOf(inputs.editors[path]), path
    assert inputs.editors["overhead.cuda_context"].text() == ""
    assert inputs.editors["overhead.cuda_context"].placeholderText() == "default: 532 MiB"
    assert inputs.editors["overhead.reduce_bucket"].placeholderText() == "default: 5e8"
    assert not inputs.editors["parallel.ddp_bucket_view"].isEnabled()  # the seed's example is ZeRO-2
    assert "DDP" in inputs.inactive_reason("parallel.ddp_bucket_view")
    choose(inputs.editors["parallel.zero_stage"], "0")
    assert inputs.editors["parallel.ddp_bucket_view"].isEnabled()
    inputs.editors["parallel.ddp_bucket_view"].setChecked(True)
    assert window.presenter.scenario.parallel.ddp_bucket_view


def test_the_language_switch_keeps_the_step_tab_and_the_breakdown_choice(qtbot, window):
    _llama(window)
    choose(window.breakdown_panel.choice, "sum")
    new = app.rebuild_window(window, "en")
    qtbot.addWidget(new)
    new.ensure_charts()
    assert new.chart_tabs.currentIndex() == STEP_TAB and new.breakdown_panel.section == "sum"
    assert new.step_chart.vm is not None and new.step_chart.vm.totals == window.step_chart.vm.totals
    new.presenter.finish_sweeps()
