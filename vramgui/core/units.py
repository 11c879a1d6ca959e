"""Sizes and counts as people write them, and bytes formatted with an explicit unit.

Decimal and binary units are never blurred: GB = 10**9 bytes (what GPU vendors print on the box and what the
seed's "80 GB" means), GiB = 2**30 bytes (what ``nvidia-smi`` and DeepSpeed's estimator print, labelled "GB").
"""

from __future__ import annotations

import math
import re

from vramgui.core.errors import InputError

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


def _finite(value: float, field: str, text: str) -> float:
    if not math.isfinite(value) or value < 0:
        raise InputError(field, f"{text!r} is not a finite, non-negative number")
    return value


def parse_bytes(text: str | int | float, field: str = "size") -> int:
    """``"80GB"`` -> 80_000_000_000, ``"80GiB"`` -> 85_899_345_920, ``"24576MiB"``; a bare number is bytes."""
    if isinstance(text, bool):
        raise InputError(field, "expected a size such as 80GB or 80GiB")
    if isinstance(text, (int, float)):
        return int(round(_finite(float(text), field, str(text))))
    match = _SIZE_RE.match(text)
    if not match:
        raise InputError(field, f"cannot read {text!r} as a size", "a number with B, KB, MB, GB, TB, KiB, MiB, GiB or TiB")
    number, unit = match.groups()
    factor = BYTE_UNITS.get((unit or "B").upper())
    if factor is None:
        raise InputError(field, f"unknown unit {unit!r} in {text!r}", "B, KB, MB, GB, TB, KiB, MiB, GiB, TiB")
    return int(round(_finite(float(number), field, text) * factor))


def parse_count(text: str | int | float, field: str = "params") -> int:
    """``"7B"`` -> 7_000_000_000, ``"124M"``, ``"7.5e9"``, ``"350K"``; a bare integer is itself."""
    if isinstance(text, bool):
        raise InputError(field, "expected a count such as 7B or 124M")
    if isinstance(text, int):
        if text < 0:
            raise InputError(field, f"{text} is negative", ">= 0")
        return text
    if isinstance(text, float):
        return int(round(_finite(text, field, str(text))))
    match = _SIZE_RE.match(text.replace("_", "").replace(",", ""))
    if not match:
        raise InputError(field, f"cannot read {text!r} as a count", "a number with optional K, M, B (or G), T")
    number, suffix = match.groups()
    factor = COUNT_SUFFIXES.get(suffix.upper())
    if factor is None:
        raise InputError(field, f"unknown suffix {suffix!r} in {text!r}", "K, M, B (or G), T")
    return int(round(_finite(float(number), field, text) * factor))


def unit_factor(unit: str) -> int:
    if unit not in FORMAT_UNITS:
        raise InputError("unit", f"unknown unit {unit!r}", ", ".join(FORMAT_UNITS))
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
