"""The seed tutorial's functions and test numbers come out exactly."""

from __future__ import annotations

import pytest

from vramgui.core import (
    InputError,
    calculate_accumulation_steps,
    calculate_ddp_memory,
    calculate_zero_memory,
    max_trainable_params,
)
from vramgui.core.seed import seed_compare_table


def test_ddp_seven_billion_fp16_adam_is_112_gb_and_sgd_56():
    assert calculate_ddp_memory(7, "fp16", "adam") == 112
    assert calculate_ddp_memory(7, "fp16", "sgd") == 56


@pytest.mark.parametrize(("stage", "expected"), [(1, 38.5), (2, 26.25), (3, 14)])
def test_zero_stages_on_eight_gpus_match_the_seed(stage, expected):
    assert abs(calculate_zero_memory(7, stage, 8, "fp16", "adam") - expected) < 1e-9


@pytest.mark.parametrize("stage", ["ddp", 0])
def test_zero_stage_zero_and_ddp_equal_ddp_memory(stage):
    assert calculate_zero_memory(7, stage, 8) == calculate_ddp_memory(7)


def test_max_trainable_params_matches_the_seed():
    assert abs(max_trainable_params(80, 8, "ddp", 0.2) - 4) < 1e-9
    assert abs(max_trainable_params(80, 8, 3, 0.2) - 32) < 1e-9


def test_compare_table_is_the_seeds_part_three():
    table = dict(seed_compare_table())
    assert list(table) == ["DDP", "ZeRO-1", "ZeRO-2", "ZeRO-3"]
    assert table["DDP"] == pytest.approx(4)
    assert table["ZeRO-1"] == pytest.approx(64 / (4 + 12 / 8))
    assert table["ZeRO-2"] == pytest.approx(64 / (2 + 14 / 8))
    assert table["ZeRO-3"] == pytest.approx(32)


def test_accumulation_steps_divide_global_batch():
    assert calculate_accumulation_steps(512, 4, 8) == 16


def test_accumulation_rejects_non_multiple_and_names_nearest_valid_batches():
    with pytest.raises(InputError) as err:
        calculate_accumulation_steps(100, 3, 8)
    assert err.value.field == "global_batch"
    assert "96" in str(err.value) and "120" in str(err.value)
    assert isinstance(err.value, ValueError)


def test_seed_rejects_an_unknown_stage_as_value_error():
    with pytest.raises(ValueError, match="zero_stage"):
        calculate_zero_memory(7, 4, 8)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -1, 0])
def test_seed_rejects_non_finite_or_non_positive_sizes(bad):
    with pytest.raises(InputError, match="num_params_b"):
        calculate_ddp_memory(bad)
