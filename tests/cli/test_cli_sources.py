"""The CLI reads models from presets, config.json files and scenario files; explicit flags win."""

from __future__ import annotations

import json

from vramgui.cli.commands import main
from vramgui.core.scenario.specs import ModelSpec, ParallelSpec, PrecisionSpec, Scenario
from vramgui.io.scenario_files import save_scenario

LLAMA_CONFIG = {
    "model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008, "num_attention_heads": 32,
    "num_hidden_layers": 32, "num_key_value_heads": 32, "vocab_size": 32000, "tie_word_embeddings": False,
    "max_position_embeddings": 4096, "rms_norm_eps": 1e-5,
}


def run_json(capsys, *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_preset_gives_exact_params_and_activations(capsys):
    data = run_json(capsys, "estimate", "--preset", "llama-2-7b", "--gpus", "8", "--stage", "3", "--json")
    assert data["model"]["params"] == 6_738_415_616
    assert data["per_gpu"]["activations"] > 0


def test_config_json_file_is_read(tmp_path, capsys):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(LLAMA_CONFIG), encoding="utf-8")
    data = run_json(capsys, "estimate", "--config", str(path), "--json")
    assert data["model"]["params"] == 6_738_415_616


def test_gpu_preset_sets_memory_and_explicit_memory_overrides(capsys):
    data = run_json(capsys, "estimate", "--params", "7B", "--gpu", "a100-80gb", "--json")
    assert data["gpu_memory"] > 0 and data["fits"] is not None
    data = run_json(capsys, "estimate", "--params", "7B", "--gpu", "a100-80gb", "--gpu-memory", "24GB", "--json")
    assert data["gpu_memory"] == 24 * 10**9


def test_scenario_file_is_the_base_and_flags_override_it(tmp_path, capsys):
    path = tmp_path / "run.json"
    save_scenario(path, Scenario(model=ModelSpec(params=7 * 10**9), precision=PrecisionSpec(dtype="fp16"),
                                 parallel=ParallelSpec(num_gpus=8, zero_stage=1)))
    assert run_json(capsys, "estimate", "--scenario", str(path), "--json")["per_gpu"]["total"] == 38_500_000_000
    data = run_json(capsys, "estimate", "--scenario", str(path), "--stage", "3", "--json")
    assert data["per_gpu"]["total"] == 14_000_000_000


def test_presets_lists_models_and_gpus(capsys):
    data = run_json(capsys, "presets", "--json")
    assert any(m["key"] == "llama-2-7b" for m in data["models"])
    assert all(g["memory"] > 0 for g in data["gpus"])


def test_presets_show_the_exact_count_beside_the_official_figure(capsys):
    from vramgui.io import presets

    data = {m["key"]: m for m in run_json(capsys, "presets", "--json")["models"]}
    for key, preset in presets.model_presets().items():
        assert data[key]["params"] == preset.params  # exact, from the architecture
        assert data[key]["official_params"] == preset.official_params
        assert data[key]["official_label"] == preset.official_label
    assert data["gpt2"]["params"] == 124_439_808 and data["gpt2"]["official_params"] == 124_000_000
    assert data["mixtral-8x7b"]["active_params"] < data["mixtral-8x7b"]["params"]
    assert data["gpt2"]["active_params"] is None
    assert main(["presets"]) == 0
    table = capsys.readouterr().out
    gpt2 = next(line for line in table.splitlines() if line.startswith("gpt2 "))
    assert "124,439,808" in gpt2 and "124M" in gpt2 and "124.00M" not in table


def test_unknown_preset_is_one_line_exit_2(capsys):
    assert main(["estimate", "--preset", "no-such-model"]) == 2
    err = capsys.readouterr().err
    assert "--preset" in err and err.count("\n") == 1


def test_bad_scenario_file_is_exit_2(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    assert main(["estimate", "--scenario", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("vramgui: error:") and err.count("\n") == 1


def test_json_lists_activation_terms_when_an_architecture_is_known(capsys):
    data = run_json(capsys, "estimate", "--preset", "gpt2", "--json")
    terms = data["activation_terms"]
    assert terms and sum(t["bytes"] for t in terms) == data["per_gpu"]["activations"]
    assert run_json(capsys, "estimate", "--params", "1B", "--json")["activation_terms"] is None
