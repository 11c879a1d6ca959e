"""Integer searches for the reverse solves: the largest value whose step still fits.

Every per-GPU figure the solves ask about is monotone in the value solved for (``questions``), so the answer is
the one boundary between values that fit and values that do not, and any search that brackets it finds the same
value. What differs is how many estimates it costs. ``largest`` gallops up from the low end (cheap when the answer
is small); ``largest_near`` starts from a guess and gallops outward both ways, so a good guess costs a handful of
estimates whatever the range; ``aimed_guess`` makes that guess in closed form from two estimates, because the step
peak is affine in the parameter count, the micro-batch and (for the linear terms) the sequence length, up to the
rounding of shards and the attention's s² terms.
"""

from __future__ import annotations

from collections.abc import Callable


def largest(fits: Callable[[int], bool], low: int, high: int) -> int:
    """Largest n in [low, high] with fits(n), assuming fits is monotone decreasing; low - 1 when none."""
    if not fits(low):
        return low - 1
    probe, step = low, 1
    while probe < high:  # gallop upward so small answers (and answers near low) stay cheap
        nxt = min(high, probe + step)
        step *= 2
        if not fits(nxt):
            high = nxt - 1
            break
        probe = nxt
    else:
        return high
    return _bisect(fits, probe, high)


def largest_near(fits: Callable[[int], bool], guess: int, low: int, high: int) -> int:
    """``largest(fits, low, high)``, searched outward from ``guess``: O(log |answer - guess|) calls of ``fits``."""
    g = min(max(guess, low), high)
    if fits(g):  # the answer is g or above: gallop up until a value does not fit
        lo, hi, step = g, high, 1
        while lo < hi:
            nxt = min(hi, lo + step)
            if not fits(nxt):
                hi = nxt - 1
                break
            lo, step = nxt, step * 2
        return _bisect(fits, lo, hi)
    hi, step = g - 1, 1  # the answer is below g: gallop down until a value fits
    while hi >= low:
        nxt = max(low, hi - step + 1)
        if fits(nxt):
            return _bisect(fits, nxt, hi)
        hi, step = nxt - 1, step * 2
    return low - 1


def _bisect(fits: Callable[[int], bool], lo: int, hi: int) -> int:
    """Largest n in [lo, hi] with fits(n), given fits(lo)."""
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def aimed_guess(x1: int, y1: int, x2: int, y2: int, limit: int) -> int | None:
    """Where the line through (x1, y1) and (x2, y2) reaches ``limit``, rounded down; None when it never rises."""
    if x2 == x1:
        return None
    slope = (y2 - y1) / (x2 - x1)
    if slope <= 0:
        return None
    return int(x1 + (limit - y1) / slope)
