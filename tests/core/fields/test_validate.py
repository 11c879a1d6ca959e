"""Bad input raises one InputError naming the field and the allowed range."""

from __future__ import annotations

import pytest

from vramgui.core.estimate import estimate
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.specs import ModelSpec, ParallelSpec, Scenario, TrainingSpec
from vramgui.core.solve.questions import with_value
from vramgui.core.text.errors import InputError

BASE = Scenario(model=ModelSpec(params=7 * 10**9), parallel=ParallelSpec(num_gpus=8))


@pytest.mark.parametrize(("path", "value", "field"), [
    ("model.params", 0, "model.params"),
    ("model.params", -5, "model.params"),
    ("model.params", 1.5, "model.params"),
    ("model.params", True, "model.params"),
    ("precision.dtype", "fp8", "precision.dtype"),
    ("precision.optimizer", "adagrad", "precision.optimizer"),
    ("precision.recipe", "half", "precision.recipe"),
    ("parallel.num_gpus", 0, "parallel.num_gpus"),
    ("parallel.zero_stage", 4, "parallel.zero_stage"),
    ("parallel.tp", 3, "parallel.num_gpus"),
    ("training.micro_batch", 0, "training.micro_batch"),
    ("training.seq_len", -1, "training.seq_len"),
    ("training.recompute", "some", "training.recompute"),
    ("hardware.reserve", 1.0, "hardware.reserve"),
    ("hardware.reserve", float("nan"), "hardware.reserve"),
    ("hardware.gpu_memory", 0, "hardware.gpu_memory"),
    ("overhead.cuda_context", -1, "overhead.cuda_context"),
    ("convention", "hf", "convention"),
])
def test_bad_field_is_named(path, value, field):
    with pytest.raises(InputError) as err:
        estimate(with_value(BASE, path, value))
    assert err.value.field == field
    assert str(err.value).startswith(field)


def test_model_needs_a_count_or_an_architecture():
    with pytest.raises(InputError, match=r"model\.params"):
        estimate(with_value(BASE, "model", ModelSpec()))


def test_global_batch_must_divide_and_nearest_are_named():
    with pytest.raises(InputError) as err:
        estimate(with_value(BASE, "training", TrainingSpec(micro_batch=2, global_batch=100)))
    assert err.value.field == "training.global_batch"
    assert "96" in err.value.allowed and "112" in err.value.allowed


def test_accumulation_steps_and_tokens_per_step():
    est = estimate(with_value(BASE, "training", TrainingSpec(micro_batch=2, global_batch=128, seq_len=4096)))
    assert est.accumulation_steps == 8
    assert est.tokens_per_step == 128 * 4096


def test_parameter_offload_needs_stage_three():
    s = with_value(with_value(BASE, "offload.params", "cpu"), "offload.optimizer", "cpu")
    with pytest.raises(InputError, match=r"offload\.params"):
        estimate(with_value(s, "parallel.zero_stage", 2))


def test_optimizer_offload_needs_zero():
    with pytest.raises(InputError, match=r"offload\.optimizer"):
        estimate(with_value(BASE, "offload.optimizer", "cpu"))


def test_more_pipeline_stages_than_layers_is_rejected():
    s = Scenario(model=ModelSpec(params=10**9, architecture=Architecture(num_layers=2)),
                 parallel=ParallelSpec(num_gpus=4, pp=4))
    with pytest.raises(InputError, match=r"parallel\.pp"):
        estimate(s)


def test_deepspeed_rejects_parameter_offload_without_optimizer_offload():
    s = with_value(with_value(BASE, "offload.params", "cpu"), "parallel.zero_stage", 3)
    with pytest.raises(InputError, match=r"offload\.params"):
        estimate(with_value(s, "convention", "deepspeed"))
