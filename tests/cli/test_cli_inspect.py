"""`vramgui inspect`: a model folder's config count beside its safetensors count; a mismatch warns, exit 0."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from vramgui.cli.commands import main
from vramgui.core.scenario import architecture as am
from vramgui.io.hf_config import load_model_spec

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SAVED = sorted(p for p in (FIXTURES / "hf_saved").iterdir() if p.is_dir())
CONFIGS = sorted(p for p in (FIXTURES / "hf_configs").iterdir() if (p / "expected.json").is_file())


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("folder", SAVED, ids=lambda p: p.name)
def test_saved_models_agree_with_their_config(capsys, folder):
    code, out, err = run(capsys, "inspect", str(folder), "--json")
    data = json.loads(out)
    assert code == 0 and err == ""
    assert data["params"]["config"] == data["params"]["weights"] == load_model_spec(folder).params
    assert data["mismatch"] is False and data["difference"] == 0
    assert data["weights"]["tensors"] > 0 and data["weights"]["exact"]
    code, out, _ = run(capsys, "inspect", str(folder))
    assert code == 0 and "Weights and config.json agree." in out and "WARNING" not in out
    assert f"{data['params']['config']:,}" in out


def test_moe_folder_shows_active_parameters_and_expert_layout(capsys):
    folder = FIXTURES / "hf_saved" / "mixtral-sharded"
    _, out, _ = run(capsys, "inspect", str(folder), "--json")
    data = json.loads(out)
    arch = load_model_spec(folder).architecture
    assert data["params"]["active"] == am.count_active_params(arch) < data["params"]["config"]
    assert data["largest_layer"] == am.largest_layer_params(arch)
    assert data["architecture"]["num_experts"] == arch.num_experts
    _, text, _ = run(capsys, "inspect", str(folder))
    assert "mixture of experts" in text and "headers of 3 safetensors files" in text


def test_buffers_set_aside_are_listed(capsys):
    _, out, _ = run(capsys, "inspect", str(FIXTURES / "hf_saved" / "deepseek_v3"), "--json")
    data = json.loads(out)
    excluded = data["weights"]["excluded"]
    assert excluded and data["weights"]["total"] == data["weights"]["params"] + sum(e["params"] for e in excluded)


def _edited_copy(tmp_path: Path, name: str, **changes) -> Path:
    folder = tmp_path / name
    shutil.copytree(FIXTURES / "hf_saved" / name, folder)
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, **changes}))
    return folder


def test_mismatch_warns_but_exits_0(tmp_path, capsys):
    folder = _edited_copy(tmp_path, "llama-tied", intermediate_size=32)  # the weights were saved with 24
    code, out, err = run(capsys, "inspect", str(folder))
    assert code == 0 and err == ""
    warning = [line for line in out.splitlines() if line.startswith("WARNING:")]
    assert len(warning) == 1 and "agree" not in out
    code, out, _ = run(capsys, "inspect", str(folder), "--json")
    data = json.loads(out)
    assert code == 0 and data["mismatch"] is True
    assert data["difference"] == data["params"]["weights"] - data["params"]["config"] < 0
    assert f"{data['difference']:+,}" in warning[0]


@pytest.mark.parametrize("folder", CONFIGS, ids=lambda p: p.name)
def test_config_file_alone_gives_the_published_count(capsys, folder):
    expected = json.loads((folder / "expected.json").read_text())["params"]
    code, out, _ = run(capsys, "inspect", str(folder / "config.json"), "--json")
    data = json.loads(out)
    assert code == 0 and data["params"]["config"] == expected
    assert data["weights"] is None and data["params"]["weights"] is None and data["mismatch"] is False


def test_config_only_text_says_no_weights(capsys):
    code, out, _ = run(capsys, "inspect", str(FIXTURES / "hf_configs" / "gpt2"))
    assert code == 0 and "124,439,808" in out and "no safetensors files" in out and "WARNING" not in out
    assert "GPT-style blocks" in out and "12 layers" in out


@pytest.mark.parametrize(("content", "needle"), [
    ('{"model_type": "bert"}', "llama"),  # unsupported: the supported types are listed
    ("{not json", "config"),
    ("[1, 2]", "JSON object"),
])
def test_bad_configs_are_one_line_exit_2(tmp_path, capsys, content, needle):
    (tmp_path / "config.json").write_text(content)
    code, out, err = run(capsys, "inspect", str(tmp_path))
    assert code == 2 and out == "" and needle in err and err.count("\n") == 1


def test_missing_path_is_exit_2(tmp_path, capsys):
    code, out, err = run(capsys, "inspect", str(tmp_path / "nowhere"))
    assert code == 2 and out == "" and "nowhere" in err


def test_real_process_inspect_json():
    proc = subprocess.run([sys.executable, "-m", "vramgui", "inspect", str(FIXTURES / "hf_saved" / "gpt2"), "--json"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["params"]["config"] == data["params"]["weights"] and data["model_type"] == "gpt2"


def test_keys_left_to_the_class_defaults_are_named_in_a_note(capsys, tmp_path):
    """transformers 5 saves Qwen3-MoE's expert count as num_local_experts: read, not defaulted to 128; what the file
    leaves out is named with the value used (inspect's notes, estimate's stderr)."""
    config = {"model_type": "qwen3_moe", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
              "intermediate_size": 128, "vocab_size": 100, "num_local_experts": 4, "num_experts_per_tok": 2,
              "moe_intermediate_size": 32}
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    code, out, _ = run(capsys, "inspect", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["params"]["config"] == 95_616  # 4 experts (128 would give 1.6 M)
    assert any("num_key_value_heads = 4" in note and "decoder_sparse_step = 1" in note for note in data["notes"])
    code, out, err = run(capsys, "estimate", "--config", str(path))
    assert code == 0 and "vramgui: note: not set in config.json" in err and "head_dim = 16" in err
