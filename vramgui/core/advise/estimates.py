"""One advice's estimates, each scenario's memory estimated once.

The adviser asks about the same changed scenario under several names: a layout's frugal check (``within``, on the
untimed scenario) and the cheapest strategy after it (on the strict one) estimate the same plan; the fewest-GPUs
check of ``layouts._on_more_gpus`` and its first search bisect the same scenario; each suggestion is estimated
again with its step time. Those copies differ only in the reserve (``ask.strict``) and the GPU's compute peak
(``ask.untimed``), and neither moves a byte: the reserve sets only the usable memory (``estimate.fit``:
usable = gpu_memory x (1 - reserve)), the compute peak only the step time (``Estimate.time``), and validation
takes every reserve in [0, 1) and no compute peak. So each scenario is estimated once per memory question, and a
copy with another reserve or compute peak is that estimate with its own fit and time inputs: field for field what
``estimate`` answers (bench/differential.py compares the CLI's answers over hundreds of scenarios).

Kept for one ``advise`` call only (an ``Ask`` carries it): nothing outlives the question.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace
from operator import attrgetter
from typing import Any

from vramgui.core.estimate import Estimate, estimate, fit
from vramgui.core.scenario.specs import Scenario
from vramgui.core.text.errors import InputError

Changes = tuple[tuple[str, Any], ...]
_REST = attrgetter(*(f.name for f in fields(Scenario) if f.name != "hardware"))  # every section but the hardware


class Estimates:
    """``estimate`` with a memory: ``of(s)`` is ``estimate(s)`` (the same figures, the same ``InputError``)."""

    def __init__(self) -> None:
        self._memory: dict[tuple[int, ...], dict[int, Estimate] | InputError] = {}
        # each section seen, as a number (equal sections, the same number): the adviser's scenarios share most of
        # their sections with the one asked about, and a key of numbers hashes in a moment where a key of sections
        # hashes every field of each (an architecture has forty)
        self._by_id: dict[int, tuple[object, int]] = {}  # id(section) -> (the section, kept alive; its number)
        self._numbers: dict[object, int] = {}
        self._plain: dict[int, int] = {}  # a hardware's number -> its number without reserve and compute peak
        self._applied: dict[tuple[int, Changes], tuple[Scenario, Scenario]] = {}
        self._seen: dict[int, tuple[Scenario, Estimate | InputError]] = {}  # id(scenario) -> (it, its answer)

    def _number(self, section: object) -> int:
        known = self._by_id.get(id(section))
        if known is not None and known[0] is section:
            return known[1]
        number = self._numbers.setdefault(section, len(self._numbers))
        self._by_id[id(section)] = (section, number)
        return number

    def applied(self, s: Scenario, changes: Changes, apply: Callable[[Scenario, Changes], Scenario]) -> Scenario:
        """``apply(s, changes)``, made once: the same changes asked again give the same object (whose sections
        this memory and validation then know by identity)."""
        key = (id(s), changes)
        known = self._applied.get(key)
        if known is not None and known[0] is s:
            return known[1]
        changed = apply(s, changes)
        self._applied[key] = (s, changed)
        return changed

    def of(self, s: Scenario) -> Estimate:
        seen = self._seen.get(id(s))  # the same object asked again (``applied`` hands the same changes' one on)
        if seen is not None and seen[0] is s:
            if isinstance(seen[1], InputError):
                raise seen[1].with_traceback(None)
            return seen[1]
        try:
            est = self._of(s)
        except InputError as e:
            self._seen[id(s)] = (s, e)
            raise
        self._seen[id(s)] = (s, est)
        return est

    def _of(self, s: Scenario) -> Estimate:
        number = self._number
        hw = number(s.hardware)
        plain = self._plain.get(hw)
        if plain is None:  # the hardware without reserve and compute peak: what the bytes depend on
            plain = self._plain[hw] = number(replace(s.hardware, reserve=0.0, tflops_16bit=None))
        key = (plain, *[number(section) for section in _REST(s)])
        known = self._memory.get(key)
        if isinstance(known, InputError):
            raise known.with_traceback(None)
        if known is None:
            try:
                est = estimate(s)
            except InputError as e:
                self._memory[key] = e
                raise
            self._memory[key] = {hw: est}
            return est
        est = known.get(hw)  # type: ignore[assignment]
        if est is None:
            est = known[hw] = _refitted(next(iter(known.values())), s)
        return est


def _refitted(est: Estimate, s: Scenario) -> Estimate:
    """``est`` (of a scenario that differs from ``s`` only in the reserve and the compute peak) as ``estimate(s)``
    answers it: the usable memory, the fit and the headroom from ``s``'s reserve (``estimate.fit``, as the estimate
    itself computes them), and the step time from ``s``."""
    assert est.peak is not None and est.time_inputs is not None  # estimate() always computes both
    usable, fits, headroom = fit(s.hardware, est.peak.bytes)
    return replace(est, scenario=s, usable=usable, fits=fits, headroom=headroom,
                   time_inputs=(s, *est.time_inputs[1:]))
