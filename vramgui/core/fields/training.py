"""The field registry's table for the precision and the training step (``precision.*`` but FP8, ``training.*`` but
MoE routing): dtype, recipe, optimizer, batch, sequence, recomputation, attention, activation profile and loss.
"""

from __future__ import annotations

from vramgui.core.fields import rules
from vramgui.core.fields.table import MAX_BATCH, MAX_GPUS, MAX_SEQ, Field, Words
from vramgui.core.fields.table import field_entry as _f
from vramgui.core.scenario import specs
from vramgui.core.text.message import QT_TRANSLATE_NOOP

TRAINING_TABLE: tuple[Field, ...] = (
    _f(
        "precision.dtype",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Dtype"),
        QT_TRANSLATE_NOOP("Fields", "Dtype of weights, gradients and activations"),
        choices=specs.DTYPES,
        flag="--dtype",
        form="training", order=10, essential=True,
        mnemonic="Y",
        explanation=QT_TRANSLATE_NOOP(
            "Fields",
            "Type of the weights, gradients and activations: 2 bytes per parameter for fp16/bf16, 4 for fp32.",
        ),
        words=tuple((d, Words(said=d)) for d in specs.DTYPES),  # said as written: fp16, bf16
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
        form="training", order=20, essential=True,
        mnemonic="R",
        explanation=QT_TRANSLATE_NOOP(
            "Fields",
            "Mixed precision keeps an fp32 master copy of the weights in the optimizer states: with Adam, K = 12 bytes "
            "per parameter (4 master + 4 momentum + 4 variance), so 2Φ + 2Φ + KΦ = 16Φ.",
        ),
        words=(
            ("mixed", Words(shown=QT_TRANSLATE_NOOP("Fields", "mixed (fp32 master copy)"),
                            said=QT_TRANSLATE_NOOP("Fields", "mixed precision"))),
            ("pure", Words(shown=QT_TRANSLATE_NOOP("Fields", "pure (dtype only)"),
                           said=QT_TRANSLATE_NOOP("Fields", "pure precision (no master weights)"))),
            ("amp", Words(shown=QT_TRANSLATE_NOOP("Fields", "amp (fp32 weights, autocast)"),
                          said=QT_TRANSLATE_NOOP("Fields", "automatic mixed precision"))),
        ),
        inactive=rules.recipe,
    ),
    _f(
        "precision.optimizer",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Optimizer"),
        choices=specs.OPTIMIZERS,
        flag="--optimizer",
        form="training", order=30, essential=True,
        mnemonic="P",
        explanation=QT_TRANSLATE_NOOP(
            "Fields",
            "Sets K, the optimizer-state bytes per parameter (Adam mixed precision: K = 12).",
        ),
        words=(
            ("adam", Words(shown="Adam", said="Adam")),
            ("adamw", Words(shown="AdamW", said="AdamW")),
            ("adam8bit", Words(shown=QT_TRANSLATE_NOOP("Fields", "Adam 8-bit"),
                               said=QT_TRANSLATE_NOOP("Fields", "8-bit Adam"))),
            ("sgd", Words(shown="SGD", said="SGD")),
            ("sgd_momentum", Words(shown=QT_TRANSLATE_NOOP("Fields", "SGD + momentum"),
                                   said=QT_TRANSLATE_NOOP("Fields", "SGD with momentum"))),
            ("adafactor", Words(shown="Adafactor", said="Adafactor")),
            ("lion", Words(shown="Lion", said="Lion")),
        ),
        inactive=rules.optimizer,
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
        form="training", order=40, essential=True,
        words=(
            ("foreach", Words(said=QT_TRANSLATE_NOOP("Fields", "foreach optimizer step"))),
            ("fused", Words(said=QT_TRANSLATE_NOOP("Fields", "fused optimizer step"))),
            ("for-loop", Words(said=QT_TRANSLATE_NOOP("Fields", "for-loop optimizer step"))),
        ),
        inactive=rules.optimizer_impl,
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
        form="essentials", order=50, essential=True,
        mnemonic="B",
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
        form="essentials", order=40, essential=True,
        mnemonic="Q",
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
        form="training", order=80, essential=True,
        mnemonic="L",
        placeholder=QT_TRANSLATE_NOOP("Fields", "optional"),
        explanation=QT_TRANSLATE_NOOP(
            "Fields",
            "Sequences per optimizer step. Accumulation steps = global batch ÷ (micro-batch × N_d). Empty: one "
            "micro-batch per step.",
        ),
    ),
    _f(
        "training.recompute",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Recompute"),
        QT_TRANSLATE_NOOP("Fields", "Activation recomputation"),
        choices=specs.RECOMPUTE,
        flag="--recompute",
        form="training", order=90, essential=True,
        mnemonic="C",
        explanation=QT_TRANSLATE_NOOP(
            "Fields",
            "Activation checkpointing: full keeps only each layer's input; selective recomputes the attention scores "
            "(Korthikanti et al. 2022).",
        ),
        words=(
            ("none", Words(shown=QT_TRANSLATE_NOOP("Fields", "none"),
                           said=QT_TRANSLATE_NOOP("Fields", "no recomputation"))),
            ("selective", Words(shown=QT_TRANSLATE_NOOP("Fields", "selective"),
                                said=QT_TRANSLATE_NOOP("Fields", "selective recomputation"))),
            ("full", Words(shown=QT_TRANSLATE_NOOP("Fields", "full"),
                           said=QT_TRANSLATE_NOOP("Fields", "full recomputation"))),
        ),
    ),
    _f(
        "training.attention",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Attention"),
        QT_TRANSLATE_NOOP("Fields", "eager keeps the attention scores, flash does not"),
        choices=specs.ATTENTION,
        flag="--attention",
        form="training", order=100, essential=True,
        mnemonic="A",
        explanation=QT_TRANSLATE_NOOP(
            "Fields",
            "Eager attention stores the a·s² score and softmax matrices; flash attention does not.",
        ),
        words=(
            ("flash", Words(shown=QT_TRANSLATE_NOOP("Fields", "flash / SDPA"), said="FlashAttention")),
            ("eager", Words(shown=QT_TRANSLATE_NOOP("Fields", "eager"),
                            said=QT_TRANSLATE_NOOP("Fields", "eager attention"))),
        ),
    ),
    _f(
        "training.implementation",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Implementation"),
        QT_TRANSLATE_NOOP("Fields", "Activation accounting profile"),
        choices=specs.IMPLEMENTATIONS,
        flag="--implementation",
        form="training", order=110, essential=True,
        explanation=QT_TRANSLATE_NOOP(
            "Fields",
            "Activation accounting profile: Hugging Face eager modules, or fused kernels (Megatron-style) that keep "
            "fewer intermediates.",
        ),
        words=(
            ("hf", Words(shown=QT_TRANSLATE_NOOP("Fields", "Hugging Face"),
                         said=QT_TRANSLATE_NOOP("Fields", "Hugging Face activations"))),
            ("fused", Words(shown=QT_TRANSLATE_NOOP("Fields", "fused kernels"),
                            said=QT_TRANSLATE_NOOP("Fields", "fused-kernel activations"))),
        ),
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
        form="training", order=120, essential=True,
        words=(
            ("hf", Words(shown=QT_TRANSLATE_NOOP("Fields", "Hugging Face cross-entropy"),
                         said=QT_TRANSLATE_NOOP("Fields", "Hugging Face loss"))),
            ("chunked", Words(shown=QT_TRANSLATE_NOOP("Fields", "chunked (fused) cross-entropy"),
                              said=QT_TRANSLATE_NOOP("Fields", "chunked loss"))),
        ),
    ),
)
