"""Offline import of config.json files and model folders: published configs, presets on disk, bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vramgui.core.documents.hf_config import SUPPORTED_MODEL_TYPES, architecture_from_config
from vramgui.core.scenario.architecture import count_params
from vramgui.core.text.errors import InputError
from vramgui.io.hf_config import load_model_spec
from vramgui.io.presets import model_presets
from vramgui.paths import resource_path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "hf_configs"


def _write(tmp_path: Path, data, name: str = "config.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return path


@pytest.mark.parametrize("key", list(model_presets()))
def test_preset_config_written_to_disk_imports_to_the_same_count(tmp_path, key):
    preset = model_presets()[key]
    # the preset's config is the published config.json subset; written to a folder it must import the same
    raw = next(m for m in json.loads(resource_path("presets", "models.json").read_text())["models"]
               if m["key"] == key)["config"]
    folder = tmp_path / key
    folder.mkdir()
    _write(folder, raw)
    spec = load_model_spec(folder)
    assert spec.params == preset.params == count_params(spec.architecture)
    assert spec.name == key


def test_unsupported_model_type_lists_supported_ones(tmp_path):
    with pytest.raises(InputError) as err:
        load_model_spec(_write(tmp_path, {"model_type": "bert", "hidden_size": 768}))
    assert "bert" in str(err.value) and "llama" in str(err.value) and "deepseek_v3" in str(err.value)


def test_remote_code_model_is_rejected_without_running_anything(tmp_path):
    cfg = {"model_type": "my_custom", "auto_map": {"AutoModelForCausalLM": "modeling_x.MyModel"}}
    with pytest.raises(InputError, match="trust_remote_code"):
        load_model_spec(_write(tmp_path, cfg))


def test_missing_dimension_names_the_key(tmp_path):
    with pytest.raises(InputError) as err:
        load_model_spec(_write(tmp_path, {"model_type": "llama", "hidden_size": 4096}))
    assert err.value.field.startswith("config.")


FIXTURE_DIRS = sorted(p.parent for p in FIXTURES.glob("*/config.json"))


def test_every_supported_family_has_a_published_config_fixture():
    types = {json.loads((d / "config.json").read_text())["model_type"] for d in FIXTURE_DIRS}
    assert set(SUPPORTED_MODEL_TYPES) <= types


@pytest.mark.parametrize("folder", FIXTURE_DIRS, ids=lambda d: d.name)
def test_published_config_imports_to_the_expected_count(folder):
    expected = json.loads((folder / "expected.json").read_text())
    spec = load_model_spec(folder / "config.json")
    assert spec.params == count_params(spec.architecture) == expected["params"], expected["source"]


def test_folder_without_config_is_a_clear_error(tmp_path):
    with pytest.raises(InputError, match="cannot open"):
        load_model_spec(tmp_path)


def test_oversized_config_is_refused_unread(tmp_path):
    path = tmp_path / "config.json"
    with open(path, "wb") as fh:
        fh.truncate(9 * 2**20)  # sparse: 9 MiB of zeros without writing them
    with pytest.raises(InputError, match="read at most"):
        load_model_spec(path)


@pytest.mark.parametrize(("raw", "message"), [
    (b"\xff\xfe{}", "UTF-8"),
    (b'{"model_type": "llama", ', "not valid JSON"),
    (b"[" * 100_000 + b"]" * 100_000, "nested"),
    (b"[1, 2, 3]", "JSON object"),
    (b"", "not valid JSON"),
    (b'{"model_type": "llama", "hidden_size": NaN, "num_hidden_layers": 2, "num_attention_heads": 2,'
     b' "intermediate_size": 8, "vocab_size": 10}', "whole number"),
    (b'{"model_type": "llama", "hidden_size": 1e400, "num_hidden_layers": 2, "num_attention_heads": 2,'
     b' "intermediate_size": 8, "vocab_size": 10}', "whole number"),
    (b'{"model_type": ["llama"]}', "model_type"),
    (b'{"model_type": "llama", "hidden_size": ' + b"9" * 5000 + b"}", "cannot be read"),
])
def test_malformed_config_gives_clear_error(tmp_path, raw, message):
    path = tmp_path / "config.json"
    path.write_bytes(raw)
    with pytest.raises(InputError) as err:
        load_model_spec(path)
    assert message in str(err.value)


def test_fifo_instead_of_config_is_refused_without_blocking(tmp_path):
    import os
    os.mkfifo(tmp_path / "config.json")
    with pytest.raises(InputError, match="not a regular file"):
        load_model_spec(tmp_path)


def test_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "config.json"
    cfg = {"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
           "intermediate_size": 128, "vocab_size": 100}
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(cfg).encode())
    assert load_model_spec(path).params == count_params(architecture_from_config(cfg))


def test_folder_import_counts_the_config_and_the_weights():
    from vramgui.io.model_folder import import_model

    result = import_model(FIXTURES.parent / "hf_saved" / "gpt2")
    assert result.weights.params == result.config_params == 7232


def test_saved_deepseek_v3_folder_estimates_despite_unused_kv_heads_default():
    """transformers saves num_key_value_heads=128 beside 2 MLA heads; MLA ignores it, so must we."""
    from pathlib import Path

    from vramgui.core.estimate import estimate
    from vramgui.core.scenario.specs import ParallelSpec, Scenario
    from vramgui.io.hf_config import load_model_spec

    folder = Path(__file__).parents[1] / "fixtures" / "hf_saved" / "deepseek_v3"
    spec = load_model_spec(folder)
    assert spec.architecture.kv_heads == spec.architecture.num_heads
    est = estimate(Scenario(model=spec, parallel=ParallelSpec(num_gpus=2, zero_stage=3)))
    assert est.bytes_of("activations") > 0
