"""Model architecture and its exact parameter count.

The count must equal, to the parameter, ``sum(p.numel() for p in model.parameters())`` of the model the
framework (Hugging Face transformers) builds from the same config; tied input/output embeddings count once.
"""

from __future__ import annotations

from dataclasses import dataclass

FAMILIES = ("gpt", "llama")  # block style: GPT (LayerNorm, GELU MLP, dropout) or Llama (RMSNorm, gated MLP, RoPE)


@dataclass(frozen=True)
class Architecture:
    family: str = "llama"  # one of FAMILIES
    model_type: str = ""  # Hugging Face model_type it came from, for provenance
    num_layers: int = 32
    hidden_size: int = 4096
    num_heads: int = 32
    num_kv_heads: int | None = None  # None = num_heads (multi-head attention); fewer = grouped-query
    head_dim: int | None = None  # None = hidden_size // num_heads
    ffn_size: int = 11008  # intermediate size of the (dense) MLP
    vocab_size: int = 32000
    tied_embeddings: bool = False
    attention_bias: bool = False  # biases on the q/k/v projections
    attention_out_bias: bool = False  # bias on the output projection
    mlp_bias: bool = False
    norm: str = "rmsnorm"  # "rmsnorm" (weight only) or "layernorm" (weight + bias)
    max_position_embeddings: int = 0
    learned_pos_embeddings: bool = False  # GPT-2 style wpe table of max_position_embeddings x hidden
    # Mixture of experts (num_experts == 0: dense model)
    num_experts: int = 0
    experts_per_token: int = 0
    shared_experts: int = 0
    moe_ffn_size: int | None = None  # intermediate size of one expert; None = ffn_size
    dense_layers: int = 0  # leading layers with a dense MLP instead of experts (DeepSeek first_k_dense_replace)

    @property
    def kv_heads(self) -> int:
        return self.num_kv_heads if self.num_kv_heads is not None else self.num_heads

    @property
    def head_size(self) -> int:
        return self.head_dim if self.head_dim is not None else self.hidden_size // self.num_heads

    @property
    def is_moe(self) -> bool:
        return self.num_experts > 0
