"""vramgui's deepspeed convention against outputs recorded from DeepSpeed 0.19.8 itself (bench/deepspeed_cases.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vramgui.core.estimate import estimate
from vramgui.core.model_states.deepspeed import estimate_zero2, estimate_zero3
from vramgui.core.scenario.specs import ModelSpec, OffloadSpec, ParallelSpec, Scenario

DATA = json.loads((Path(__file__).parent / "data" / "deepspeed_estimator_cases.json").read_text(encoding="utf-8"))
CASES = DATA["cases"]


def _id(c: dict) -> str:
    return f"z{c['stage']}-{c['total_params']}-{c['num_gpus_per_node']}x{c['num_nodes']}-off{int(c['cpu_offload'])}"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_functions_match_deepspeed_to_the_byte(case):
    if case["stage"] == 3:
        got = estimate_zero3(case["total_params"], case["largest_layer_params"], case["num_gpus_per_node"],
                             case["num_nodes"], case["cpu_offload"], case["cpu_offload_params"], case["zero_init"])
        assert got == (case["cpu_mem"], case["gpu_mem"], case["largest_layer_memory"])
    else:
        got = estimate_zero2(case["total_params"], case["num_gpus_per_node"], case["num_nodes"], case["cpu_offload"])
        assert got == (case["cpu_mem"], case["gpu_mem"])


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_estimate_under_deepspeed_convention_matches_deepspeed(case):
    gpus = case["num_gpus_per_node"] * case["num_nodes"]
    three = case["stage"] == 3
    s = Scenario(
        model=ModelSpec(params=case["total_params"], largest_layer=case.get("largest_layer_params")),
        convention="deepspeed",
        parallel=ParallelSpec(num_gpus=gpus, gpus_per_node=case["num_gpus_per_node"], zero_stage=case["stage"]),
        offload=OffloadSpec(optimizer="cpu" if case["cpu_offload"] else "none",
                            params="cpu" if three and case["cpu_offload_params"] else "none",
                            zero_init=case.get("zero_init", True)),
    )
    est = estimate(s)
    assert est.per_gpu_total == case["gpu_mem"]
    assert est.host_per_node == case["cpu_mem"]


def test_recorded_from_a_real_deepspeed():
    assert DATA["deepspeed_version"] == "0.19.8" and len(CASES) == 80
