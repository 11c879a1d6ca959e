"""Charts that degrade gracefully on laptop screens (issue 13): at 1024 x 640 and 1366 x 768 no tick text, legend
entry, title or value label of the four charts is cut by the chart's edge, dropped or overlapping, in English and
in Chinese; the y axis starts at 0 and draws its 0; the reference lines are named in the legend and never strike
through a value label; an empty chart says why. ``bench.layout_check`` finds the problems; the scale-2 case
runs ``bench/screenshots.py`` in a subprocess (``QT_SCALE_FACTOR`` is read when the application starts)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, QSettings
from PySide6.QtWidgets import QMessageBox

from bench.layout_check import chart_problems
from tests.views.helpers import edit, settle
from vramgui.app import create_main_window
from vramgui.views.charts.panels import SweepChart

ROOT = Path(__file__).resolve().parents[2]
SIZES = ((1024, 640), (1366, 768))
CHARTS = ("strategy", "step", "time", "sweep", "maxmodel")
LINEAR = ("strategy", "step", "time", "sweep")  # the largest model is on a log axis






@pytest.fixture(scope="module", params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def laptop(request, language, tmp_path_factory):
    """A first start at a laptop's size (sized before it is shown): Llama-3-8B on 8 x A100 80GB."""
    settings = QSettings(str(tmp_path_factory.mktemp("laptop") / "s.ini"), QSettings.Format.IniFormat)
    window = create_main_window(settings)
    window.resize(*request.param)
    window.show()
    window.ensure_charts()
    edit(window, "model.preset", "llama-3-8b")
    edit(window, "hardware.gpu", "a100-80gb")
    window.presenter.finish_sweeps()
    settle()
    yield window
    original = QMessageBox.question
    QMessageBox.question = staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard)
    try:
        window.close()
    finally:
        QMessageBox.question = original
    window.deleteLater()


def _shown(window, index: int):
    window.chart_tabs.setCurrentIndex(index)
    settle()
    return window.charts()[index]


@pytest.mark.parametrize("name", CHARTS)
def test_no_chart_text_is_cut_dropped_or_overlapping(laptop, name):
    assert laptop.width() == laptop.size().width() <= 1366
    chart = _shown(laptop, CHARTS.index(name))
    assert chart_problems(chart) == []


def test_the_y_axis_starts_at_0_and_draws_it(laptop):
    for name in LINEAR:
        chart = _shown(laptop, CHARTS.index(name))
        assert chart.plot.vb.viewRange()[1][0] == 0
        assert not [p for p in chart_problems(chart) if "no 0" in p]


def test_reference_lines_are_named_in_the_legend_and_strike_through_no_value_label(laptop):
    for index in (CHARTS.index(name) for name in ("strategy", "step", "sweep")):  # the memory charts
        chart = _shown(laptop, index)
        legend = [label.text for _, label in chart.legend.items]
        for line in (chart.capacity_line, chart.usable_line):
            assert line.isVisible() and not line.label.isVisible()
        assert any(f"{chart.usable_line.value():,.1f}" in text for text in legend), legend
        if index == CHARTS.index("sweep"):
            continue  # no value labels on the curves
        labels = chart.marks.labels if index == 0 else [chart.peak_label, *chart.total_labels]
        for label in (label for label in labels if label.isVisible()):
            box = label.mapRectToScene(label.boundingRect())
            for line in (chart.capacity_line, chart.usable_line):
                y = chart.plot.vb.mapViewToScene(QPointF(0, line.value())).y()
                if box.top() <= y <= box.bottom():  # the line passes behind the label: the label's box hides it
                    assert label.zValue() > line.zValue() and label.fill.color().alpha() == 255, label.toPlainText()


def test_an_empty_largest_model_chart_says_why(laptop):
    """Mixtral 8x7B at 8,192 tokens: not even a one-parameter model fits, every value is 0 on a log axis."""
    edit(laptop, "model.preset", "mixtral-8x7b")
    edit(laptop, "training.seq_len", 8192)
    laptop.presenter.finish_sweeps()
    try:
        chart = _shown(laptop, CHARTS.index("maxmodel"))
        assert all(v == 0 for s in chart.vm.series for v in s.values if v is not None)
        assert chart.note.isVisible() and chart.note.toPlainText().strip()
        assert not chart.legend.isVisible()  # nothing drawn: the note gets the legend's rows
        assert chart_problems(chart) == []  # the note inside the plot, the axes whole
    finally:
        edit(laptop, "model.preset", "llama-3-8b")
        edit(laptop, "training.seq_len", 2048)
        laptop.presenter.finish_sweeps()


def test_the_layout_check_finds_cut_ticks_and_legend_entries(qtbot):
    chart = SweepChart("A title far too long for the narrow chart it stands over, on one line", "GB")
    qtbot.addWidget(chart)
    chart.resize(360, 300)
    chart.show()
    qtbot.waitExposed(chart)
    chart.legend.addItem(chart.plot.plot([0, 1], [0, 1]), "an entry " * 30)
    chart.plot.getAxis("bottom").setTicks([[(0.0, "1"), (10.0, "1,024 GPUs")]])
    chart.plot.setXRange(0, 10, padding=0)  # no room for the texts at either end
    settle()
    problems = " | ".join(chart_problems(chart))
    assert "legend" in problems and "'1,024 GPUs'" in problems and "title" in problems


def test_every_chart_fits_at_scale_factor_2(tmp_path):
    """The screenshot script at 1366 x 768 with QT_SCALE_FACTOR=2: it exits non-zero on any layout problem."""
    done = subprocess.run([sys.executable, "-m", "bench.screenshots", "--out", str(tmp_path), "--sizes", "1366x768",
                           "--scales", "2", "--langs", "en"], check=False, cwd=ROOT, capture_output=True, text=True,
                          timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    shots = sorted(tmp_path.glob("*_1366x768_s2_en.png"))
    assert {p.name.split("_")[0] for p in shots} == {"strategy", "step", "time", "sweep", "maxmodel", "plans",
                                                     "compare", "time-cost", "maxmodel-mixtral8k", "serve",
                                                     "serve-llamacpp"}
    from PySide6.QtGui import QImage

    assert QImage(str(shots[0])).width() == 2 * 1366


def test_an_empty_time_chart_says_why(laptop):
    """A GPU without compute figures (its bf16 peak emptied): no step time, the note inside the plot, nothing cut."""
    edit(laptop, "hardware.tflops_16bit", "")
    try:
        chart = _shown(laptop, CHARTS.index("time"))
        assert laptop.presenter.computed.estimate.time is None
        assert chart.note.isVisible() and chart.note.toPlainText().strip() and not chart.legend.isVisible()
        assert chart_problems(chart) == []
    finally:
        edit(laptop, "hardware.gpu", "a100-80gb")
        laptop.presenter.finish_sweeps()


def test_the_serving_chart_is_laid_out_on_laptop_screens(laptop):
    """Serve mode (the issue's example): memory against the context length, no text cut, dropped or overlapping;
    the y axis from 0, the capacity lines named in the legend; training comes back after."""
    from vramgui.views.main_window import SERVE_TAB

    edits = (("hardware.gpu", "rtx-4090"), ("parallel.num_gpus", 1), ("serve.active", True), ("serve.batch", 16),
             ("serve.context", 8192), ("serve.weights", "awq-int4"), ("serve.kv_dtype", "fp8"))
    for key, value in edits:
        edit(laptop, key, value)
    settle()
    try:
        assert laptop.chart_tabs.currentIndex() == SERVE_TAB
        chart = laptop.charts()[SERVE_TAB]
        assert chart_problems(chart) == []
        assert chart.plot.vb.viewRange()[1][0] == 0
        legend = [label.text for _, label in chart.legend.items]
        assert any(f"{chart.usable_line.value():,.1f}" in text for text in legend), legend
    finally:
        for key, value in (("serve.active", False), ("hardware.gpu", "a100-80gb"), ("parallel.num_gpus", 8)):
            edit(laptop, key, value)
        laptop.presenter.finish_sweeps()
        settle()
