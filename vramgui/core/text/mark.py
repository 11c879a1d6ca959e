"""``QT_TRANSLATE_NOOP``: marks a template for ``pyside6-lupdate`` (which extracts calls by that name) and returns
it unchanged. One definition for every catalogue module (``vramgui.core.text.catalogue``, the field tables).

A message that shows a count is a ``Plural``: its source is Qt's numerus text (``%n`` the count, marked with a
fourth argument, which must be the literal ``1``: pyside6-lupdate writes ``numerus="yes"`` only for a number
literal, and a name such as ``NUMERUS`` silently turns the plural into a plain message on the next
``make lupdate``), and it names the parameter that is the count
and its English forms (English has no .ts: the core's rule picks "1 layer" / "2 layers")."""

from __future__ import annotations

from dataclasses import dataclass


def QT_TRANSLATE_NOOP(context: str, text: str, disambiguation: None = None,  # noqa: N802 - the name lupdate
                      n: int | None = None) -> str:  # looks for; an ``n`` marks a numerus (plural) message
    """Mark ``text`` for extraction into the translation catalogue; returns it unchanged."""
    return text



@dataclass(frozen=True)
class Plural:
    """A counted message: ``source`` (with ``%n``) is what Qt translates with n; ``one``/``other`` are the English
    forms for n == 1 and any other n; ``n`` names the parameter that holds the count."""

    source: str
    n: str
    one: str
    other: str

    def english(self, count: int | None) -> str:
        return self.one if count == 1 else self.other
