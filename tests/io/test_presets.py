"""The bundled presets are read through the capped JSON reader; a broken preset file is a clear error."""

from __future__ import annotations

import json

import pytest

from vramgui.core.documents.catalog import models_from_document
from vramgui.io import presets
from vramgui.io.files import FileReadError, JsonError
from vramgui.paths import resource_path


def test_presets_are_the_data_files_entries_in_order():
    raw = json.loads(resource_path("presets", "models.json").read_text(encoding="utf-8"))
    assert list(presets.model_presets()) == [m["key"] for m in raw["models"]]
    raw = json.loads(resource_path("presets", "gpus.json").read_text(encoding="utf-8"))
    assert list(presets.gpu_presets()) == [g["key"] for g in raw["gpus"]]


def test_preset_dicts_are_copies():
    models = presets.model_presets()
    models.clear()
    assert presets.model_presets()


def test_the_pure_catalog_builds_the_same_presets_from_the_parsed_document():
    document = presets.read_preset_file("models.json")
    assert models_from_document(document) == presets.model_presets()


def test_a_broken_preset_file_is_a_json_error(tmp_path, monkeypatch):
    (tmp_path / "presets").mkdir()
    (tmp_path / "presets" / "models.json").write_text('{"models": [], "models": []}', encoding="utf-8")
    monkeypatch.setattr(presets, "resource_path", tmp_path.joinpath)
    with pytest.raises(JsonError, match=r"preset file .*models\.json: the field 'models' appears twice"):
        presets.read_preset_file("models.json")
    with pytest.raises(FileReadError, match=r"preset file .*gpus\.json: cannot open"):
        presets.read_preset_file("gpus.json")


def test_a_model_is_counted_only_when_it_is_looked_up():
    from vramgui.core.documents.catalog import ModelEntries, find_preset, normalize_name

    document = presets.read_preset_file("models.json")
    entries = ModelEntries(document)
    names = entries.lookup_names()
    assert find_preset("meta-llama/Llama-2-7b-hf", entries, "model.preset", names).key == "llama-2-7b"
    assert list(entries._presets) == ["llama-2-7b"]  # the one found, no other
    every = models_from_document(document)
    assert dict(entries) == every  # each counted on its first look-up, the same presets
    expected = {}  # the lookup names as the counted presets give them: repo id (with and without owner), name, key
    for key, p in every.items():
        for alias in (*p.aliases, *(a.split("/", 1)[1] for a in p.aliases), p.name, key):
            expected[normalize_name(alias)] = key
    assert names == expected
