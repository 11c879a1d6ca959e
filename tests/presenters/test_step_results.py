"""The training step's peak in the window's view-models: the headline names the moment, the step chart's bars stack
to the core's phases, the breakdown lists what is live at the peak and adds up to it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vramgui.core.estimate import estimate
from vramgui.core.scenario.specs import HardwareSpec, ParallelSpec, Scenario, TrainingSpec
from vramgui.core.step.peak import PEAK_KEYS
from vramgui.core.text.message import Msg, english, render
from vramgui.core.text.units import format_bytes, to_unit
from vramgui.io.presets import find_model
from vramgui.presenters import results
from vramgui.presenters.step_results import peak_rows, step_vm

LLAMA = Scenario(model=find_model("llama-3-8b").spec, parallel=ParallelSpec(num_gpus=8, gpus_per_node=8, zero_stage=2),
                 hardware=HardwareSpec(gpu_memory=80 * 10**9, reserve=0.2))
ACCUMULATING = replace(LLAMA, training=TrainingSpec(micro_batch=1, seq_len=2048, global_batch=32))


def test_the_headline_is_the_peak_and_names_its_moment(qapp):
    est = estimate(LLAMA)
    summary = results.compute(LLAMA).result.summary
    assert summary.peak_bytes == est.peak.bytes
    assert summary.peak_text == f"Peak {format_bytes(est.peak.bytes)} per GPU"
    phase = render(Msg.of("phase." + est.peak.phase), english)
    step = render(Msg.of("step." + est.peak.step), english)
    assert summary.moment_text == f"at the {phase}, {step}"
    assert format_bytes(est.per_gpu_total) in summary.sum_text and "conventions" in summary.sum_text
    assert summary.fits == (est.peak.bytes <= est.usable)
    assert format_bytes(est.usable - est.peak.bytes) in summary.headroom_text  # headroom from the peak


@pytest.mark.parametrize("scenario", [LLAMA, ACCUMULATING], ids=["one micro-batch", "accumulation"])
def test_one_bar_per_phase_stacked_to_the_cores_bytes(qapp, scenario):
    est = estimate(scenario)
    vm = step_vm(est, "GB")
    phases = est.peak.phases
    assert len(vm.x) == len(vm.short_labels) == len(vm.totals) == len(phases)
    assert list(vm.x) == sorted(vm.x) and len(vm.groups) == 2 and len(vm.separators) == 1
    for i, phase in enumerate(phases):
        top = 0.0
        for seg in vm.segments:
            assert seg.bottoms[i] == pytest.approx(top)
            assert seg.heights[i] == pytest.approx(to_unit(phase.get(seg.key), "GB"))
            top += seg.heights[i]
        assert top == pytest.approx(to_unit(phase.bytes, "GB")) == pytest.approx(vm.totals[i])
    assert vm.totals[vm.peak] == max(vm.totals) and vm.totals[vm.peak] == pytest.approx(to_unit(est.peak.bytes, "GB"))
    assert format_bytes(est.peak.bytes) in vm.peak_text
    assert [s.key for s in vm.segments] == [k for k in PEAK_KEYS if any(p.get(k) for p in phases)]  # stacking order


def test_the_peak_rows_add_up_to_the_peak_with_their_derivations(qapp):
    est = estimate(LLAMA)
    rows = peak_rows(est, "GB")
    assert rows[-1].key == "peak" and rows[-1].bytes == est.peak.bytes and rows[-1].total
    assert sum(r.bytes for r in rows[:-1]) == est.peak.bytes
    assert [r.key for r in rows[:-1]] == [k for k, n in est.peak.at.components if n]
    by_key = {r.key: r for r in rows}
    assert by_key["loss_gradient"].formula.endswith(format_bytes(est.peak.term("loss_gradient").bytes))
    assert by_key["parameters"].formula.endswith(format_bytes(est.bytes_of("parameters")))
    assert "Gradients" in rows[-1].tip  # not live at the start of backward of a steady step


def test_the_textbook_breakdown_stays_beside_the_peak(qapp):
    result = results.compute(LLAMA).result
    assert result.breakdown[-1].key == "total" and result.breakdown[-1].bytes == estimate(LLAMA).per_gpu_total
    assert result.peak_breakdown[-1].key == "peak"


def test_the_caption_names_recompute_the_loss_and_the_optimizer_implementation(qapp):
    scenario = replace(LLAMA, training=replace(LLAMA.training, recompute="full", loss="chunked"))
    caption = results.compute(scenario).result.caption.split(" · ")
    assert "full recomputation" in caption and "chunked loss" in caption
    assert "foreach optimizer step" in caption
