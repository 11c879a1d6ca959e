"""Shared pieces of the activation accounting: the training shape as seen by one GPU, and term helpers.

Symbols follow Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large Transformer Models",
arXiv:2205.05198): s sequence length, b micro-batch, h hidden size, a attention heads, t tensor-parallel size,
v vocabulary size, L layers, p pipeline-parallel size; plus f (MLP intermediate size), k (key/value heads),
d (head size), B (bytes per element of the activation dtype).
"""

from __future__ import annotations

from dataclasses import dataclass

from vramgui.core.parallel import ceil_div


@dataclass(frozen=True)
class Shape:
    """The dimensions one GPU sees for one micro-batch of one layer (tensor/sequence parallel applied)."""

    b: int  # micro-batch
    s: int  # sequence length
    h: int  # hidden size
    a: int  # attention heads (whole model)
    kv: int  # key/value heads (whole model)
    d: int  # head size
    v: int  # vocabulary size
    t: int  # tensor-parallel size
    sp: bool  # Megatron sequence parallelism
    dtype_bytes: int  # B
    attention: str  # "eager" or "flash"
    recompute: str  # "none", "selective" or "full"

    @property
    def a_t(self) -> int:
        """Attention heads on one GPU (heads are split across the tensor-parallel group)."""
        return ceil_div(self.a, self.t)

    @property
    def kv_t(self) -> int:
        """Key/value heads on one GPU (replicated when there are fewer KV heads than GPUs, as in Megatron)."""
        return ceil_div(self.kv, self.t)

    @property
    def s_rep(self) -> int:
        """Rows of the tensors outside the tensor-parallel regions: split by SP, otherwise replicated."""
        return ceil_div(self.s, self.t) if self.sp else self.s

    def split(self, n: int) -> int:
        """A dimension split across the tensor-parallel group (heads, MLP columns, vocabulary)."""
        return ceil_div(n, self.t)


@dataclass(frozen=True)
class RawTerm:
    """One group of saved tensors for one micro-batch (not yet multiplied by layers or micro-batches)."""

    name: str
    bytes: int
    formula: str
