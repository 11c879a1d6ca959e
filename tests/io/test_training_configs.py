"""Training config files: JSON or YAML by content, the nested DeepSpeed file followed from the working directory,
the model a file names mapped to a preset or a local folder, every failure one message naming the file."""

from __future__ import annotations

import json

import pytest

from vramgui.core.text.errors import InputError
from vramgui.io.training_configs import load_training_config, model_of, read_document

LLAMA = {"model_type": "llama", "hidden_size": 2048, "intermediate_size": 5632, "num_attention_heads": 16,
         "num_hidden_layers": 4, "num_key_value_heads": 16, "vocab_size": 32000, "max_position_embeddings": 2048}


def test_json_or_yaml_by_content_whatever_the_extension(tmp_path):
    (tmp_path / "a.yaml").write_text('{"zero_optimization": {"stage": 2}}')
    (tmp_path / "b.json").write_text("distributed_type: FSDP\n")
    assert read_document(tmp_path / "a.yaml") == {"zero_optimization": {"stage": 2}}
    assert read_document(tmp_path / "b.json") == {"distributed_type": "FSDP"}


def test_malformed_yaml_is_one_line_naming_file_and_line(tmp_path):
    path = tmp_path / "axo.yml"
    path.write_text("base_model: m\nmicro_batch_size: [1\nsequence_len: 2\n")
    with pytest.raises(InputError) as info:
        read_document(path)
    text = str(info.value)
    assert str(path) in text and "line 3" in text and "\n" not in text


def test_nested_deepspeed_is_resolved_against_the_working_directory(tmp_path):
    (tmp_path / "ds").mkdir()
    (tmp_path / "ds" / "z3.json").write_text(json.dumps({"zero_optimization": {"stage": 3}, "bf16": {"enabled": "auto"},
                                                         "train_micro_batch_size_per_gpu": "auto"}))
    (tmp_path / "run").mkdir()
    cfg = tmp_path / "run" / "lf.yaml"
    cfg.write_text("model_name_or_path: m\nstage: sft\nbf16: true\ndeepspeed: ds/z3.json\n")
    imported, files = load_training_config(cfg, base=tmp_path)
    assert files == (str(cfg), str(tmp_path / "ds" / "z3.json"))
    assert {t.path: t.value for t in imported.taken}["parallel.zero_stage"] == 3
    imported, files = load_training_config(cfg, base=tmp_path / "run")  # not there from this folder
    assert files == (str(cfg),)
    missing = [u for u in imported.unresolved if u.key == "deepspeed"]
    assert missing and "not found" in str(missing[0].reason) and str(tmp_path / "run") in str(missing[0].reason)


def test_inline_deepspeed_of_trainer_args(tmp_path):
    cfg = tmp_path / "args.json"
    cfg.write_text(json.dumps({"output_dir": "o", "per_device_train_batch_size": 2, "bf16": True,
                               "deepspeed": {"zero_optimization": {"stage": 2}, "bf16": {"enabled": "auto"}}}))
    imported, _ = load_training_config(cfg)
    t = {t.path: t.value for t in imported.taken}
    assert (t["parallel.zero_stage"], t["precision.recipe"]) == (2, "mixed")


def test_a_nested_file_that_is_no_deepspeed_config_is_an_error(tmp_path):
    (tmp_path / "x.json").write_text("[1, 2]")
    cfg = tmp_path / "a.yaml"
    cfg.write_text("base_model: m\nmicro_batch_size: 1\ndeepspeed: x.json\n")
    with pytest.raises(InputError, match="is not a DeepSpeed config"):
        load_training_config(cfg, base=tmp_path)


def test_model_names_map_to_presets_folders_or_nothing(tmp_path):
    cfg = tmp_path / "a.yaml"
    cfg.write_text("base_model: NousResearch/Meta-Llama-3-8B\nmicro_batch_size: 1\n")
    spec, entry, left = model_of(load_training_config(cfg)[0])
    assert spec is not None and entry.value == "llama-3-8b" and left is None
    (tmp_path / "local").mkdir()
    (tmp_path / "local" / "config.json").write_text(json.dumps(LLAMA))
    cfg.write_text("base_model: local\nmicro_batch_size: 1\n")
    spec, entry, left = model_of(load_training_config(cfg)[0], base=tmp_path)
    assert spec is not None and spec.architecture.hidden_size == 2048 and entry.path == "model.config"
    cfg.write_text("base_model: someone/unknown-model\nmicro_batch_size: 1\n")
    spec, entry, left = model_of(load_training_config(cfg)[0], base=tmp_path)
    assert spec is None and left.value == "someone/unknown-model"


def test_not_a_mapping_and_missing_file(tmp_path):
    (tmp_path / "l.yaml").write_text("- a\n- b\n")
    with pytest.raises(InputError, match="holds list, not a mapping"):
        load_training_config(tmp_path / "l.yaml")
    with pytest.raises(InputError, match="cannot open"):
        load_training_config(tmp_path / "nope.yaml")
