"""The message templates of FP8 training through TransformerEngine (``vramgui.core.model_states.fp8``): derivation
words, the
estimate's note and why the FP8 input has no effect.

Part of the one catalogue (``vramgui.core.text.message.CATALOGUE``), in the same "Core" translation context; kept in
a module of its own so that each file stays readable.
"""

from __future__ import annotations

from collections.abc import Mapping

from vramgui.core.text.mark import QT_TRANSLATE_NOOP


def fp8_catalogue() -> Mapping[str, str]:
    # QT_TRANSLATE_NOOP is spelled out in every entry: pyside6-lupdate extracts only calls by that name
    return {
        # ----- derivation terms (added to the parameters component)
        "deriv.fp8_weights": QT_TRANSLATE_NOOP(
            "Core", "{value} FP8 weight copies ({recipe}: {elements} Linear weight elements, copy + transpose)"),
        "deriv.fp8_scaling": QT_TRANSLATE_NOOP(
            "Core", "{value} FP8 scaling state ({recipe}: {gemms} FP8 GEMMs)"),
        # ----- notes
        "note.fp8_not_measured": QT_TRANSLATE_NOOP(
            "Core", "FP8 ({recipe}): FP8 weight copies, scaling state and FP8 Linear inputs follow "
                    "TransformerEngine's code; not measured here"),
        # ----- inputs a choice makes moot
        "inactive.fp8_needs_16bit": QT_TRANSLATE_NOOP(
            "Core", "Only with bf16 or fp16: FP8 Linears run inside a 16-bit model"),
        "inactive.fp8_fused_only": QT_TRANSLATE_NOOP(
            "Core", "Only with the fused implementation (Megatron-Core / TransformerEngine): Hugging Face "
                    "transformers runs no FP8 Linears"),
        "inactive.fp8_full_training": QT_TRANSLATE_NOOP(
            "Core", "Only with full training: FP8 under LoRA or QLoRA is not modelled"),
    }
