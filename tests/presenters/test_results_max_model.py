"""The largest-model chart when nothing fits at any GPU count (issue 13): its note says why, with the estimate's own
numbers - the sequence length and micro-batch, the activations (and fixed terms) against the usable memory."""

from __future__ import annotations

from dataclasses import replace

from vramgui.core.estimate import estimate
from vramgui.core.scenario.specs import HardwareSpec, ParallelSpec, Scenario
from vramgui.core.text.units import format_bytes
from vramgui.io.presets import find_model
from vramgui.presenters import results

GB = 10**9


def _mixtral(seq_len: int = 8192, memory: int = 80 * GB) -> Scenario:
    scenario = Scenario(model=find_model("mixtral-8x7b").spec, parallel=ParallelSpec(num_gpus=8),
                        hardware=HardwareSpec(gpu_name="80 GB GPU", gpu_memory=memory, reserve=0.0))
    return replace(scenario, training=replace(scenario.training, seq_len=seq_len))


def _solved(scenario: Scenario, unit: str = "GB") -> results.Computed:
    computed = results.compute(scenario, unit)
    for _ in results.sweep_work(computed):
        pass
    return computed


def test_mixtral_at_8k_tokens_says_the_activations_alone_exceed_the_usable_memory(qapp):
    scenario = _mixtral()
    vm = results.max_model_vm(_solved(scenario))
    assert all(v == 0 for s in vm.series for v in s.values if v is not None)
    est = estimate(scenario)
    activations, usable = est.bytes_of("activations"), est.usable
    assert activations > usable
    assert "Activations alone exceed the usable memory at 8,192 tokens, micro-batch 1" in vm.note
    assert f"{format_bytes(activations, 'GB')} of {format_bytes(usable, 'GB')} per GPU" in vm.note  # 92.66 of 80.00


def test_the_note_is_in_the_display_unit(qapp):
    scenario = _mixtral()
    est = estimate(scenario)
    note = results.max_model_vm(_solved(scenario, "GiB")).note
    assert f"{format_bytes(est.bytes_of('activations'), 'GiB')} of {format_bytes(est.usable, 'GiB')}" in note


def test_activations_that_fit_with_the_fixed_terms_that_do_not_are_named_with_the_sum(qapp):
    scenario = _mixtral(memory=94 * GB)  # above the activations (92.66 GB), below them + loss gradient + context
    computed = _solved(scenario)
    note = results.max_model_vm(computed).note
    peak = computed.estimate.peak
    moment = next(p for p in peak.phases if p.name == "loss_backward")
    floor = sum(moment.get(k) for k in ("activations", "loss_gradient", "cuda_context", "other"))
    assert "Activations alone" not in note and "at 8,192 tokens, micro-batch 1" in note
    assert f"{format_bytes(floor, 'GB')} of {format_bytes(94 * GB, 'GB')} per GPU" in note
    for key in ("activations", "loss_gradient", "cuda_context"):
        assert f"{results.component_label(key)} {format_bytes(moment.get(key), 'GB')}" in note


def test_no_note_while_some_model_fits(qapp):
    vm = results.max_model_vm(_solved(_mixtral(seq_len=2048)))
    assert any(v for s in vm.series for v in s.values if v is not None)
    assert vm.note == ""


def test_a_general_note_where_the_floor_fits_but_no_model_does(qapp):
    computed = _solved(_mixtral(seq_len=2048))
    computed.max_params.update({k: (0,) * len(v) for k, v in computed.max_params.items()})  # nothing fits
    note = results.max_model_vm(computed).note
    assert note and "Activations alone" not in note and "fixed terms exceed" not in note
    assert format_bytes(computed.estimate.usable, "GB") in note


def test_without_the_gpu_memory_the_note_asks_for_it(qapp):
    scenario = replace(_mixtral(), hardware=HardwareSpec(gpu_memory=None))
    assert "Enter the GPU memory" in results.max_model_vm(_solved(scenario)).note
