"""`vramgui solve max-lora-rank`: the largest LoRA rank whose training step fits, the core's answer, on the boundary of
the step peak (as every solve is judged), with 'nothing fits' and bad input reported as the other questions do."""

from __future__ import annotations

import json

from vramgui.cli.commands import build_parser, main, scenario_from_args
from vramgui.cli.parser import SOLVE_EXAMPLES
from vramgui.core.estimate import estimate
from vramgui.core.solve import questions as solve

QLORA_4090 = ("--preset", "llama-3-8b", "--gpu", "rtx-4090", "--finetune", "qlora", "--lora-targets", "all-linear",
              "--seq-len", "2048", "--recompute", "full")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def scenario(*argv: str):
    return scenario_from_args(build_parser().parse_args(["estimate", *argv]))


def test_the_largest_rank_is_the_cores_and_the_next_one_does_not_fit(capsys):
    code, out, err = run(capsys, "solve", "max-lora-rank", *QLORA_4090, "--json")
    data = json.loads(out)
    expected = solve.max_lora_rank(scenario(*QLORA_4090))
    assert code == 0 and err == "" and data["question"] == "max-lora-rank"
    assert data["found"] and data["answer"] == expected > 16 and data["bound"] == 65536
    at = data["estimate"]
    assert at["fits"] is True and at["peak"]["bytes"] <= at["usable"]
    assert at["model"]["trainable_params"] > 41_943_040  # more than rank 16's adapters
    beyond = estimate(solve.with_value(scenario(*QLORA_4090), "finetune.lora_rank", expected + 1))
    assert data["next"] == {"value": expected + 1, "peak": beyond.peak.bytes, "peak_phase": beyond.peak.phase,
                            "per_gpu_total": beyond.per_gpu_total, "fits": False}
    assert beyond.peak.bytes > beyond.usable  # the boundary is the peak's


def test_the_text_names_both_sides_and_the_adapters(capsys):
    code, out, _ = run(capsys, "solve", "max-lora-rank", *QLORA_4090)
    n = solve.max_lora_rank(scenario(*QLORA_4090))
    assert code == 0
    assert f"Largest LoRA rank that fits: {n:,}" in out
    assert f"LoRA rank {n:,}: step peak" in out and f"LoRA rank {n + 1:,}: step peak" in out and "does not fit" in out
    assert f"qlora rank {n:,} on all-linear, base nf4, fp32 adapters" in out
    assert "Judged by the peak of one training step" in out


def test_a_given_rank_is_ignored_with_a_note(capsys):
    code, out, _ = run(capsys, "solve", "max-lora-rank", *QLORA_4090, "--lora-rank", "8", "--json")
    data = json.loads(out)
    assert code == 0 and data["answer"] == solve.max_lora_rank(scenario(*QLORA_4090))
    assert "--lora-rank 8 is ignored: it is what is solved for" in data["notes"]


def test_nothing_fits_says_why_and_exits_1(capsys):
    code, out, err = run(capsys, "solve", "max-lora-rank", "--preset", "llama-3-70b", "--gpu", "rtx-4090",
                         "--finetune", "lora")
    assert code == 1 and err == ""
    assert "Nothing fits: even LoRA rank 1 needs" in out and "more than the usable 23.19 GB" in out


def test_full_training_or_no_architecture_is_bad_input(capsys):
    code, out, err = run(capsys, "solve", "max-lora-rank", "--preset", "llama-3-8b", "--gpu", "rtx-4090")
    assert code == 2 and out == "" and err.startswith("vramgui: error: finetune.method (--finetune):")
    code, out, err = run(capsys, "solve", "max-lora-rank", "--params", "7B", "--gpu", "rtx-4090", "--finetune", "lora")
    assert code == 2 and out == "" and "--preset or --config" in err and err.count("\n") == 1
    code, _, err = run(capsys, "solve", "max-lora-rank", "--preset", "llama-3-8b", "--finetune", "qlora")  # no memory
    assert code == 2 and "--gpu-memory" in err


def test_help_and_its_example(capsys):
    code, out, _ = run(capsys, "solve", "max-lora-rank", *SOLVE_EXAMPLES["max-lora-rank"].split())
    assert code == 0 and "Largest LoRA rank that fits" in out
