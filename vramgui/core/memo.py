"""Caches for frozen values, looked up by identity first.

A frozen dataclass's hash is computed from every field on every call: an ``Architecture`` of forty fields costs
microseconds to hash, more than most of the arithmetic that uses it. A sweep, a solve or a window edit hands the
same objects on (``dataclasses.replace`` keeps the sections it does not change), so asking by ``id`` first is
nearly free; the object itself is kept beside its result, so its id cannot be reused while it is listed. A value
seen before under another identity (an equal architecture read again) is still a hit through the value cache.
Both are bounded: cleared when full, never wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import lru_cache
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Seen:
    """Objects already found good (valid), by identity. Frozen objects cannot change, so one listed here stays
    good; a changed copy is a new object and is asked about again."""

    def __init__(self, limit: int = 4096) -> None:
        self._objects: dict[int, object] = {}
        self._limit = limit

    def __contains__(self, obj: object) -> bool:
        return self._objects.get(id(obj)) is obj

    def add(self, obj: object) -> None:
        if len(self._objects) >= self._limit:
            self._objects.clear()
        self._objects[id(obj)] = obj

    def clear(self) -> None:
        self._objects.clear()


class ByIdentity(Generic[K, V]):
    """``fn(key)`` for a frozen ``key``, computed once: by identity first, then by value (``functools.lru_cache``)."""

    def __init__(self, fn: Callable[[K], V], limit: int = 256) -> None:
        self._by_value = lru_cache(maxsize=limit)(fn)
        self._by_id: dict[int, tuple[K, V]] = {}
        self._limit = limit
        self.__wrapped__ = fn
        self.__doc__ = fn.__doc__

    def __call__(self, key: K) -> V:
        hit = self._by_id.get(id(key))
        if hit is not None and hit[0] is key:
            return hit[1]
        value = self._by_value(key)
        if len(self._by_id) >= self._limit:
            self._by_id.clear()
        self._by_id[id(key)] = (key, value)
        return value

    def cache_clear(self) -> None:
        self._by_value.cache_clear()
        self._by_id.clear()


def by_identity(limit: int = 256) -> Callable[[Callable[[K], V]], ByIdentity[K, V]]:
    """Decorator: ``@by_identity()`` over a function of one frozen argument."""

    def wrap(fn: Callable[[K], V]) -> ByIdentity[K, V]:
        return ByIdentity(fn, limit)

    return wrap
