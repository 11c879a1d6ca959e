"""Caches for frozen values, looked up by identity first.

A frozen dataclass's hash is computed from every field on every call: an ``Architecture`` of forty fields costs
microseconds to hash, more than most of the arithmetic that uses it. A sweep, a solve or a window edit hands the
same objects on (``dataclasses.replace`` keeps the sections it does not change), so asking by ``id`` first is
nearly free; the object itself is kept beside its result, so its id cannot be reused while it is listed. A value
seen before under another identity (an equal architecture read again) is still a hit through the value cache.
Both are bounded: cleared when full, never wrong.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable
from functools import lru_cache
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
T = TypeVar("T")


class Seen:
    """Objects already found good (valid), by identity. Frozen objects cannot change, so one listed here stays
    good; a changed copy is a new object and is asked about again."""

    def __init__(self, limit: int = 4096) -> None:
        self.objects: dict[int, object] = {}  # id -> object; ``objects.get(id(x)) is x`` asks without a call
        self._limit = limit

    def __contains__(self, obj: object) -> bool:
        return self.objects.get(id(obj)) is obj

    def add(self, obj: object) -> None:
        if len(self.objects) >= self._limit:
            self.objects.clear()
        self.objects[id(obj)] = obj

    def clear(self) -> None:
        self.objects.clear()


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


class _Factory:
    """An argument left out whose default a factory makes (written ``<factory>``, as dataclasses write it)."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def dict_init(cls: type[T]) -> type[T]:
    """Class decorator, under ``@dataclass(frozen=True)``: an ``__init__`` that writes the fields as one dict.

    A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__`` (its own
    ``__setattr__`` refuses): about 0.2 µs a field, 2.6 µs for the estimate's twenty-four, and an estimate makes
    a dozen such values. This one takes the same parameters (names, order, defaults) and sets the instance's
    ``__dict__`` in one step; equality, hashing, ``repr`` and ``replace`` are the dataclass's own. Only for classes
    whose fields are all ``__init__`` parameters (no ``init=False``, keyword-only field, ``__post_init__`` or
    ``__slots__``): anything else is refused here, at import. A ``default_factory`` is called when its argument is
    left out, as the dataclass's own ``__init__`` does."""
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    if (any(not f.init or f.kw_only for f in fields)
            or hasattr(cls, "__post_init__") or "__slots__" in cls.__dict__
            or not cls.__dataclass_params__.frozen):  # type: ignore[attr-defined]
        raise TypeError(f"dict_init does not fit {cls.__name__}")
    names = [f.name for f in fields]
    namespace: dict[str, Any] = {"_set": object.__setattr__, "_factory": _FACTORY}
    params, made = [], []
    for f in fields:
        if f.default_factory is not dataclasses.MISSING:
            namespace[f"_make_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_factory")
            made.append(f"    if {f.name} is _factory:\n        {f.name} = _make_{f.name}()\n")
        elif f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
    body = ", ".join(f"{n!r}: {n}" for n in names)
    source = f"def __init__(self, {', '.join(params)}):\n{''.join(made)}    _set(self, '__dict__', {{{body}}})\n"
    exec(source, namespace)  # as dataclasses itself writes __init__
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[method-assign]
    cls.__dict_init_fields__ = tuple(names)  # type: ignore[attr-defined]  # for ``replaced``
    return cls


def replaced(obj: T, **changes: Any) -> T:
    """``dataclasses.replace(obj, **changes)``; for a ``dict_init`` value its fields' dict copied and updated in
    one step (``replace`` loops over the fields in Python and calls ``__init__`` with keywords: several times the
    cost for a section of fourteen fields, which a sweep replaces at every point). Any other dataclass (the
    ``Architecture``, whose ``__post_init__`` checks it) goes through ``dataclasses.replace``."""
    names: tuple[str, ...] | None = getattr(type(obj), "__dict_init_fields__", None)
    if names is None:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    now = obj.__dict__
    values = {name: now[name] for name in names}
    for name in changes:
        if name not in values:
            raise TypeError(f"{type(obj).__name__} has no field {name!r}")
    values.update(changes)
    new = object.__new__(type(obj))
    object.__setattr__(new, "__dict__", values)
    return new
