"""The step peak against the peaks measured in real PyTorch training steps, pinned without torch.

tests/fixtures/measured_peaks.json is written by the validation harness (``make validate`` venv):

    .venv-validate/bin/python -m bench.validate.peak_measure        # measure (about 2 minutes on 2 cores)
    .venv-validate/bin/python -m bench.validate --peaks --peaks-from tests/fixtures/measured_peaks.json

Each entry holds the transformers config, the run (dtype/recipe, optimizer implementation, shape, recompute,
attention, accumulation, ranks) and the measured peak of two training steps (live storage bytes, a
``TorchDispatchMode`` tracker cross-checked with PyTorch's ``MemTracker``/``FSDPMemTracker``; single-process cases
under ``FakeTensorMode``, DDP/FSDP2 on 2 gloo ranks). The goal (issue 11): within 3 % on one process, 5 % for
DDP and FSDP2. CUDA-only terms (the CUDA context) are set to 0: a CPU run has none.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from vramgui.core.documents.hf_config import architecture_from_config
from vramgui.core.estimate import estimate
from vramgui.core.scenario.architecture import count_params
from vramgui.core.scenario.specs import ModelSpec, OverheadSpec, ParallelSpec, PrecisionSpec, Scenario, TrainingSpec

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "measured_peaks.json"


def _cases() -> list[dict[str, Any]]:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return list(data["cases"] if isinstance(data, dict) else data)


CASES = _cases()


def scenario_of(entry: dict[str, Any]) -> Scenario:
    sc = entry["scenario"]
    arch = architecture_from_config(entry["config"])
    global_batch = sc["micro_batch"] * sc["accumulation"] * sc["num_gpus"] if sc["accumulation"] > 1 else None
    return Scenario(
        model=ModelSpec(name=entry["key"], params=count_params(arch), architecture=arch),
        precision=PrecisionSpec(dtype=sc["dtype"], recipe=sc["recipe"], optimizer=sc["optimizer"],
                                optimizer_impl=sc["optimizer_impl"]),
        training=TrainingSpec(micro_batch=sc["micro_batch"], seq_len=sc["seq_len"], global_batch=global_batch,
                              recompute=sc["recompute"], attention=sc["attention"]),
        parallel=ParallelSpec(num_gpus=sc["num_gpus"], zero_stage=sc["zero_stage"],
                              ddp_bucket_view=sc["ddp_bucket_view"]),
        overhead=OverheadSpec(cuda_context=0),
    )


def test_the_fixture_covers_what_the_issue_asks():
    keys = [c["key"] for c in CASES]
    assert len(keys) >= 25
    for needle in ("llama-mha", "llama-gqa", "qwen2", "gpt2-bf16", "gpt2-nodrop", "mistral", "mixtral", "-amp-",
                   "-fp32-", "-eager-", "-sdpa-", "-full-", "-none-", "-fused-", "-for-loop-", "-foreach-", "acc2",
                   "llama2-7b", "llama3-8b", "ddp2-copy", "ddp2-view", "fsdp22",
                   # large roots (vocabulary 31-128 x hidden), tied and untied, under FSDP2 and on one process;
                   # bucket views under no_sync
                   "v8192h64-fp32", "v8192h64-tied", "v16384h128-tied", "v131072h1024-tied", "acc2-ddp2-view"):
        assert any(needle in k for k in keys), needle


@pytest.mark.parametrize("entry", [c for c in CASES if "-v" in c["key"] and "fsdp22" in c["key"]],
                         ids=lambda c: c["key"])
def test_fsdp2_with_a_root_of_up_to_128_times_the_hidden_size_is_within_2_percent(entry):
    """The root's all-gather, its reduce-scatter and the tied sum (vramgui.core.step.root), measured on two gloo
    ranks with gloo's own reduce-scatter copy left out (NCCL makes none)."""
    predicted = estimate(scenario_of(entry)).peak.bytes
    assert abs(predicted / entry["measured"]["peak"] - 1) <= 0.02


@pytest.mark.parametrize("entry", CASES, ids=[c["key"] for c in CASES])
def test_the_step_peak_is_within_the_goal_of_the_measured_peak(entry):
    measured = entry["measured"]["peak"]
    predicted = estimate(scenario_of(entry)).peak.bytes
    goal = 0.05 if entry["scenario"]["num_gpus"] > 1 else 0.03
    assert abs(predicted / measured - 1) <= goal, (predicted, measured)


@pytest.mark.parametrize("entry", [c for c in CASES if "llama" in c["key"] and c["scenario"]["num_gpus"] == 1],
                         ids=lambda c: c["key"])
def test_the_phase_that_sets_the_peak_is_the_measured_one(entry):
    m = entry["measured"]
    phase = {"optimizer": "optimizer_step"}.get(m["phase"], m["phase"])
    peak = estimate(scenario_of(entry)).peak
    if phase == "backward":  # early = the loss gradient's moment, late = the end of backward
        accum = "_accum" if (m.get("micro_batch") or 0) > 0 else ""
        phase = f"loss_backward{accum}" if m.get("where", m.get("max_where", "early")) == "early" else "backward"
        if phase == "backward" and m.get("node") == "EmbeddingBackward0" and m.get("op") == "aten.add.Tensor":
            phase = "tied_gradient_sum"  # the tied weight's two gradients summed, the last op of backward
    if phase == "optimizer_step":  # first and steady steps' optimizer moments are equal up to a few bytes
        assert peak.phase == "optimizer_step"
    else:
        assert peak.phase == phase, m
