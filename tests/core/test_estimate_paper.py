"""The engine's paper convention: the seed's numbers and ZeRO paper Figure 1, in bytes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vramgui.core.estimate import COMPONENT_KEYS, estimate
from vramgui.core.scenario.specs import (
    HardwareSpec,
    ModelSpec,
    OffloadSpec,
    OverheadSpec,
    ParallelSpec,
    PrecisionSpec,
    Scenario,
)
from vramgui.core.text.units import GB


def scenario(params=7 * 10**9, stage=0, gpus=8, dtype="fp16", optimizer="adam", recipe="mixed", **kw) -> Scenario:
    return Scenario(model=ModelSpec(params=params), precision=PrecisionSpec(dtype=dtype, recipe=recipe,
                    optimizer=optimizer), parallel=ParallelSpec(num_gpus=gpus, zero_stage=stage), **kw)


@pytest.mark.parametrize(("stage", "optimizer", "expected_gb"), [
    (0, "adam", 112), (0, "sgd", 56), (1, "adam", 38.5), (2, "adam", 26.25), (3, "adam", 14),
])
def test_engine_reproduces_the_seed_in_bytes(stage, optimizer, expected_gb):
    est = estimate(scenario(stage=stage, optimizer=optimizer))
    assert est.per_gpu_total == int(expected_gb * GB)


@pytest.mark.parametrize(("stage", "expected_gb"), [(0, 120), (1, 31.4), (2, 16.6), (3, 1.875)])
def test_zero_paper_figure_one_seven_and_a_half_billion_on_64_gpus(stage, expected_gb):
    est = estimate(scenario(params=7_500_000_000, stage=stage, gpus=64))
    assert round(est.per_gpu_total / GB, 1 if stage in (1, 2) else 3) == expected_gb


def test_components_carry_formula_derivation_and_source():
    est = estimate(scenario(stage=1))
    opt = est.component("optimizer_states")
    assert opt.formula == "12Φ/N_d"
    assert opt.derivation == "12 × 7.00e9 / 8 = 10.50 GB"
    assert "ZeRO" in opt.source
    assert est.component("master_weights").bytes == 3_500_000_000
    assert [c.key for c in est.components] == list(COMPONENT_KEYS)


def test_master_weights_are_part_of_optimizer_states_not_added_twice():
    est = estimate(scenario(stage=0))
    assert est.per_gpu_total == sum(est.bytes_of(k) or 0 for k in ("parameters", "gradients", "optimizer_states",
                                                                   "activations", "other"))


def test_without_architecture_activations_are_none_and_noted():
    est = estimate(scenario())
    assert est.bytes_of("activations") is None
    assert est.to_dict()["per_gpu"]["activations"] is None
    assert any("activations" in n for n in map(str, est.notes))


def test_fit_uses_reserve_and_reports_headroom():
    """The fit is judged by the step peak. With no CUDA context (the seed counts none) and the fused optimizer
    (no temporary), the peak is the optimizer step: the seed's model states + the mixed recipe's fp32 cast of the
    gradient partition (4Φ/N_d, vramgui.core.step.peak)."""
    est = estimate(replace(scenario(stage=3, hardware=HardwareSpec(gpu_memory=80 * GB, reserve=0.2),
                                    overhead=OverheadSpec(cuda_context=0)),
                           precision=PrecisionSpec(dtype="fp16", optimizer_impl="fused")))
    assert est.usable == 64 * GB
    assert est.per_gpu_total == 14 * GB  # the seed's sum is unchanged
    assert est.fits is True and est.peak.bytes == 14 * GB + 3_500_000_000 and est.peak.phase == "optimizer_step"
    assert est.headroom == 64 * GB - 17_500_000_000 == est.usable - est.peak.bytes
    tight = estimate(scenario(stage=0, hardware=HardwareSpec(gpu_memory=80 * GB, reserve=0.2)))
    assert tight.fits is False and tight.headroom == 64 * GB - tight.peak.bytes and tight.peak.bytes > 112 * GB


def test_no_gpu_memory_means_fit_is_unknown():
    est = estimate(scenario())
    assert est.fits is None and est.usable is None and est.headroom is None


def test_optimizer_offload_moves_gradients_and_states_to_host_per_node():
    est = estimate(scenario(stage=2, offload=OffloadSpec(optimizer="cpu")))
    assert est.per_gpu_total == 14 * GB  # only the fp16 parameters stay
    assert est.host_per_node == (2 + 12) * 7 * GB  # 8 ranks x (2 + 12)Φ/8


def test_parameter_offload_at_stage_three_empties_the_gpu_model_states():
    est = estimate(scenario(stage=3, offload=OffloadSpec(optimizer="cpu", params="cpu")))
    assert est.model_states == 0
    assert est.host_per_node == 16 * 7 * GB


def test_host_memory_is_none_without_offload_under_paper():
    assert estimate(scenario(stage=3)).host_per_node is None


@pytest.mark.parametrize(("optimizer", "k"), [
    ("adam", 12), ("adamw", 12), ("adam8bit", 6), ("sgd", 4), ("sgd_momentum", 8), ("adafactor", 4), ("lion", 8),
])
def test_mixed_precision_k_per_optimizer(optimizer, k):
    est = estimate(scenario(params=10**9, optimizer=optimizer, gpus=1))
    assert est.bytes_of("optimizer_states") == k * 10**9


def test_fp32_has_no_master_copy():
    est = estimate(scenario(params=10**9, dtype="fp32", gpus=1))
    assert est.bytes_of("parameters") == 4 * 10**9
    assert est.bytes_of("master_weights") == 0
    assert est.bytes_of("optimizer_states") == 8 * 10**9


def test_pure_bf16_adam_keeps_states_in_bf16_without_master():
    est = estimate(scenario(params=10**9, dtype="bf16", recipe="pure", gpus=1))
    assert est.bytes_of("optimizer_states") == 4 * 10**9
    assert est.bytes_of("master_weights") == 0
    assert any("step counter" in n for n in map(str, est.notes))


def test_data_parallel_size_divides_out_tensor_and_pipeline_parallelism():
    s = Scenario(model=ModelSpec(params=8 * 10**9), precision=PrecisionSpec(dtype="bf16"),
                 parallel=ParallelSpec(num_gpus=16, tp=2, pp=2, zero_stage=1))
    est = estimate(s)
    assert est.data_parallel == 4
    assert est.stage_params == 2 * 10**9
    assert est.bytes_of("optimizer_states") == 12 * 2 * 10**9 // 4


def test_fsdp_equivalents_are_named():
    assert estimate(scenario(stage=3)).fsdp == "FSDP FULL_SHARD"
    assert estimate(scenario(stage=2)).fsdp == "FSDP SHARD_GRAD_OP"
    assert estimate(scenario(stage=0)).fsdp == "FSDP NO_SHARD"
    assert estimate(scenario(stage=1)).fsdp == "no FSDP equivalent"


def test_parameter_offload_alone_moves_only_the_parameter_partition():
    est = estimate(scenario(stage=3, offload=OffloadSpec(params="cpu")))
    assert est.bytes_of("parameters") == 0
    assert est.bytes_of("optimizer_states") == 12 * 7 * GB // 8
    assert est.host_per_node == 2 * 7 * GB  # 8 ranks x 2Φ/8


def test_full_offload_without_live_parameters_says_what_the_gpu_still_holds():
    from vramgui.core.estimate import estimate
    from vramgui.core.scenario.specs import ModelSpec, OffloadSpec, ParallelSpec, Scenario

    s = Scenario(model=ModelSpec(params=7 * 10**9), parallel=ParallelSpec(num_gpus=8, zero_stage=3),
                 offload=OffloadSpec(optimizer="cpu", params="cpu"))
    est = estimate(s)
    assert est.per_gpu_total == 0
    assert any("--live-params" in n for n in map(str, est.notes))
