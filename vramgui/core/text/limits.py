"""The message templates added while closing the holes a fuzz run found (issue 12): caps on what a model folder
may cost to read, and the DeepSpeed note where a higher ZeRO stage needs more memory.

Part of the one catalogue (``vramgui.core.text.message.CATALOGUE``), in the same "Core" translation context; kept in
a module of its own so that each file stays readable.
"""

from __future__ import annotations

from collections.abc import Mapping

from vramgui.core.text.mark import QT_TRANSLATE_NOOP


def fuzz_catalogue() -> Mapping[str, str]:
    # QT_TRANSLATE_NOOP is spelled out in every entry: pyside6-lupdate extracts only calls by that name
    return {
        # ----- vramgui.io.safetensors: the cost of reading a folder is capped, not only the bytes
        "error.st_duplicate_shard": QT_TRANSLATE_NOOP(
            "Core", "{index} names {first} and {second}, which are the same file: a checkpoint keeps each shard "
                    "in a file of its own"),
        "error.st_headers_too_many_items": QT_TRANSLATE_NOOP(
            "Core", "the safetensors headers in {folder} hold more than {limit} JSON elements in all, more than "
                    "vramgui reads"),
        # ----- vramgui.core.model_states.deepspeed
        "note.deepspeed_zero3_costs_more": QT_TRANSLATE_NOOP(
            "Core", "ZeRO-3 needs more model-state memory per GPU here than ZeRO-2 ({stage3} vs {stage2} bytes): "
                    "DeepSpeed's fixed term for the gathered largest layer (4 × {layer} parameters) is more than "
                    "what sharding the 16-bit parameters saves"),
    }
