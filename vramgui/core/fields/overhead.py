"""The field registry's table for the fixed per-GPU terms (``overhead.*``): the CUDA context, communication
buckets and DeepSpeed's ZeRO knobs. Empty (None) means "not given": the textbook sum counts nothing for it and
the step peak (``vramgui.core.step.peak``) uses its documented default.
"""

from __future__ import annotations

from vramgui.core.fields import rules
from vramgui.core.fields.table import MAX_BYTES, MAX_PARAMS, Field
from vramgui.core.fields.table import field_entry as _f
from vramgui.core.text.message import QT_TRANSLATE_NOOP

OVERHEAD_TABLE: tuple[Field, ...] = (
    _f(
        "overhead.cuda_context",
        "bytes",
        QT_TRANSLATE_NOOP("Fields", "CUDA context"),
        QT_TRANSLATE_NOOP(
            "Fields", "CUDA context and library workspaces per GPU; empty: the step peak's default (532 MiB)"
        ),
        low=0,
        high=MAX_BYTES,
        flag="--cuda-context",
        metavar="SIZE",
        unit="bytes",
        form="overheads", order=10,
        mnemonic="X",
        placeholder=QT_TRANSLATE_NOOP("Fields", "default: {0}"), placeholder_value="532 MiB",
    ),
    _f(
        "overhead.comm_buffers",
        "bytes",
        QT_TRANSLATE_NOOP("Fields", "Communication buffers"),
        QT_TRANSLATE_NOOP(
            "Fields", "DDP/ZeRO communication buckets per GPU; empty: the framework's own (DDP buckets, ZeRO buckets)"
        ),
        low=0,
        high=MAX_BYTES,
        flag="--comm-buffers",
        metavar="SIZE",
        unit="bytes",
        form="overheads", order=20,
        placeholder=QT_TRANSLATE_NOOP("Fields", "default: the framework's buckets"),
    ),
    _f(
        "overhead.zero3_live_params",
        "count",
        QT_TRANSLATE_NOOP("Fields", "ZeRO-3 live parameters"),
        QT_TRANSLATE_NOOP(
            "Fields",
            "ZeRO-3 parameters gathered at once (DeepSpeed's stage3_max_live_parameters); empty: DeepSpeed's "
            "default 1e9 under the deepspeed convention, FSDP2's per-layer units otherwise. Under DeepSpeed a "
            "gather is prefetched under compute only while the gathered parameters stay below it (0: none is): "
            "it also moves the step time",
        ),
        low=0,
        high=MAX_PARAMS,
        flag="--live-params",
        metavar="COUNT",
        unit="parameters",
        form="overheads", order=30,
        placeholder=QT_TRANSLATE_NOOP("Fields", "default"),
        inactive=rules.zero3_live_params,
    ),
    _f(
        "overhead.zero3_prefetch",
        "count",
        QT_TRANSLATE_NOOP("Fields", "ZeRO-3 prefetch bucket"),
        QT_TRANSLATE_NOOP(
            "Fields", "DeepSpeed stage3_prefetch_bucket_size, in parameters; empty: DeepSpeed's default 5e7. "
            "0 prefetches nothing, so every gather waits (DeepSpeed before 0.5.6): it also moves the step time"
        ),
        low=0,
        high=MAX_PARAMS,
        flag="--prefetch-bucket",
        metavar="COUNT",
        unit="parameters",
        form="overheads", order=40,
        placeholder=QT_TRANSLATE_NOOP("Fields", "default: {0}"), placeholder_value="5e7",
        inactive=rules.zero3_prefetch,
    ),
    _f(
        "overhead.reduce_bucket",
        "count",
        QT_TRANSLATE_NOOP("Fields", "ZeRO reduce bucket"),
        QT_TRANSLATE_NOOP(
            "Fields", "DeepSpeed reduce_bucket_size (ZeRO 1-3), in elements; empty: DeepSpeed's default 5e8"
        ),
        low=0,
        high=MAX_PARAMS,
        flag="--reduce-bucket",
        metavar="COUNT",
        unit="parameters",
        form="overheads", order=50,
        placeholder=QT_TRANSLATE_NOOP("Fields", "default: {0}"), placeholder_value="5e8",
        inactive=rules.reduce_bucket,
    ),
    _f(
        "overhead.extra",
        "bytes",
        QT_TRANSLATE_NOOP("Fields", "Extra memory"),
        QT_TRANSLATE_NOOP("Fields", "Anything else per GPU"),
        low=0,
        high=MAX_BYTES,
        flag="--extra",
        metavar="SIZE",
        unit="bytes",
        form="overheads", order=60,
    ),
)
