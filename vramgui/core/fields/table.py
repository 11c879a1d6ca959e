"""The field registry's table: every scenario input once, with its range, choices, flag, label and tooltip.

Read through ``vramgui.core.fields.registry`` (which adds the dataclass defaults and the functions over fields).
Labels and tooltips are marked for translation in the "Fields" context.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from vramgui.core.scenario import specs
from vramgui.core.text.message import QT_TRANSLATE_NOOP, Msg
from vramgui.core.text.units import exact_count_text, exact_size_text

Kind = Literal["int", "count", "bytes", "fraction", "choice", "bool", "text"]

MAX_PARAMS = 10**15
MAX_GPUS = 10**6
MAX_GPUS_PER_NODE = 4096
MAX_BATCH = 10**7
MAX_SEQ = 10**8
MAX_BYTES = 10**18
MAX_LAYERS = 10_000  # the deepest published LLMs have ~100-200 blocks
MAX_WIDTH = 10**8  # hidden, heads, FFN and vocabulary sizes
MAX_EXPERTS = 10**5


@dataclass(frozen=True)
class Field:
    """One scenario input. ``default`` and ``type`` come from the dataclass that holds the field."""

    path: str
    kind: Kind
    label: str
    tooltip: str = ""
    low: int | float | None = None
    high: int | float | None = None
    high_open: bool = False  # the range excludes ``high`` (the reserve fraction: 0 <= value < 1)
    choices: tuple[Any, ...] = ()
    flag: str | None = None
    metavar: str | None = None
    unit: str = ""  # shown beside the editor: "bytes", "parameters", "tokens", "samples", "GPUs"
    default: Any = None
    optional: bool = False  # None is a value: "not given" (no global batch, no GPU memory...)

    @property
    def group(self) -> str:
        parts = self.path.split(".")
        return "architecture" if parts[:2] == ["model", "architecture"] else parts[0]

    @property
    def name(self) -> str:
        return self.path.rsplit(".", 1)[-1]

    def allowed(self) -> Msg:
        """The allowed values as a message (also the range shown in tooltips)."""
        if self.kind == "choice":
            return Msg.of("allowed.choices", choices=", ".join(str(c) for c in self.choices))
        if self.kind == "bool":
            return Msg.of("allowed.true_false")
        if self.kind == "fraction":
            return Msg.of("allowed.fraction")
        if self.low is None or self.high is None:
            return Msg.of("allowed.range", low="", high="")
        if self.kind == "bytes":
            return Msg.of("allowed.range", low=exact_size_text(int(self.low)), high=exact_size_text(int(self.high)))
        if self.kind == "count":
            return Msg.of("allowed.range", low=exact_count_text(int(self.low)), high=exact_count_text(int(self.high)))
        return Msg.of("allowed.range", low=f"{self.low:,}", high=f"{self.high:,}")


def field_entry(path: str, kind: Kind, label: str, tooltip: str = "", **kw: Any) -> Field:
    return Field(path, kind, label, tooltip, **kw)


_f = field_entry


# The scenario's own fields (the architecture's are in field_table_arch). Labels and tooltips use the "Fields"
# translation context; the registry orders fields as the dataclasses declare them.
TABLE: tuple[Field, ...] = (
    _f(
        "model.name",
        "text",
        QT_TRANSLATE_NOOP("Fields", "Model name"),
        QT_TRANSLATE_NOOP("Fields", "A label for the model"),
    ),
    _f(
        "model.params",
        "count",
        QT_TRANSLATE_NOOP("Fields", "Parameters"),
        QT_TRANSLATE_NOOP("Fields", "Parameter count: 7B, 124M, 7.5e9 (no activations without an architecture)"),
        low=1,
        high=MAX_PARAMS,
        flag="--params",
        metavar="COUNT",
        unit="parameters",
    ),
    _f(
        "model.largest_layer",
        "count",
        QT_TRANSLATE_NOOP("Fields", "Largest layer"),
        QT_TRANSLATE_NOOP(
            "Fields", "DeepSpeed ZeRO-3's largest layer, in parameters; from the architecture when empty"
        ),
        low=0,
        high=MAX_PARAMS,
        flag="--largest-layer",
        metavar="COUNT",
        unit="parameters",
    ),
    _f(
        "precision.dtype",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Dtype"),
        QT_TRANSLATE_NOOP("Fields", "Dtype of weights, gradients and activations"),
        choices=specs.DTYPES,
        flag="--dtype",
    ),
    _f(
        "precision.recipe",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Recipe"),
        QT_TRANSLATE_NOOP(
            "Fields",
            "mixed: fp32 master weights beside the dtype; pure: the dtype alone; amp: fp32 weights, autocast computes "
            "in the dtype",
        ),
        choices=specs.RECIPES,
        flag="--precision",
    ),
    _f(
        "precision.optimizer",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Optimizer"),
        choices=specs.OPTIMIZERS,
        flag="--optimizer",
    ),
    _f(
        "precision.optimizer_impl",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Optimizer implementation"),
        QT_TRANSLATE_NOOP(
            "Fields",
            "torch.optim's implementation: foreach (CUDA default) allocates one state-sized temporary at the step, "
            "fused none, for-loop about two of the largest tensor",
        ),
        choices=specs.OPTIMIZER_IMPLS,
        flag="--optimizer-impl",
    ),
    _f(
        "training.micro_batch",
        "int",
        QT_TRANSLATE_NOOP("Fields", "Micro-batch"),
        QT_TRANSLATE_NOOP("Fields", "Samples per GPU per forward/backward"),
        low=1,
        high=MAX_BATCH,
        flag="--micro-batch",
        metavar="N",
        unit="samples",
    ),
    _f(
        "training.seq_len",
        "int",
        QT_TRANSLATE_NOOP("Fields", "Sequence length"),
        QT_TRANSLATE_NOOP("Fields", "Tokens per sample"),
        low=1,
        high=MAX_SEQ,
        flag="--seq-len",
        metavar="N",
        unit="tokens",
    ),
    _f(
        "training.global_batch",
        "int",
        QT_TRANSLATE_NOOP("Fields", "Global batch"),
        QT_TRANSLATE_NOOP(
            "Fields", "Samples per optimizer step (gives the accumulation steps); empty: one micro-batch per GPU"
        ),
        low=1,
        high=MAX_BATCH * MAX_GPUS,
        flag="--global-batch",
        metavar="N",
        unit="samples",
    ),
    _f(
        "training.recompute",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Recompute"),
        QT_TRANSLATE_NOOP("Fields", "Activation recomputation"),
        choices=specs.RECOMPUTE,
        flag="--recompute",
    ),
    _f(
        "training.attention",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Attention"),
        QT_TRANSLATE_NOOP("Fields", "eager keeps the attention scores, flash does not"),
        choices=specs.ATTENTION,
        flag="--attention",
    ),
    _f(
        "training.implementation",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Implementation"),
        QT_TRANSLATE_NOOP("Fields", "Activation accounting profile"),
        choices=specs.IMPLEMENTATIONS,
        flag="--implementation",
    ),
    _f(
        "training.loss",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Loss"),
        QT_TRANSLATE_NOOP(
            "Fields",
            "hf: Hugging Face's cross-entropy (fp32 log-softmax and its gradient over the vocabulary); chunked: a "
            "fused cross-entropy that never materialises fp32 logits (Liger, Megatron)",
        ),
        choices=specs.LOSSES,
        flag="--loss",
    ),
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
    ),
    _f(
        "parallel.zero_stage",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "ZeRO stage"),
        QT_TRANSLATE_NOOP("Fields", "ZeRO stage, 0 = DDP"),
        choices=specs.ZERO_STAGES,
        flag="--stage",
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
    ),
    _f(
        "parallel.sp",
        "bool",
        QT_TRANSLATE_NOOP("Fields", "Sequence parallel"),
        QT_TRANSLATE_NOOP(
            "Fields", "Megatron sequence parallelism: shards norm and dropout activations over the TP group"
        ),
        flag="--sp",
    ),
    _f(
        "parallel.distributed_optimizer",
        "bool",
        QT_TRANSLATE_NOOP("Fields", "Distributed optimizer"),
        QT_TRANSLATE_NOOP(
            "Fields", "Megatron's distributed optimizer: optimizer states sharded over data-parallel ranks"
        ),
        flag="--distributed-optimizer",
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
    ),
    _f(
        "offload.optimizer",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Optimizer offload"),
        QT_TRANSLATE_NOOP("Fields", "Optimizer states to CPU memory (ZeRO-Offload)"),
        choices=specs.OFFLOAD,
        flag="--offload-optimizer",
    ),
    _f(
        "offload.params",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Parameter offload"),
        QT_TRANSLATE_NOOP("Fields", "Parameters to CPU memory (ZeRO-3 only)"),
        choices=specs.OFFLOAD,
        flag="--offload-params",
    ),
    _f(
        "offload.zero_init",
        "bool",
        QT_TRANSLATE_NOOP("Fields", "zero.Init"),
        QT_TRANSLATE_NOOP(
            "Fields", "DeepSpeed zero.Init: the model is created already partitioned (host memory per node)"
        ),
        flag="--zero-init",
    ),
    _f(
        "hardware.gpu_name",
        "text",
        QT_TRANSLATE_NOOP("Fields", "GPU name"),
        QT_TRANSLATE_NOOP("Fields", "The GPU's name (informational)"),
    ),
    _f(
        "hardware.gpu_memory",
        "bytes",
        QT_TRANSLATE_NOOP("Fields", "Memory per GPU"),
        QT_TRANSLATE_NOOP(
            "Fields", "Memory per GPU: 80GB (10^9 bytes), 80GiB (2^30 bytes), 24576MiB; empty: fit not judged"
        ),
        low=1,
        high=MAX_BYTES,
        flag="--gpu-memory",
        metavar="SIZE",
        unit="bytes",
    ),
    _f(
        "hardware.reserve",
        "fraction",
        QT_TRANSLATE_NOOP("Fields", "Reserve"),
        QT_TRANSLATE_NOOP("Fields", "Fraction of GPU memory kept back (the seed's overhead_ratio)"),
        low=0.0,
        high=1.0,
        high_open=True,
        flag="--reserve",
        metavar="FRACTION",
    ),
    _f(
        "convention",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Convention"),
        QT_TRANSLATE_NOOP("Fields", "Whose accounting: the ZeRO paper, DeepSpeed's estimator or Megatron-LM"),
        choices=specs.CONVENTIONS,
        flag="--convention",
    ),
)
