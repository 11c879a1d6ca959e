"""The solves' searches (vramgui.core.solve.search): the same boundary as a scan, whatever the guess."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from vramgui.core.solve import search


@given(st.integers(0, 400), st.integers(1, 400), st.integers(-50, 500))
def test_largest_near_finds_the_boundary_from_any_guess(answer: int, high: int, guess: int) -> None:
    calls: list[int] = []

    def fits(n: int) -> bool:
        calls.append(n)
        return n <= answer

    expected = min(answer, high)  # 0 (low - 1) when even 1 does not fit
    assert search.largest_near(fits, guess, 1, high) == expected
    assert search.largest(fits, 1, high) == expected
    assert all(1 <= n <= high for n in calls)


def test_a_good_guess_costs_a_handful_of_probes_over_a_huge_range() -> None:
    calls: list[int] = []
    answer = 23_814_052_520

    def fits(n: int) -> bool:
        calls.append(n)
        return n <= answer

    assert search.largest_near(fits, answer - 3, 1, 10**15) == answer
    assert len(calls) <= 6
    calls.clear()
    assert search.largest(fits, 1, 10**15) == answer  # the gallop from the bottom: dozens
    assert len(calls) > 40


def test_aimed_guess_is_where_the_line_reaches_the_limit() -> None:
    assert search.aimed_guess(10, 100, 20, 200, 150) == 15
    assert search.aimed_guess(20, 200, 10, 100, 150) == 15  # either order
    assert search.aimed_guess(10, 100, 20, 100, 150) is None  # flat: never reaches it
    assert search.aimed_guess(10, 100, 10, 200, 150) is None


def test_min_gpus_aimed_from_both_ends_is_the_first_count_a_scan_finds() -> None:
    from dataclasses import replace

    from vramgui.core.estimate import estimate
    from vramgui.core.scenario.architecture import Architecture
    from vramgui.core.scenario.specs import HardwareSpec, ModelSpec, ParallelSpec, Scenario, TrainingSpec
    from vramgui.core.solve.questions import min_gpus

    base = Scenario(model=ModelSpec(architecture=Architecture()), training=TrainingSpec(micro_batch=1, seq_len=2048),
                    parallel=ParallelSpec(num_gpus=8, zero_stage=3, tp=2))
    for memory, stage in ((24 * 2**30, 3), (40 * 10**9, 3), (80 * 10**9, 1), (30 * 10**9, 2)):
        s = replace(base, hardware=HardwareSpec(gpu_memory=memory),
                    parallel=replace(base.parallel, zero_stage=stage))
        scan = next((n for n in range(2, 257, 2) if estimate(
            replace(s, parallel=replace(s.parallel, num_gpus=n))).fits), None)
        assert min_gpus(s, limit=256) == scan, (memory, stage)
