"""A translator that "translates" every string by replacing its English words with 译 (placeholders, markup and
mnemonics kept): text that still holds an English word after it never went through Qt's translation, so a Chinese
(or any) catalogue could not translate it either. Independent of the committed .ts, so a new string is checked
before its translation is written."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QCoreApplication, QTranslator

_KEEP = re.compile(r"(\{[^}]*\}|%\d|<[^>]*>)")  # str.format and Qt placeholders, HTML tags
# names that stay as they are in every language: products, methods, units, identifiers
NAMES = {
    "GB", "GiB", "MB", "MiB", "KB", "KiB", "TB", "B", "GPU", "CPU", "TP", "PP", "SP", "CP", "EP", "ETP", "VPP",
    "ZeRO", "DDP", "FSDP", "DeepSpeed", "Megatron", "LM", "Adam", "AdamW", "SGD", "Adafactor", "Lion", "MXFP8",
    "FlashAttention", "RMSNorm", "LayerNorm", "LoRA", "QLoRA", "bf16", "fp16", "fp32", "nf4", "int8", "vramgui",
    "k", "x",
}


class MarkingTranslator(QTranslator):
    def translate(self, context, source, disambiguation=None, n=-1):  # Qt's signature
        parts = _KEEP.split(source)
        return "".join(p if i % 2 else re.sub(r"[A-Za-z]+", "译", p) for i, p in enumerate(parts))

    def isEmpty(self) -> bool:  # noqa: N802 - Qt override
        return False


def english_words(text: str, allowed: set[str] = frozenset()) -> list[str]:
    """The words of ``text`` that are neither names (``NAMES``, ``allowed``) nor numbers with units (8k, 80GB)."""
    words = re.findall(r"[A-Za-z][A-Za-z0-9_.\-]*", text)
    return [w for w in words if w not in NAMES | set(allowed) and not re.fullmatch(r"[A-Za-z]{0,3}\d+[A-Za-z]*", w)
            and not re.fullmatch(r"(ZeRO|FP|MXFP)-?\d+", w)]


@pytest.fixture
def marking(qapp):
    translator = MarkingTranslator()
    QCoreApplication.installTranslator(translator)
    yield translator
    QCoreApplication.removeTranslator(translator)
