"""The field registry's entry for FP8 training through TransformerEngine (``vramgui.core.model_states.fp8``,
docs/peak.md "FP8 (TransformerEngine)"). The default, ``none``, gives the numbers vramgui gave before the field existed,
so no scenario migration is needed.
"""

from __future__ import annotations

from vramgui.core.fields import rules
from vramgui.core.fields.table import Field, Words
from vramgui.core.fields.table import field_entry as _f
from vramgui.core.scenario import specs
from vramgui.core.text.message import QT_TRANSLATE_NOOP

FP8_TABLE: tuple[Field, ...] = (
    _f(
        "precision.fp8",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "FP8 recipe"),
        QT_TRANSLATE_NOOP(
            "Fields",
            "FP8 Linear layers through TransformerEngine (Megatron-Core, fused implementation, bf16/fp16): "
            "delayed or current per-tensor scaling, or MXFP8 blocks; FP8 weight copies, scaling state and FP8 "
            "Linear inputs follow TransformerEngine's code, not measured",
        ),
        choices=specs.FP8_RECIPES,
        flag="--fp8",
        form="training", order=50,
        words=(
            ("none", Words(said=QT_TRANSLATE_NOOP("Fields", "no FP8"))),
            ("delayed", Words(said=QT_TRANSLATE_NOOP("Fields", "FP8 delayed scaling"))),
            ("current", Words(said=QT_TRANSLATE_NOOP("Fields", "FP8 current scaling"))),
            ("mxfp8", Words(said="MXFP8")),
        ),
        inactive=rules.fp8,
    ),
)
