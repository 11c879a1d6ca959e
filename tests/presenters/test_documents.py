"""The window's file side (views reach io through it): atomic saves with a clean message, dropped files
recognised without blocking."""

from __future__ import annotations

import json
import os
import time

import pytest

from vramgui.core.scenario.specs import ParallelSpec, Scenario
from vramgui.io import files
from vramgui.presenters import documents

CONFIG = {"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
          "intermediate_size": 128, "vocab_size": 100}


def test_save_then_load_round_trips(tmp_path):
    path = tmp_path / "plan.json"
    scenario = Scenario(parallel=ParallelSpec(num_gpus=16))
    documents.save_document(path, scenario, preset=documents.PresetRef(gpu="h100-sxm"))
    document = documents.load_document(path)
    assert document.scenario == scenario and document.preset == documents.PresetRef(gpu="h100-sxm")


def test_a_failed_save_names_the_reason_not_the_temp_file_and_keeps_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "plan.json"
    path.write_bytes(b"old")

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied", str(dst))

    monkeypatch.setattr(files.os, "replace", refuse)
    with pytest.raises(documents.SaveError) as err:
        documents.save_document(path, Scenario())
    assert str(err.value) == "Permission denied" and isinstance(err.value, OSError)
    assert path.read_bytes() == b"old" and sorted(p.name for p in tmp_path.iterdir()) == ["plan.json"]


def test_a_hugging_face_config_is_recognised_and_a_scenario_is_not(tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps(CONFIG), encoding="utf-8")
    assert documents.looks_like_hf_config(config)
    scenario = tmp_path / "plan.json"
    documents.save_document(scenario, Scenario())
    assert not documents.looks_like_hf_config(scenario)
    (tmp_path / "list.json").write_text("[1, 2]", encoding="utf-8")
    assert not documents.looks_like_hf_config(tmp_path / "list.json")
    assert not documents.looks_like_hf_config(tmp_path / "missing.json")


def test_a_dropped_fifo_neither_blocks_nor_counts_as_a_config(tmp_path):
    fifo = tmp_path / "config.json"
    os.mkfifo(fifo)
    start = time.monotonic()
    assert not documents.looks_like_hf_config(fifo)
    with pytest.raises(documents.ScenarioError, match="not a regular file"):
        documents.load_document(fifo)
    assert time.monotonic() - start < 5
