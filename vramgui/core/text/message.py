"""The core's user-visible sentences: one Qt-free catalogue of message ids with named parameters.

The core never returns prose that a client must parse. A note, an error or a word inside a derivation is a
``Msg``: a code plus parameters. Each client renders it once, in the reader's language:

* the CLI and ``--json`` with :func:`render` (English, the catalogue's own text);
* the GUI with ``render(msg, tr)`` where ``tr(context, text)`` is ``QCoreApplication.translate``.

The templates are marked with ``QT_TRANSLATE_NOOP`` so that ``pyside6-lupdate`` extracts them into the ``.ts``
files (a function of that name that returns its text; lupdate reads the source, not the call). This is
napari's ``trans`` idea (``napari/utils/translations.py``) in its simplest form.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Union

# re-exported: the field tables mark their labels with it
from vramgui.core.text import catalogue
from vramgui.core.text.mark import QT_TRANSLATE_NOOP as QT_TRANSLATE_NOOP

CONTEXT = "Core"

Translator = Callable[[str, str], str]


def english(context: str, text: str) -> str:
    """The identity translator: the catalogue's English text."""
    return text


Param = Union[str, int, float, "Msg", None]


@dataclass(frozen=True)
class Msg:
    """A message id and its parameters. ``str(msg)`` is the English text."""

    code: str
    params: tuple[tuple[str, Param], ...] = ()

    @classmethod
    def of(cls, code: str, **params: Param) -> Msg:
        if code not in CATALOGUE:
            raise KeyError(f"unknown message code {code!r}")
        return cls(code, tuple(params.items()))

    @property
    def kwargs(self) -> dict[str, Param]:
        return dict(self.params)

    def render(self, tr: Translator = english) -> str:
        return render(self, tr)

    def __str__(self) -> str:
        return render(self)


def render(msg: Msg | str | None, tr: Translator = english) -> str:
    """The text of ``msg`` through ``tr``; nested ``Msg`` parameters are rendered the same way. A plain
    string (user data, a file name, a value) is shown as it is."""
    if msg is None:
        return ""
    if isinstance(msg, str):
        return msg
    template = tr(CONTEXT, CATALOGUE[msg.code])
    values = {k: render(v, tr) if isinstance(v, Msg) else v for k, v in msg.params}
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError, AttributeError):  # a broken translation must not hide the message
        pass
    try:
        return CATALOGUE[msg.code].format(**values)
    except (KeyError, IndexError, ValueError, AttributeError):  # a parameter left out: show the rest
        return CATALOGUE[msg.code].format_map(_Shown(values))


class _Shown(dict[str, Param]):
    """The parameters of a message, a missing one shown as its placeholder ("{value} is out of range")."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


CATALOGUE: dict[str, str] = catalogue.entries()
