"""`vramgui estimate --json` reports the peak of one training step (issue 11), and the step's own inputs move it
the way the step model says they do (vramgui.core.step.peak): each flag against the same run without it."""

from __future__ import annotations

import json

import pytest

from vramgui.cli.commands import main

KNOWN_PHASES = {"root_all_gather", "forward", "loss_backward", "forward_accum", "loss_backward_accum", "backward",
                "tied_gradient_sum", "root_reduce_scatter", "optimizer_step"}
PEAK_COMPONENTS = {"parameters", "gradients", "optimizer_states", "activations", "loss_gradient", "backward_transient",
                   "optimizer_temporaries", "comm_buffers", "zero3_working_set", "root_all_gather",
                   "tied_gradient_sum", "root_reduce_scatter", "cuda_context", "other"}
MIB = 2**20
GPT2 = ("--preset", "gpt2", "--seq-len", "1024", "--micro-batch", "4", "--gpu-memory", "24GB")
COUNT_7B = ("--params", "7B", "--dtype", "bf16", "--gpu-memory", "80GB")


def estimate_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    code = main(["estimate", *argv, "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and err == "", err
    return json.loads(out)


def phase(data: dict, name: str, step: str = "steady") -> dict:
    return next(p for p in data["peak"]["phases"] if p["name"] == name and p["step"] == step)


@pytest.mark.parametrize("argv", [
    GPT2, COUNT_7B, (*GPT2, "--gpus", "8", "--stage", "3"), (*GPT2, "--gpus", "4", "--global-batch", "64"),
    (*COUNT_7B, "--gpus", "8", "--stage", "2", "--convention", "deepspeed"),
    ("--preset", "llama-3-8b", "--gpus", "16", "--tp", "2", "--pp", "2", "--convention", "megatron"),
])
def test_estimate_json_has_the_peak_with_integer_bytes_a_known_phase_and_components_that_add_up(capsys, argv):
    data = estimate_json(capsys, *argv)
    peak = data["peak"]
    assert isinstance(peak["bytes"], int) and not isinstance(peak["bytes"], bool) and peak["bytes"] > 0
    assert peak["phase"] in KNOWN_PHASES and peak["step"] in {"first", "steady"}
    assert set(peak["components"]) == PEAK_COMPONENTS
    assert all(isinstance(v, int) and v >= 0 for v in peak["components"].values())
    assert sum(peak["components"].values()) == peak["bytes"]
    for p in peak["phases"]:  # every moment adds up, and the peak is the largest of them
        assert p["name"] in KNOWN_PHASES and sum(p["components"].values()) == p["bytes"] <= peak["bytes"]
    assert phase(data, peak["phase"], peak["step"])["bytes"] == peak["bytes"]
    assert peak["at"] and set(peak["formulas"]) == set(peak["derivations"]) == set(peak["sources"])
    if data["usable"] is not None:
        assert data["fits"] is (peak["bytes"] <= data["usable"])
        assert data["headroom"] == data["usable"] - peak["bytes"]


def test_accumulation_adds_the_accumulating_phases(capsys):
    names = {p["name"] for p in estimate_json(capsys, *GPT2, "--gpus", "4", "--global-batch", "64")["peak"]["phases"]}
    assert {"forward_accum", "loss_backward_accum"} <= names
    assert not {"forward_accum", "loss_backward_accum"} & {p["name"] for p in estimate_json(capsys, *GPT2)["peak"]
                                                           ["phases"]}


def test_fused_keeps_no_temporary_at_the_optimizer_step_and_for_loop_less_than_foreach(capsys):
    runs = {impl: estimate_json(capsys, *GPT2, "--optimizer-impl", impl) for impl in ("foreach", "fused", "for-loop")}
    at_step = {impl: phase(d, "optimizer_step")["bytes"] for impl, d in runs.items()}
    assert at_step["fused"] < at_step["for-loop"] < at_step["foreach"]
    temps = {impl: phase(d, "optimizer_step")["components"]["optimizer_temporaries"] for impl, d in runs.items()}
    params = runs["foreach"]["model"]["params"]
    # foreach: one fp32 exp_avg_sq-sized temporary (4Φ); all three: the mixed recipe's fp32 gradient cast (4Φ)
    assert temps["foreach"] - temps["fused"] == 4 * params and temps["fused"] == 4 * params
    assert len({json.dumps(d["per_gpu"]) for d in runs.values()}) == 1  # the per-GPU sum does not move


def test_a_chunked_loss_lowers_the_loss_backward_phase(capsys):
    hf, chunked = estimate_json(capsys, *GPT2), estimate_json(capsys, *GPT2, "--loss", "chunked")
    b, s, v = 4, 1024, 50257  # GPT-2's vocabulary; HF's loss backward allocates two fp32 (b·s, v) tensors
    assert phase(hf, "loss_backward")["components"]["loss_gradient"] == 2 * 4 * b * s * v
    assert phase(chunked, "loss_backward")["components"]["loss_gradient"] == 0
    assert phase(chunked, "loss_backward")["bytes"] < phase(hf, "loss_backward")["bytes"]
    assert phase(chunked, "optimizer_step")["bytes"] == phase(hf, "optimizer_step")["bytes"]


def test_the_ddp_bucket_view_lowers_ddps_peak(capsys):
    argv = (*COUNT_7B, "--gpus", "2", "--stage", "0")
    copy, view = estimate_json(capsys, *argv), estimate_json(capsys, *argv, "--ddp-bucket-view")
    buckets = 2 * 7 * 10**9  # bf16 gradients: the reducer's buckets are gradient-sized
    assert copy["peak"]["components"]["comm_buffers"] == view["peak"]["components"]["comm_buffers"] == buckets
    assert copy["peak"]["bytes"] - view["peak"]["bytes"] == buckets  # the gradients live inside the buckets
    assert view["per_gpu"] == copy["per_gpu"]
    no = estimate_json(capsys, *argv, "--no-ddp-bucket-view")
    assert no["peak"] == copy["peak"]  # off is the default (PyTorch's and accelerate's)


def test_the_amp_recipe_keeps_fp32_weights_and_drops_the_fp32_gradient_cast(capsys):
    mixed, amp = estimate_json(capsys, *COUNT_7B), estimate_json(capsys, *COUNT_7B, "--precision", "amp")
    n = 7 * 10**9
    m, a = phase(mixed, "optimizer_step")["components"], phase(amp, "optimizer_step")["components"]
    assert (m["parameters"], m["gradients"]) == (2 * n, 2 * n)
    assert (a["parameters"], a["gradients"]) == (4 * n, 4 * n)  # fp32 weights and gradients under autocast
    assert m["optimizer_temporaries"] == 4 * n + 4 * n  # foreach + the fp32 cast of the bf16 gradients
    assert a["optimizer_temporaries"] == 4 * n  # foreach only: the gradients are fp32 already
    assert amp["peak"]["bytes"] != mixed["peak"]["bytes"]


def test_cuda_context_0_removes_the_default_532_mib_and_a_given_one_replaces_it(capsys):
    default, none = estimate_json(capsys, *COUNT_7B), estimate_json(capsys, *COUNT_7B, "--cuda-context", "0")
    assert default["peak"]["components"]["cuda_context"] == 532 * MIB
    assert none["peak"]["components"]["cuda_context"] == 0
    assert default["peak"]["bytes"] - none["peak"]["bytes"] == 532 * MIB
    assert none["per_gpu"] == default["per_gpu"]  # not given and 0: the per-GPU sum counts nothing for either
    given = estimate_json(capsys, *COUNT_7B, "--cuda-context", "2GB")
    assert given["peak"]["bytes"] - none["peak"]["bytes"] == 2 * 10**9
    assert given["per_gpu"]["other"] == 2 * 10**9  # a given context is counted in the sum too


def test_estimate_text_shows_what_is_live_at_the_peak(capsys):
    assert main(["estimate", *GPT2]) == 0
    out = capsys.readouterr().out
    assert "Live at the step's peak" in out and "Phases: " in out and "(step peak " in out


def test_compare_with_params_shows_each_strategys_peak_beside_the_seeds_table(capsys):
    assert main(["compare", "--params", "13B", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["max_params"] for r in data["rows"]][-1] == 32_000_000_000  # the seed's table is unchanged
    for row in data["strategies"]:
        assert isinstance(row["peak"], int) and row["peak"] >= row["per_gpu_total"]
        assert row["fits"] is (row["peak"] <= 64 * 10**9)
