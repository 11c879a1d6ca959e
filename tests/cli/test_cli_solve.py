"""`vramgui solve`: each answer is the core's, sits on the boundary of the step peak (what `fits` judges by), and
'nothing fits' says why and exits 1."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from vramgui.cli.commands import build_parser, main, scenario_from_args
from vramgui.cli.solve import QUESTIONS
from vramgui.core.estimate import estimate
from vramgui.core.fields.registry import MAX_BATCH
from vramgui.core.solve import questions as solve

SEED_70B = ("--params", "70B", "--dtype", "fp16", "--gpu-memory", "80GB", "--reserve", "0.2")
# The seed counts model states only: no CUDA context, and the fused optimizer keeps no temporary at the step. The
# mixed recipe still casts the gradient partition to fp32 for the master update (+4Φ/N_d at the optimizer step,
# vramgui.core.step.peak), so the step peak of a count-only model is the seed's 16Φ/N_d + 4Φ/N_d = 20Φ/N_d.
SEED_STEP = ("--cuda-context", "0", "--optimizer-impl", "fused")
GPT2_24GB = ("--preset", "gpt2", "--gpu-memory", "24GB", "--seq-len", "1024")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, *argv: str) -> tuple[int, dict]:
    code, out, err = run(capsys, *argv, "--json")
    assert err == ""
    return code, json.loads(out)


def scenario(*argv: str):
    return scenario_from_args(build_parser().parse_args(["estimate", *argv]))


@pytest.mark.parametrize(("question", "path", "solver"), [
    ("max-micro-batch", "training.micro_batch", solve.max_micro_batch),
    ("max-seq-len", "training.seq_len", solve.max_seq_len),
])
def test_largest_value_is_the_cores_and_the_next_one_does_not_fit(capsys, question, path, solver):
    code, data = run_json(capsys, "solve", question, *GPT2_24GB)
    expected = solver(scenario(*GPT2_24GB))
    assert code == 0 and data["found"] and data["answer"] == expected > 1
    assert data["estimate"]["fits"] is True
    assert data["estimate"]["peak"]["bytes"] <= data["estimate"]["usable"]
    assert data["next"]["value"] == expected + 1 and data["next"]["fits"] is False
    beyond = estimate(solve.with_value(scenario(*GPT2_24GB), path, expected + 1))
    assert data["next"]["peak"] == beyond.peak.bytes > beyond.usable  # the boundary is the peak's
    assert data["next"]["per_gpu_total"] == beyond.per_gpu_total  # the sum, for reference
    assert data["next"]["peak_phase"] == beyond.peak.phase


def test_largest_micro_batch_text_names_both_sides(capsys):
    code, out, _ = run(capsys, "solve", "max-micro-batch", *GPT2_24GB)
    n = solve.max_micro_batch(scenario(*GPT2_24GB))
    assert code == 0
    assert f"Largest micro-batch that fits: {n}" in out
    assert f"micro-batch {n + 1}: step peak " in out and "does not fit" in out
    assert "over by -" not in out  # the miss is the peak's, never a negative amount


@pytest.mark.parametrize("argv", [
    ("max-micro-batch", *GPT2_24GB), ("max-seq-len", *GPT2_24GB), ("min-gpus", *SEED_70B, "--stage", "3"),
    ("cheapest-strategy", "--params", "10B", "--gpus", "8", "--gpu-memory", "80GB"),
    ("max-micro-batch", "--preset", "llama-3-70b", "--gpu-memory", "24GB"),  # nothing fits
])
def test_every_answer_says_it_is_judged_by_the_step_peak(capsys, argv):
    _, out, _ = run(capsys, "solve", *argv)
    assert "Judged by the peak of one training step; the per-GPU sum is shown for reference." in out
    assert "per-GPU sum" in out.split("Judged by")[0] or "Per-GPU sum" in out


def test_an_answer_at_the_search_limit_says_so(capsys):
    code, data = run_json(capsys, "solve", "max-micro-batch", "--preset", "gpt2", "--seq-len", "1",
                          "--gpu-memory", f"{10**18}B")
    assert code == 0 and data["answer"] == MAX_BATCH and data["at_bound"] and data["next"] is None
    _, out, _ = run(capsys, "solve", "max-micro-batch", "--preset", "gpt2", "--seq-len", "1", "--gpu-memory",
                    f"{10**18}B")
    assert f"limit of {MAX_BATCH:,}" in out


def test_min_gpus_matches_the_seed_arithmetic_plus_the_fp32_gradient_cast(capsys):
    code, data = run_json(capsys, "solve", "min-gpus", *SEED_70B, *SEED_STEP, "--stage", "3")
    assert code == 0 and data["answer"] == 22  # (16 + 4) x 70e9 / n <= 64e9  ->  n >= 21.875
    assert abs(data["estimate"]["peak"]["bytes"] - 20 * 70e9 / 22) < 8  # 20Φ/N_d (each shard rounded up)
    assert abs(data["estimate"]["per_gpu"]["total"] - 16 * 70e9 / 22) < 8  # the seed's sum, unchanged
    prev = data["previous"]
    assert prev["value"] == 21 and prev["fits"] is False and prev["peak"] > 64 * 10**9 >= prev["per_gpu_total"]
    _, out, _ = run(capsys, "solve", "min-gpus", *SEED_70B, *SEED_STEP, "--stage", "3")
    assert "Fewest GPUs that fit: 22" in out and "21 GPUs: step peak " in out


def test_min_gpus_steps_in_model_parallel_groups(capsys):
    code, data = run_json(capsys, "solve", "min-gpus", *SEED_70B, "--stage", "3", "--tp", "2", "--pp", "2")
    assert code == 0 and data["step"] == 4 and data["answer"] % 4 == 0
    assert data["answer"] == solve.min_gpus(scenario(*SEED_70B, "--stage", "3", "--tp", "2", "--pp", "2"))


LLAMA_CP = ("--preset", "llama-2-7b", "--cp", "2", "--tp", "2", "--gpus", "4", "--gpu-memory", "16GB", "--stage", "3")


def test_min_gpus_with_context_parallelism_steps_by_tp_cp_pp(capsys):
    # the step was tp × pp = 2, so the count beside the answer (and --max-gpus 65,536's bound) failed validation
    code, data = run_json(capsys, "solve", "min-gpus", *LLAMA_CP)
    assert code == 0 and data["step"] == 4 and data["answer"] == 12
    assert data["previous"]["value"] == 8 and not data["previous"]["fits"] and data["bound"] == 65536
    _, out, _ = run(capsys, "solve", "min-gpus", *LLAMA_CP)
    assert "Fewest GPUs that fit: 12 (multiples of tp × cp × pp = 4)" in out and "  8 GPUs: step peak" in out


def test_min_gpus_of_the_issue_answers_instead_of_failing(capsys):
    argv = ("--preset", "llama-2-7b", "--cp", "2", "--tp", "2", "--gpus", "4", "--gpu-memory", "40GB")
    code, out, err = run(capsys, "solve", "min-gpus", *argv)
    assert code == 1 and err == "" and "(multiples of tp × cp × pp = 4)" in out  # DDP: nothing fits, said so
    code, data = run_json(capsys, "solve", "min-gpus", *argv, "--stage", "3")
    assert code == 0 and data["answer"] % 4 == 0


def test_min_gpus_with_expert_parallelism_steps_by_the_expert_grid(capsys):
    argv = ("--preset", "mixtral-8x7b", "--gpu-memory", "80GB", "--stage", "3", "--tp", "2", "--ep", "4",
            "--etp", "1", "--pp", "2")
    code, data = run_json(capsys, "solve", "min-gpus", *argv)
    assert code == 0 and data["step"] == 8 and data["answer"] % 8 == 0  # lcm(tp·pp = 4, etp·ep·pp = 8)
    assert data["answer"] == solve.min_gpus(scenario(*argv))
    assert data["previous"]["value"] == data["answer"] - 8 and not data["previous"]["fits"]
    _, out, _ = run(capsys, "solve", "min-gpus", *argv)
    assert "(multiples of etp × ep × pp = 8)" in out


def test_min_gpus_max_gpus_below_the_world_group_names_it(capsys):
    code, _, err = run(capsys, "solve", "min-gpus", *LLAMA_CP, "--max-gpus", "2")
    assert code == 2 and "--max-gpus" in err and "4 to" in err


def test_min_gpus_nothing_fits_names_the_bound_and_exits_1(capsys):
    code, out, err = run(capsys, "solve", "min-gpus", *SEED_70B, "--stage", "0", "--max-gpus", "1000")
    assert code == 1 and err == ""
    assert "Nothing fits with up to 1,000 GPUs" in out and "--max-gpus" in out
    assert "does not shrink" in out  # DDP replicates everything: more GPUs never help
    code, data = run_json(capsys, "solve", "min-gpus", *SEED_70B, "--stage", "0", "--max-gpus", "1000")
    assert code == 1 and data["answer"] is None and not data["found"] and data["bound"] == 1000


def test_min_gpus_bound_is_rounded_down_to_a_whole_group(capsys):
    code, data = run_json(capsys, "solve", "min-gpus", *SEED_70B, "--stage", "0", "--tp", "4", "--max-gpus", "10")
    assert code == 1 and data["bound"] == 8


def test_micro_batch_nothing_fits_exits_1_with_the_smallest_try(capsys):
    code, out, _ = run(capsys, "solve", "max-micro-batch", "--preset", "llama-3-70b", "--gpu-memory", "24GB")
    assert code == 1 and "Nothing fits: even micro-batch 1 needs" in out and "24.00 GB" in out
    code, data = run_json(capsys, "solve", "max-seq-len", "--preset", "llama-3-70b", "--gpu-memory", "24GB")
    assert code == 1 and data["answer"] is None and data["estimate"]["fits"] is False


def test_cheapest_strategy_is_the_lowest_stage_that_fits(capsys):
    # SEED_STEP and no communication buckets: ZeRO-1's peak is its seed sum 55 GB + the fp32 cast 5 GB = 60 GB
    # <= 64 GB, DDP's 160 + 40 GB is not; with the defaults ZeRO-1 misses (foreach, buckets, CUDA context)
    code, data = run_json(capsys, "solve", "cheapest-strategy", "--params", "10B", "--dtype", "fp16",
                          "--gpus", "8", "--gpu-memory", "80GB", "--reserve", "0.2", *SEED_STEP,
                          "--comm-buffers", "0")
    assert code == 0 and data["answer"] == "ZeRO-1"
    assert [r["fits"] for r in data["strategies"]][:2] == [False, True]
    assert [r["peak"] for r in data["strategies"]][:2] == [200 * 10**9, 60 * 10**9]
    assert [r["per_gpu_total"] for r in data["strategies"]][:2] == [160 * 10**9, 55 * 10**9]
    assert len(data["strategies"]) == len(solve.strategy_variants(scenario("--params", "10B")))
    code, data = run_json(capsys, "solve", "cheapest-strategy", "--params", "10B", "--dtype", "fp16",
                          "--gpus", "8", "--gpu-memory", "80GB", "--reserve", "0.2")
    assert code == 0 and data["answer"] == "ZeRO-2"  # the default step: foreach's temporary, buckets, context
    assert all(r["fits"] == (r["peak"] <= 64 * 10**9) for r in data["strategies"])
    _, out, _ = run(capsys, "solve", "cheapest-strategy", "--params", "10B", "--gpus", "8", "--gpu-memory", "80GB")
    assert "Cheapest strategy that fits: ZeRO-1" in out and "ZeRO-3 + CPU optimizer offload" in out
    assert "Step peak" in out and "Per-GPU sum" in out


def test_cheapest_strategy_nothing_fits_exits_1(capsys):
    code, out, _ = run(capsys, "solve", "cheapest-strategy", "--preset", "llama-3-70b", "--gpu-memory", "24GB",
                       "--seq-len", "32768", "--attention", "eager")
    assert code == 1 and "Nothing fits" in out


def test_the_value_solved_for_is_noted_as_ignored(capsys):
    _, data = run_json(capsys, "solve", "max-micro-batch", *GPT2_24GB, "--micro-batch", "64", "--global-batch", "64")
    assert any("--micro-batch 64 is ignored" in n for n in data["notes"])
    assert any("global batch" in n for n in data["notes"])


@pytest.mark.parametrize(("argv", "needle"), [
    (["solve", "min-gpus", "--params", "7B"], "--gpu-memory"),
    (["solve", "cheapest-strategy", "--params", "7B"], "--gpu-memory"),
    (["solve", "max-micro-batch", "--params", "7B", "--gpu-memory", "80GB"], "--preset or --config"),
    (["solve", "max-seq-len", "--params", "7B", "--gpu-memory", "80GB"], "--preset or --config"),
    (["solve", "min-gpus", "--params", "7B", "--gpu-memory", "80GB", "--max-gpus", "0"], "--max-gpus"),
    (["solve", "min-gpus", "--params", "7B", "--gpu-memory", "80GB", "--tp", "8", "--max-gpus", "4"], "--max-gpus"),
    (["solve", "max-micro-batch", "--preset", "gpt2", "--gpu-memory", "eighty"], "--gpu-memory"),
    (["solve"], "max-micro-batch, max-seq-len, min-gpus, cheapest-strategy"),
    (["solve", "max-batches"], "invalid choice"),
    (["solve", "max-batch"], "serving needs the model's architecture"),  # a serving question (serve --solve)
])
def test_bad_input_is_one_line_with_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert needle in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("question", list(QUESTIONS))
def test_every_question_has_help(capsys, question):
    with pytest.raises(SystemExit) as exit_info:
        main(["solve", question, "--help"])
    out = capsys.readouterr().out
    assert exit_info.value.code == 0 and f"usage: vramgui solve {question}" in out and "--gpu-memory" in out
    assert f"example:\n  vramgui solve {question} --" in out


@pytest.mark.parametrize("question", list(QUESTIONS))
def test_every_help_example_runs(capsys, question):
    from vramgui.cli.parser import SOLVE_EXAMPLES

    code, out, err = run(capsys, "solve", question, *SOLVE_EXAMPLES[question].split())
    assert code == 0 and err == "" and "fit" in out


def _proc(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vramgui", *argv], capture_output=True, text=True, timeout=60,
                          check=False)


def test_real_process_answer_nothing_fits_and_bad_input():
    ok = _proc("solve", "min-gpus", *SEED_70B, *SEED_STEP, "--stage", "3", "--json")
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["answer"] == 22
    none = _proc("solve", "min-gpus", *SEED_70B, "--max-gpus", "64")
    assert none.returncode == 1 and "up to 64 GPUs" in none.stdout and none.stderr == ""
    bad = _proc("solve", "max-seq-len", "--preset", "gpt2")
    assert bad.returncode == 2 and bad.stdout == "" and "--gpu-memory" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_max_seq_len_under_sequence_parallelism_checks_the_next_accepted_length(capsys):
    code, data = run_json(capsys, "solve", "max-seq-len", "--preset", "llama-3-8b", "--gpus", "8", "--tp", "2",
                          "--sp", "--stage", "3", "--gpu-memory", "80GB")
    n = data["answer"]
    assert code == 0 and n % 2 == 0 and data["next"]["value"] == n + 2 and not data["next"]["fits"]
