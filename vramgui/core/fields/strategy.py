"""The field registry's table for the training strategy (``parallel.*`` but EP, CP and the pipeline's stages,
``offload.*``, ``convention``): GPUs, ZeRO stage, tensor and pipeline parallelism, Megatron's and PyTorch's flags,
ZeRO offload, and whose accounting.
"""

from __future__ import annotations

from vramgui.core.fields import rules
from vramgui.core.fields.table import MAX_GPUS, MAX_GPUS_PER_NODE, Field, Words
from vramgui.core.fields.table import field_entry as _f
from vramgui.core.scenario import specs
from vramgui.core.text.message import QT_TRANSLATE_NOOP

STRATEGY_TABLE: tuple[Field, ...] = (
    _f(
        "parallel.num_gpus",
        "int",
        QT_TRANSLATE_NOOP("Fields", "Number of GPUs"),
        QT_TRANSLATE_NOOP("Fields", "GPUs in all"),
        low=1,
        high=MAX_GPUS,
        flag="--gpus",
        metavar="N",
        unit="GPUs",
        form="essentials", order=20, essential=True,
        mnemonic="N",
        explanation=QT_TRANSLATE_NOOP(
            "Fields",
            "N, the GPUs of the run; the data-parallel size N_d = N ÷ (TP × PP).",
        ),
    ),
    _f(
        "parallel.gpus_per_node",
        "int",
        QT_TRANSLATE_NOOP("Fields", "GPUs per node"),
        QT_TRANSLATE_NOOP("Fields", "GPUs per node, for host memory per node (the last node may be partial)"),
        low=1,
        high=MAX_GPUS_PER_NODE,
        flag="--gpus-per-node",
        metavar="N",
        unit="GPUs",
        form="hardware", order=40,
        mnemonic="O",
    ),
    _f(
        "parallel.zero_stage",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "ZeRO stage"),
        QT_TRANSLATE_NOOP("Fields", "ZeRO stage, 0 = DDP"),
        choices=specs.ZERO_STAGES,
        flag="--stage",
        form="strategy", order=20,
        mnemonic="Z",
        explanation=QT_TRANSLATE_NOOP(
            "Fields",
            "DDP: 2Φ + 2Φ + KΦ per GPU. ZeRO-1: 2Φ + 2Φ + KΦ/N_d. ZeRO-2: 2Φ + (2+K)Φ/N_d. ZeRO-3: (2+2+K)Φ/N_d "
            "(Rajbhandari et al. 2020).",
        ),
        words=(
            (0, Words(shown=QT_TRANSLATE_NOOP("Fields", "DDP (no sharding)"))),
            (1, Words(shown=QT_TRANSLATE_NOOP("Fields", "ZeRO-1 (optimizer states)"))),
            (2, Words(shown=QT_TRANSLATE_NOOP("Fields", "ZeRO-2 (+ gradients)"))),
            (3, Words(shown=QT_TRANSLATE_NOOP("Fields", "ZeRO-3 / FSDP (+ parameters)"))),
        ),
        inactive=rules.zero_stage,
    ),
    _f(
        "parallel.tp",
        "int",
        QT_TRANSLATE_NOOP("Fields", "Tensor parallel"),
        QT_TRANSLATE_NOOP("Fields", "Tensor-parallel size"),
        low=1,
        high=MAX_GPUS,
        flag="--tp",
        metavar="N",
        form="strategy", order=30, essential=True,
        mnemonic="T",
        explanation=QT_TRANSLATE_NOOP(
            "Fields",
            "Tensor-parallel size: splits each layer's weights and most activations.",
        ),
    ),
    _f(
        "parallel.pp",
        "int",
        QT_TRANSLATE_NOOP("Fields", "Pipeline parallel"),
        QT_TRANSLATE_NOOP("Fields", "Pipeline-parallel size"),
        low=1,
        high=MAX_GPUS,
        flag="--pp",
        metavar="N",
        form="strategy", order=40, essential=True,
        mnemonic="I",
        explanation=QT_TRANSLATE_NOOP("Fields", "Pipeline stages: each holds 1/PP of the layers."),
    ),
    _f(
        "parallel.sp",
        "bool",
        QT_TRANSLATE_NOOP("Fields", "Sequence parallel"),
        QT_TRANSLATE_NOOP(
            "Fields", "Megatron sequence parallelism: shards norm and dropout activations over the TP group"
        ),
        flag="--sp",
        form="strategy", order=50,
        check_text=QT_TRANSLATE_NOOP("Fields", "Sequence parallel (SP)"),
        inactive=rules.sequence_parallel,
    ),
    _f(
        "parallel.distributed_optimizer",
        "bool",
        QT_TRANSLATE_NOOP("Fields", "Distributed optimizer"),
        QT_TRANSLATE_NOOP(
            "Fields", "Megatron's distributed optimizer: optimizer states sharded over data-parallel ranks"
        ),
        flag="--distributed-optimizer",
        form="strategy", order=120,
        check_text=QT_TRANSLATE_NOOP("Fields", "Distributed optimizer (Megatron)"),
        inactive=rules.megatron_only,
    ),
    _f(
        "parallel.ddp_bucket_view",
        "bool",
        QT_TRANSLATE_NOOP("Fields", "DDP gradients as bucket views"),
        QT_TRANSLATE_NOOP(
            "Fields",
            "PyTorch DDP gradient_as_bucket_view: gradients live inside the reducer's buckets (off: a second "
            "gradient-sized copy, PyTorch's and accelerate's default)",
        ),
        flag="--ddp-bucket-view",
        form="strategy", order=130,
        inactive=rules.ddp_bucket_view,
    ),
    _f(
        "offload.optimizer",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Optimizer offload"),
        QT_TRANSLATE_NOOP("Fields", "Optimizer states to CPU memory (ZeRO-Offload)"),
        choices=specs.OFFLOAD,
        flag="--offload-optimizer",
        form="strategy", order=140,
        widget="check", ticked="cpu",
        check_text=QT_TRANSLATE_NOOP("Fields", "Offload optimizer states to CPU"),
        explanation=QT_TRANSLATE_NOOP("Fields", "ZeRO-Offload: optimizer states (KΦ) live in host memory."),
        inactive=rules.optimizer_offload,
    ),
    _f(
        "offload.params",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Parameter offload"),
        QT_TRANSLATE_NOOP("Fields", "Parameters to CPU memory (ZeRO-3 only)"),
        choices=specs.OFFLOAD,
        flag="--offload-params",
        form="strategy", order=150,
        widget="check", ticked="cpu",
        check_text=QT_TRANSLATE_NOOP("Fields", "Offload parameters to CPU"),
        explanation=QT_TRANSLATE_NOOP("Fields", "ZeRO-Infinity parameter offload (ZeRO-3 only)."),
        inactive=rules.params_offload,
    ),
    _f(
        "offload.zero_init",
        "bool",
        QT_TRANSLATE_NOOP("Fields", "zero.Init"),
        QT_TRANSLATE_NOOP(
            "Fields", "DeepSpeed zero.Init: the model is created already partitioned (host memory per node)"
        ),
        flag="--zero-init",
        form="strategy", order=160,
        check_text=QT_TRANSLATE_NOOP("Fields", "Create the model partitioned (zero.Init)"),
        inactive=rules.deepspeed_only,
    ),
    _f(
        "convention",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Convention"),
        QT_TRANSLATE_NOOP("Fields", "Whose accounting: the ZeRO paper, DeepSpeed's estimator or Megatron-LM"),
        choices=specs.CONVENTIONS,
        flag="--convention",
        form="strategy", order=10, essential=True,
        explanation=QT_TRANSLATE_NOOP(
            "Fields",
            "Whose accounting to follow: the ZeRO paper (the seed's 16Φ), DeepSpeed's estimators, or Megatron-LM's.",
        ),
        words=(
            ("paper", Words(shown=QT_TRANSLATE_NOOP("Fields", "ZeRO paper"),
                            said=QT_TRANSLATE_NOOP("Fields", "ZeRO paper convention"))),
            ("deepspeed", Words(shown="DeepSpeed", said=QT_TRANSLATE_NOOP("Fields", "DeepSpeed convention"))),
            ("megatron", Words(shown="Megatron-LM", said=QT_TRANSLATE_NOOP("Fields", "Megatron-LM convention"))),
        ),
    ),
)
