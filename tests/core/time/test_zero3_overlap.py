"""ZeRO-3's communication hides only behind compute it was issued ahead of (vramgui/core/time/overlap.py), and
Narayanan et al. 2021 Table 2 (ZeRO-3 against PTD-P) comes out of the one step-time model."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bench.validate.step_time import compare, falls, ordering, table2, tflops
from vramgui.core.estimate import estimate
from vramgui.core.scenario.choices import Convention
from vramgui.core.scenario.specs import OverheadSpec
from vramgui.core.time.overlap import block_modules, prefetched_share

TABLE = [compare(r) for r in table2()]


def _scenario(name: str, gpus: int, **overhead):
    row = next(r for r in table2() if r.name == name and r.gpus == gpus)
    return replace(row.scenario(), overhead=OverheadSpec(**overhead))


@pytest.mark.parametrize("pair", ordering(TABLE), ids=lambda p: f"{p[0].row.name} on {p[0].row.gpus}")
def test_ptd_p_is_faster_than_zero_3_at_every_gpu_count_of_table_2(pair):
    """Table 2: 153/149/141 against 144/88/44 TFLOP/s (175B), 171/167/159 against 138/98/48 (530B)."""
    zero, ptd, faster = pair
    assert faster and tflops(ptd) > tflops(zero)
    assert zero.predicted > ptd.predicted * ptd.row.gpus / zero.row.gpus * zero.row.global_batch / ptd.row.global_batch


def test_zero_3_throughput_falls_as_gpus_double_at_a_fixed_batch():
    assert falls(TABLE)
    zero175 = [tflops(r) for r in TABLE if r.row.name == "175B ZeRO-3"]
    assert zero175[0] > 1.4 * zero175[1] > 1.4 * 1.4 * zero175[2]  # published 144 → 88 → 44: roughly halves


@pytest.mark.parametrize("row", TABLE, ids=lambda r: f"{r.row.name} on {r.row.gpus}")
def test_every_table_2_figure_is_within_15_percent(row):
    assert abs(row.error) <= 0.15


def test_fsdp_prefetches_every_gather_and_deepspeed_with_a_bucket_of_0_none():
    s = _scenario("175B ZeRO-3", 384)
    assert prefetched_share(replace(s, convention=Convention.PAPER), s.model.architecture) == 1.0
    assert prefetched_share(replace(s, overhead=OverheadSpec(zero3_prefetch=0)), s.model.architecture) == 0.0
    assert prefetched_share(replace(s, overhead=OverheadSpec()), s.model.architecture) == 1.0  # 604M < 1e9


def test_deepspeed_does_not_prefetch_after_a_module_over_its_live_parameter_limit():
    """530B: MLP matrices of 4h² = 1.68B and q/k/v of 3h² = 1.26B exceed stage3_max_live_parameters (1e9): only the
    MLP input, after the attention's output (h² = 0.42B), is prefetched: 4 of the block's 12 h²."""
    s = _scenario("530B ZeRO-3", 640)
    arch = s.model.architecture
    h = arch.hidden_size
    assert block_modules(arch) == (3 * h * h, h * h, 4 * h * h, 4 * h * h)
    assert prefetched_share(replace(s, overhead=OverheadSpec()), arch) == pytest.approx(4 / 12)
    assert prefetched_share(replace(s, overhead=OverheadSpec(zero3_live_params=2 * 10**9)), arch) == 1.0
    assert prefetched_share(replace(s, overhead=OverheadSpec(zero3_live_params=0)), arch) == 0.0  # axolotl's zero3


def test_gathers_not_prefetched_add_to_the_step_and_the_derivation_says_so():
    on = estimate(_scenario("175B ZeRO-3", 1536)).time
    off = estimate(_scenario("175B ZeRO-3", 1536, zero3_prefetch=0)).time
    assert on is not None and off is not None
    dp_on = next(c for c in on.components if c.key == "dp_comm")
    dp_off = next(c for c in off.components if c.key == "dp_comm")
    hidden = on.step_seconds + dp_off.seconds - dp_on.seconds
    assert off.step_seconds == pytest.approx(hidden)
    assert off.step_seconds > 1.2 * on.step_seconds
    last = dp_off.part.deriv.terms[-1]
    assert dict(last.label.params)["share"] == "0%" and last.bytes == 0
    assert dict(dp_on.part.deriv.terms[-1].label.params)["share"] == "100%"
    assert "0% of the gathers prefetched" in dp_off.part.derivation and "PR #1188" in dp_off.part.source
