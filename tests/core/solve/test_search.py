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
