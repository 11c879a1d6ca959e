"""The input form's own words: group titles, the unit words, how a mnemonic letter is marked.

Every word about a field (label, tooltip, choice words, check-box text, placeholder, explanation, mnemonic) is in
its registry row and reaches the view through ``vramgui.presenters.form.texts.field_info``; the rows that are no
scenario field (the preset, "Defined by", the GPU) are ``vramgui.core.fields.form_rows.UI_ROWS``, through
``texts.ui_rows``. Strings use the "InputPanel" context.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for


def group_titles() -> dict[str, str]:
    return {
        "essentials": translate("InputPanel", "Essentials"),
        "model": translate("InputPanel", "Model"),
        "training": translate("InputPanel", "Training"),
        "finetune": translate("InputPanel", "Fine-tuning"),
        "hardware": translate("InputPanel", "Hardware"),
        "strategy": translate("InputPanel", "Strategy"),
        "time": translate("InputPanel", "Time and cost"),
        "overheads": translate("InputPanel", "Overheads"),
        "serve": translate("InputPanel", "Serving"),
    }


# A label's mnemonic (Alt+letter): marked in the text, or appended "(&X)" when the translated label lacks the letter
# (as Chinese labels do). File, View and Help take F, V and H.
def with_mnemonic(text: str, letter: str | None) -> str:
    if not letter:
        return text
    at = text.lower().find(letter.lower())
    if at < 0:
        return f"{text} (&{letter})" if text.isascii() else f"{text}(&{letter})"
    return text[:at] + "&" + text[at:]


def unit_texts() -> dict[str, str]:
    """The registry's unit ids as shown beside a whole-number field."""
    return {
        "samples": translate("InputPanel", "sequences"),
        "tokens": translate("InputPanel", "tokens"),
        "GPUs": translate("InputPanel", "GPUs"),
    }
