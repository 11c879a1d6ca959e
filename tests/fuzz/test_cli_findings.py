"""The fuzz run's findings through the CLI, each pinned to the message it now gives (one test each)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fuzz.cli_checks import run_cli
from vramgui.cli import commands as cli
from vramgui.core.model_states.deepspeed import deepspeed_model_states
from vramgui.core.scenario.specs import PrecisionSpec

FIXTURES = Path(__file__).parents[1] / "fixtures" / "hf_configs"
FULL_OFFLOAD = ["max-params", "--gpus", "8", "--stage", "3", "--gpu-memory", "80GB", "--offload-optimizer", "cpu",
                "--offload-params", "cpu"]


def _one_line(argv: list[str]) -> str:
    code, out, err, _ = run_cli(argv)
    assert code == 2 and out == "" and err.count("\n") == 1, (code, err)
    return err.rstrip("\n")


def test_max_params_says_when_the_answer_is_its_search_limit():
    code, out, err, _ = run_cli(FULL_OFFLOAD)
    assert code == 0 and err == ""
    assert "Every count up to vramgui's limit of 1000.00T parameters fits: the search stops there, so this is the " \
           "limit, not the largest model that fits." in out
    data = json.loads(run_cli([*FULL_OFFLOAD, "--json"])[1])
    assert data["at_bound"] is True and data["found"] is True and data["max_params"] == data["bound"] == 10**15


def test_max_params_below_its_limit_is_not_at_bound():
    data = json.loads(run_cli(["max-params", "--gpus", "8", "--stage", "3", "--gpu-memory", "80GB", "--json"])[1])
    assert data["at_bound"] is False and data["found"] is True and 0 < data["max_params"] < data["bound"]


def test_max_params_that_finds_nothing_exits_1_and_says_so():
    code, out, _, _ = run_cli(["max-params", "--gpu-memory", "1GB", "--cuda-context", "2GB"])
    assert code == 1 and "Nothing fits: not even a 1-parameter model" in out


@pytest.mark.parametrize("value", ["-5", "0"])
def test_accumulation_checks_the_sequence_length_before_multiplying(value):
    assert _one_line(["accumulation", "--global-batch", "8", "--micro-batch", "1", "--gpus", "8", "--seq-len",
                      value]) == (f"vramgui: error: training.seq_len (--seq-len): {value} is out of range "
                                  "(allowed: 1 to 100,000,000)")


@pytest.mark.parametrize(("argv", "line"), [
    (["estimate", "--preset", ""], "vramgui estimate: argument --preset: expected a preset name, got an empty value"),
    (["estimate", "--config", ""], "vramgui estimate: argument --config: expected a path, got an empty value"),
    (["solve", "min-gpus", "--scenario", " "],
     "vramgui solve: argument --scenario: expected a path, got an empty value"),
    (["max-params", "--gpu", ""], "vramgui max-params: argument --gpu: expected a GPU preset name, got an empty value"),
    (["inspect", ""], "vramgui inspect: argument PATH: expected a path, got an empty value"),
    (["estimate", "--params", "7B", ""], "vramgui: unrecognized arguments: ''"),
])
def test_empty_values_are_errors_naming_the_option(argv, line):
    assert _one_line(argv) == line


def test_preset_and_config_together_is_an_error():
    assert _one_line(["estimate", "--preset", "llama-3.2-1b", "--config", str(FIXTURES / "gpt2")]) == (
        "vramgui estimate: argument --config: not allowed with argument --preset")


def test_params_over_a_preset_says_which_wins():
    code, out, err, _ = run_cli(["estimate", "--preset", "llama-3.2-1b", "--params", "7B"])
    assert code == 0 and "7.00B parameters" in out
    assert err == ("vramgui: note: --params 7B replaces the parameter count of the --preset model (1,235,814,400); "
                   "its architecture still sizes the activations\n")


def test_inspect_refuses_what_estimate_refuses(tmp_path):
    config = json.loads((FIXTURES / "mixtral-8x7b" / "config.json").read_text(encoding="utf-8"))
    config["num_experts_per_tok"], config["num_local_experts"] = 100, 2
    (tmp_path / "config.json").write_text(json.dumps(config), encoding="utf-8")
    message = "model.architecture.experts_per_token{}: 100 experts per token with 2 experts (allowed: 1..2)"
    assert _one_line(["inspect", str(tmp_path)]) == "vramgui: error: " + message.format("")
    assert _one_line(["estimate", "--config", str(tmp_path)]) == "vramgui: error: " + message.format(" (--config)")
    config = json.loads((FIXTURES / "llama-3-8b" / "config.json").read_text(encoding="utf-8"))
    config["head_dim"] = 0
    (tmp_path / "config.json").write_text(json.dumps(config), encoding="utf-8")
    assert "config.head_dim: 0 is out of range" in _one_line(["inspect", str(tmp_path)])


def _zero3(tp: int, largest: int = 262_668_288, phi: int = 374_621_184, offload: bool = False):
    return deepspeed_model_states(phi, 3, 4, 8, 2, offload, False, True, largest, PrecisionSpec(), tp=tp)


def test_deepspeed_zero3_gathers_one_tensor_parallel_shard_of_the_largest_layer():
    """A TP rank's modules hold 1/tp of each large layer (Megatron's VocabParallelEmbedding, Column/Row-parallel
    linears), and DeepSpeed's estimator reads the largest layer from the rank's own modules."""
    one, two = _zero3(1), _zero3(2)
    assert one.other is not None and two.other is not None
    assert one.other.bytes == 4 * 262_668_288 and two.other.bytes == 4 * 131_334_144


def test_deepspeed_zero3_under_tp_and_pp_needs_no_more_than_zero2():
    argv = ["estimate", "--preset", "llama-3.2-1b", "--convention", "deepspeed", "--gpus", "16", "--tp", "2", "--pp",
            "2", "--json"]
    stage = {s: json.loads(run_cli([*argv, "--stage", str(s)])[1])["per_gpu"]["total"] for s in (2, 3)}
    assert stage[3] < stage[2]


def test_deepspeed_zero3_that_really_costs_more_says_so():
    notes = [n.code for n in _zero3(1, largest=10**9, phi=10**9).notes]  # 4L = 4e9 > the 2Φ(1 - 1/N_d) it saves
    assert "note.deepspeed_zero3_costs_more" in notes
    assert "note.deepspeed_zero3_costs_more" in [n.code for n in _zero3(1).notes]  # the llama-3.2-1b, tp 1
    assert "note.deepspeed_zero3_costs_more" not in [n.code for n in _zero3(2).notes]  # 4L/tp < 2Φ(1 - 1/N_d)


def test_an_internal_error_is_one_line_without_a_traceback(monkeypatch):
    def broken(args):
        raise RuntimeError("boom")

    monkeypatch.setitem(cli.COMMANDS, "presets", broken)
    monkeypatch.delenv("VRAMGUI_DEBUG", raising=False)
    code, out, err, _ = run_cli(["presets"])
    assert code == 1 and out == ""
    assert err == ("vramgui: internal error: RuntimeError: boom (please report it with the command line; "
                   "VRAMGUI_DEBUG=1 shows the traceback)\n")
    monkeypatch.setenv("VRAMGUI_DEBUG", "1")
    code, _, err, _ = run_cli(["presets"])
    assert code == 1 and err.startswith("Traceback") and err.endswith("shows the traceback)\n")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["estimate", "--params", "7B"], ["--version"], ["estimate", "--help"]])
def test_a_full_disk_is_a_write_error_naming_stdout(argv):
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "vramgui", *argv], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert done.stderr == "vramgui: error: cannot write the output to stdout: No space left on device\n"
