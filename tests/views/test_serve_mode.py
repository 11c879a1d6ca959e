"""The window's Serve mode: ticking it shows vramgui serve's answer on the Serving tab, hides the training tabs
and the training-only inputs, and unticking it brings training back."""

from __future__ import annotations

import math
from dataclasses import replace

from tests.views.helpers import edit, settle
from vramgui.core.scenario.choices import KvDType, WeightFormat
from vramgui.core.scenario.specs import HardwareSpec, Scenario
from vramgui.core.serve.estimate import serve_estimate
from vramgui.io.presets import find_gpu, find_model
from vramgui.presenters.form.groups import default_scenario
from vramgui.views.main_window import COMPARE_TAB, SERVE_TAB, TRAINING_TABS

SERVE = "serve.active"


def llama_on_a_4090() -> Scenario:
    gpu = find_gpu("rtx-4090")
    s = default_scenario()
    return replace(s, model=find_model("llama-3-8b").spec, hardware=HardwareSpec(gpu_memory=gpu.memory,
                                                                                  gpu_name=gpu.name),
                   serve=replace(s.serve, context=8192, batch=16, weights=WeightFormat.AWQ_INT4, kv_dtype=KvDType.FP8))


def test_serve_mode_switches_tabs_summary_and_table(window, qtbot):
    window.presenter.load_scenario(llama_on_a_4090())
    assert not window.chart_tabs.isTabVisible(SERVE_TAB)
    edit(window, SERVE, True)
    settle()
    assert window.chart_tabs.currentIndex() == SERVE_TAB
    assert all(not window.chart_tabs.isTabVisible(i) for i in TRAINING_TABS)
    assert window.chart_tabs.isTabVisible(COMPARE_TAB)
    e = serve_estimate(window.presenter.draft)
    assert window.summary.title.text().startswith("Serving:")
    assert window.breakdown.rows[-1].bytes == e.peak_bytes
    chart = window.current_chart()
    assert chart.vm is not None and chart.vm.current == window.presenter.draft.serve.context
    x = math.log2(chart.vm.current)
    assert "8,192 tokens" in chart.hover_text(x, 0) and "32.04" in chart.hover_text(x, 0)  # vLLM's concurrency
    left, right = chart.plot.vb.viewRange()[0]
    assert left < math.log2(chart.vm.counts[0]) < math.log2(chart.vm.counts[-1]) < right < left + 12
    assert not window.inputs.editors["training.micro_batch"].isEnabled()
    assert window.inputs.editors["serve.engine"].isEnabled()
    image = window.chart_image(800)
    assert not image.isNull()
    edit(window, SERVE, False)
    settle()
    assert window.chart_tabs.currentIndex() == 0 and not window.chart_tabs.isTabVisible(SERVE_TAB)
    assert window.summary.names["accumulation"].text() == window.summary.row_names[1]
    assert window.inputs.editors["training.micro_batch"].isEnabled()


def test_a_model_without_architecture_is_refused_with_the_reason(seed_window):
    window = seed_window  # the seed's worked example, every group open
    edit(window, SERVE, True)  # the seed's example: a 7B count, no architecture
    assert window.presenter.is_stale and "architecture" in window.presenter.errors[0].message


def test_a_saved_serving_scenario_reopens_in_serve_mode(window):
    s = llama_on_a_4090()
    window.presenter.load_scenario(replace(s, serve=replace(s.serve, active=True)))
    settle()
    assert window.presenter.serving and window.chart_tabs.currentIndex() == SERVE_TAB
