"""JSON text within limits: the parsing policy shared by every JSON reader (files, presets, scenarios, settings).

``json.loads`` lacks limits: a deeply nested text raises RecursionError, a huge list is built in full before
anyone can look at it, duplicate keys silently keep the last value and NaN/Infinity slip in as floats.
``loads_json`` checks depth and element count with a cheap scan of the text first (nothing is built), then
parses with duplicate keys and NaN/Infinity refused. Pure: it takes text; ``vramgui.io.files.read_json``
reads the file.
"""

from __future__ import annotations

import gc
import json
import math
import re
from array import array
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import accumulate
from typing import Any

from vramgui.core.text.message import Msg, render

DEFAULT_MAX_DEPTH = 64
DEFAULT_MAX_ITEMS = 1_000_000


class JsonError(ValueError):
    """Text that is not acceptable JSON. ``what`` names the document, ``reason_msg`` says why (a message id, fit
    for a user in any language); ``reason`` is its English text."""

    def __init__(self, what: str, reason: Msg | str) -> None:
        self.what = what
        self.reason_msg = reason
        self.reason = render(reason)
        super().__init__(f"{what}: {self.reason}")


# A string literal, or an unterminated one running to the end: the pattern never fails once it starts at a
# quote, so the scan is linear whatever the input (no retries from later quotes inside a broken string).
_STRING = re.compile(r'"(?:[^"\\]++|\\[\s\S])*+(?:"|\\?\Z)')
_NON_EMPTY_OPEN = re.compile(r"[\[{](?![ \t\r\n]*+[\]}])")
_BRACKETS = b"[]{}"
_NOT_BRACKETS = bytes(b for b in range(256) if b not in _BRACKETS)
_DEPTH_STEPS = bytes.maketrans(_BRACKETS, b"\x01\xff\x01\xff")  # as signed bytes: +1 per opening, -1 per closing


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for a block that builds ~10^6 containers none of which can be garbage
    (a parse, a header's tensor list): each allocation would count towards a collection that walks every object
    the process holds. Measured on a header at the element cap inside the long fuzz run: 4.39 s -> 1.59 s."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _outside_strings(text: str) -> str:
    """The text with each string literal replaced by ``0``. Without a backslash no quote is escaped, so the
    literals are exactly every other piece between quotes (C-speed split and join, ~6x faster than the regex on a
    5 MB header); otherwise the regex above."""
    if "\\" in text:
        return _STRING.sub("0", text)
    pieces = text.split('"')
    bare = "0".join(pieces[::2])
    return bare + "0" if len(pieces) % 2 == 0 else bare  # an unterminated literal runs to the end


class _RejectedError(ValueError):
    """Raised from json.loads hooks with the reason for the user."""

    def __init__(self, reason: Msg) -> None:
        self.reason = reason
        super().__init__(render(reason))


def _reject_constant(name: str) -> Any:
    raise _RejectedError(Msg.of("error.json_constant", name=name))


def _finite_float(text: str) -> float:
    """A float literal; one too large for a float (``1e999``) would become infinity: refused like Infinity."""
    value = float(text)
    if math.isinf(value):
        raise _RejectedError(Msg.of("error.json_constant", name=text if len(text) <= 40 else text[:37] + "..."))
    return value


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)  # C speed; only a text with a duplicate key looks for it
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _RejectedError(Msg.of("error.json_duplicate_key", key=repr(key[:80])))
            seen.add(key)
    return data


def check_json_shape(text: str, *, max_depth: int = DEFAULT_MAX_DEPTH, max_items: int = DEFAULT_MAX_ITEMS,
                     what: str = "the JSON text") -> None:
    """Refuse text nesting deeper than ``max_depth`` or holding more than ``max_items`` elements (array items
    plus object members, at every level), without parsing it: brackets and commas are counted outside string
    literals with C-speed splits, ``str.count`` and a running sum over at most ``2 * max_items + 3`` brackets: a
    text within the element cap has no more (every container but the root is an element), and a deeper one shows
    its depth within its first ``max_depth + 1`` brackets."""
    bare = _outside_strings(text)
    brackets = bare.encode("utf-8", "surrogatepass").translate(None, delete=_NOT_BRACKETS)
    # the depth after each bracket, a running sum in C; after a stray closing bracket the depths read low, but
    # json.loads stops at that bracket ("Extra data") before it could nest any deeper
    steps = array("b", brackets[: 2 * max_items + 3].translate(_DEPTH_STEPS))
    if max(accumulate(steps), default=0) > max_depth:
        raise JsonError(what, Msg.of("error.json_too_deep", depth=max_depth))
    items = bare.count(",") + len(_NON_EMPTY_OPEN.findall(bare))  # exact for well-formed JSON
    containers = bare.count("[") + bare.count("{")
    if items > max_items or containers > max_items + 1:
        raise JsonError(what, Msg.of("error.json_too_many_items", limit=f"{max_items:,}"))


def loads_json(text: str, *, max_depth: int = DEFAULT_MAX_DEPTH, max_items: int = DEFAULT_MAX_ITEMS,
               what: str = "the JSON text", allow_nan: bool = False) -> Any:
    """``json.loads`` within limits; every failure is a JsonError. ``allow_nan`` keeps NaN/Infinity (for files
    written by Python's json with its default ``allow_nan=True``, e.g. transformers' config.json)."""
    check_json_shape(text, max_depth=max_depth, max_items=max_items, what=what)
    try:
        return _parse(text, allow_nan)
    except json.JSONDecodeError as exc:  # "Unterminated string starting at" + " at line 1, column 5"
        detail = exc.msg.removesuffix(" at")
        raise JsonError(what, Msg.of("error.json_syntax", detail=detail, line=exc.lineno, column=exc.colno)) from None
    except _RejectedError as exc:
        raise JsonError(what, exc.reason) from None
    except RecursionError:  # only with a caller's max_depth beyond the interpreter's limit
        raise JsonError(what, Msg.of("error.json_nested_too_deeply")) from None
    except ValueError as exc:  # e.g. an integer literal of more than 4300 digits (Python's words, kept as they are)
        raise JsonError(what, Msg.of("error.json_value_unreadable", detail=str(exc)[:100])) from None


def _parse(text: str, allow_nan: bool) -> Any:
    with collector_paused():
        if allow_nan:
            return json.loads(text, object_pairs_hook=_no_duplicates)
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_reject_constant,
                          parse_float=_finite_float)


def decode_text(raw: bytes, *, what: str = "the file") -> str:
    """UTF-8 (a byte-order mark is dropped) or a JsonError."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise JsonError(what, Msg.of("error.json_not_utf8")) from None
