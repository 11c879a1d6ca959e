"""Scenario files on disk: round trips, hand-written and broken files, size cap, atomic saves."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.strategies import LLAMA_8B
from vramgui import __version__
from vramgui.core.documents.scenario import PresetRef, ScenarioError
from vramgui.core.scenario.specs import (
    HardwareSpec,
    ModelSpec,
    ParallelSpec,
    Scenario,
)
from vramgui.io import scenario_files


def test_round_trip_keeps_every_field_including_the_architecture(tmp_path):
    path = tmp_path / "llama.json"
    scenario_files.save_scenario(path, LLAMA_8B, name="8B on 16 GPUs", preset=PresetRef(model="llama-3-8b"))
    document = scenario_files.load_document(path)
    assert document.scenario == LLAMA_8B
    assert document.name == "8B on 16 GPUs"
    assert document.preset == PresetRef(model="llama-3-8b", gpu=None)
    assert document.app_version == __version__


def test_written_file_is_readable_json_with_schema_header_and_all_sections(tmp_path):
    path = tmp_path / "s.json"
    scenario_files.save_scenario(path, LLAMA_8B)
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    assert list(data)[:3] == ["schema", "schema_version", "app_version"]
    assert data["schema"] == "vramgui.scenario" and data["schema_version"] == 2  # 2: the step peak (issue 11)
    assert data["model"]["architecture"]["num_kv_heads"] == 8
    assert data["parallel"]["zero_stage"] == 3
    assert text.count("\n") > 40, "indented for people, not one line"


def test_hand_written_file_with_a_few_fields_gets_defaults_for_the_rest(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text('{"model": {"params": 7e9}, "parallel": {"num_gpus": 8, "zero_stage": 2},\n'
                    ' "hardware": {"gpu_memory": 80000000000}}', encoding="utf-8")
    scenario = scenario_files.load_scenario(path)
    assert scenario == Scenario(model=ModelSpec(params=7_000_000_000),
                                parallel=ParallelSpec(num_gpus=8, zero_stage=2),
                                hardware=HardwareSpec(gpu_memory=80_000_000_000))
    assert isinstance(scenario.model.params, int)


def test_error_message_lists_every_problem_and_the_file(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"training": {"micro_batch": 0}, "parallel": {"tp": 0}}', encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        scenario_files.load_scenario(path)
    text = str(info.value)
    assert str(path) in text and "2 problems" in text
    assert "training.micro_batch: 0 is out of range (allowed: 1 to 10,000,000)" in text
    assert "parallel.tp: 0 is out of range (allowed: 1 to 1,000,000)" in text
    assert isinstance(info.value, ValueError)


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
        scenario_files.load_scenario(path)
    assert expected in str(info.value)


def test_missing_file_is_a_scenario_error(tmp_path):
    with pytest.raises(ScenarioError, match="cannot read the file"):
        scenario_files.load_scenario(tmp_path / "nope.json")


def test_huge_file_is_refused_without_parsing(tmp_path):
    path = tmp_path / "huge.json"
    path.write_bytes(b" " * (scenario_files.MAX_FILE_BYTES + 10) + b"{}")
    with pytest.raises(ScenarioError, match="larger than"):
        scenario_files.load_scenario(path)


def test_utf8_byte_order_mark_is_tolerated(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + b'{"parallel": {"num_gpus": 4}}')
    assert scenario_files.load_scenario(path).parallel.num_gpus == 4


def test_failed_write_leaves_the_previous_file_intact_and_no_temp_file(tmp_path, monkeypatch):
    path = tmp_path / "plan.json"
    scenario_files.save_scenario(path, LLAMA_8B)
    before = path.read_bytes()

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space left"):
        scenario_files.save_scenario(path, Scenario())
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan.json"]


def test_save_replaces_the_old_file_and_keeps_its_permissions(tmp_path):
    path = tmp_path / "plan.json"
    path.write_text("old", encoding="utf-8")
    os.chmod(path, 0o640)
    scenario_files.save_scenario(path, LLAMA_8B)
    assert scenario_files.load_scenario(path) == LLAMA_8B
    assert path.stat().st_mode & 0o777 == 0o640


def test_save_to_a_relative_path_in_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    scenario_files.save_scenario("here.json", Scenario())
    assert scenario_files.load_scenario(Path("here.json")) == Scenario()


def test_a_fifo_is_refused_fast_as_not_a_scenario(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(ScenarioError, match="cannot read the file: not a regular file"):
        scenario_files.load_scenario(fifo)


def test_a_folder_is_refused_as_not_a_scenario(tmp_path):
    with pytest.raises(ScenarioError, match=r"cannot read the file: not a regular file \(it is a folder\)"):
        scenario_files.load_scenario(tmp_path)


def test_deep_nesting_in_a_scenario_is_a_scenario_error_not_a_recursion_error(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"model": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    with pytest.raises(ScenarioError, match="nested more than"):
        scenario_files.load_scenario(path)


def test_saving_onto_a_folder_fails_and_leaves_it(tmp_path):
    folder = tmp_path / "taken.json"
    folder.mkdir()
    with pytest.raises(IsADirectoryError):
        scenario_files.save_scenario(folder, Scenario())
    assert folder.is_dir() and sorted(p.name for p in tmp_path.iterdir()) == ["taken.json"]
