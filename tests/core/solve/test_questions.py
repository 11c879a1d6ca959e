"""Reverse solves: every answer sits on the boundary of the step peak (``Estimate.peak``, what
``fits`` judges by), the per-GPU sum of the conventions staying what the seed computes."""

from __future__ import annotations

import pytest

from vramgui.core import max_trainable_params
from vramgui.core.estimate import estimate
from vramgui.core.scenario.specs import (
    HardwareSpec,
    ModelSpec,
    OverheadSpec,
    ParallelSpec,
    PrecisionSpec,
    Scenario,
)
from vramgui.core.seed import calculate_zero_memory
from vramgui.core.solve.questions import (
    cheapest_strategy,
    max_params,
    min_gpus,
    strategy_variants,
    with_value,
)
from vramgui.core.text.errors import InputError
from vramgui.core.text.units import GB
from vramgui.io.presets import find_model


def seed_scenario(stage=0, params=7 * 10**9, gpus=8) -> Scenario:
    return Scenario(model=ModelSpec(params=params), precision=PrecisionSpec(dtype="fp16"),
                    parallel=ParallelSpec(num_gpus=gpus, zero_stage=stage),
                    hardware=HardwareSpec(gpu_memory=80 * GB, reserve=0.2))


def seed_step(stage=0, params=7 * 10**9, gpus=8) -> Scenario:
    """The seed's scenario with the step terms the seed does not count set to none: no CUDA context, no
    communication buckets, the fused optimizer (no temporary at the step). What stays beyond the seed's 16Φ is
    the mixed recipe's fp32 cast of the gradient partition at the optimizer step, 4Φ/N_d (vramgui.core.step.peak;
    DeepSpeed stage_1_and_2.py ``step``), so the peak is the seed's bytes per parameter + 4/N_d."""
    s = seed_scenario(stage, params, gpus)
    return with_value(with_value(s, "overhead", OverheadSpec(cuda_context=0, comm_buffers=0)),
                      "precision.optimizer_impl", "fused")


def peak_fits(s: Scenario) -> bool:
    est = estimate(s)
    assert est.usable is not None and est.peak is not None and est.fits is (est.peak.bytes <= est.usable)
    return est.peak.bytes <= est.usable


@pytest.mark.parametrize(("stage", "seed_stage"), [(0, "ddp"), (1, 1), (2, 2), (3, 3)])
def test_the_seeds_answer_is_the_boundary_of_the_per_gpu_sum(stage, seed_stage):
    """The seed's max_trainable_params is still the boundary of the per-GPU sum (not of the peak)."""
    n = int(max_trainable_params(80, 8, seed_stage, 0.2) * 1e9)
    at = estimate(with_value(seed_scenario(stage), "model.params", n - 1))
    beyond = estimate(with_value(seed_scenario(stage), "model.params", n + 9))
    assert at.per_gpu_total <= at.usable < beyond.per_gpu_total


@pytest.mark.parametrize(("stage", "seed_stage"), [(0, "ddp"), (1, 1), (2, 2), (3, 3)])
def test_max_params_is_the_seeds_arithmetic_plus_the_fp32_gradient_cast(stage, seed_stage):
    n_shard = 1 if stage == 0 else 8  # DDP updates every parameter; ZeRO 1-3 their 1/N_d partition
    per_param = calculate_zero_memory(1.0, seed_stage, 8) + 4 / n_shard  # seed GB per 1e9 parameters + the cast
    expected = 64e9 / per_param
    assert abs(max_params(seed_step(stage)) - expected) <= 8  # shards are rounded up


@pytest.mark.parametrize("stage", [0, 2])
def test_max_params_is_the_exact_boundary_of_the_step_peak(stage):
    s = seed_scenario(stage)  # the default step: foreach temporary, buckets, CUDA context
    n = max_params(s)
    assert peak_fits(with_value(s, "model.params", n))
    assert not peak_fits(with_value(s, "model.params", n + 1))


def test_min_gpus_is_smallest_count_that_fits():
    s = seed_step(3, params=70 * 10**9)
    n = min_gpus(s)
    assert n == 22  # (16 + 4) x 70e9 / n <= 64e9  ->  n >= 21.875 (the seed's 16 alone: 18)
    assert peak_fits(with_value(s, "parallel.num_gpus", n))
    assert not peak_fits(with_value(s, "parallel.num_gpus", n - 1))
    default = seed_scenario(3, params=70 * 10**9)  # foreach and a CUDA context on top
    m = min_gpus(default)
    assert m > n and peak_fits(with_value(default, "parallel.num_gpus", m))
    assert not peak_fits(with_value(default, "parallel.num_gpus", m - 1))


def test_min_gpus_is_none_when_ddp_never_fits():
    assert min_gpus(seed_scenario(0, params=70 * 10**9)) is None


def test_cheapest_strategy_picks_lowest_stage_without_offload_first():
    # seed_step: ZeRO-1's peak is 55 GB + the fp32 cast 5 GB = 60 GB <= 64 GB; DDP's 160 + 40 GB is not
    strategy, variant, est = cheapest_strategy(seed_step(0, params=10 * 10**9))
    assert strategy.key == "zero1" and str(strategy) == "ZeRO-1" and variant.parallel.zero_stage == 1 and est.fits
    assert est.strategy == strategy and est.peak.bytes == 60 * GB and est.per_gpu_total == 55 * GB
    # the default step adds foreach's 5 GB, DeepSpeed's 1 GB reduce bucket and the CUDA context: ZeRO-1 misses
    strategy, variant, est = cheapest_strategy(seed_scenario(0, params=10 * 10**9))
    assert strategy.key == "zero2" and est.fits and not estimate(strategy_variants(variant)[1][1]).fits


def test_cheapest_strategy_falls_back_to_offload():
    strategy, _, est = cheapest_strategy(seed_scenario(0, params=60 * 10**9, gpus=8))
    assert strategy.offload_optimizer and "offload" in strategy.label() and est.fits


def test_strategy_variants_list_ddp_zero_and_offload():
    variants = strategy_variants(seed_scenario())
    labels = [strategy.label() for strategy, _ in variants]
    assert labels[:4] == ["DDP", "ZeRO-1", "ZeRO-2", "ZeRO-3"]
    assert labels[4:] == ["ZeRO-2 + CPU optimizer offload", "ZeRO-3 + CPU optimizer offload",
                          "ZeRO-3 + CPU optimizer and parameter offload"]
    assert [s.key for s, _ in variants] == ["ddp", "zero1", "zero2", "zero3", "zero2+offload_opt",
                                            "zero3+offload_opt", "zero3+offload_all"]
    assert all(estimate(variant).strategy == strategy for strategy, variant in variants)


def test_megatron_variants_are_labelled_like_the_estimate():
    s = with_value(seed_scenario(), "convention", "megatron")
    variants = strategy_variants(s)
    assert [str(strategy) for strategy, _ in variants] == ["Megatron (no distributed optimizer)",
                                                          "Megatron distributed optimizer"]
    assert [estimate(v).to_dict()["strategy"] for _, v in variants] == [str(st) for st, _ in variants]


@pytest.mark.parametrize(("par", "group"), [
    ({"tp": 2, "cp": 2}, 4),  # the world group tp·cp·pp, not tp·pp = 2
    ({"tp": 2, "cp": 2, "pp": 2}, 8),
])
def test_min_gpus_steps_by_the_context_grid(par, group):
    s = Scenario(model=find_model("llama-2-7b").spec, parallel=ParallelSpec(num_gpus=group, zero_stage=3, **par),
                 hardware=HardwareSpec(gpu_memory=16 * GB))  # 12 and 16 GPUs
    n = min_gpus(s)
    assert n is not None and n % group == 0 and n > group
    assert peak_fits(with_value(s, "parallel.num_gpus", n))
    assert not peak_fits(with_value(s, "parallel.num_gpus", n - group))  # the accepted count below does not fit


@pytest.mark.parametrize(("par", "group"), [
    ({"ep": 8}, 8),  # etp·ep·pp: the experts' grid sets the group
    ({"tp": 2, "ep": 4, "etp": 1, "pp": 2}, 8),  # lcm(tp·pp = 4, etp·ep·pp = 8)
])
def test_min_gpus_steps_by_the_expert_grid(par, group):
    s = Scenario(model=find_model("mixtral-8x7b").spec, parallel=ParallelSpec(num_gpus=group, zero_stage=3, **par),
                 hardware=HardwareSpec(gpu_memory=80 * GB))
    n = min_gpus(s)
    assert n is not None and n % group == 0 and n > group
    assert peak_fits(with_value(s, "parallel.num_gpus", n))
    assert not peak_fits(with_value(s, "parallel.num_gpus", n - group))


def test_min_gpus_below_one_group_tries_the_group():
    s = Scenario(model=find_model("mixtral-8x7b").spec, parallel=ParallelSpec(num_gpus=8, zero_stage=3, ep=8),
                 hardware=HardwareSpec(gpu_memory=1000 * GB))
    assert min_gpus(s, limit=4) == 8


def test_solves_need_gpu_memory():
    with pytest.raises(InputError, match=r"hardware\.gpu_memory"):
        max_params(with_value(seed_scenario(), "hardware", HardwareSpec()))
