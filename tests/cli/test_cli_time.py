"""`vramgui estimate` gains its step time: the "Time" section of the text, `time` in the JSON, the new flags and
their errors (issue 21)."""

from __future__ import annotations

import json

import pytest

from vramgui.cli.commands import main
from vramgui.core.time.components import TIME_KEYS

DONE = ("--preset", "llama-3-8b", "--gpu", "h100-sxm", "--gpus", "64", "--tp", "2", "--stage", "1", "--seq-len", "8192",
        "--global-batch", "512", "--recompute", "selective", "--train-tokens", "1T", "--gpu-hour-price", "2.5")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_issues_done_line_prints_every_term_with_its_derivation(capsys):
    code, out, err = run(capsys, "estimate", *DONE)
    assert code == 0 and err == ""
    section = out[out.index("\nTime\n"):]
    for label in ("Compute", "Recomputation", "Tensor-parallel communication", "Data-parallel communication",
                  "Pipeline bubble", "Optimizer step", "Offload (PCIe and CPU)"):
        assert label in section
    assert "micro-batches × forward" in section and "all-reduce of" in section and "reduce-scatter of" in section
    assert "MFU" in section and "GPU-hours" in section and "cost" in section


def test_the_json_time_has_the_interface_and_its_components_add_up(capsys):
    code, out, _ = run(capsys, "estimate", *DONE, "--json")
    t = json.loads(out)["time"]
    assert code == 0 and list(t["components"]) == list(TIME_KEYS)
    assert sum(t["components"].values()) == pytest.approx(t["step_seconds"], rel=1e-9)
    assert t["cost"] == pytest.approx(t["gpu_hours"] * 2.5) and t["train_seconds"] > 0
    assert 0 < t["mfu"] <= t["hfu"] < 1
    assert set(t["formulas"]) == set(t["derivations"]) == set(t["sources"]) == set(TIME_KEYS)


def test_a_bare_memory_size_has_no_time_and_says_why(capsys):
    code, out, _ = run(capsys, "estimate", "--params", "7B", "--gpu-memory", "80GB", "--json")
    data = json.loads(out)
    assert code == 0 and data["time"] is None and "compute figures" in data["time_note"]
    code, out, _ = run(capsys, "estimate", "--params", "7B", "--gpu-memory", "80GB")
    assert "Time: no step time" in out


def test_a_custom_gpu_gets_a_time_from_its_peak_and_bandwidth(capsys):
    code, out, _ = run(capsys, "estimate", "--preset", "llama-3-8b", "--gpu-memory", "80GB", "--peak-tflops", "312",
                       "--memory-bandwidth", "2039GB/s", "--json")
    assert code == 0 and json.loads(out)["time"]["step_seconds"] > 0


@pytest.mark.parametrize(("flag", "value", "named"), [
    ("--inter-node-bandwidth", "300", "--inter-node-bandwidth"), ("--intra-node-bandwidth", "0GB/s", "--intra"),
    ("--gpu-hour-price", "-1", "--gpu-hour-price"), ("--achieved-tflops", "nan", "--achieved-tflops"),
    ("--train-tokens", "1.5", "--train-tokens"), ("--inter-node-bandwidth", "200 Gbit", "--inter-node-bandwidth"),
])
def test_bad_values_are_one_line_naming_the_flag_exit_2(capsys, flag, value, named):
    code, out, err = run(capsys, "estimate", "--preset", "llama-3-8b", "--gpu", "h100-sxm", flag, value)
    assert code == 2 and out == "" and err.count("\n") == 1 and named in err and "allowed" in err


def test_bits_and_bytes_per_second_are_told_apart(capsys):
    def dp(rate: str) -> float:
        code, out, _ = run(capsys, "estimate", "--preset", "llama-3-8b", "--gpu", "h100-sxm", "--gpus", "16",
                           "--inter-node-bandwidth", rate, "--json")
        assert code == 0
        return json.loads(out)["time"]["components"]["dp_comm"]

    assert dp("200Gb/s") == pytest.approx(dp("25GB/s"), rel=1e-9)
    assert dp("400Gb/s") < dp("200Gb/s")
