"""The input form's own words: group titles, the unit words, how a mnemonic letter is marked, and the labels,
mnemonics and explanations of the UI rows that are no scenario field (the preset, "Defined by", the GPU).

Every word about a field (label, tooltip, choice words, check-box text, placeholder, explanation, mnemonic) is in
its registry row and reaches the view through ``vramgui.presenters.form.texts.field_info``. Strings use the
"InputPanel" context.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for


def group_titles() -> dict[str, str]:
    return {
        "model": translate("InputPanel", "Model"),
        "training": translate("InputPanel", "Training"),
        "finetune": translate("InputPanel", "Fine-tuning"),
        "hardware": translate("InputPanel", "Hardware"),
        "strategy": translate("InputPanel", "Strategy"),
        "overheads": translate("InputPanel", "Overheads"),
        "serve": translate("InputPanel", "Serving"),
    }


# The mnemonic (Alt+letter) of a UI row's label (a field's is in its registry row): marked in the text, or
# appended "(&X)" when the translated label lacks the letter (as Chinese labels do). File, View and Help take F, V
# and H.
UI_MNEMONICS = {"model.preset": "S", "model.mode": "D", "hardware.gpu": "G"}


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


def ui_explanations() -> dict[str, str]:
    """What a UI row (not a scenario field) means, as its tooltip; a field's explanation is in its registry row."""
    return {
        "model.preset": translate(
            "InputPanel",
            "A model from the catalog: its architecture gives Φ exactly and sizes the activations. Type to search."),
        "model.mode": translate(
            "InputPanel",
            "Where Φ comes from. A parameter count alone sizes the model states (16Φ for mixed-precision Adam) but "
            "not the activations, which need the architecture."),
        "hardware.gpu": translate(
            "InputPanel", "A GPU from the catalog (its memory as the vendor states it), or custom memory."),
    }


def ui_labels() -> dict[str, str]:
    """Labels of the UI-only rows (not scenario fields)."""
    return {
        "model.preset": translate("InputPanel", "Preset"),
        "model.mode": translate("InputPanel", "Defined by"),
        "hardware.gpu": "GPU",
    }


def mode_choices() -> list[tuple[str, str]]:
    return [
        ("preset", translate("InputPanel", "the preset or import")),
        ("params", translate("InputPanel", "parameter count Φ")),
        ("architecture", translate("InputPanel", "architecture fields")),
    ]
