"""Reverse solves and sweeps."""

from __future__ import annotations

import pytest

from vramgui.core import max_trainable_params
from vramgui.core.errors import InputError
from vramgui.core.estimate import estimate
from vramgui.core.solve import cheapest_strategy, max_params, min_gpus, strategy_variants, sweep_gpus, with_value
from vramgui.core.specs import HardwareSpec, ModelSpec, ParallelSpec, PrecisionSpec, Scenario, TrainingSpec
from vramgui.core.units import GB


def seed_scenario(stage=0, params=7 * 10**9, gpus=8) -> Scenario:
    return Scenario(model=ModelSpec(params=params), precision=PrecisionSpec(dtype="fp16"),
                    parallel=ParallelSpec(num_gpus=gpus, zero_stage=stage),
                    hardware=HardwareSpec(gpu_memory=80 * GB, reserve=0.2))


@pytest.mark.parametrize(("stage", "seed_stage"), [(0, "ddp"), (1, 1), (2, 2), (3, 3)])
def test_max_params_agrees_with_the_seed(stage, seed_stage):
    expected = max_trainable_params(80, 8, seed_stage, 0.2) * 1e9
    assert abs(max_params(seed_scenario(stage)) - expected) <= 1


def test_max_params_is_the_exact_boundary():
    s = seed_scenario(2)
    n = max_params(s)
    assert estimate(with_value(s, "model.params", n)).fits
    assert not estimate(with_value(s, "model.params", n + 1)).fits


def test_min_gpus_is_smallest_count_that_fits():
    s = seed_scenario(3, params=70 * 10**9)
    n = min_gpus(s)
    assert n == 18  # 16 x 70e9 / n <= 64e9  ->  n >= 17.5
    assert estimate(with_value(s, "parallel.num_gpus", n)).fits
    assert not estimate(with_value(s, "parallel.num_gpus", n - 1)).fits


def test_min_gpus_is_none_when_ddp_never_fits():
    assert min_gpus(seed_scenario(0, params=70 * 10**9)) is None


def test_cheapest_strategy_picks_lowest_stage_without_offload_first():
    strategy, variant, est = cheapest_strategy(seed_scenario(0, params=10 * 10**9))
    assert strategy.key == "zero1" and str(strategy) == "ZeRO-1" and variant.parallel.zero_stage == 1 and est.fits
    assert est.strategy == strategy


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


def test_sweep_gpus_returns_one_estimate_per_count_and_drops_global_batch():
    s = with_value(seed_scenario(3), "training", TrainingSpec(global_batch=64))
    rows = sweep_gpus(s, [1, 2, 3, 8])
    assert [n for n, _ in rows] == [1, 2, 3, 8]
    assert rows[-1][1].per_gpu_total == 14 * GB


def test_solves_need_gpu_memory():
    with pytest.raises(InputError, match=r"hardware\.gpu_memory"):
        max_params(with_value(seed_scenario(), "hardware", HardwareSpec()))
