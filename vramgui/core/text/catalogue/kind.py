"""``kind.*`` messages. What a JSON value is, named inside a document error ("must be a number, not the string 'x'").

Part of the one catalogue (``vramgui.core.text.message.CATALOGUE``, translation context "Core").
"""

from __future__ import annotations

from collections.abc import Mapping

from vramgui.core.text.mark import QT_TRANSLATE_NOOP


def entries() -> Mapping[str, str]:
    # QT_TRANSLATE_NOOP is spelled out in every entry: pyside6-lupdate extracts only calls by that name
    return {
        # ----- scenario documents (vramgui.core.documents.scenario, vramgui.io.scenario_files): problems by field path
        "kind.number": QT_TRANSLATE_NOOP("Core", "the number {text}"),
        "kind.string": QT_TRANSLATE_NOOP("Core", "the string {text}"),
        "kind.long_string": QT_TRANSLATE_NOOP("Core", "a string"),
        "kind.list": QT_TRANSLATE_NOOP("Core", "a list"),
        "kind.object": QT_TRANSLATE_NOOP("Core", "an object"),
    }
