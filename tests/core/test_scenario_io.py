"""Scenario files: round trips, hand-written files, every problem reported with its path, atomic saves."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vramgui import __version__
from vramgui.core import scenario_io, specs
from vramgui.core.architecture import FAMILIES, Architecture
from vramgui.core.scenario_io import PresetRef, ScenarioError
from vramgui.core.specs import (
    HardwareSpec,
    ModelSpec,
    OffloadSpec,
    OverheadSpec,
    ParallelSpec,
    PrecisionSpec,
    Scenario,
    TrainingSpec,
)

LLAMA_8B = Scenario(
    model=ModelSpec(
        name="Llama-3-8B",
        params=8_030_261_248,
        architecture=Architecture(num_layers=32, hidden_size=4096, num_heads=32, num_kv_heads=8, ffn_size=14336,
                                  vocab_size=128256, max_position_embeddings=8192),
    ),
    precision=PrecisionSpec(dtype="bf16", recipe="mixed", optimizer="adamw"),
    training=TrainingSpec(micro_batch=2, seq_len=4096, global_batch=512, recompute="selective"),
    parallel=ParallelSpec(num_gpus=16, gpus_per_node=8, zero_stage=3, tp=2, pp=1, sp=True),
    offload=OffloadSpec(optimizer="cpu", params="cpu", zero_init=False),
    hardware=HardwareSpec(gpu_name="A100 80GB", gpu_memory=80 * 10**9, reserve=0.05),
    overhead=OverheadSpec(cuda_context=1 << 30, comm_buffers=500_000_000, zero3_live_params=10**9, extra=7),
    convention="deepspeed",
)


def _problems(data) -> dict[str, str]:
    with pytest.raises(ScenarioError) as info:
        scenario_io.scenario_from_dict(data)
    return dict(info.value.problems)


def test_round_trip_keeps_every_field_including_the_architecture(tmp_path):
    path = tmp_path / "llama.json"
    scenario_io.save_scenario(path, LLAMA_8B, name="8B on 16 GPUs", preset=PresetRef(model="llama-3-8b"))
    document = scenario_io.load_document(path)
    assert document.scenario == LLAMA_8B
    assert document.name == "8B on 16 GPUs"
    assert document.preset == PresetRef(model="llama-3-8b", gpu=None)
    assert document.app_version == __version__


def test_written_file_is_readable_json_with_schema_header_and_all_sections(tmp_path):
    path = tmp_path / "s.json"
    scenario_io.save_scenario(path, LLAMA_8B)
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    assert list(data)[:3] == ["schema", "schema_version", "app_version"]
    assert data["schema"] == "vramgui.scenario" and data["schema_version"] == 1
    assert data["model"]["architecture"]["num_kv_heads"] == 8
    assert data["parallel"]["zero_stage"] == 3
    assert text.count("\n") > 40, "indented for people, not one line"


def test_non_ascii_names_stay_readable_in_the_file():
    text = scenario_io.dumps(Scenario(model=ModelSpec(name="通义千问")), name="对比 1")
    assert "通义千问" in text and "对比 1" in text
    assert scenario_io.loads(text).model.name == "通义千问"


def test_hand_written_file_with_a_few_fields_gets_defaults_for_the_rest(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text('{"model": {"params": 7e9}, "parallel": {"num_gpus": 8, "zero_stage": 2},\n'
                    ' "hardware": {"gpu_memory": 80000000000}}', encoding="utf-8")
    scenario = scenario_io.load_scenario(path)
    assert scenario == Scenario(model=ModelSpec(params=7_000_000_000),
                                parallel=ParallelSpec(num_gpus=8, zero_stage=2),
                                hardware=HardwareSpec(gpu_memory=80_000_000_000))
    assert isinstance(scenario.model.params, int)


def test_empty_object_is_the_default_scenario():
    assert scenario_io.scenario_from_dict({}) == Scenario()


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


def test_error_message_lists_every_problem_and_the_file(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"training": {"micro_batch": 0}, "parallel": {"tp": 0}}', encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        scenario_io.load_scenario(path)
    text = str(info.value)
    assert str(path) in text and "2 problems" in text
    assert "training.micro_batch: must be at least 1" in text and "parallel.tp: must be at least 1" in text
    assert isinstance(info.value, ValueError)


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
    assert scenario_io.scenario_from_dict({"model": {"params": None}}).model.params is None
    assert "must be an integer, not null" in _problems({"training": {"micro_batch": None}})["training.micro_batch"]


def test_integral_floats_become_ints_but_fractions_are_rejected():
    assert scenario_io.scenario_from_dict({"parallel": {"num_gpus": 8.0}}).parallel.num_gpus == 8
    assert "parallel.num_gpus" in _problems({"parallel": {"num_gpus": 8.5}})


def test_newer_schema_version_is_refused_with_a_clear_message():
    problems = _problems({"schema": "vramgui.scenario", "schema_version": 2, "app_version": "9.0"})
    assert "vramgui 9.0" in problems["schema_version"] and "please update" in problems["schema_version"]


def test_foreign_schema_is_refused():
    assert "not a vramgui scenario" in _problems({"schema": "something.else"})["schema"]


def test_hugging_face_config_is_recognised_and_explained():
    (message,) = _problems({"model_type": "llama", "hidden_size": 4096}).values()
    assert "config.json" in message


@pytest.mark.parametrize(("content", "expected"), [
    (b"", "not valid JSON"),
    (b'{"model": {"params": 1}', "not valid JSON: Expecting ',' delimiter at line 1"),
    (b"[1, 2]", "must be a JSON object"),
    (b'{"model": {"params": NaN}}', "NaN is not allowed"),
    (b'{"convention": "paper", "convention": "megatron"}', "appears twice"),
    (b"\xff\xfe\x00garbage", "not UTF-8"),
])
def test_malformed_files_give_a_clear_message(tmp_path, content, expected):
    path = tmp_path / "broken.json"
    path.write_bytes(content)
    with pytest.raises(ScenarioError) as info:
        scenario_io.load_scenario(path)
    assert expected in str(info.value)


def test_missing_file_is_a_scenario_error(tmp_path):
    with pytest.raises(ScenarioError, match="cannot read the file"):
        scenario_io.load_scenario(tmp_path / "nope.json")


def test_huge_file_is_refused_without_parsing(tmp_path):
    path = tmp_path / "huge.json"
    path.write_bytes(b" " * (scenario_io.MAX_FILE_BYTES + 10) + b"{}")
    with pytest.raises(ScenarioError, match="larger than"):
        scenario_io.load_scenario(path)


def test_utf8_byte_order_mark_is_tolerated(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + b'{"parallel": {"num_gpus": 4}}')
    assert scenario_io.load_scenario(path).parallel.num_gpus == 4


def test_every_field_of_every_section_is_written():
    data = scenario_io.scenario_to_dict(LLAMA_8B)
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
    """New fields (the contract allows adding defaulted ones) need no change in scenario_io."""
    data = scenario_io._plain(_GrownModel(architecture=_GrownArchitecture(sliding_window=4096)))
    assert data["architecture"]["sliding_window"] == 4096
    problems: list = []
    built = scenario_io._build(_GrownModel, {"architecture": {"num_layers": 2}}, "model.", problems)
    assert problems == []
    assert built.architecture == _GrownArchitecture(num_layers=2, sliding_window=None)
    scenario_io._build(_GrownModel, {"architecture": {"sliding_window": "big"}}, "model.", problems)
    assert problems == [("model.architecture.sliding_window", "must be an integer, not the string 'big'")]

# ---------------------------------------------------------------------------------------------- atomic save


def test_failed_write_leaves_the_previous_file_intact_and_no_temp_file(tmp_path, monkeypatch):
    path = tmp_path / "plan.json"
    scenario_io.save_scenario(path, LLAMA_8B)
    before = path.read_bytes()

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(scenario_io.os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space left"):
        scenario_io.save_scenario(path, Scenario())
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan.json"]


def test_save_replaces_the_old_file_and_keeps_its_permissions(tmp_path):
    path = tmp_path / "plan.json"
    path.write_text("old", encoding="utf-8")
    os.chmod(path, 0o640)
    scenario_io.save_scenario(path, LLAMA_8B)
    assert scenario_io.load_scenario(path) == LLAMA_8B
    assert path.stat().st_mode & 0o777 == 0o640


def test_save_to_a_relative_path_in_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    scenario_io.save_scenario("here.json", Scenario())
    assert scenario_io.load_scenario(Path("here.json")) == Scenario()


# ---------------------------------------------------------------------------------------------- property


_positive = st.integers(min_value=1, max_value=10**13)
_architectures = st.builds(
    Architecture, family=st.sampled_from(FAMILIES), num_layers=st.integers(1, 200),
    num_kv_heads=st.none() | st.integers(1, 128), moe_ffn_size=st.none() | _positive,
    tied_embeddings=st.booleans(), num_experts=st.integers(0, 256),
)
_scenarios = st.builds(
    Scenario,
    model=st.builds(ModelSpec, name=st.text(max_size=30), params=st.none() | _positive,
                    architecture=st.none() | _architectures, largest_layer=st.none() | _positive),
    precision=st.builds(PrecisionSpec, dtype=st.sampled_from(specs.DTYPES), recipe=st.sampled_from(specs.RECIPES),
                        optimizer=st.sampled_from(specs.OPTIMIZERS)),
    training=st.builds(TrainingSpec, micro_batch=_positive, seq_len=_positive, global_batch=st.none() | _positive),
    parallel=st.builds(ParallelSpec, num_gpus=_positive, zero_stage=st.sampled_from(specs.ZERO_STAGES),
                       sp=st.booleans()),
    hardware=st.builds(HardwareSpec, gpu_name=st.none() | st.text(max_size=20), gpu_memory=st.none() | _positive,
                       reserve=st.floats(min_value=0.0, max_value=0.99)),
    convention=st.sampled_from(specs.CONVENTIONS),
)


@settings(max_examples=60, deadline=None)
@given(_scenarios)
def test_any_valid_scenario_round_trips_through_json(scenario):
    assert scenario_io.loads(scenario_io.dumps(scenario)) == scenario
    assert scenario_io.loads(scenario_io.dumps(scenario, indent=None)) == scenario
