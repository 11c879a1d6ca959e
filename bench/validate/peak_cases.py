"""The training-step peak cases: tiny families at sizes where the loss and optimizer terms matter, two full-size
Llama models under fake tensors, and DDP / FSDP2 on two gloo ranks.

Key format: ``family-dtype/recipe-attention-recompute-impl-b×s-accN[-dist]``. Sizes are chosen so that the
vocabulary (logits, loss) and the optimizer's temporaries are a visible share of the peak: b = 2, s = 128-256,
2-4 layers. Mixtral runs on real tensors: its router picks experts with ``nonzero`` (a data-dependent shape that
fake tensors cannot know), so only a real run says how many tokens each expert gets.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import transformers as tf

from bench.validate.families import family


def _llama2_7b(layers: int) -> Any:
    return tf.LlamaConfig(vocab_size=32000, hidden_size=4096, intermediate_size=11008, num_hidden_layers=layers,
                          num_attention_heads=32, num_key_value_heads=32, max_position_embeddings=4096,
                          rms_norm_eps=1e-5)


def _llama3_8b(layers: int) -> Any:
    return tf.LlamaConfig(vocab_size=128256, hidden_size=4096, intermediate_size=14336, num_hidden_layers=layers,
                          num_attention_heads=32, num_key_value_heads=8, max_position_embeddings=8192,
                          rope_theta=500000.0, rms_norm_eps=1e-5, bos_token_id=128000, eos_token_id=128001)


FULL_SIZE: dict[str, Callable[[int], Any]] = {"llama2-7b": _llama2_7b, "llama3-8b": _llama3_8b}
FULL_LAYERS = 32


def _llama_shape(vocab: int, hidden: int, ffn: int, tied: bool) -> Callable[[int], Any]:
    """llama-mha's block (4 heads, an FFN of 2.6875 h) at another width, vocabulary and tying: roots (embedding +
    LM head) from 31 to 128 times the hidden size, the shapes where FSDP2's root and the tied-weight gradient sum
    set the peak."""
    def make(layers: int) -> Any:
        return tf.LlamaConfig(vocab_size=vocab, hidden_size=hidden, intermediate_size=ffn, num_hidden_layers=layers,
                              num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=4096,
                              tie_word_embeddings=tied)

    return make


# Large roots: vocabulary / hidden = 31 (the tiny Llama of the FSDP2 root measurement), 128 (Gemma-2-2B's 256,000 at
# 2,304 is 111) and 128k at hidden 1,024; tied and untied.
SHAPES: dict[str, Callable[[int], Any]] = {
    "llama-v8000h256": _llama_shape(8000, 256, 688, tied=False),
    "llama-v8192h64": _llama_shape(8192, 64, 172, tied=False),
    "llama-v8192h64-tied": _llama_shape(8192, 64, 172, tied=True),
    "llama-v16384h128": _llama_shape(16384, 128, 344, tied=False),
    "llama-v16384h128-tied": _llama_shape(16384, 128, 344, tied=True),
    "llama-v131072h1024": _llama_shape(131072, 1024, 2752, tied=False),
    "llama-v131072h1024-tied": _llama_shape(131072, 1024, 2752, tied=True),
}


@dataclass(frozen=True)
class PeakCase:
    family: str  # bench.validate.families key, or a FULL_SIZE key
    layers: int = 2
    dtype: str = "bf16"  # the model's dtype: bf16 or fp32 (AMP: fp32 model, bf16 autocast)
    amp: bool = False
    attention: str = "sdpa"  # transformers name: sdpa or eager
    recompute: str = "none"  # none or full
    impl: str = "foreach"  # AdamW implementation: foreach, fused, for-loop
    batch: int = 2
    seq: int = 128
    accumulation: int = 1
    fake: bool = True  # FakeTensorMode (no kernels) or real tensors
    dist: str = ""  # "", "ddp" or "fsdp2" (real tensors, gloo)
    ranks: int = 1
    bucket_view: bool = False  # DDP gradient_as_bucket_view
    bucket_cap_mb: float | None = None  # DDP bucket_cap_mb (None: PyTorch's default, 25)
    memtracker: bool = False  # also measure with PyTorch's MemTracker / FSDPMemTracker
    tag: str = ""  # key suffix (e.g. "real" twin of a fake case)

    @property
    def key(self) -> str:
        prec = "amp" if self.amp else self.dtype
        parts = [self.family, prec, self.attention, self.recompute, self.impl, f"b{self.batch}s{self.seq}",
                 f"acc{self.accumulation}"]
        if self.family in FULL_SIZE or self.layers != 2:
            parts.insert(1, f"L{self.layers}")
        if self.dist:
            parts.append(f"{self.dist}{self.ranks}")
            if self.dist == "ddp":
                parts.append("view" if self.bucket_view else "copy")
                if self.bucket_cap_mb is not None:
                    parts.append(f"cap{self.bucket_cap_mb:g}")
        if self.tag:
            parts.append(self.tag)
        return "-".join(parts)

    def make_config(self) -> Any:
        if self.family in FULL_SIZE:
            return FULL_SIZE[self.family](self.layers)
        if self.family in SHAPES:
            return SHAPES[self.family](self.layers)
        return family(self.family).make_config(self.layers)

    def model_class(self) -> Any:
        if self.family in FULL_SIZE or self.family in SHAPES:
            return tf.LlamaForCausalLM
        return family(self.family).model_class()

    def scenario(self) -> dict[str, Any]:
        """The fixture's scenario block: vramgui's names for the run."""
        return {"dtype": "bf16" if self.amp else self.dtype, "recipe": "amp" if self.amp else "pure",
                "optimizer": "adamw", "optimizer_impl": self.impl, "micro_batch": self.batch, "seq_len": self.seq,
                "accumulation": self.accumulation, "recompute": self.recompute,
                "attention": "flash" if self.attention == "sdpa" else "eager", "num_gpus": self.ranks,
                "zero_stage": 3 if self.dist == "fsdp2" else 0, "ddp_bucket_view": self.bucket_view}


def _single() -> list[PeakCase]:
    base = PeakCase("llama-gqa", layers=2, batch=2, seq=256)
    cases = [
        # one family per line, the default recipe (pure bf16, sdpa, foreach)
        base,
        replace(base, family="llama-mha"),
        replace(base, family="qwen2"),
        replace(base, family="mistral"),
        replace(base, family="mixtral", fake=False, seq=128),
        replace(base, family="gpt2", attention="eager", seq=128),
        replace(base, family="gpt2-nodrop", seq=128),
        # precision: fp32 and AMP
        replace(base, dtype="fp32"),
        replace(base, dtype="fp32", amp=True),
        replace(base, family="qwen2", dtype="fp32", amp=True),
        replace(base, family="gpt2-nodrop", dtype="fp32", seq=128),
        # attention and recompute
        replace(base, attention="eager"),
        replace(base, recompute="full"),
        replace(base, attention="eager", recompute="full", layers=4),
        replace(base, family="mistral", recompute="full", dtype="fp32", amp=True),
        replace(base, family="gpt2", attention="eager", recompute="full", seq=128),
        # full recompute where the late backward (one layer replayed) sets the peak: many layers, a small vocabulary
        replace(base, family="mistral", layers=6, recompute="full", impl="fused"),
        replace(base, family="mistral", layers=6, recompute="full", impl="fused", attention="eager"),
        replace(base, layers=6, recompute="full", impl="fused", dtype="fp32"),
        # optimizer implementations
        replace(base, impl="fused"),
        replace(base, impl="for-loop"),
        replace(base, dtype="fp32", impl="fused"),
        replace(base, dtype="fp32", impl="for-loop"),
        replace(base, family="qwen2", impl="for-loop"),
        # short sequences: the optimizer step's temporaries make the peak
        replace(base, layers=4, batch=1, seq=32),
        replace(base, layers=4, batch=1, seq=32, impl="fused"),
        replace(base, layers=4, batch=1, seq=32, impl="for-loop"),
        replace(base, layers=4, batch=1, seq=32, dtype="fp32"),
        replace(base, layers=4, batch=1, seq=32, dtype="fp32", amp=True, impl="for-loop"),
        # gradient accumulation
        replace(base, accumulation=2),
        replace(base, accumulation=2, impl="fused"),
        replace(base, family="qwen2", accumulation=2, dtype="fp32", amp=True),
        replace(base, accumulation=2, recompute="full", impl="for-loop"),
        replace(base, layers=4, seq=128, accumulation=2, attention="eager"),
        # MemTracker cross-checks
        replace(base, family="llama-mha", seq=128, memtracker=True, tag="mt"),
        replace(base, family="gpt2", attention="eager", seq=128, accumulation=2, memtracker=True, tag="mt"),
        replace(base, dtype="fp32", amp=True, recompute="full", impl="for-loop", seq=128, memtracker=True, tag="mt"),
        # fake versus real on two tiny models (same figures expected to the byte)
        replace(base, family="llama-gqa", seq=128, fake=False, tag="real"),
        replace(base, family="llama-gqa", seq=128),
        replace(base, family="gpt2", attention="eager", seq=128, recompute="full", fake=False, tag="real"),
        # tied embeddings at a large vocabulary: the LM head's weight gradient waits for the embedding's (the sum)
        replace(base, family="llama-v131072h1024-tied", batch=1, seq=1024, recompute="full"),
        replace(base, family="llama-v131072h1024", batch=1, seq=1024, recompute="full"),
        replace(base, family="llama-v16384h128-tied", seq=128),
        replace(base, family="llama-v16384h128-tied", seq=128, recompute="full", layers=4),
        replace(base, family="llama-v16384h128-tied", batch=1, seq=32),
        replace(base, family="llama-v16384h128-tied", batch=1, seq=32, fake=False, tag="real"),
        replace(base, family="llama-v16384h128", batch=1, seq=32),
        # sliding windows under SDPA (activations.window): s above, equal to and below the window
        replace(base, family="gemma3-w128", layers=6, seq=256),
        replace(base, family="gemma3-w128", layers=6, seq=128),
        replace(base, family="gemma3-w128", layers=6, seq=64),
        # under full recompute at s 256 Gemma 3's late backward is 3.9 % above vramgui without any window (measured
        # 6,558,282 with sliding_window 4,096 against 6,304,832: not the window's term; the window adds 458,752
        # measured, 393,216 modelled + the 65,536-byte boolean mask), so that case is not in the list
        replace(base, family="gemma3-w128", layers=6, seq=64, recompute="full"),
        replace(base, family="gemma3-w128", layers=6, seq=256, dtype="fp32", amp=True),
        replace(base, family="gemma3-4b-w1024", layers=34, batch=1, seq=4096),
        replace(base, family="gemma3-4b-w1024", layers=34, batch=1, seq=4096, recompute="full"),
        replace(base, family="mistral-w64", seq=128),
        replace(base, family="mistral-w64", seq=32),
        replace(base, family="mistral-w64", seq=128, recompute="full", layers=4),
    ]
    return cases


def _full_size() -> list[PeakCase]:
    l2 = PeakCase("llama2-7b", layers=FULL_LAYERS, batch=1, seq=4096, recompute="full")
    l3 = PeakCase("llama3-8b", layers=FULL_LAYERS, batch=1, seq=8192)
    return [l2, replace(l3, batch=1, seq=8192, recompute="full"), replace(l3, batch=2, seq=2048),
            replace(l3, batch=4, seq=2048, recompute="full")]


def _distributed() -> list[PeakCase]:
    base = PeakCase("llama-gqa", layers=2, batch=2, seq=128, fake=False, ranks=2)
    return [
        replace(base, dist="ddp", bucket_view=False),
        replace(base, dist="ddp", bucket_view=True),
        replace(base, dist="ddp", bucket_view=False, bucket_cap_mb=0.25),
        replace(base, dist="ddp", bucket_view=True, bucket_cap_mb=0.25),
        replace(base, dist="ddp", bucket_view=False, dtype="fp32", amp=True, accumulation=2),
        replace(base, dist="fsdp2", memtracker=True),
        replace(base, dist="fsdp2", dtype="fp32", impl="for-loop"),
        replace(base, dist="fsdp2", recompute="full", accumulation=2),
        # gradient accumulation with bucket views: no_sync on the first micro-batch, the buckets rebuilt at the
        # first synced backward (Reducer::rebuild_buckets)
        replace(base, dist="ddp", bucket_view=True, accumulation=2),
        replace(base, dist="ddp", bucket_view=True, dtype="fp32", amp=True, accumulation=2),
        # large roots under FSDP2: the root's post-backward reduce-scatter (untied) and the tied-weight gradient sum
        replace(base, family="llama-v8000h256", dtype="fp32", batch=1, dist="fsdp2", memtracker=True),
        replace(base, family="llama-v8192h64", dtype="fp32", batch=1, seq=32, dist="fsdp2"),
        replace(base, family="llama-v8192h64-tied", dtype="fp32", batch=1, seq=32, dist="fsdp2"),
        replace(base, family="llama-v16384h128", batch=1, seq=32, dist="fsdp2"),
        replace(base, family="llama-v16384h128-tied", batch=1, seq=32, dist="fsdp2"),
        replace(base, family="llama-v16384h128", layers=4, batch=1, seq=64, dist="fsdp2", recompute="full"),
        replace(base, family="llama-v16384h128-tied", layers=4, batch=1, seq=64, dist="fsdp2", recompute="full"),
        replace(base, family="llama-v16384h128", dist="fsdp2"),
        replace(base, family="llama-v16384h128-tied", dist="fsdp2"),
    ]


def all_cases() -> list[PeakCase]:
    seen: dict[str, PeakCase] = {}
    for case in _single() + _full_size() + _distributed():
        seen.setdefault(case.key, case)
    return list(seen.values())
