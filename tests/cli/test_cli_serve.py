"""`vramgui serve`: the issue's done-means call, its JSON keys, one-line errors naming the flag, the solves."""

from __future__ import annotations

import json

import pytest

from vramgui.cli.commands import main

DONE = ["serve", "--preset", "llama-3-8b", "--context", "8192", "--batch", "16", "--weights", "awq-int4",
        "--kv-dtype", "fp8", "--engine", "vllm", "--gpu", "rtx-4090"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_issue_example_answers_with_every_key(capsys):
    code, out, _ = run(capsys, *DONE, "--json")
    data = json.loads(out)
    assert code == 0
    for key in ("weights_bytes", "kv_bytes_per_token", "kv_cache_bytes", "activations_bytes", "peak", "fits",
                "headroom", "vllm"):
        assert key in data
    assert set(data["peak"]) == {"bytes", "components", "formulas", "derivations", "sources"}
    assert set(data["vllm"]) >= {"page_size_bytes", "num_blocks", "kv_cache_tokens", "max_concurrency"}
    assert data["kv_bytes_per_token"] == 32 * 2 * 8 * 128  # fp8: one byte per element
    assert data["kv_cache_bytes"] == 16 * 8192 * 32 * 2 * 8 * 128
    v = data["vllm"]
    assert v["kv_cache_tokens"] == v["num_blocks"] * 16
    assert v["max_concurrency"] == pytest.approx(v["num_blocks"] / 512, abs=1e-4)


def test_the_table(capsys):
    code, out, _ = run(capsys, *DONE)
    assert code == 0 and "GPU KV cache size" in out and "fits" in out


@pytest.mark.parametrize(("argv", "needle"), [
    (["serve", "--preset", "llama-3-8b", "--engine", "vllm", "--kv-dtype", "q4_0", "--gpu", "l4"], "--kv-dtype"),
    (["serve", "--preset", "llama-3-8b", "--engine", "llama.cpp", "--weights", "nf4"], "--weights"),
    (["serve", "--preset", "llama-3-8b", "--engine", "vllm"], "--gpu-memory"),
    (["serve", "--preset", "llama-3-8b", "--context", "0", "--gpu", "l4"], "--context"),
    (["serve", "--preset", "llama-3-8b", "--gpu-memory-utilization", "1.5", "--gpu", "l4"], "--gpu-memory-utilization"),
    (["serve", "--preset", "llama-3-8b", "--tp", "3", "--gpus", "3", "--gpu", "l4"], "--tp"),
    (["serve", "--gpu", "l4"], "--preset or --config"),
])
def test_bad_input_is_one_line_naming_the_flag(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and needle in err and err.count("\n") == 1


def test_serve_has_no_training_flag(capsys):
    code, _, err = run(capsys, "serve", "--preset", "llama-3-8b", "--micro-batch", "2")
    assert code == 2 and "unrecognized arguments: --micro-batch" in err


def test_solves_find_the_boundary(capsys):
    base = ["serve", "--preset", "llama-3-8b", "--engine", "llama.cpp", "--weights", "gguf-q4_k_m", "--gpu", "rtx-4090"]
    code, out, _ = run(capsys, *base, "--solve", "max-context", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["answer"] and answer["estimate"]["fits"]
    next_one = ["--context", str(answer["answer"] + 1), "--json"]
    code, out, _ = run(capsys, *base, *next_one)
    assert json.loads(out)["fits"] is False or answer["answer"] == answer["bound"]
    code, out, _ = run(capsys, *base, "--context", "8192", "--solve", "max-batch", "--json")
    batch = json.loads(out)["answer"]
    code, out, _ = run(capsys, *base, "--context", "8192", "--batch", str(batch + 1), "--json")
    assert json.loads(out)["fits"] is False
    code, out, _ = run(capsys, "serve", "--preset", "llama-3-70b", "--engine", "vllm", "--gpu", "h100-sxm",
                       "--context", "8192", "--batch", "8", "--solve", "min-gpus", "--json")
    data = json.loads(out)
    assert code == 0 and data["answer"] == 4 and data["estimate"]["tp"] == 4  # 141 GB of bf16 weights


def test_a_saved_scenario_carries_the_serving_inputs(capsys, tmp_path):
    from dataclasses import replace

    from vramgui.core.scenario.choices import Engine, KvDType, WeightFormat
    from vramgui.io import presets
    from vramgui.io.scenario_files import load_scenario, save_scenario

    s = replace(load_scenario_default(), model=presets.find_model("gemma-2-9b").spec)
    s = replace(s, serve=replace(s.serve, context=4096, batch=3, weights=WeightFormat.GGUF_Q5_K_M,
                                 kv_dtype=KvDType.Q8_0, engine=Engine.LLAMA_CPP, ubatch=1024))
    path = tmp_path / "serve.json"
    save_scenario(path, s)
    assert load_scenario(path) == s
    code, out, _ = run(capsys, "serve", "--scenario", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["engine"] == "llama.cpp" and data["weights_format"] == "gguf-q5_k_m"
    # 3 × 4096 = 12,288 cells; the SWA cache pad(min(12288, 4096 · 3 + 1024), 256) is capped at n_ctx
    assert data["llama_cpp"] == {"cells": 12288, "swa_cells": 12288}
    bad = json.loads(path.read_text())
    bad["serve"]["kv_dtype"] = "q9"
    path.write_text(json.dumps(bad))
    code, _, err = run(capsys, "serve", "--scenario", str(path))
    assert code == 2 and "serve.kv_dtype" in err


def load_scenario_default():
    from vramgui.core.scenario.specs import Scenario

    return Scenario()


@pytest.mark.parametrize(("question", "given"), [("max-context", ("--batch", "16")),
                                                 ("max-batch", ("--context", "8192"))])
def test_solve_asks_the_serving_questions_as_serve_solve_does(capsys, question, given):
    """`vramgui solve max-context` / `max-batch` (the issue's names) answer exactly as `serve --solve NAME`."""
    common = ("--preset", "llama-3-8b", *given, "--weights", "awq-int4", "--kv-dtype", "fp8", "--engine", "vllm",
              "--gpu", "rtx-4090", "--json")
    code, out, err = run(capsys, "solve", question, *common)
    assert (code, err) == (0, "")
    assert (code, out, err) == run(capsys, "serve", "--solve", question, *common)
    assert json.loads(out)["question"] == question


def test_a_serving_question_under_solve_names_a_bad_flag_in_one_line(capsys):
    code, out, err = run(capsys, "solve", "max-batch", "--preset", "llama-3-8b", "--context", "0", "--gpu", "rtx-4090")
    assert code == 2 and out == "" and err.count("\n") == 1 and "--context" in err
