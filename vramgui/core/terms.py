"""Derivations as data: the terms a component's bytes are made of, and the one renderer that writes them.

The core builds a ``Derivation`` beside every number it returns; nobody parses its text. Two renderings:

* :func:`render_formula` - the symbols: ``2Φ/N_d + 4·n_tensors``;
* :func:`render_derivation` - the same terms with the numbers filled in, totalled in the reader's unit:
  ``2 × 7.00e9 / 8 + 4 × 291 = 1.75 GB`` (GB) or ``… = 1.63 GiB`` (GiB).

Words (``0: gradient partition offloaded to CPU memory``, ``32 layer(s) × 134.2 MB``) are ``Msg`` ids rendered
through the caller's translator, so the CLI and ``--json`` print English and the window prints the user's
language from the same data. Symbols (Φ, N_d, L_largest) are never translated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from vramgui.core.memo import dict_init
from vramgui.core.text.message import Msg, Translator, english, render
from vramgui.core.text.units import GB, GiB, format_bytes, format_seconds

Style = Literal["sci", "plain", "grouped", "bytes", "fine_bytes", "seconds"]
NS = 10**9  # a time term holds whole nanoseconds (``vramgui.core.time``): sums stay exact


@dict_init
@dataclass(frozen=True)
class Term:
    """One addend: ``coefficient × quantity [/ divisor]`` (``2Φ/N_d``), or a byte amount (``cuda_context``).

    ``bytes`` is what the term adds to the total (negative for a subtracted term such as DeepSpeed's
    "− gradients"); in a time term (``style="seconds"``, ``vramgui.core.time``) it is whole nanoseconds, and the
    ``label`` carries the numbers (FLOPs over a rate, bytes over a bandwidth). ``quantity`` is None for a byte
    amount. ``label`` holds the words around the numbers; its template may use ``{value}`` (the term's numbers as
    text), ``{coefficient}`` and ``{quantity}``.
    """

    bytes: int
    coefficient: int | float | None = None
    symbol: str = ""
    quantity: int | None = None
    divisor: int | None = None
    divisor_symbol: str = ""
    label: Msg | None = None
    style: Style = "sci"  # how the quantity (or the byte amount: "bytes"/"fine_bytes") is written
    rounding: str = ""  # "int": DeepSpeed's int() of a float division
    coefficient_symbol: str = ""  # a symbolic coefficient written after the quantity: live_params·b_w
    sign: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {"bytes": self.bytes, "coefficient": self.coefficient, "symbol": self.symbol or None,
                "quantity": self.quantity, "divisor": self.divisor, "divisor_symbol": self.divisor_symbol or None,
                "rounding": self.rounding or None, "text": _term_text(self, "GB", english)}


@dict_init
@dataclass(frozen=True)
class Derivation:
    """How one component's bytes come about.

    ``terms`` add up to ``total`` (``shape`` says otherwise where they do not). With no terms, ``note`` is the
    whole derivation in words ("0: gradients go to the host"). ``formula_terms`` is the symbolic formula where
    it differs from the worked terms (DeepSpeed writes 12Φ/N_d as int(18Φ/N) − gradients); ``formula`` is the
    formula in words where there are no terms ("0 (offloaded)", "n/a"). ``shape`` is a template with
    ``{terms}`` and ``{total}`` for a derivation that is not "terms = total".
    """

    terms: tuple[Term, ...] = ()
    total: int | None = 0
    note: Msg | None = None
    formula_terms: tuple[Term, ...] | None = None
    formula: Msg | None = None
    shape: Msg | None = None
    measure: Literal["bytes", "seconds"] = "bytes"  # seconds: terms and total in nanoseconds (a step time)

    @property
    def has_formula(self) -> bool:
        """False for a bare "0" or "n/a" (the CLI lists only formulas that say something)."""
        if self.formula is not None:
            return self.formula.code != "deriv.not_available"
        return bool(self.formula_terms if self.formula_terms is not None else self.terms)

    def to_dict(self) -> dict[str, Any]:
        return {"terms": [t.to_dict() for t in self.terms], "total": self.total,
                "note": None if self.note is None else render(self.note)}


class ExplainedRow:
    """What a keyed row holding a ``part`` (a ``Part`` of bytes, or the time model's part of seconds) reads out of
    it: its English name from ``label_msg`` (each row type's own table of labels), formula, derivation, source.
    One set of accessors for the estimate's components and the step time's."""

    part: Any

    @property
    def label_msg(self) -> Msg:
        raise NotImplementedError  # the row type's table: core/step/components.py, core/time/components.py

    @property
    def label(self) -> str:
        """The English name."""
        return render(self.label_msg, english)

    @property
    def formula(self) -> str:
        """The symbolic formula in English: ``2Φ/N_d``."""
        return str(self.part.formula)

    @property
    def derivation(self) -> str:
        """The derivation in English, as ``--json`` gives it: ``2 × 7.00e9 / 8 = 1.75 GB``."""
        return str(self.part.derivation)

    @property
    def source(self) -> str:
        return str(self.part.source)


@dict_init
@dataclass(frozen=True)
class Part:
    """Bytes on one GPU with how they come about (``deriv``) and where the figure comes from (``source``): a
    model-state component, a term of the step peak, the row of an estimate - one type for all three.

    ``key`` is its identity where it is looked up or stacked (``COMPONENT_KEYS``, ``PEAK_KEYS``); empty where
    its place already says what it is (a field of ``ModelStates``)."""

    bytes: int
    deriv: Derivation
    source: str
    key: str = ""

    @property
    def formula(self) -> str:
        """The symbolic formula in English: ``2Φ/N_d``."""
        return render_formula(self.deriv, english)

    @property
    def derivation(self) -> str:
        """The derivation in English and GB, as ``--json`` gives it: ``2 × 7.00e9 / 8 = 1.75 GB``."""
        return render_derivation(self.deriv, "GB", english)

    @staticmethod
    def later(bytes: int, build: Callable[..., Derivation], source: str, key: str = "", args: tuple[Any, ...] = ()
              ) -> Part:
        """A part whose derivation ``build(*args)`` writes when it is first read: a sweep, a solve or an estimate
        nobody shows needs only the bytes. ``bytes`` must be what the derivation totals (``build`` only describes
        bytes computed before it, from the same values). Equal to, hashed and shown as the part built at once.
        ``build`` is best a module-level function given its values in ``args`` rather than a closure: a sweep keeps
        a thousand estimates, and every closure's cells are more objects for the garbage collector to walk."""
        part = object.__new__(Part)
        part.__dict__.update(bytes=bytes, source=source, key=key, _later=(build, args))  # frozen: no __setattr__
        return part

    def __getattr__(self, name: str) -> Any:  # only for a name not found: ``deriv`` of a ``later`` part, unread
        later = self.__dict__.get("_later") if name == "deriv" else None
        if later is None:
            raise AttributeError(name)
        built = later[0](*later[1])
        object.__setattr__(self, "deriv", built)
        self.__dict__.pop("_later", None)  # popped: a shared part (a frozen value) may be read by two threads at once
        return built

    def keyed(self, key: str) -> Part:
        """This part under ``key`` (a derivation not yet written stays so)."""
        if self.key == key:
            return self
        later = self.__dict__.get("_later")
        if later is not None:
            return Part.later(self.bytes, later[0], self.source, key, later[1])
        return Part(self.bytes, self.deriv, self.source, key)


# ------------------------------------------------------------------------------------------------ numbers


def sci(n: int | float) -> str:
    """``7_000_000_000`` -> ``"7.00e9"`` (compact Φ in derivations)."""
    if n == 0:
        return "0"
    mantissa, exponent = f"{n:.2e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def amount(n: int | None, unit: str = "GB", fine: bool = False) -> str:
    """Bytes in ``unit``; ``fine``: below one unit in MB (MiB) with a decimal, so a product can be checked by
    hand ("32 layer(s) × 134.2 MB")."""
    if not fine or n is None:
        return format_bytes(n, unit)
    big, small, name = (GB, 10**6, "MB") if unit == "GB" else (GiB, 2**20, "MiB")
    if n >= big:
        return format_bytes(n, unit)
    return f"{n / small:,.1f} {name}"


def _quantity(t: Term, unit: str) -> str:
    assert t.quantity is not None
    if t.style == "sci":
        return sci(t.quantity)
    if t.style == "plain":
        return str(t.quantity)
    if t.style == "grouped":
        return f"{t.quantity:,}"
    return amount(t.quantity, unit, fine=t.style == "fine_bytes")


# ------------------------------------------------------------------------------------------------ rendering


def _term_formula(t: Term) -> str:
    if t.coefficient_symbol:
        return f"{t.symbol}·{t.coefficient_symbol}"
    if t.coefficient is None:
        return t.symbol
    joiner = "" if len(t.symbol) == 1 else "·"  # 2Φ, but 4·n_tensors
    text = f"{t.coefficient:g}{joiner}{t.symbol}"
    return text + (f"/{t.divisor_symbol}" if t.divisor_symbol else "")


def _term_text(t: Term, unit: str, tr: Translator) -> str:
    quantity = ""
    if t.style == "seconds":
        value = format_seconds(abs(t.bytes) / NS)
    elif t.quantity is None:
        value = amount(t.bytes, unit, fine=t.style == "fine_bytes")
    else:
        quantity = _quantity(t, unit)
        value = f"{quantity} × {t.coefficient}" if t.coefficient_symbol else f"{t.coefficient} × {quantity}"
        if t.divisor is not None:
            value += f" / {t.divisor}"
        if t.rounding == "int":
            value = f"int({value})"
    if t.label is None:
        return value
    extra = (("value", value), ("coefficient", "" if t.coefficient is None else t.coefficient),  # a plural's n
             ("quantity", quantity))
    return render(Msg(t.label.code, (*t.label.params, *extra)), tr)


def render_formula(d: Derivation, tr: Translator = english) -> str:
    """The symbolic formula: ``2Φ/N_d + 4·n_tensors``; ``0`` when there is nothing."""
    if d.formula is not None:
        return render(d.formula, tr)
    terms = d.formula_terms if d.formula_terms is not None else d.terms
    shown = [_term_formula(t) for t in terms if t.sign > 0]
    return " + ".join(shown) if shown else "0"


def render_terms(d: Derivation, unit: str = "GB", tr: Translator = english) -> str:
    """The terms with their numbers, without the total: ``2 × 7.00e9 / 8 + 4 × 291``."""
    if not d.terms:
        return "0"
    text = ""
    for i, t in enumerate(d.terms):
        part = _term_text(t, unit, tr)
        text += part if i == 0 else (" + " if t.sign > 0 else " − ") + part
    return text


def render_derivation(d: Derivation, unit: str = "GB", tr: Translator = english) -> str:
    """``2 × 7.00e9 / 8 + 4 × 291 = 1.75 GB`` in ``unit`` (GB or GiB), words through ``tr``."""
    if not d.terms and d.note is not None:
        return render(d.note, tr)
    terms = render_terms(d, unit, tr)
    total = amount(d.total, unit) if d.measure == "bytes" else format_seconds(None if d.total is None
                                                                              else d.total / NS)
    if d.shape is not None:
        return render(Msg(d.shape.code, (*d.shape.params, ("terms", terms), ("total", total))), tr)
    return terms if terms == total else f"{terms} = {total}"
