"""The Plans tab in the window: the search runs on a worker thread while the tab is shown and the event loop keeps
serving the form (typing is not blocked, the newest edit wins), a click on the star applies the fastest plan, the
chart exports to PNG with what was searched, the tab hides in Serve mode, the layout holds at laptop sizes, and
every string of the tab is Chinese in zh_CN."""

from __future__ import annotations

import math
import time
from dataclasses import replace

import pytest
from PySide6.QtCore import QPointF, QSettings, Qt, QTimer
from PySide6.QtGui import QImage

from bench.layout_check import chart_problems
from tests.views.helpers import edit, settle, type_into
from vramgui import i18n
from vramgui.app import create_main_window
from vramgui.core.documents.catalog import hardware_with_gpu
from vramgui.core.scenario.specs import Scenario
from vramgui.io.presets import find_gpu, find_model
from vramgui.views.main_window import COMPARE_TAB, PLANS_TAB


def _scenario(model: str, gpus: int, seq: int = 8192, batch: int = 128) -> Scenario:
    s = Scenario(model=find_model(model).spec)
    s = replace(s, hardware=hardware_with_gpu(s.hardware, find_gpu("h100-sxm")))
    return replace(s, parallel=replace(s.parallel, num_gpus=gpus),
                   training=replace(s.training, seq_len=seq, global_batch=batch))


SMALL = _scenario("llama-3-8b", 2, batch=4)  # a search of about 0.1 s
LONG = _scenario("mixtral-8x7b", 256, batch=1024)  # about 4 s of CPU, caches warm (2,622 layouts)


def _searched(qtbot, window, scenario: Scenario, timeout: int = 60_000):
    plans = window.plans_presenter
    window.presenter.load_scenario(scenario)
    window.chart_tabs.setCurrentIndex(PLANS_TAB)
    qtbot.waitUntil(lambda: plans.current, timeout=timeout)
    settle()
    return plans


def test_the_plans_tab_searches_only_while_shown(qtbot, window):
    window.ensure_charts()
    plans = window.plans_presenter
    window.presenter.load_scenario(SMALL)
    settle()
    assert not plans.pending and not plans.current  # hidden: nothing searched
    window.chart_tabs.setCurrentIndex(PLANS_TAB)
    assert plans.running
    qtbot.waitUntil(lambda: plans.current, timeout=30_000)
    assert not window.breakdown_panel.isVisible()  # the editor's breakdown is not the plans'
    assert window.plan_panel.chart.vm.seconds and "2 GPUs, global batch 4:" in window.plan_panel.text.text()


def test_typing_is_not_blocked_while_a_search_runs(qtbot, window):
    window.ensure_charts()
    plans = window.plans_presenter
    window.presenter.load_scenario(LONG)
    window.presenter.finish_sweeps()  # the editor's own idle-time sweeps: measured apart (one step of a 256-GPU MoE
    window.chart_tabs.setCurrentIndex(PLANS_TAB)  # sweep holds the UI thread for up to seconds, search or none)
    assert plans.running
    bar = window.plan_panel.progress
    ticks: list[tuple[float, bool, int]] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append((time.perf_counter(), plans.running, bar.value())))
    timer.start(10)
    qtbot.waitUntil(lambda: not plans.running or len([1 for _, running, value in ticks if running and value]) >= 4,
                    timeout=60_000)
    timer.stop()
    during = [(t, value) for t, running, value in ticks if running]
    # the event loop kept turning while the worker searched (on the UI thread: no tick until the search's end),
    # and the worker's progress arrived meanwhile
    assert len([1 for _, value in during if value > 0]) >= 4, (plans.last_seconds, ticks[:3])
    seq = window.inputs.editors["training.seq_len"]  # typed while that search runs, or after it (either way a new one)
    type_into(qtbot, seq.lineEdit() if hasattr(seq, "lineEdit") else seq, "4096")
    qtbot.waitUntil(lambda: window.presenter.draft.training.seq_len == 4096, timeout=5_000)
    assert not plans.current  # the 8,192-token answer, if it still comes, is dropped
    qtbot.waitUntil(lambda: plans.current, timeout=60_000)
    assert plans.points[plans.answer.best].scenario.training.seq_len == 4096
    assert window.plan_panel.chart.vm.title == window.presenter.result.title


def test_a_click_on_the_star_applies_the_fastest_plan(qtbot, window):
    plans = _searched(qtbot, window, SMALL)
    chart = window.plan_panel.chart
    best = plans.points[plans.answer.best]
    view_point = QPointF(math.log10(best.seconds), best.peak / 1e9)
    pos = chart.mapFromScene(chart.plot.vb.mapViewToScene(view_point))
    assert chart.point_at(view_point.x(), view_point.y()) == chart.vm.chosen
    assert chart.hover_text(view_point.x(), view_point.y()).startswith("Fastest plan that fits: ")
    qtbot.mouseClick(chart.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    qtbot.waitUntil(lambda: window.presenter.scenario == best.scenario, timeout=5_000)
    assert window.presenter.computed.estimate.fits and window.presenter.draft == best.scenario


def test_the_plan_chart_exports_with_what_was_searched(qtbot, window, tmp_path):
    _searched(qtbot, window, SMALL)
    path = tmp_path / "plans.png"
    window.export_chart(str(path), 900)
    image = QImage(str(path))
    assert image.width() == 900 and image.height() > 300
    colours = {image.pixel(x, y) for x in range(0, 900, 7) for y in range(0, image.height(), 7)}
    assert len(colours) > 20


def test_the_plans_tab_hides_in_serve_mode(qtbot, window):
    window.ensure_charts()
    edit(window, "model.preset", "llama-3-8b")
    edit(window, "serve.active", True)
    assert window.presenter.serving and not window.chart_tabs.isTabVisible(PLANS_TAB)
    assert window.chart_tabs.isTabVisible(COMPARE_TAB) and not window.plans_presenter.pending
    edit(window, "serve.active", False)
    assert window.chart_tabs.isTabVisible(PLANS_TAB)


@pytest.mark.parametrize("size", [(1366, 768), (1024, 640)])
def test_no_plan_chart_text_is_cut_or_overlapping_at_laptop_sizes(qtbot, settings, size):
    window = create_main_window(settings)
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    _searched(qtbot, window, _scenario("llama-3-8b", 16))
    chart = window.plan_panel.chart
    assert chart.plot.vb.height() > 80  # the tab has no breakdown table under it
    assert chart_problems(chart) == []
    window.presenter.finish_sweeps()


def test_every_string_of_the_plans_tab_is_chinese(qtbot, qapp, tmp_path, compiled_dir):
    translations = i18n.Translations(qapp, compiled_dir)
    translations.apply("zh_CN")
    try:
        window = create_main_window(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
        qtbot.addWidget(window)
        window.show()
        window.ensure_charts()
        plans = window.plans_presenter
        window.presenter.load_scenario(SMALL)
        window.chart_tabs.setCurrentIndex(PLANS_TAB)
        busy = window.plan_panel.text.text()
        qtbot.waitUntil(lambda: plans.current, timeout=30_000)
        chart, vm = window.plan_panel.chart, window.plan_panel.chart.vm
        plans.cancel()
        cancelled = window.plan_panel.text.text()
        texts = [busy, cancelled, vm.summary, vm.chosen_label, vm.y_label, *vm.legend, *vm.tooltips[:3],
                 window.chart_tabs.tabText(PLANS_TAB), window.plan_panel.cancel_button.text(),
                 window.plan_panel.search_button.text(), window.plan_panel.search_button.toolTip(),
                 chart.title_item.text, chart.plot.getAxis("bottom").labelText]
        english = ("plan", "search", "fit", "fastest", "step", "peak", "layout", "cancel", "accumulation", "click",
                   "gpus,", "seconds")
        assert [t for t in texts if not t or any(w in t.lower() for w in english)] == []
        assert "计划" in vm.summary and "装得下" in vm.legend[0]
    finally:
        translations.apply("en")
