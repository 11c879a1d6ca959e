"""``vramgui solve fastest`` and ``vramgui solve cheapest``: JSON shape, text, exit codes, errors naming the flag."""

from __future__ import annotations

import json

import pytest

from vramgui.cli.commands import main

LLAMA_8B = ["--preset", "llama-3-8b", "--gpu", "h100-sxm", "--seq-len", "8192", "--global-batch", "128"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_fastest_json_has_the_plan_its_estimate_and_alternatives(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "fastest", *LLAMA_8B, "--gpus", "16", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["found"] is True and data["question"] == "fastest" and data["global_batch"] == 128
    plan = data["plan"]
    assert plan["parallel"]["num_gpus"] == 16 and plan["training"]["global_batch"] == 128
    assert set(plan) == {"parallel", "training", "offload"}
    est = data["estimate"]
    assert est["fits"] is True and est["time"]["step_seconds"] == data["step_seconds"]
    assert est["peak"]["bytes"] == data["peak"]
    assert data["alternatives"] and all(a["step_seconds"] >= data["step_seconds"] for a in data["alternatives"])
    # the flags reproduce the plan's estimate
    code, out, _ = run(capsys, "estimate", *LLAMA_8B, "--gpus", "16", *data["flags"], "--json")
    assert json.loads(out)["time"]["step_seconds"] == data["step_seconds"]


def test_fastest_text_names_the_plan(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "fastest", *LLAMA_8B, "--gpus", "16")
    assert code == 0 and "Fastest plan that fits: 16 GPUs:" in out and "Next best:" in out and "add: " in out


def test_nothing_fits_exits_1_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "fastest", "--preset", "llama-3-70b", "--gpu", "h100-sxm",
                       "--gpu-memory", "8GB", "--gpus", "1", "--json")
    data = json.loads(out)
    assert code == 1 and data["found"] is False and data["reason"] == "memory" and data["least"]["fits"] is False
    assert data["why"].startswith("Nothing fits on 1 GPU") and "plan" not in data


def test_cheapest_json_and_its_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "cheapest", "--preset", "llama-3.2-1b", "--gpu", "h100-sxm",
                       "--gpus-per-node", "2", "--global-batch", "8", "--max-gpus", "4", "--train-tokens", "1B",
                       "--gpu-hour-price", "2", "--json")
    data = json.loads(out)
    assert code == 0 and data["found"] and data["counts"] == [2, 4] and data["estimate"]["time"]["cost"] == data["cost"]
    code, _, err = run(capsys, "solve", "cheapest", "--preset", "llama-3.2-1b", "--gpu", "h100-sxm")
    assert code == 2 and "--train-tokens" in err and len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "solve", "cheapest", "--preset", "llama-3.2-1b", "--gpu", "h100-sxm",
                       "--train-tokens", "1B", "--gpu-hour-price", "2", "--max-gpus", "0")
    assert code == 2 and "--max-gpus" in err and "1 to" in err
    code, _, err = run(capsys, "solve", "fastest", "--preset", "llama-3.2-1b", "--gpu-memory", "80GB")
    assert code == 2 and "--peak-tflops" in err


@pytest.mark.parametrize(("argv", "axis"), [
    (("--preset", "qwen1.5-moe-a2.7b", "--gpu", "a100-80gb", "--gpu-memory", "40GB", "--global-batch", "4",
      "--seq-len", "1024"), "ep"),
    (("--preset", "llama-3.2-1b", "--gpu", "h100-sxm", "--gpu-memory", "24GB", "--global-batch", "2",
      "--seq-len", "32768"), "cp"),
], ids=["experts", "long-sequence"])
def test_fastest_plans_split_the_experts_or_the_sequence_and_their_flags_reproduce_them(capsys, argv, axis) -> None:
    code, out, _ = run(capsys, "solve", "fastest", *argv, "--gpus", "4", "--json")
    data = json.loads(out)
    assert code == 0 and data["found"] is True
    assert data["plan"]["parallel"][axis] > 1  # these small spaces are won by splitting the experts / the sequence
    assert f"--{axis}" in data["flags"]
    p, t = data["plan"]["parallel"], data["plan"]["training"]
    steps = data["estimate"]["accumulation_steps"]
    assert t["micro_batch"] * steps * (p["num_gpus"] // (p["tp"] * p["cp"] * p["pp"])) == t["global_batch"]
    for alt in data["alternatives"]:
        assert alt["peak"] <= data["estimate"]["usable"] and alt["step_seconds"] >= data["step_seconds"]
    code, out, _ = run(capsys, "estimate", *argv, "--gpus", "4", *data["flags"], "--json")
    again = json.loads(out)
    assert code == 0 and again["fits"] and again["time"]["step_seconds"] == data["step_seconds"]
