"""The field registry's table for expert, context and interleaved/uneven pipeline parallelism and MoE routing
(docs/conventions.md "Expert, context and interleaved pipeline parallelism"). Every default (ep = cp = vpp = 1,
even stages, etp = tp, dropless balanced routing) gives the numbers vramgui gave before these fields existed, so
no scenario migration is needed.
"""

from __future__ import annotations

from vramgui.core.fields import rules
from vramgui.core.fields.table import MAX_GPUS, MAX_LAYERS, Field
from vramgui.core.fields.table import field_entry as _f
from vramgui.core.text.message import QT_TRANSLATE_NOOP

MAX_PERCENT = 10**6

PARALLEL_TABLE: tuple[Field, ...] = (
    _f(
        "training.moe_capacity_percent",
        "int",
        QT_TRANSLATE_NOOP("Fields", "Expert capacity"),
        QT_TRANSLATE_NOOP(
            "Fields",
            "Expert capacity factor in percent (Megatron moe_expert_capacity_factor 1.25 = 125): tokens over "
            "capacity are dropped; empty: dropless",
        ),
        low=1,
        high=MAX_PERCENT,
        flag="--moe-capacity-percent",
        metavar="PERCENT",
        form="training", order=130,
        inactive=rules.needs_moe,
    ),
    _f(
        "training.moe_imbalance_percent",
        "int",
        QT_TRANSLATE_NOOP("Fields", "Routing imbalance"),
        QT_TRANSLATE_NOOP(
            "Fields",
            "Routed tokens the most loaded expert-parallel rank receives, in percent of a balanced share (100: "
            "balanced routing)",
        ),
        low=100,
        high=MAX_PERCENT,
        flag="--moe-imbalance-percent",
        metavar="PERCENT",
        form="training", order=140,
        inactive=rules.moe_imbalance,
    ),
    _f(
        "parallel.ep",
        "int",
        QT_TRANSLATE_NOOP("Fields", "Expert parallel"),
        QT_TRANSLATE_NOOP(
            "Fields", "Expert-parallel size: the routed experts are split over this many GPUs (Megatron-Core EP)"
        ),
        low=1,
        high=MAX_GPUS,
        flag="--ep",
        metavar="N",
        form="strategy", order=60,
        inactive=rules.needs_moe,
    ),
    _f(
        "parallel.etp",
        "int",
        QT_TRANSLATE_NOOP("Fields", "Expert tensor parallel"),
        QT_TRANSLATE_NOOP(
            "Fields", "Tensor-parallel size inside each routed expert; empty: the tensor-parallel size"
        ),
        low=1,
        high=MAX_GPUS,
        flag="--etp",
        metavar="N",
        form="strategy", order=70,
        inactive=rules.needs_moe,
    ),
    _f(
        "parallel.cp",
        "int",
        QT_TRANSLATE_NOOP("Fields", "Context parallel"),
        QT_TRANSLATE_NOOP(
            "Fields",
            "Context-parallel size: each sample's sequence is split over this many GPUs (ring attention, "
            "Megatron-Core / TransformerEngine)",
        ),
        low=1,
        high=MAX_GPUS,
        flag="--cp",
        metavar="N",
        form="strategy", order=80,
    ),
    _f(
        "parallel.vpp",
        "int",
        QT_TRANSLATE_NOOP("Fields", "Virtual pipeline stages"),
        QT_TRANSLATE_NOOP(
            "Fields", "Model chunks per pipeline rank for the interleaved 1F1B schedule; 1: not interleaved"
        ),
        low=1,
        high=MAX_LAYERS,
        flag="--vpp",
        metavar="N",
        form="strategy", order=90,
        inactive=rules.needs_pp,
    ),
    _f(
        "parallel.first_stage_layers",
        "int",
        QT_TRANSLATE_NOOP("Fields", "First stage layers"),
        QT_TRANSLATE_NOOP(
            "Fields",
            "Layers on the first pipeline stage (Megatron decoder_first_pipeline_num_layers); empty: even split",
        ),
        low=1,
        high=MAX_LAYERS,
        flag="--first-stage-layers",
        metavar="N",
        form="strategy", order=100,
        inactive=rules.stage_layers,
    ),
    _f(
        "parallel.last_stage_layers",
        "int",
        QT_TRANSLATE_NOOP("Fields", "Last stage layers"),
        QT_TRANSLATE_NOOP(
            "Fields",
            "Layers on the last pipeline stage (Megatron decoder_last_pipeline_num_layers); empty: even split",
        ),
        low=1,
        high=MAX_LAYERS,
        flag="--last-stage-layers",
        metavar="N",
        form="strategy", order=110,
        inactive=rules.stage_layers,
    ),
)
