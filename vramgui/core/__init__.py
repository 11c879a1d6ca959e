"""vramgui's calculation core: pure Python, no Qt. Computes in bytes; every formula cites its source.

The seed tutorial's four functions are importable from here with their original signatures. They are looked up on
first use (PEP 562 ``__getattr__``), so that importing any part of the core (``vramgui.core.fields``, for the
command line's parser) does not import the seed, the accumulation rule and the whole field registry with it.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "InputError",
    "calculate_accumulation_steps",
    "calculate_ddp_memory",
    "calculate_zero_memory",
    "max_trainable_params",
]

_HOME = {
    "InputError": "vramgui.core.text.errors",
    "calculate_accumulation_steps": "vramgui.core.seed",
    "calculate_ddp_memory": "vramgui.core.seed",
    "calculate_zero_memory": "vramgui.core.seed",
    "max_trainable_params": "vramgui.core.seed",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
