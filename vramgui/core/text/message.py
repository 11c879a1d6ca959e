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

from dataclasses import dataclass
from typing import Protocol, Union

from vramgui.core.memo import dict_init

# re-exported: the field tables mark their labels with it
from vramgui.core.text import catalogue
from vramgui.core.text.mark import QT_TRANSLATE_NOOP as QT_TRANSLATE_NOOP
from vramgui.core.text.mark import Plural

CONTEXT = "Core"

class Translator(Protocol):
    """``QCoreApplication.translate`` in the shape the core calls it: ``n`` (>= 0) only for a counted message."""

    def __call__(self, context: str, text: str, n: int = -1, /) -> str: ...


def english(context: str, text: str, n: int = -1, /) -> str:
    """The identity translator: the catalogue's English text (a counted message then takes the core's English
    plural rule, as it does where Qt has no translation)."""
    return text


Param = Union[str, int, float, "Msg", None]


@dict_init
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
    values = {k: render(v, tr) if isinstance(v, Msg) else v for k, v in msg.params}
    source = CATALOGUE[msg.code]
    plural = PLURALS.get(msg.code)
    if plural is None:
        own, template = source, tr(CONTEXT, source)
    else:
        count = _count(values.get(plural.n))
        own = plural.english(count).replace("%n", "{" + plural.n + "}")
        shown = tr(CONTEXT, source, -1 if count is None else count)
        # Qt gives back the source (its %n filled in) where it has no translation: English, the core's rule
        untranslated = shown in (source, source.replace("%n", str(count)))
        template = own if untranslated else shown.replace("%n", "{" + plural.n + "}")
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError, AttributeError):  # a broken translation must not hide the message
        pass
    try:
        return own.format(**values)
    except (KeyError, IndexError, ValueError, AttributeError):  # a parameter left out: show the rest
        return own.format_map(_Shown(values))


def _count(value: object) -> int | None:
    """The n of a plural: a whole number (32, or 32.0), else None (any other n takes the "other" form)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not float(value).is_integer():
        return None
    return int(value)


class _Shown(dict[str, Param]):
    """The parameters of a message, a missing one shown as its placeholder ("{value} is out of range")."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


_ENTRIES = catalogue.entries()
# the source text of every code (what Qt translates; a counted message's has %n) and the counted messages
CATALOGUE: dict[str, str] = {code: e.source if isinstance(e, Plural) else e for code, e in _ENTRIES.items()}
PLURALS: dict[str, Plural] = {code: e for code, e in _ENTRIES.items() if isinstance(e, Plural)}
