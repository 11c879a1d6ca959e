"""LoRA / QLoRA validation cases: tiny transformers models wrapped by peft, optionally over bitsandbytes weights.

Key format: ``family-method[-base]-rR-targets-pP-recompute-bB sS[-adapter][-attention]``. Every case is measured on
real CPU tensors (bitsandbytes' 4-bit and 8-bit kernels run on the CPU in 0.50) except the full-size Llama-2-7B
case, which runs under ``FakeTensorMode`` (plain LoRA over a bf16 base: no bitsandbytes kernel involved).

The quantised bases are built as transformers' ``replace_with_bnb_linear`` builds them: every ``nn.Linear`` of the
decoder blocks becomes a ``bnb.nn.Linear4bit`` (``Params4bit``, NF4, blocksize 64, optional double quantisation) or
``bnb.nn.Linear8bitLt`` (``Int8Params``, ``has_fp16_weights=False``); the LM head, embeddings and norms stay in the
compute dtype. ``prepare_model_for_kbit_training`` (which casts those to fp32) is not applied.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import transformers as tf

from bench.validate.families import family
from bench.validate.peak_cases import FULL_SIZE

ATTENTION = ("q_proj", "k_proj", "v_proj", "o_proj")


@dataclass(frozen=True)
class LoraCase:
    family: str
    method: str = "lora"  # lora | qlora
    base: str = "bf16"  # bf16 | int8 | nf4
    double_quant: bool = False
    rank: int = 8
    targets: str = "attention"  # attention | all-linear | comma list
    dropout: float = 0.0
    recompute: str = "none"  # none | full
    attention: str = "sdpa"
    adapter: str = "fp32"  # fp32 | bf16 (autocast_adapter_dtype)
    batch: int = 2
    seq: int = 256
    layers: int = 2
    fake: bool = False
    step: bool = True  # also measure the step peak (two AdamW steps)

    @property
    def key(self) -> str:
        base = "" if self.method == "lora" and self.base == "bf16" else f"-{self.base}" + ("dq" if self.double_quant
                                                                                           else "")
        parts = [self.family + (f"-L{self.layers}" if self.layers != 2 else ""), self.method + base,
                 f"r{self.rank}", self.targets.replace(",", "+"), f"p{self.dropout:g}", self.recompute,
                 f"b{self.batch}s{self.seq}"]
        if self.adapter != "fp32":
            parts.append(f"adapter-{self.adapter}")
        if self.attention != "sdpa":
            parts.append(self.attention)
        return "-".join(parts)

    def make_config(self) -> Any:
        if self.family in FULL_SIZE:
            return FULL_SIZE[self.family](self.layers)
        return family(self.family).make_config(self.layers)

    def model_class(self) -> Callable[..., Any]:
        if self.family in FULL_SIZE:
            return tf.LlamaForCausalLM
        cls: Any = family(self.family).model_class()
        return cls

    def scenario(self) -> dict[str, Any]:
        """vramgui's names for the run (the fixture's scenario block)."""
        return {"dtype": "bf16", "recipe": "pure", "optimizer": "adamw", "optimizer_impl": "foreach",
                "micro_batch": self.batch, "seq_len": self.seq, "recompute": self.recompute,
                "attention": "flash" if self.attention == "sdpa" else "eager", "finetune": self.method,
                "lora_rank": self.rank, "lora_targets": self.targets, "lora_dropout": self.dropout,
                "base_dtype": "auto" if self.method == "qlora" or self.base == "bf16" else self.base,
                "double_quant": self.double_quant, "adapter_dtype": self.adapter}


def all_cases() -> list[LoraCase]:
    g = LoraCase("llama-gqa")
    q = LoraCase("qwen2")
    cases = [
        g, replace(g, rank=64), replace(g, targets="all-linear"),
        replace(g, rank=64, targets="all-linear", dropout=0.05),
        replace(g, dropout=0.05), replace(g, targets="all-linear", recompute="full"),
        replace(g, rank=64, dropout=0.05, recompute="full"), replace(g, targets="all-linear", adapter="bf16"),
        replace(g, targets="all-linear", dropout=0.05, adapter="bf16"), replace(g, rank=16, attention="eager"),
        replace(g, targets="q_proj,v_proj"),
        q, replace(q, rank=64, targets="all-linear", dropout=0.05), replace(q, targets="all-linear", recompute="full"),
        replace(g, family="llama-mha", targets="all-linear"), replace(g, family="mistral", targets="all-linear"),
        # quantised bases (bitsandbytes on the CPU)
        replace(g, method="qlora", base="nf4", targets="all-linear"),
        replace(g, method="qlora", base="nf4", double_quant=True, targets="all-linear", recompute="full"),
        replace(g, method="qlora", base="nf4", double_quant=True, rank=64, dropout=0.05),
        replace(g, base="int8", targets="all-linear"),
        # a full-size model under fake tensors
        LoraCase("llama2-7b", rank=16, targets="all-linear", recompute="full", batch=1, seq=2048, layers=32,
                 fake=True),
    ]
    return cases


# peft's trainable-parameter count for every family the harness can build (rank 8, both target sets)
COUNT_FAMILIES = ("llama-mha", "llama-gqa", "qwen2", "mistral", "mixtral", "gpt2", "phi3", "qwen3", "gemma",
                  "gemma3", "olmo2", "gpt_neox", "starcoder2", "qwen2_moe", "falcon", "falcon-new", "gemma2",
                  "gpt_oss")
