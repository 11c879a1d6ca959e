"""``caption.*`` messages. The short forms in which an input is said in a pin's name, the caption under an exported
chart and the comparison's shared inputs ("micro-batch 4", "seq 8k", "16 GPUs"): the caption forms of the field
registry's rows (``vramgui.core.fields.captions``).

Part of the one catalogue (``vramgui.core.text.message.CATALOGUE``, translation context "Core").
"""

from __future__ import annotations

from collections.abc import Mapping

from vramgui.core.text.mark import QT_TRANSLATE_NOOP


def entries() -> Mapping[str, str]:
    # QT_TRANSLATE_NOOP is spelled out in every entry: pyside6-lupdate extracts only calls by that name
    return {
        "caption.custom_model": QT_TRANSLATE_NOOP("Core", "custom model"),
        "caption.params": QT_TRANSLATE_NOOP("Core", "{params} parameters"),
        "caption.micro_batch": QT_TRANSLATE_NOOP("Core", "micro-batch {n}"),
        "caption.seq_len": QT_TRANSLATE_NOOP("Core", "seq {n}"),
        "caption.no_global_batch": QT_TRANSLATE_NOOP("Core", "no global batch"),
        "caption.global_batch": QT_TRANSLATE_NOOP("Core", "global batch {n}"),
        "caption.gpus": QT_TRANSLATE_NOOP("Core", "{n} GPUs"),
        "caption.gpus_nodes": QT_TRANSLATE_NOOP("Core", "{n} GPUs ({nodes} × {per})"),
        "caption.gpus_per_node": QT_TRANSLATE_NOOP("Core", "{n} GPUs per node"),
        "caption.per_gpu": QT_TRANSLATE_NOOP("Core", "{total} per GPU"),
        "caption.reserve": QT_TRANSLATE_NOOP("Core", "reserve {r} %"),
        "caption.lora_on": QT_TRANSLATE_NOOP("Core", "LoRA on {targets}"),
    }
