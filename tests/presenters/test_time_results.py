"""The step time in the window's view-models (``vramgui.presenters.time_results``): the summary's lines, the time
chart's bars stacked to the core's seconds for the memory chart's strategies, each beside its step peak, the rows of
the time with their derivations, the comparison's columns, CSV and caption, and what shows when the GPU has no
compute figures."""

from __future__ import annotations

import csv
from dataclasses import replace
from unittest.mock import MagicMock

import pytest

from vramgui.core.documents.catalog import hardware_with_gpu
from vramgui.core.estimate import estimate
from vramgui.core.scenario.specs import HardwareSpec, ParallelSpec, Scenario, TrainingSpec
from vramgui.core.text.units import format_bytes
from vramgui.core.time.components import TIME_KEYS
from vramgui.io.presets import find_gpu, find_model
from vramgui.presenters import result_csv, results
from vramgui.presenters.compare.presenter import ComparePresenter, CompareView
from vramgui.presenters.form.groups import default_scenario
from vramgui.presenters.formulas import formulas_html
from vramgui.presenters.main_presenter import MainPresenter
from vramgui.presenters.protocols import MainView
from vramgui.presenters.scenario_inputs import caption_parts
from vramgui.presenters.time_results import (
    cost_text,
    duration_text,
    gpu_hours_text,
    label,
    percent,
    rate_text,
    seconds_text,
    time_bars,
    unknown_text,
)

H100 = hardware_with_gpu(HardwareSpec(reserve=0.1), find_gpu("h100-sxm"))
LLAMA = Scenario(model=find_model("llama-3-8b").spec,
                 parallel=ParallelSpec(num_gpus=64, gpus_per_node=8, tp=2, zero_stage=1),
                 training=TrainingSpec(micro_batch=1, seq_len=8192, global_batch=512, recompute="selective",
                                       train_tokens=10**12),
                 hardware=replace(H100, gpu_hour_price=2.5))
UNTIMED = replace(LLAMA, hardware=HardwareSpec(gpu_memory=80 * 10**9, reserve=0.1))


def test_the_summary_shows_the_step_its_throughput_and_mfu_then_days_gpu_hours_and_cost(qapp):
    est = estimate(LLAMA)
    t = est.time
    summary = results.compute(LLAMA).result.summary
    assert summary.step_time_text == f"{seconds_text(t.step_seconds)} · MFU {100 * t.mfu:.0f} %"
    assert f"MFU {percent(t.mfu)} %" in summary.time_tip
    assert summary.throughput_text == rate_text(t.tokens_per_second)
    assert summary.training_text == (f"{duration_text(t.train_seconds)} · {gpu_hours_text(t.gpu_hours)} · cost "
                                     f"{cost_text(t.cost)}")
    assert t.cost == pytest.approx(t.gpu_hours * 2.5)
    assert f"{t.model_tflops_per_gpu:,.1f} model TFLOP/s per GPU" in summary.time_tip and "HFU" in summary.time_tip


def test_without_training_tokens_the_summary_says_what_to_enter(qapp):
    scenario = replace(LLAMA, training=replace(LLAMA.training, train_tokens=None))
    summary = results.compute(scenario).result.summary
    assert summary.step_time_text and summary.training_text == ""  # no row: the hover text says what to enter
    assert summary.time_tip.endswith("Enter Training tokens for the days, GPU-hours and cost.")


def test_the_time_bars_stack_the_cores_seconds_for_the_memory_charts_strategies(qapp):
    computed = results.compute(LLAMA)
    vm, bars = computed.result.time_bars, computed.result.bars
    assert vm.strategies == bars.strategies and vm.keys == bars.keys and vm.chosen == bars.chosen
    assert [s.key for s in vm.segments] == [k for k in TIME_KEYS if any(s.key == k for s in vm.segments)]
    for i, (_, _, est) in enumerate(computed.variants):
        top = 0.0
        for seg in vm.segments:
            assert seg.bottoms[i] == pytest.approx(top)
            assert seg.heights[i] == pytest.approx(est.time.seconds_of(seg.key))
            top += seg.heights[i]
        assert top == pytest.approx(est.time.step_seconds) == pytest.approx(vm.totals[i])
        assert vm.time_texts[i] == seconds_text(est.time.step_seconds)
        assert vm.peak_texts[i] == f"peak {format_bytes(est.peak.bytes, 'GB', 1)}" and vm.fits[i] == est.fits
        assert est.time.step_seconds and format_bytes(est.peak.bytes) in vm.bar_tooltips[i]
    compute = next(s for s in vm.segments if s.key == "compute")
    tip = compute.tooltips[0]
    assert label("compute") in tip and "% of the step" in tip and "=" in tip
    assert vm.note == ""


def test_the_time_rows_add_up_to_the_step_with_their_derivations(qapp):
    est = estimate(LLAMA)
    rows = results.compute(LLAMA).result.time_breakdown
    assert rows[-1].key == "step_time" and rows[-1].total and rows[-1].value_text == seconds_text(est.time.step_seconds)
    parts = {c.key: c for c in est.time.components if c.seconds > 0}
    assert [r.key for r in rows[:-1]] == list(parts)
    for row in rows[:-1]:
        assert row.label == label(row.key) and row.source == parts[row.key].source
        assert row.formula == parts[row.key].derivation  # the core's derivation (English: no catalogue installed)
    assert sum(parts[r.key].seconds for r in rows[:-1]) == pytest.approx(est.time.step_seconds)


def test_a_gpu_without_compute_figures_says_why_instead_of_a_time(qapp):
    computed = results.compute(UNTIMED)
    assert computed.estimate.time is None
    result = computed.result
    summary = result.summary
    assert summary.step_time_text == "unknown (no compute figures)" and summary.time_tip == unknown_text()
    assert summary.throughput_text == "—" and summary.training_text == ""
    assert result.time_bars.segments == () and "compute figures" in result.time_bars.note
    assert set(result.time_bars.time_texts) == {"—"}
    assert len(result.time_breakdown) == 1 and result.time_breakdown[0].formula == unknown_text()


def test_the_formulas_list_every_part_of_the_time(qapp):
    est = estimate(LLAMA)
    page = formulas_html(est)
    assert all(label(c.key) in page for c in est.time.components)
    assert all(c.source.split(",")[0][:20] in page.replace("&#x27;", "'") for c in est.time.components if c.source)


def test_the_csv_holds_each_strategys_seconds(qapp, tmp_path):
    computed = results.compute(LLAMA)
    rows = [r for r in result_csv.csv_rows(computed, LLAMA) if r["table"] == "step_time"]
    est = computed.variants[0][2]
    first = [r for r in rows if r["strategy"] == computed.variants[0][0]]
    assert [r["component"] for r in first] == [*TIME_KEYS, "step"]
    assert float(first[-1]["seconds"]) == est.time.step_seconds
    assert sum(float(r["seconds"]) for r in first[:-1]) == pytest.approx(est.time.step_seconds)
    path = tmp_path / "r.csv"
    result_csv.write_csv(path, result_csv.csv_rows(computed, LLAMA))
    with path.open(encoding="utf-8-sig") as f:
        assert "seconds" in next(csv.reader(f))


def test_compare_shows_time_and_cost_in_its_table_csv_chart_and_caption(qapp):
    presenter = ComparePresenter(MagicMock(spec=CompareView))
    presenter.pin(LLAMA)
    presenter.pin(UNTIMED)
    vm = presenter.view_model()
    t = estimate(LLAMA).time
    timed, untimed = vm.rows
    assert timed.step_time_text == seconds_text(t.step_seconds) and timed.throughput_text == rate_text(
        t.tokens_per_second)
    assert timed.training_text == duration_text(t.train_seconds) and timed.cost_text == cost_text(t.cost)
    assert (untimed.step_time_text, untimed.cost_text) == ("—", "—")
    assert vm.time_texts == (f"{seconds_text(t.step_seconds)}/step · cost {cost_text(t.cost)}", "time unknown")
    rows = presenter.csv_rows()
    assert float(rows[0]["step_seconds"]) == t.step_seconds and float(rows[0]["cost"]) == t.cost
    assert float(rows[0]["time_compute_seconds"]) == t.seconds_of("compute") and rows[1]["step_seconds"] == ""
    caption = presenter.chart_caption()
    assert caption.splitlines()[-1].startswith("Step time: ") and rate_text(t.tokens_per_second) in caption


def test_captions_write_rates_as_datasheets_do(qapp):
    parts = caption_parts(LLAMA)
    assert "Memory bandwidth: 3.35 TB/s" in parts and "GPU link: 450.0 GB/s" in parts  # not 3,350,000,000,000
    assert "Peak BF16/FP16 TFLOP/s: 989.4" in parts  # the label names the unit


def test_the_main_presenter_pushes_the_time_once_a_gpu_preset_gives_compute_figures(qapp):
    view = MagicMock(spec=MainView)
    presenter = MainPresenter(view)
    presenter.start(default_scenario())  # the seed's example: a GPU given by its memory alone
    presenter.on_field_edited("model.preset", "llama-3-8b")
    presenter.on_field_edited("hardware.gpu_memory", "80GB")
    shown = view.show_result.call_args.args[0]
    assert shown.time_bars.note and shown.summary.step_time_text == "unknown (no compute figures)"
    presenter.on_field_edited("hardware.gpu", "h100-sxm")
    presenter.on_field_edited("training.train_tokens", "300B")
    shown = view.show_result.call_args.args[0]
    t = presenter.computed.estimate.time
    assert shown.summary.step_time_text.startswith(seconds_text(t.step_seconds)) and not shown.time_bars.note
    assert shown.summary.training_text.startswith(duration_text(t.train_seconds))
    assert shown.time_breakdown[-1].value_text == seconds_text(t.step_seconds)
    presenter.finish_sweeps()


def test_the_cores_caveats_reach_the_hover_text(qapp):
    scenario = replace(LLAMA, hardware=replace(LLAMA.hardware, achieved_tflops=140.0))
    est = estimate(scenario)
    summary = results.compute(scenario).result.summary
    assert est.time.notes and all(str(n) in summary.time_tip for n in est.time.notes)
    assert "Peak BF16/FP16" in unknown_text() and "Memory bandwidth" in unknown_text()


def test_no_strategies_no_bars_and_no_note(qapp):
    vm = time_bars((), (), (), -1, "GB")
    assert vm.segments == () and vm.totals == () and vm.note == ""
