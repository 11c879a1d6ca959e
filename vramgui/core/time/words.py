"""The step time's words, written when first read: a term's seconds now, its ``Term`` (a ``Msg`` label with
formatted numbers) only when a derivation is shown.

A plan search ranks thousands of plans by their seconds and shows the words of a few; the CLI's ``--json`` and text,
the window's Time tab and Help > Formulas read them. ``step_time`` computes every component's terms as ``Later``
terms (whole nanoseconds and a function that writes the label's numbers), sums them at once and hands each part a
``Words``: on the first read it runs the same arithmetic again (deterministic) and writes every derivation, so an
unread answer keeps no terms or closures alive (the plan chart keeps every answer of a search). Equal to, and
rendered as, the derivations written at once (``bench/differential.py``; tests/core/time/test_lazy_words.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from vramgui.core.terms import NS, Derivation, Term
from vramgui.core.text.message import Msg, Param
from vramgui.core.time.result import TimeComponent, TimePart


class Later:
    """A term of seconds whose words wait: its whole nanoseconds, and what writes its label's numbers."""

    __slots__ = ("code", "ns", "params", "sign", "symbol")

    def __init__(self, ns: int, symbol: str, code: str, params: Callable[[], dict[str, Param]], sign: int = 1):
        self.ns, self.symbol, self.code, self.params, self.sign = ns, symbol, code, params, sign

    def term(self) -> Term:
        return Term(self.ns, symbol=self.symbol, label=Msg.of(self.code, **self.params()), style="seconds",
                    sign=self.sign)


def later_term(seconds: float, symbol: str, code: str, params: Callable[[], dict[str, Param]] = dict) -> Later:
    """``params`` writes the label's numbers when the words are read: the values it reads must not change after."""
    return Later(round(seconds * NS), symbol, code, params)


Raw = tuple[list[Later], str]  # a component's terms and source, before it is a TimeComponent


def raw_seconds(raw: Raw) -> float:
    return sum([t.ns for t in raw[0]]) / NS  # a subtracted term holds negative nanoseconds


class Words:
    """The derivations of one step time: ``compute(inputs)`` (each component's terms) run again on the first read.
    Held by the step's parts instead of their terms, so that an unread answer keeps a handful of objects alive."""

    __slots__ = ("compute", "derivs", "inputs")

    def __init__(self, inputs: Any, compute: Callable[[Any], dict[str, Raw]]) -> None:
        self.inputs, self.compute = inputs, compute
        self.derivs: dict[str, Derivation] | None = None

    def __call__(self, key: str) -> Derivation:
        derivs = self.derivs
        if derivs is None:
            derivs = self.derivs = {k: _derivation(terms) for k, (terms, _) in self.compute(self.inputs).items()
                                    if terms}
        return derivs[key]


def _derivation(terms: list[Later]) -> Derivation:
    one = Msg.of("time.single") if len(terms) == 1 else None  # "…: 0.51 s", not "…: 0.51 s = 0.51 s"
    return Derivation(tuple(t.term() for t in terms), sum(t.ns for t in terms), measure="seconds", shape=one)


_EMPTY: dict[tuple[str, str], TimeComponent] = {}  # (key, source): a part with no terms, the same every time


def component(key: str, raw: Raw, words: Words) -> TimeComponent:
    """The component ``key`` of ``raw``: its seconds now, its derivation from ``words`` when read."""
    terms, source = raw
    if not terms:
        empty = _EMPTY.get((key, source))
        if empty is None:
            deriv = Derivation(total=0, note=Msg.of("time.none"), measure="seconds")
            empty = _EMPTY[key, source] = TimeComponent(key, 0.0, TimePart(0.0, deriv, source, key))
        return empty
    seconds = raw_seconds(raw)
    return TimeComponent(key, seconds, TimePart.later(seconds, words, source, key))
