"""The one error type the core raises for bad input.

Every client (GUI inline message, CLI stderr + exit 2, scenario loader) shows ``str(err)``, which names
the field and the allowed range, so the user never sees a traceback.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input: names the offending ``field`` and, where there is one, the ``allowed`` range."""

    def __init__(self, field: str, message: str, allowed: str | None = None) -> None:
        self.field = field
        self.message = message
        self.allowed = allowed
        text = f"{field}: {message}"
        if allowed:
            text += f" (allowed: {allowed})"
        super().__init__(text)
