"""The CLI, in-process (fast) and as a real process (exit codes, streams, no Qt)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from vramgui.cli.commands import COMMANDS, main
from vramgui.cli.parser import SUBCOMMANDS

PER_GPU_KEYS = {"parameters", "gradients", "optimizer_states", "master_weights", "activations", "other", "total"}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_estimate_json_has_the_issue_shape(capsys):
    code, out, _ = run(capsys, "estimate", "--params", "7B", "--dtype", "fp16", "--gpus", "8", "--stage", "1",
                       "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data["per_gpu"]) == PER_GPU_KEYS
    assert data["per_gpu"]["total"] == 38_500_000_000
    assert data["per_gpu"]["master_weights"] == 3_500_000_000
    assert data["per_gpu"]["activations"] is None
    assert data["fits"] is None and data["per_node_host"] is None
    assert data["model"]["params"] == 7_000_000_000
    assert data["formulas"]["optimizer_states"] == "12Φ/N_d"
    assert all(isinstance(v, int) for k, v in data["per_gpu"].items() if k != "activations")


def test_estimate_table_by_default_shows_formula_and_fit(capsys):
    code, out, _ = run(capsys, "estimate", "--params", "7B", "--dtype", "fp16", "--gpus", "8", "--stage", "3",
                       "--gpu-memory", "80GB", "--reserve", "0.2")
    assert code == 0
    assert "14.00 GB" in out and "16Φ" not in out and "2Φ/N_d" in out and "fits" in out


def test_gib_unit_is_labelled(capsys):
    _, out, _ = run(capsys, "estimate", "--params", "1B", "--unit", "GiB")
    assert "GiB" in out and " GB" not in out


def test_deepspeed_json_always_has_host_memory(capsys):
    _, out, _ = run(capsys, "estimate", "--params", "2851M", "--gpus", "8", "--stage", "3", "--convention",
                    "deepspeed", "--largest-layer", "32M", "--offload-optimizer", "cpu", "--offload-params", "cpu",
                    "--json")
    data = json.loads(out)
    assert data["per_node_host"]["total"] == int(2851e6 * 18 * 1.5)
    assert data["per_gpu"]["total"] == 4 * 32_000_000


def test_max_params_json_reports_a_count_judged_by_the_step_peak(capsys):
    # No CUDA context and the fused optimizer (the seed counts neither): the peak is the seed's 16Φ/N_d + the
    # mixed recipe's fp32 gradient cast 4Φ/N_d at the optimizer step, 20Φ/8 <= 64e9 -> 25.6B (the seed's 32B
    # is the per-GPU sum's answer, still in `vramgui compare`)
    code, out, _ = run(capsys, "max-params", "--gpus", "8", "--stage", "3", "--gpu-memory", "80GB", "--reserve",
                       "0.2", "--dtype", "fp16", "--cuda-context", "0", "--optimizer-impl", "fused", "--json")
    data = json.loads(out)
    assert code == 0 and data["max_params"] == 25_600_000_000
    assert data["peak"]["bytes"] == 64 * 10**9 >= data["per_gpu_total"] == 16 * 25_600_000_000 // 8
    assert data["peak"]["phase"] == "optimizer_step"
    code, out, _ = run(capsys, "max-params", "--gpus", "8", "--stage", "3", "--gpu-memory", "80GB", "--reserve",
                       "0.2", "--dtype", "fp16")
    assert code == 0 and "Judged by the peak of one training step; the per-GPU sum is shown for reference." in out
    assert "step peak" in out and "headroom -" not in out


def test_max_params_at_the_search_limit_says_so(capsys):
    argv = ("max-params", "--gpus", "8", "--stage", "3", "--gpu-memory", "80GB", "--offload-optimizer", "cpu",
            "--offload-params", "cpu")  # every model state on the host: any count fits the GPU
    code, out, _ = run(capsys, *argv, "--json")
    data = json.loads(out)
    assert code == 0 and data["found"] and data["at_bound"] and data["max_params"] == data["bound"]
    _, out, _ = run(capsys, *argv)
    assert "the search stops there" in out


def test_accumulation_json_reports_steps(capsys):
    code, out, _ = run(capsys, "accumulation", "--global-batch", "512", "--micro-batch", "4", "--gpus", "8",
                       "--seq-len", "2048", "--json")
    data = json.loads(out)
    assert code == 0 and data["steps"] == 16 and data["tokens_per_step"] == 512 * 2048


def test_accumulation_non_multiple_names_nearest_batches(capsys):
    code, out, err = run(capsys, "accumulation", "--global-batch", "100", "--micro-batch", "3", "--gpus", "8")
    assert code == 2 and out == ""
    assert "96" in err and "120" in err and err.count("\n") == 1


def test_compare_prints_the_seed_table(capsys):
    code, out, _ = run(capsys, "compare")
    assert code == 0
    assert "DDP          4.00B" in out and "ZeRO-3      32.00B" in out


def test_compare_json_rows(capsys):
    _, out, _ = run(capsys, "compare", "--json")
    rows = {r["strategy"]: r["max_params"] for r in json.loads(out)["rows"]}
    assert rows["DDP"] == 4_000_000_000 and rows["ZeRO-3"] == 32_000_000_000


@pytest.mark.parametrize(("argv", "needle"), [
    (["estimate", "--params", "7B", "--stage", "5"], "--stage"),
    (["estimate", "--params", "seven"], "--params"),
    (["estimate", "--params", "7B", "--gpus", "0"], "--gpus"),
    (["estimate", "--params", "7B", "--reserve", "1.5"], "--reserve"),
    (["estimate", "--params", "7B", "--gpu-memory", "80XB"], "--gpu-memory"),
    (["estimate"], "--params"),
    (["max-params", "--params", "1B"], "--gpu-memory"),
    (["estimate", "--params", "7B", "--scenario", "/nonexistent/x.json"], "x.json"),
])
def test_bad_input_is_one_line_on_stderr_with_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert needle in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_subcommands_are_all_wired():
    assert set(SUBCOMMANDS) == {"estimate", "max-params", "solve", "accumulation", "compare", "inspect", "presets",
                                "serve", "export"}
    assert set(SUBCOMMANDS) == set(COMMANDS)


def test_main_help_lists_every_subcommand_with_a_description(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    out = capsys.readouterr().out
    assert exit_info.value.code == 0
    lines = out.splitlines()
    for command in SUBCOMMANDS:
        at = next(i for i, line in enumerate(lines) if line.strip().split(" ")[0] == command)
        described = lines[at].strip()[len(command):].strip() or lines[at + 1].strip()
        assert len(described) > 10, command
    assert "Exit codes" in out and "desktop app" in out


def test_main_module_routes_every_subcommand_to_the_cli():
    from vramgui.__main__ import _wants_gui

    assert not any(_wants_gui([command]) for command in SUBCOMMANDS)
    assert _wants_gui([])


def _proc(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vramgui", *argv], capture_output=True, text=True, timeout=60,
                          check=False)


def test_real_process_estimate_json_and_exit_zero():
    proc = _proc("estimate", "--params", "7B", "--dtype", "fp16", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["per_gpu"]["total"] == 112_000_000_000


def test_real_process_bad_input_exits_2_without_traceback():
    proc = _proc("estimate", "--params", "7B", "--tp", "3", "--gpus", "8")
    assert proc.returncode == 2
    assert proc.stdout == "" and "Traceback" not in proc.stderr and "--gpus" in proc.stderr


def test_real_process_version():
    proc = _proc("--version")
    assert proc.returncode == 0 and proc.stdout.startswith("vramgui ")


def test_cli_process_never_imports_qt():
    code = ("import sys; from vramgui.cli.commands import main; main(['estimate', '--params', '7B', '--json']);"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'numpy', 'shiboken6')];"
            "sys.exit(3 if bad else 0)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr


# What an estimate that fits never needs at start-up (make bench's paired start-up measures the time): the seed's
# functions, fine-tuning, the adviser, the atomic writer's tempfile, difflib's "did you mean", fractions (imported
# where a size is parsed), the traceback printer.
_NOT_AT_START_UP = ("vramgui.core.seed", "vramgui.core.finetune.estimate", "vramgui.core.advise.suggestions",
                    "tempfile", "difflib", "fractions", "traceback")


def test_cli_start_up_imports_only_what_the_estimate_needs():
    code = ("import sys; from vramgui.cli.commands import main;"
            "main(['estimate', '--preset', 'llama-2-7b', '--gpus', '8', '--stage', '3', '--json']);"
            f"print(' '.join(m for m in {_NOT_AT_START_UP!r} if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == ""  # none of them imported


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_subcommand_has_help_with_an_example(command, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    out = capsys.readouterr().out
    assert exit_info.value.code == 0
    assert "usage: vramgui " + command in out
    assert f"example:\n  vramgui {command}" in out


def test_unknown_subcommand_is_exit_2(capsys):
    assert main(["bogus"]) == 2
    assert "invalid choice" in capsys.readouterr().err


@pytest.mark.parametrize("command", [c for c in SUBCOMMANDS if c != "inspect"])  # inspect's names a user's folder
def test_help_examples_run(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    example = capsys.readouterr().out.split("example:\n  vramgui ", 1)[1].splitlines()[0]
    assert main(example.split()) == 0, example
    assert capsys.readouterr().out
