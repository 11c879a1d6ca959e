"""Comparison files: every pinned scenario round-trips as a full scenario document; a bad file names its problem
and returns nothing; the reader is capped and reads regular files only; saves are atomic."""

from __future__ import annotations

import json
import os
from dataclasses import replace

import pytest

from tests.strategies import LLAMA_8B
from vramgui.core.scenario.specs import ParallelSpec, Scenario
from vramgui.core.text.message import Msg, render
from vramgui.io import comparison_files as cf
from vramgui.io.comparison_files import ComparisonEntry, ComparisonError
from vramgui.io.scenario_files import load_scenario, save_scenario

ZERO3 = replace(LLAMA_8B, parallel=replace(LLAMA_8B.parallel, zero_stage=3))
ENTRIES = (ComparisonEntry(LLAMA_8B, "baseline"), ComparisonEntry(ZERO3), ComparisonEntry(Scenario(), "默认"))


def test_round_trip_keeps_every_scenario_and_only_the_names_the_user_gave(tmp_path):
    path = tmp_path / "cmp.json"
    cf.save_comparison(path, ENTRIES)
    assert cf.load_comparison(path, max_entries=6) == ENTRIES
    data = json.loads(path.read_text(encoding="utf-8"))
    assert (data["schema"], data["schema_version"]) == ("vramgui.comparison", 1)
    assert [e.get("name") for e in data["pinned"]] == ["baseline", None, "默认"]
    assert "默认" in path.read_text(encoding="utf-8"), "non-ASCII names stay readable"


def test_each_entry_is_a_scenario_document_a_scenario_file_can_hold(tmp_path):
    path = tmp_path / "cmp.json"
    cf.save_comparison(path, ENTRIES)
    entry = json.loads(path.read_text(encoding="utf-8"))["pinned"][0]
    assert entry["schema"] == "vramgui.scenario"
    (tmp_path / "one.json").write_text(json.dumps(entry), encoding="utf-8")
    assert load_scenario(tmp_path / "one.json") == LLAMA_8B


def test_an_old_scenario_version_inside_is_migrated_like_a_scenario_file(tmp_path):
    v1 = {"schema": "vramgui.scenario", "schema_version": 1, "overhead": {"cuda_context": 0}}
    text = json.dumps({"schema": "vramgui.comparison", "schema_version": 1, "pinned": [v1]})
    (entry,) = cf.loads(text, max_entries=6)
    assert entry.scenario.overhead.cuda_context is None  # version 1 wrote 0 for "not given"


@pytest.mark.parametrize(("content", "code"), [
    (b"", "error.comparison_not_json"),
    (b"[1]", "error.comparison_not_object"),
    (b'{"schema": "vramgui.comparison", "schema_version": 1}', "error.comparison_no_list"),
    (b'{"schema": "vramgui.comparison", "schema_version": 1, "pinned": {}}', "error.comparison_no_list"),
    (b'{"schema": "vramgui.comparison", "schema_version": 99, "pinned": []}', "error.comparison_newer"),
    (b'{"schema": "vramgui.comparison", "schema_version": "1", "pinned": []}', "error.comparison_bad_version"),
    (b'{"schema": "something.else", "pinned": []}', "error.comparison_schema"),
    (b'{"pinned": [], "pined": 1}', "error.comparison_unknown_keys"),
    (b'{"schema": "vramgui.scenario", "schema_version": 2}', "error.comparison_is_scenario"),
    (b'{"model": {"params": 7e9}}', "error.comparison_is_scenario"),
    (b"\xff\xfe\x00 nope", "error.comparison_not_utf8"),
    (b'{"pinned": [{}, {}, {}]}', "error.comparison_too_many"),
])
def test_a_file_that_is_not_a_comparison_is_refused_with_its_reason(tmp_path, content, code):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(ComparisonError) as info:
        cf.load_comparison(path, max_entries=2)
    assert info.value.msg.code == code
    assert str(info.value) == f"{path}: {render(info.value.msg)}"


def test_every_bad_scenario_is_named_by_its_position_and_field(tmp_path):
    text = json.dumps({"pinned": [{"training": {"micro_batch": 0}}, {}, {"parallel": {"tpp": 2}}]})
    with pytest.raises(ComparisonError) as info:
        cf.loads(text, "f.json", max_entries=6)
    err = info.value
    assert err.msg == Msg.of("error.comparison_entries", count=2) and [i for i, _ in err.entries] == [1, 3]
    assert err.entries[0][1].problems[0][0] == "training.micro_batch"
    assert "scenario 3: parallel.tpp: unknown field (did you mean 'tp'?)" in str(err)


def test_a_hand_written_comparison_needs_no_header():
    (entry,) = cf.loads('{"pinned": [{"parallel": {"num_gpus": 8}}]}', max_entries=6)
    assert entry == ComparisonEntry(Scenario(parallel=ParallelSpec(num_gpus=8)))


def test_the_reader_is_capped_and_reads_regular_files_only(tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (cf.MAX_FILE_BYTES + 1))
    with pytest.raises(ComparisonError) as info:
        cf.load_comparison(big, max_entries=6)
    assert info.value.msg.code == "error.comparison_too_large"
    with pytest.raises(ComparisonError) as info:
        cf.load_comparison(tmp_path, max_entries=6)
    assert info.value.msg.code == "error.cannot_read_file" and "folder" in str(info.value)
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "pipe.json"
        os.mkfifo(fifo)
        with pytest.raises(ComparisonError) as info:  # refused before opening: never blocks
            cf.load_comparison(fifo, max_entries=6)
        assert "FIFO" in str(info.value)
    with pytest.raises(ComparisonError) as info:
        cf.load_comparison(tmp_path / "missing.json", max_entries=6)
    assert info.value.msg.code == "error.cannot_read_file"


def test_a_failed_save_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "cmp.json"
    save_scenario(path, LLAMA_8B)
    before = path.read_bytes()

    def full_disk(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(OSError, match="No space left"):
        cf.save_comparison(path, ENTRIES)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["cmp.json"]


def test_a_problem_is_one_catalogue_message_english_in_str_and_translated_through_the_translator():
    with pytest.raises(ComparisonError) as info:
        cf.loads('{"pinned": "x"}', "f.json", max_entries=6)
    assert str(info.value) == 'f.json: "pinned" must be a list of scenarios'
    assert render(info.value.msg, lambda context, text: f"[{context}] {text}") == \
        '[Core] "pinned" must be a list of scenarios'


def test_the_json_reason_stays_a_message_so_the_window_can_translate_it():
    with pytest.raises(ComparisonError) as info:
        cf.loads("{", "f.json", max_entries=6)
    reason = info.value.msg.kwargs["reason"]
    assert isinstance(reason, Msg) and reason.code.startswith("error.json_")
    assert str(info.value).startswith("f.json: not valid JSON: ")
