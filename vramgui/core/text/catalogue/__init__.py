"""The one catalogue of the core's messages, one module per code prefix (``error.*`` in ``error.py``, ...).

``entries()`` merges them; ``vramgui.core.text.message.CATALOGUE`` is the result. A code is found by its prefix,
never by the work that added it.
"""

from __future__ import annotations

from vramgui.core.text.catalogue import (
    advise,
    allowed,
    caption,
    component,
    deriv,
    error,
    imported,
    inactive,
    kind,
    note,
    phase,
    strategy,
    time,
)
from vramgui.core.text.mark import Plural

MODULES = (error, allowed, kind, note, deriv, inactive, strategy, component, phase, advise, caption, imported, time)


def entries() -> dict[str, str | Plural]:
    """Every code and its English template (or its ``Plural``); a code defined twice is a mistake, not an
    override."""
    out: dict[str, str | Plural] = {}
    for module in MODULES:
        part = module.entries()
        twice = sorted(set(part) & set(out))
        if twice:
            raise ValueError(f"message codes defined twice: {twice}")
        out.update(part)
    return out
