"""'No model fits at any number of GPUs' is the core's answer, with its reason and the bytes behind it (the window
only renders it): the activations alone, the floor of the step (activations, loss gradient, CUDA context, fixed
terms), or what else a step holds whatever the model's size."""

from __future__ import annotations

from dataclasses import replace

from vramgui.core.estimate import estimate
from vramgui.core.scenario.specs import HardwareSpec, ParallelSpec, Scenario
from vramgui.core.solve.nothing_fits import FLOOR_KEYS, no_model_fits
from vramgui.io.presets import find_model

GB = 10**9


def mixtral(seq_len: int = 8192, memory: int = 80 * GB) -> Scenario:
    s = Scenario(model=find_model("mixtral-8x7b").spec, parallel=ParallelSpec(num_gpus=8),
                 hardware=HardwareSpec(gpu_memory=memory, reserve=0.0))
    return replace(s, training=replace(s.training, seq_len=seq_len))


def test_activations_over_the_usable_memory_are_the_reason():
    est = estimate(mixtral())
    why = no_model_fits(est, [0, 0, None])
    assert why is not None and why.reason == "activations"
    assert why.activations == max(p.get("activations") for p in est.peak.phases) > why.usable == est.usable
    assert (why.seq_len, why.micro_batch) == (8192, 1)


def test_the_floor_is_the_reason_where_the_activations_fit_but_not_with_the_fixed_terms():
    est = estimate(mixtral(memory=94 * GB))  # above the activations (92.66 GB), below them + loss gradient + context
    why = no_model_fits(est, [0])
    assert why is not None and why.reason == "floor"
    moment = next(p for p in est.peak.phases if p.name == "loss_backward")
    assert why.floor == sum(moment.get(k) for k in FLOOR_KEYS) > why.usable >= why.activations
    assert why.floor_parts == tuple((k, moment.get(k)) for k in FLOOR_KEYS if moment.get(k))
    assert sum(v for _, v in why.floor_parts) == why.floor


def test_the_rest_of_the_step_is_the_reason_where_the_floor_fits():
    est = estimate(mixtral(seq_len=2048))
    why = no_model_fits(est, [0, 0])
    assert why is not None and why.reason == "step" and why.floor <= why.usable


def test_no_answer_while_some_model_fits_or_nothing_was_solved():
    est = estimate(mixtral())
    assert no_model_fits(est, [0, 10**9]) is None
    assert no_model_fits(est, [None, None]) is None
    assert no_model_fits(est, []) is None


def test_no_answer_without_the_gpu_memory():
    assert no_model_fits(estimate(replace(mixtral(), hardware=HardwareSpec())), [0]) is None
