"""``QT_TRANSLATE_NOOP``: marks a template for ``pyside6-lupdate`` (which extracts calls by that name) and returns
it unchanged. One definition for every catalogue module (``vramgui.core.text.catalogue``, the field tables)."""

from __future__ import annotations


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - the name lupdate looks for
    """Mark ``text`` for extraction into the translation catalogue; returns it unchanged."""
    return text
