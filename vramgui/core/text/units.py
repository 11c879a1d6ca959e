"""Sizes and counts as people write them, and bytes formatted with an explicit unit.

Decimal and binary units are never blurred: GB = 10**9 bytes (what GPU vendors print on the box and what the
seed's "80 GB" means), GiB = 2**30 bytes (what ``nvidia-smi`` and DeepSpeed's estimator print, labelled "GB").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg

if TYPE_CHECKING:  # imported where a size or count is parsed, not at start-up (fractions imports decimal)
    from fractions import Fraction

KB, MB, GB, TB = 10**3, 10**6, 10**9, 10**12
KiB, MiB, GiB, TiB = 2**10, 2**20, 2**30, 2**40

BYTE_UNITS: dict[str, int] = {
    "B": 1,
    "KB": KB, "MB": MB, "GB": GB, "TB": TB,
    "KIB": KiB, "MIB": MiB, "GIB": GiB, "TIB": TiB,
}
COUNT_SUFFIXES: dict[str, int] = {"": 1, "K": 10**3, "M": 10**6, "B": 10**9, "G": 10**9, "T": 10**12}
FORMAT_UNITS = ("GB", "GiB")

_NUMBER = r"[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?"
_SIZE_RE = re.compile(rf"^\s*({_NUMBER})\s*([A-Za-z]*)\s*$")


_PARTS_RE = re.compile(r"^([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$")
_MAX_MAGNITUDE = 40  # decimal digits: far above any field's range, far below a costly big integer


def exact_number(text: str, field: str, shown: str | None = None) -> Fraction | None:
    """The exact value of a decimal such as ``7.5e9`` (no float rounding: ``9007199254740993`` stays itself), or
    None when it is not one. A number with more than ``_MAX_MAGNITUDE`` digits before the point raises
    ``InputError`` at once (never a huge big-integer computation, never an overflow), quoting ``shown`` (the
    whole input with its unit) or ``text``."""
    from fractions import Fraction

    match = _PARTS_RE.match(text)
    if not match or not (match.group(1) or match.group(2)) or len(text) > 200:
        return None
    whole, frac, exp = match.group(1), match.group(2) or "", int(match.group(3) or 0)
    digits = (whole + frac).lstrip("0")
    if not digits:
        return Fraction(0)
    magnitude = len(whole.lstrip("0")) + exp if whole.lstrip("0") else exp - (len(frac) - len(frac.lstrip("0")))
    if magnitude > _MAX_MAGNITUDE:
        raise InputError(field, Msg.of("error.out_of_range", value=_short(text if shown is None else shown)))
    if magnitude < -_MAX_MAGNITUDE:
        return Fraction(0)
    return Fraction(int(whole + frac)) * Fraction(10) ** (exp - len(frac))


_SEPARATORS_RE = re.compile(r"^(\s*[+-]?)([0-9,_]*)(.*)$", re.DOTALL)
_GROUPED_RE = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})+")
_BAD_UNDERSCORE_RE = re.compile(r"(?<![0-9])_|_(?![0-9])")


def without_digit_separators(text: str) -> str | None:
    """``text`` without the separators people put in whole numbers, or None when they are misplaced (the text is
    then not a number). Commas group thousands in the whole part only (``1,000,000``; ``1,5`` is not 15: in
    much of the world it is 1.5); an underscore stands between two digits, as in Python (``1_000``)."""
    match = _SEPARATORS_RE.match(text)
    assert match is not None  # every text matches (the groups may be empty)
    sign, whole, rest = match.groups()
    if "," in rest or _BAD_UNDERSCORE_RE.search(text):
        return None
    if "," in whole and ("_" in whole or not _GROUPED_RE.fullmatch(whole)):
        return None
    return sign + whole.replace(",", "").replace("_", "") + rest.replace("_", "")


def _short(text: str) -> str:
    return repr(text) if len(text) <= 40 else repr(text[:18] + "…" + text[-18:])


def parse_bytes_exact(text: str | int, field: str = "size") -> int:
    """``"80GB"`` -> 80_000_000_000, ``"80GiB"`` -> 85_899_345_920, ``"24576MiB"``; a bare number is bytes.
    Exact: the unit multiplies the decimal before rounding to whole bytes; the range is the caller's."""
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise InputError(field, Msg.of("error.size_expected"))
    if isinstance(text, int):
        if text < 0:
            raise InputError(field, Msg.of("error.negative", text=str(text)), Msg.of("allowed.at_least_zero"))
        return text
    match = _SIZE_RE.match(text)
    if not match:
        raise InputError(field, Msg.of("error.size_syntax", text=_short(text)), Msg.of("allowed.size_units"))
    number, unit = match.groups()
    factor = BYTE_UNITS.get((unit or "B").upper())
    if factor is None:
        raise InputError(field, Msg.of("error.size_unit", unit=repr(unit), text=_short(text)),
                         Msg.of("allowed.unit_names"))
    value = exact_number(number, field, text.strip())
    if value is None:
        raise InputError(field, Msg.of("error.size_syntax", text=_short(text)), Msg.of("allowed.size_units"))
    return round(value * factor)


def require_size_unit(text: str, field: str = "size", low: float | None = None, high: float | None = None,
                      allowed: Msg | None = None) -> None:
    """Refuse a size other than 0 typed without its unit, before any range check: "80" in a memory field is 80 GB
    to a person and 80 bytes to the parser, and GB and GiB differ by 7 %, so the unit is asked for, never guessed.
    Text that is not a bare number is left to ``parse_bytes_exact`` and its own messages. Used where people type
    sizes (the window's fields, the CLI's flags); scenario files hold bytes and keep a bare number as bytes.

    The message proposes the number in GB and in GiB only when both lie in the field's range (``low``, ``high``
    bytes): "1e400" in Memory per GPU says it is out of range, with ``allowed``, instead of proposing "1e400GB",
    which would be refused next (issue 23)."""
    match = _SIZE_RE.match(text)
    if match is None or match.group(2):
        return
    number = match.group(1)
    if float(number) == 0:  # nothing is nothing in any unit (float: no big-integer work on a long number)
        return
    if (low is not None and float(number) * GB < low) or (high is not None and not float(number) * GiB <= high):
        raise InputError(field, Msg.of("error.size_needs_unit_range", text=_short(number)), allowed)
    shown = number if len(number) <= 24 else "N"
    if not number.isdigit() or (low is not None and int(number) < low):  # "0.5B" is no size: GB or GiB only
        raise InputError(field, Msg.of("error.size_needs_unit_not_bytes", text=_short(number), number=shown))
    raise InputError(field, Msg.of("error.size_needs_unit", text=_short(number), number=shown))


def parse_count_exact(text: str | int, field: str = "params") -> int:
    """``"7B"`` -> 7_000_000_000, ``"124M"``, ``"7.5e9"``, ``"350K"``; a bare integer is itself. Exact, and
    a count that is not whole (``1.5``) is an error, not silently rounded."""
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise InputError(field, Msg.of("error.count_expected"))
    if isinstance(text, int):
        if text < 0:
            raise InputError(field, Msg.of("error.negative", text=str(text)), Msg.of("allowed.at_least_zero"))
        return text
    cleaned = without_digit_separators(text)
    match = None if cleaned is None else _SIZE_RE.match(cleaned)
    if not match:
        raise InputError(field, Msg.of("error.count_syntax", text=_short(text)), Msg.of("allowed.count_suffixes"))
    number, suffix = match.groups()
    factor = COUNT_SUFFIXES.get(suffix.upper())
    if factor is None:
        raise InputError(field, Msg.of("error.count_suffix", suffix=repr(suffix), text=_short(text)),
                         Msg.of("allowed.suffix_names"))
    value = exact_number(number, field, text.strip())
    if value is None:
        raise InputError(field, Msg.of("error.count_syntax", text=_short(text)), Msg.of("allowed.count_suffixes"))
    value *= factor
    if value.denominator != 1:
        raise InputError(field, Msg.of("error.not_whole_count", text=_short(text)), Msg.of("allowed.count_suffixes"))
    return int(value)


def unit_factor(unit: str) -> int:
    if unit not in FORMAT_UNITS:
        raise InputError("unit", Msg.of("error.unknown_value", value=repr(unit)),
                         Msg.of("allowed.choices", choices=", ".join(FORMAT_UNITS)))
    return GB if unit == "GB" else GiB


def to_unit(n: int | float, unit: str = "GB") -> float:
    return n / unit_factor(unit)


def format_bytes(n: int | float | None, unit: str = "GB", digits: int = 2) -> str:
    """``format_bytes(112e9)`` -> ``"112.00 GB"``; ``None`` -> ``"n/a"``. The unit is always printed."""
    if n is None:
        return "n/a"
    return f"{n / unit_factor(unit):,.{digits}f} {unit}"


def format_count(n: int | None) -> str:
    """``7_000_000_000`` -> ``"7.00B"`` (decimal billions, as model names use)."""
    if n is None:
        return "n/a"
    for suffix, factor in (("T", 10**12), ("B", 10**9), ("M", 10**6), ("K", 10**3)):
        if abs(n) >= factor:
            return f"{n / factor:.2f}{suffix}"
    return str(n)


def exact_size_text(n: int) -> str:
    """A byte bound in the largest decimal unit that divides it exactly: 10**18 -> "1,000,000 TB", 1 -> "1 B"."""
    for unit, factor in (("TB", TB), ("GB", GB), ("MB", MB), ("KB", KB)):
        if n >= factor and n % factor == 0:
            return f"{n // factor:,} {unit}"
    return f"{n:,} B"


def exact_count_text(n: int) -> str:
    """A count bound with the largest suffix that divides it exactly: 10**15 -> "1,000T", 0 -> "0"."""
    for suffix, factor in (("T", 10**12), ("B", 10**9), ("M", 10**6), ("K", 10**3)):
        if n >= factor and n % factor == 0:
            return f"{n // factor:,}{suffix}"
    return f"{n:,}"


def counted(n: int, one: str, other: str | None = None) -> str:
    """``n`` with its noun in English, singular only for 1 ("1 GPU", "8 GPUs", "1,024 GPUs"): the CLI's own
    lines; the catalogue's counted messages are ``Plural`` values (``vramgui.core.text.mark``), translated with Qt's
    numerus forms in the window."""
    return f"{n:,} {one if n == 1 else (other or one + 's')}"


def typed_size_text(n: int) -> str:
    """A size as people type it ("80 GB", "80 GiB", "532 MiB", "500 MB"), exact; else in GB (captions)."""
    for unit, factor in (("GB", 10**9), ("GiB", 2**30), ("MB", 10**6), ("MiB", 2**20)):
        if n and n % factor == 0:
            return f"{n // factor:,} {unit}"
    return f"{n:,} B" if n < 10**6 else format_bytes(n, "GB")


def compact_count_text(n: int) -> str:
    """A count in three digits: 7B, 8.03B, 124M (a pin's name)."""
    for suffix, factor in (("T", 10**12), ("B", 10**9), ("M", 10**6), ("K", 10**3)):
        if n >= factor:
            return f"{n / factor:.3g}{suffix}"
    return str(n)


def tokens_text(n: int) -> str:
    """A sequence length as people say it: 8k for 8,192 (k = 1,024: lengths are powers of two); else exact."""
    return f"{n // 1024}k" if n >= 1024 and n % 1024 == 0 else f"{n:,}"


# bytes per second: "300GB/s" (bytes), "200Gb/s" (bits: a network's line rate), "1.6Tb/s"; the unit is written
RATE_UNITS: dict[str, tuple[int, int]] = {  # unit as written -> (numerator, denominator) bytes per second
    "B/s": (1, 1), "KB/s": (KB, 1), "MB/s": (MB, 1), "GB/s": (GB, 1), "TB/s": (TB, 1),
    "KiB/s": (KiB, 1), "MiB/s": (MiB, 1), "GiB/s": (GiB, 1), "TiB/s": (TiB, 1),
    "b/s": (1, 8), "Kb/s": (KB, 8), "Mb/s": (MB, 8), "Gb/s": (GB, 8), "Tb/s": (TB, 8),
    "bit/s": (1, 8), "Kbit/s": (KB, 8), "Mbit/s": (MB, 8), "Gbit/s": (GB, 8), "Tbit/s": (TB, 8),
    "Gbps": (GB, 8), "Mbps": (MB, 8), "GBps": (GB, 1),
}
_RATE_RE = re.compile(rf"^\s*({_NUMBER})\s*([A-Za-z]+(?:/s)?)\s*$")


def parse_rate_exact(text: str | int, field: str = "rate") -> int:
    """``"300GB/s"`` -> 300_000_000_000 bytes per second; ``"200Gb/s"`` (bits, case matters: b is a bit, B a
    byte) -> 25_000_000_000. The unit must be written (a bandwidth in bits and one in bytes differ eightfold); a
    bare int is bytes per second (what a scenario file holds). Exact to the byte per second; the range is the
    caller's."""
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise InputError(field, Msg.of("error.rate_syntax", text=_short(str(text))), Msg.of("allowed.rate_units"))
    if isinstance(text, int):
        if text < 0:
            raise InputError(field, Msg.of("error.negative", text=str(text)), Msg.of("allowed.at_least_zero"))
        return text
    match = _RATE_RE.match(text)
    if not match:
        raise InputError(field, Msg.of("error.rate_syntax", text=_short(text)), Msg.of("allowed.rate_units"))
    number, unit = match.groups()
    factor = RATE_UNITS.get(unit)
    if factor is None:
        raise InputError(field, Msg.of("error.rate_unit", unit=repr(unit), text=_short(text)),
                         Msg.of("allowed.rate_units"))
    value = exact_number(number, field, text.strip())
    if value is None:
        raise InputError(field, Msg.of("error.rate_syntax", text=_short(text)), Msg.of("allowed.rate_units"))
    return round(value * factor[0] / factor[1])


def rate_text(n: int) -> str:
    """An exact, re-parsable rate as a datasheet writes it: ``3.35TB/s``, ``300GB/s``, ``31.5GB/s``, ``25GB/s``; a
    rate no unit divides to three decimals is written in B/s."""
    for unit, factor in (("TB/s", TB), ("GB/s", GB), ("MB/s", MB)):
        if n >= factor and n % (factor // 1000) == 0:
            whole, thousandths = divmod(n // (factor // 1000), 1000)
            return f"{whole}{unit}" if not thousandths else f"{whole}.{thousandths:03d}".rstrip("0") + unit
    return f"{n}B/s"


def format_rate(n: int | float | None, digits: int = 1) -> str:
    """``format_rate(3.0e11)`` -> ``"300.0 GB/s"`` (decimal GB per second, as datasheets quote bandwidth)."""
    if n is None:
        return "n/a"
    if n >= TB:
        return f"{n / TB:,.{digits + 1}f} TB/s"
    return f"{n / GB:,.{digits}f} GB/s"


def format_seconds(s: float | None) -> str:
    """A duration as a person reads it: ``"12.3 ms"``, ``"4.56 s"``, ``"2.1 h"``, ``"34.2 days"``."""
    if s is None:
        return "n/a"
    if s == 0:
        return "0 s"
    if s < 1e-3:
        return f"{s * 1e6:,.1f} µs"
    if s < 1:
        return f"{s * 1e3:,.1f} ms"
    if s < 600:
        return f"{s:,.3g} s" if s < 100 else f"{s:,.1f} s"
    if s < 2 * 3600:
        return f"{s / 60:,.1f} min"
    if s < 2 * 86400:
        return f"{s / 3600:,.1f} h"
    return f"{s / 86400:,.1f} days"
