"""Scenario format versions and the registry's checks on file values: migrations run in order before
validation; a newer format is refused; every value a file holds is checked by the field registry."""

from __future__ import annotations

from typing import Any

import pytest

from vramgui.core.documents import scenario as scenario_doc
from vramgui.core.documents.scenario import SCHEMA, SCHEMA_VERSION, ScenarioError


def _problems(data: Any) -> dict[str, str]:
    with pytest.raises(ScenarioError) as info:
        scenario_doc.document_from_dict(data)
    return {path: str(message) for path, message in info.value.problems}


def test_every_older_version_has_a_migration():
    assert set(scenario_doc.MIGRATIONS) == set(range(1, SCHEMA_VERSION))


def test_the_current_version_is_read_without_migrating(monkeypatch):
    monkeypatch.setattr(scenario_doc, "MIGRATIONS", {})
    doc = scenario_doc.document_from_dict({"schema": SCHEMA, "schema_version": SCHEMA_VERSION,
                                           "parallel": {"num_gpus": 8}})
    assert doc.scenario.parallel.num_gpus == 8 and doc.schema_version == SCHEMA_VERSION


def test_migrations_run_in_order_from_the_files_version_before_validation(monkeypatch):
    """A pretend format 3: version 1 named the GPU count `gpus`, version 2 kept memory in GB."""
    calls: list[int] = []

    def v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
        calls.append(1)
        data["parallel"]["num_gpus"] = data["parallel"].pop("gpus")
        return data

    def v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
        calls.append(2)
        assert data["schema_version"] == 2
        data["hardware"]["gpu_memory"] = data["hardware"]["gpu_memory"] * 10**9
        return data

    monkeypatch.setattr(scenario_doc, "SCHEMA_VERSION", 3)
    monkeypatch.setattr(scenario_doc, "MIGRATIONS", {1: v1_to_v2, 2: v2_to_v3})
    original = {"schema": SCHEMA, "schema_version": 1, "parallel": {"gpus": 8}, "hardware": {"gpu_memory": 80}}
    doc = scenario_doc.document_from_dict(original)
    assert calls == [1, 2]
    assert doc.scenario.parallel.num_gpus == 8 and doc.scenario.hardware.gpu_memory == 80 * 10**9
    assert doc.schema_version == 1  # the version the file was written in
    assert original["parallel"] == {"gpus": 8}  # the caller's dict is left alone

    calls.clear()
    doc = scenario_doc.document_from_dict({"schema": SCHEMA, "schema_version": 2, "hardware": {"gpu_memory": 24}})
    assert calls == [2] and doc.scenario.hardware.gpu_memory == 24 * 10**9


def test_a_migrated_document_is_still_validated(monkeypatch):
    monkeypatch.setattr(scenario_doc, "SCHEMA_VERSION", 2)
    monkeypatch.setattr(scenario_doc, "MIGRATIONS", {1: lambda data: {**data, "parallel": {"tp": 0}}})
    assert "parallel.tp" in _problems({"schema": SCHEMA, "schema_version": 1})


def test_a_newer_version_is_refused_naming_the_writer():
    (message,) = _problems({"schema": SCHEMA, "schema_version": SCHEMA_VERSION + 1, "app_version": "9.0"}).values()
    assert "vramgui 9.0" in message and "please update" in message


@pytest.mark.parametrize(("section", "values"), [
    ("parallel", {"num_gpus": 10**6 + 1, "gpus_per_node": 0, "tp": -1}),
    ("training", {"micro_batch": 0, "seq_len": 10**9}),
    ("hardware", {"gpu_memory": 0, "reserve": 1.0}),
    ("overhead", {"cuda_context": -1, "zero3_live_params": -5}),
])
def test_file_values_are_checked_against_the_registry_ranges(section, values):
    problems = _problems({section: values})
    assert set(problems) == {f"{section}.{name}" for name in values}
    assert all("allowed:" in message for message in problems.values())


def test_architecture_values_are_checked_by_their_registry_entries():
    problems = _problems({"model": {"architecture": {"num_layers": 10_001, "norm": "batchnorm", "num_experts": -1,
                                                     "qk_norm": 1}}})
    assert set(problems) == {"model.architecture.num_layers", "model.architecture.norm",
                             "model.architecture.num_experts", "model.architecture.qk_norm"}
    assert "1 to 10,000" in problems["model.architecture.num_layers"]
    assert "rmsnorm, layernorm" in problems["model.architecture.norm"]


def test_a_whole_float_written_by_hand_is_an_integer():
    scenario = scenario_doc.document_from_dict({"model": {"params": 7e9}, "hardware": {"gpu_memory": 8e10}}).scenario
    assert scenario.model.params == 7_000_000_000 and isinstance(scenario.model.params, int)
    assert scenario.hardware.gpu_memory == 80_000_000_000
    assert "model.params" in _problems({"model": {"params": 7.5}})


def test_a_huge_integer_is_refused_without_being_echoed_whole():
    huge = int("9" * 4000)
    problems = _problems({"model": {"params": huge, "name": huge}})
    assert set(problems) == {"model.params", "model.name"}
    assert all(len(message) < 200 for message in problems.values())
    with pytest.raises(ScenarioError) as info:
        scenario_doc.loads('{"model": {"params": ' + "9" * 4000 + "}}")
    assert len(str(info.value)) < 200


def test_version_2_is_current_and_version_3_is_refused_with_please_update():
    assert SCHEMA_VERSION == 2  # 2: the training-step peak (issue 11)
    for header in ({"app_version": "9.0"}, {}):
        (message,) = _problems({"schema": SCHEMA, "schema_version": 3, **header}).values()
        assert "please update" in message and "3" in message


def test_version_1_overhead_zeros_become_not_given_and_other_values_stay():
    """MIGRATIONS[1]: version 1 wrote 0 for "not given" in the CUDA context, the communication buffers and the
    ZeRO-3 live parameters; version 2 reads null there as the step peak's documented default. Any other value is
    the user's own and stays; the per-GPU sum counts a field only when given, so 0 and null give the same sum."""
    v1 = {"schema": SCHEMA, "schema_version": 1, "model": {"params": 7 * 10**9},
          "parallel": {"num_gpus": 8, "zero_stage": 3},
          "overhead": {"cuda_context": 0, "comm_buffers": 10**9, "zero3_live_params": 0, "extra": 0}}
    migrated = scenario_doc.migrate(v1, 1)
    assert migrated["schema_version"] == 2
    assert migrated["overhead"] == {"cuda_context": None, "comm_buffers": 10**9, "zero3_live_params": None,
                                    "extra": 0}  # extra was never optional: its 0 is a value
    assert v1["overhead"]["cuda_context"] == 0  # the caller's document is left alone
    doc = scenario_doc.document_from_dict(v1)
    assert doc.schema_version == 1
    ov = doc.scenario.overhead
    assert (ov.cuda_context, ov.comm_buffers, ov.zero3_live_params, ov.extra) == (None, 10**9, None, 0)


def test_version_1_non_zero_overheads_are_kept_and_missing_ones_stay_missing():
    v1 = {"schema": SCHEMA, "schema_version": 1,
          "overhead": {"cuda_context": 2 * 10**9, "zero3_live_params": 10**8}}
    ov = scenario_doc.document_from_dict(v1).scenario.overhead
    assert (ov.cuda_context, ov.comm_buffers, ov.zero3_live_params) == (2 * 10**9, None, 10**8)
    assert "comm_buffers" not in scenario_doc.migrate(v1, 1)["overhead"]
    assert scenario_doc.document_from_dict({"schema_version": 1}).scenario == scenario_doc.document_from_dict(
        {"schema_version": 2}).scenario  # no overhead section: the defaults, in both versions


def test_version_2_keeps_an_explicit_zero():
    """In version 2 a 0 is a value (e.g. --cuda-context 0: the context is counted elsewhere), not "not given"."""
    doc = scenario_doc.document_from_dict({"schema": SCHEMA, "schema_version": 2,
                                           "overhead": {"cuda_context": 0, "comm_buffers": 0}})
    assert doc.scenario.overhead.cuda_context == 0 and doc.scenario.overhead.comm_buffers == 0
    again = scenario_doc.document_from_dict(scenario_doc.scenario_to_dict(doc.scenario)).scenario
    assert again == doc.scenario
