"""The one error type the core raises for bad input.

The error is data: the field's dotted path (``parallel.tp``; see ``vramgui.core.fields.registry``), a message and the
allowed range, each a ``Msg`` (code + parameters, ``vramgui.core.text.message``) so that every client renders it
in its reader's language. ``str(err)`` is the English text, "{field}: {message} (allowed: {allowed})", which
the CLI prints on one line with the flag the user typed.
"""

from __future__ import annotations

from vramgui.core.text.message import Msg, Translator, english, render


class InputError(ValueError):
    """Bad input: names the offending ``field`` and, where there is one, the ``allowed`` range."""

    def __init__(self, field: str, message: Msg | str, allowed: Msg | str | None = None) -> None:
        self.field = field
        self.msg = message
        self.allowed_msg = allowed
        super().__init__(self.text())

    @property
    def message(self) -> str:
        return render(self.msg)

    @property
    def allowed(self) -> str | None:
        return None if self.allowed_msg is None else render(self.allowed_msg)

    def text(self, tr: Translator = english, field_text: str | None = None) -> str:
        text = f"{self.field if field_text is None else field_text}: {render(self.msg, tr)}"
        if self.allowed_msg is not None and render(self.allowed_msg):
            text += f" (allowed: {render(self.allowed_msg, tr)})"
        return text
