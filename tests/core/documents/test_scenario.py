"""Scenario documents (pure): JSON text <-> Scenario, every problem reported with its path, round trips."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings

from tests.strategies import LLAMA_8B, scenarios
from vramgui.core.documents import scenario as scenario_doc
from vramgui.core.documents.scenario import ScenarioError
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.specs import (
    ModelSpec,
    Scenario,
)


def _problems(data) -> dict[str, str]:
    with pytest.raises(ScenarioError) as info:
        scenario_doc.document_from_dict(data)
    return {path: str(message) for path, message in info.value.problems}


def test_non_ascii_names_stay_readable_in_the_file():
    text = scenario_doc.dumps(Scenario(model=ModelSpec(name="通义千问")), name="对比 1")
    assert "通义千问" in text and "对比 1" in text
    assert scenario_doc.loads(text).model.name == "通义千问"


def test_empty_object_is_the_default_scenario():
    assert scenario_doc.document_from_dict({}).scenario == Scenario()


def test_all_problems_are_reported_at_once_with_field_paths():
    problems = _problems({
        "model": {"params": -5, "architecture": {"family": "mamba", "hiden_size": 1}},
        "precision": {"dtype": "fp8", "optimizer": 3},
        "training": {"micro_batch": 0, "seq_len": 2048.5},
        "parallel": {"sp": "yes", "zero_stage": 4},
        "hardware": {"reserve": 1.5},
        "overhead": {"extra": -1},
        "convention": "nvidia",
        "colour": "blue",
    })
    assert set(problems) == {
        "model.params", "model.architecture.family", "model.architecture.hiden_size", "precision.dtype",
        "precision.optimizer", "training.micro_batch", "training.seq_len", "parallel.sp", "parallel.zero_stage",
        "hardware.reserve", "overhead.extra", "convention", "colour",
    }
    assert "did you mean 'hidden_size'" in problems["model.architecture.hiden_size"]
    assert "fp32, fp16, bf16" in problems["precision.dtype"]
    assert "true or false" in problems["parallel.sp"]


@pytest.mark.parametrize(("value", "expected"), [
    ({"model": []}, "must be an object"),
    ({"model": {"architecture": 5}}, "must be an object"),
    ({"parallel": {"num_gpus": True}}, "must be an integer"),
    ({"hardware": {"reserve": "10%"}}, "must be a number"),
    ({"model": {"name": 3}}, "must be a string"),
])
def test_wrong_json_types_are_named(value, expected):
    (message,) = _problems(value).values()
    assert expected in message


def test_null_is_accepted_only_where_the_field_is_optional():
    assert scenario_doc.document_from_dict({"model": {"params": None}}).scenario.model.params is None
    assert "must be an integer, not null" in _problems({"training": {"micro_batch": None}})["training.micro_batch"]


def test_integral_floats_become_ints_but_fractions_are_rejected():
    assert scenario_doc.document_from_dict({"parallel": {"num_gpus": 8.0}}).scenario.parallel.num_gpus == 8
    assert "parallel.num_gpus" in _problems({"parallel": {"num_gpus": 8.5}})


def test_newer_schema_version_is_refused_with_a_clear_message():
    problems = _problems({"schema": "vramgui.scenario", "schema_version": 3, "app_version": "9.0"})
    assert "vramgui 9.0" in problems["schema_version"] and "please update" in problems["schema_version"]


def test_foreign_schema_is_refused():
    assert "not a vramgui scenario" in _problems({"schema": "something.else"})["schema"]


def test_hugging_face_config_is_recognised_and_explained():
    (message,) = _problems({"model_type": "llama", "hidden_size": 4096}).values()
    assert "config.json" in message


def test_every_field_of_every_section_is_written():
    data = scenario_doc.scenario_to_dict(LLAMA_8B)
    for section in dataclasses.fields(Scenario):
        value = getattr(LLAMA_8B, section.name)
        if dataclasses.is_dataclass(value):
            assert set(data[section.name]) == {f.name for f in dataclasses.fields(value)}
    assert set(data["model"]["architecture"]) == {f.name for f in dataclasses.fields(Architecture)}


@dataclasses.dataclass(frozen=True)
class _GrownArchitecture(Architecture):
    sliding_window: int | None = None


@dataclasses.dataclass(frozen=True)
class _GrownModel(ModelSpec):
    architecture: _GrownArchitecture | None = None


def test_a_defaulted_field_added_to_a_spec_later_is_serialised_and_defaulted():
    """New fields (the contract allows adding defaulted ones) need no change in scenario_doc."""
    data = scenario_doc._plain(_GrownModel(architecture=_GrownArchitecture(sliding_window=4096)))
    assert data["architecture"]["sliding_window"] == 4096
    problems: list = []
    built = scenario_doc._build(_GrownModel, {"architecture": {"num_layers": 2}}, "model.", problems)
    assert problems == []
    assert built.architecture == _GrownArchitecture(num_layers=2, sliding_window=None)
    scenario_doc._build(_GrownModel, {"architecture": {"sliding_window": "big"}}, "model.", problems)
    assert [(path, str(message)) for path, message in problems] == [
        ("model.architecture.sliding_window", "must be an integer, not the string 'big'")]


# ---------------------------------------------------------------------------------------------- property


@settings(max_examples=200, deadline=None)
@given(scenarios())
def test_any_valid_scenario_round_trips_through_json(scenario):
    """Save -> load of any scenario whose every field is in its registry range is the same scenario."""
    assert scenario_doc.loads(scenario_doc.dumps(scenario)) == scenario
    assert scenario_doc.loads(scenario_doc.dumps(scenario, indent=None)) == scenario
