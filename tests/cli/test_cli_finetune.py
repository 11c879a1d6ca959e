"""The command line under LoRA / QLoRA: the issue's acceptance command, --json, compare --finetune."""

from __future__ import annotations

import json

from vramgui.cli.commands import main

ACCEPTANCE = ["estimate", "--preset", "llama-3-8b", "--finetune", "qlora", "--lora-rank", "16", "--lora-targets",
              "all-linear", "--gpu", "rtx-4090", "--seq-len", "2048", "--recompute", "full"]


def test_the_acceptance_command_answers_with_the_peak_and_its_parts(capsys):
    assert main(ACCEPTANCE) == 0
    out = capsys.readouterr().out
    assert "trainable_params: 41,943,040" in out
    assert "frozen base (nf4)" in out and "Live at the step's peak" in out and "fits (step peak" in out


def test_json_reports_the_trainable_parameters_beside_the_parameters(capsys):
    assert main([*ACCEPTANCE, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["model"]["params"] == 8_030_261_248
    assert data["model"]["trainable_params"] == 41_943_040
    assert data["per_gpu"]["gradients"] == 4 * 41_943_040


def test_a_bad_target_is_one_line_naming_the_flag(capsys):
    assert main(["estimate", "--preset", "llama-3-8b", "--finetune", "lora", "--lora-targets", "c_attn"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "--lora-targets" in err and "c_attn" in err


def test_compare_finetune_adds_lora_rows(capsys):
    assert main(["compare", "--gpu-memory", "24GB", "--gpus", "1", "--finetune", "qlora", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["finetune_rows"]
    assert [r["strategy"] for r in rows] == ["QLoRA DDP", "QLoRA ZeRO-1", "QLoRA ZeRO-2", "QLoRA ZeRO-3"]
    assert all(r["max_params"] > 10**10 for r in rows)  # a 24 GB card QLoRA-tunes well above 10B parameters


def test_compare_without_finetune_is_the_seed_table(capsys):
    assert main(["compare", "--json"]) == 0
    assert "finetune_rows" not in json.loads(capsys.readouterr().out)
