"""The field registry's table for fine-tuning (``finetune.*``): LoRA and QLoRA over a frozen, possibly quantised
base (docs/finetune.md). ``finetune.method`` = full (the default) keeps every other field moot
(``fields.inactive_reason``), so full training gives exactly the numbers it gave before these fields existed.
"""

from __future__ import annotations

import re

from vramgui.core.fields import rules
from vramgui.core.fields.table import Field, Words
from vramgui.core.fields.table import field_entry as _f
from vramgui.core.scenario import specs
from vramgui.core.text.message import QT_TRANSLATE_NOOP

MAX_LORA_RANK = 65536
# "open" choices: the listed choices or any value ``OPEN_CHOICE_RULES[path]`` accepts (the LoRA targets: attention,
# all-linear, or a comma list of module names). The window shows an editable combo box; fields.check/parse apply it.
OPEN_CHOICES = ("finetune.lora_targets",)
TARGET_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?")


def split_targets(text: str) -> tuple[str, ...]:
    """The module names of a comma list (``"q_proj, v_proj"`` -> ``("q_proj", "v_proj")``), blanks dropped."""
    return tuple(part.strip() for part in text.split(",") if part.strip())


def targets_syntax_ok(text: str) -> bool:
    """``attention``, ``all-linear``, or a comma list of module names (``q_proj``, ``attn.c_proj``)."""
    if text.strip() in specs.LORA_TARGET_SETS:
        return True
    names = split_targets(text)
    return bool(names) and all(TARGET_NAME.fullmatch(n) for n in names)


FINETUNE_TABLE: tuple[Field, ...] = (
    _f(
        "finetune.method",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Method"),
        QT_TRANSLATE_NOOP(
            "Fields",
            "full: every parameter trained; lora: low-rank adapters over a frozen base (peft); qlora: LoRA over a "
            "4-bit NF4 base (bitsandbytes)",
        ),
        choices=specs.FINETUNE_METHODS,
        flag="--finetune",
        form="essentials", order=30, essential=True,
        words=(
            ("full", Words(shown=QT_TRANSLATE_NOOP("Fields", "full (every parameter)"),
                           said=QT_TRANSLATE_NOOP("Fields", "all parameters trained"))),
            ("lora", Words(shown="LoRA", said="LoRA")),
            ("qlora", Words(shown=QT_TRANSLATE_NOOP("Fields", "QLoRA (4-bit NF4 base)"), said="QLoRA")),
        ),
    ),
    _f(
        "finetune.lora_rank",
        "int",
        QT_TRANSLATE_NOOP("Fields", "LoRA rank"),
        QT_TRANSLATE_NOOP("Fields", "Rank r of each adapter: r·(in + out) trainable parameters per adapted Linear"),
        low=1,
        high=MAX_LORA_RANK,
        flag="--lora-rank",
        metavar="R",
        form="finetune", order=20,
        mnemonic="K",
        inactive=rules.adapters,
    ),
    _f(
        "finetune.lora_targets",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "LoRA targets"),
        QT_TRANSLATE_NOOP(
            "Fields",
            "attention: the q, k, v and output projections; all-linear: every Linear of the blocks (peft's "
            "all-linear: the LM head excluded); or a comma list of module names, e.g. q_proj,v_proj",
        ),
        choices=specs.LORA_TARGET_SETS,
        flag="--lora-targets",
        metavar="{attention,all-linear,NAMES}",
        form="finetune", order=30,
        widget="open",
        words=(
            ("attention", Words(said=QT_TRANSLATE_NOOP("Fields", "LoRA on attention"))),
            ("all-linear", Words(said=QT_TRANSLATE_NOOP("Fields", "LoRA on all linear layers"))),
        ),
        inactive=rules.adapters,
    ),
    _f(
        "finetune.lora_dropout",
        "fraction",
        QT_TRANSLATE_NOOP("Fields", "LoRA dropout"),
        QT_TRANSLATE_NOOP(
            "Fields", "Dropout on each adapter's input (peft's lora_dropout; above 0 it keeps a mask and a copy)"
        ),
        low=0.0,
        high=1.0,
        high_open=True,
        flag="--lora-dropout",
        metavar="P",
        form="finetune", order=40,
        inactive=rules.adapters,
    ),
    _f(
        "finetune.base_dtype",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Base weights"),
        QT_TRANSLATE_NOOP(
            "Fields",
            "Storage of the frozen base: a float dtype, int8 (bitsandbytes LLM.int8: int8 weights + fp32 row "
            "scales) or nf4 (4-bit, fp32 absmax per 64 weights); auto: the weights' dtype (qlora: nf4)",
        ),
        choices=specs.BASE_DTYPES,
        flag="--base-dtype",
        form="finetune", order=50,
        words=(
            ("auto", Words(shown=QT_TRANSLATE_NOOP("Fields", "auto (the weights' dtype)"),
                           said=QT_TRANSLATE_NOOP("Fields", "base weights in the dtype"))),
            ("int8", Words(shown=QT_TRANSLATE_NOOP("Fields", "int8 (LLM.int8)"))),
            ("nf4", Words(shown=QT_TRANSLATE_NOOP("Fields", "NF4 (4-bit)"))),
        ),
        inactive=rules.base_dtype,
    ),
    _f(
        "finetune.double_quant",
        "bool",
        QT_TRANSLATE_NOOP("Fields", "Double quantisation"),
        QT_TRANSLATE_NOOP(
            "Fields",
            "bitsandbytes bnb_4bit_use_double_quant: the NF4 absmax quantised to 8 bits with an fp32 scale per "
            "256 blocks (about 0.37 bits per weight saved)",
        ),
        flag="--double-quant",
        form="finetune", order=60,
        inactive=rules.double_quant,
    ),
    _f(
        "finetune.adapter_dtype",
        "choice",
        QT_TRANSLATE_NOOP("Fields", "Adapter dtype"),
        QT_TRANSLATE_NOOP(
            "Fields",
            "Dtype of the adapters, their gradients and states: fp32 (peft's autocast_adapter_dtype, the default) "
            "or bf16",
        ),
        choices=specs.ADAPTER_DTYPES,
        flag="--adapter-dtype",
        form="finetune", order=70,
        inactive=rules.adapters,
    ),
)
