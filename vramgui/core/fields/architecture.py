"""The field registry's table for the architecture (``model.architecture.*``): ranges and labels.

The ranges are vramgui's sanity limits, not the models': they catch typos and keep every count finite.
"""

from __future__ import annotations

from vramgui.core.fields.table import MAX_EXPERTS, MAX_LAYERS, MAX_SEQ, MAX_WIDTH, Field
from vramgui.core.fields.table import field_entry as _f
from vramgui.core.scenario.architecture import FAMILIES
from vramgui.core.text.message import QT_TRANSLATE_NOOP

_A = "model.architecture."

ARCH_TABLE: tuple[Field, ...] = (
    _f(_A + "family", "choice", QT_TRANSLATE_NOOP("Fields", "Block style"), choices=FAMILIES),
    _f(_A + "model_type", "text", QT_TRANSLATE_NOOP("Fields", "Model type")),
    _f(_A + "num_layers", "int", QT_TRANSLATE_NOOP("Fields", "Layers"), low=1, high=MAX_LAYERS),
    _f(_A + "hidden_size", "int", QT_TRANSLATE_NOOP("Fields", "Hidden size"), low=1, high=MAX_WIDTH),
    _f(_A + "num_heads", "int", QT_TRANSLATE_NOOP("Fields", "Attention heads"), low=1, high=MAX_WIDTH),
    _f(_A + "num_kv_heads", "int", QT_TRANSLATE_NOOP("Fields", "KV heads"), low=1, high=MAX_WIDTH),
    _f(_A + "head_dim", "int", QT_TRANSLATE_NOOP("Fields", "Head dimension"), low=1, high=10**6),
    _f(_A + "ffn_size", "int", QT_TRANSLATE_NOOP("Fields", "FFN size"), low=1, high=MAX_WIDTH),
    _f(_A + "vocab_size", "int", QT_TRANSLATE_NOOP("Fields", "Vocabulary"), low=1, high=MAX_WIDTH),
    _f(_A + "tied_embeddings", "bool", QT_TRANSLATE_NOOP("Fields", "Tied embeddings")),
    _f(_A + "attention_bias", "bool", QT_TRANSLATE_NOOP("Fields", "Attention bias")),
    _f(_A + "attention_out_bias", "bool", QT_TRANSLATE_NOOP("Fields", "Attention output bias")),
    _f(_A + "mlp_bias", "bool", QT_TRANSLATE_NOOP("Fields", "MLP bias")),
    _f(_A + "norm", "choice", QT_TRANSLATE_NOOP("Fields", "Norm"), choices=("rmsnorm", "layernorm")),
    _f(_A + "max_position_embeddings", "int", QT_TRANSLATE_NOOP("Fields", "Max positions"), low=0, high=MAX_SEQ),
    _f(_A + "learned_pos_embeddings", "bool", QT_TRANSLATE_NOOP("Fields", "Learned positions")),
    _f(_A + "num_experts", "int", QT_TRANSLATE_NOOP("Fields", "Experts"), low=0, high=MAX_EXPERTS),
    _f(_A + "experts_per_token", "int", QT_TRANSLATE_NOOP("Fields", "Experts per token"), low=0, high=MAX_EXPERTS),
    _f(_A + "shared_experts", "int", QT_TRANSLATE_NOOP("Fields", "Shared experts"), low=0, high=MAX_EXPERTS),
    _f(_A + "moe_ffn_size", "int", QT_TRANSLATE_NOOP("Fields", "Expert FFN size"), low=1, high=MAX_WIDTH),
    _f(_A + "dense_layers", "int", QT_TRANSLATE_NOOP("Fields", "Dense layers"), low=0, high=MAX_LAYERS),
    _f(_A + "norms_per_layer", "int", QT_TRANSLATE_NOOP("Fields", "Norms per layer"), low=0, high=16),
    _f(_A + "qk_norm", "bool", QT_TRANSLATE_NOOP("Fields", "QK norm")),
    _f(_A + "qk_norm_per_head", "bool", QT_TRANSLATE_NOOP("Fields", "QK norm per head")),
    _f(_A + "attention_sinks", "bool", QT_TRANSLATE_NOOP("Fields", "Attention sinks")),
    _f(_A + "final_norm", "bool", QT_TRANSLATE_NOOP("Fields", "Final norm")),
    _f(_A + "head_bias", "bool", QT_TRANSLATE_NOOP("Fields", "Output layer bias")),
    _f(_A + "fused_qkv", "bool", QT_TRANSLATE_NOOP("Fields", "Fused QKV")),
    _f(_A + "fused_gate_up", "bool", QT_TRANSLATE_NOOP("Fields", "Fused gate/up")),
    _f(_A + "parallel_attn", "bool", QT_TRANSLATE_NOOP("Fields", "Parallel attention")),
    _f(_A + "moe_layer_step", "int", QT_TRANSLATE_NOOP("Fields", "MoE layer step"), low=1, high=MAX_LAYERS),
    _f(_A + "shared_expert_ffn_size", "int", QT_TRANSLATE_NOOP("Fields", "Shared expert FFN size"), low=1,
       high=MAX_WIDTH),
    _f(_A + "shared_expert_gate", "bool", QT_TRANSLATE_NOOP("Fields", "Shared expert gate")),
    _f(_A + "router_bias", "bool", QT_TRANSLATE_NOOP("Fields", "Router bias")),
    _f(_A + "q_lora_rank", "int", QT_TRANSLATE_NOOP("Fields", "Query LoRA rank"), low=0, high=MAX_WIDTH),
    _f(_A + "kv_lora_rank", "int", QT_TRANSLATE_NOOP("Fields", "KV LoRA rank"), low=0, high=MAX_WIDTH),
    _f(_A + "qk_rope_head_dim", "int", QT_TRANSLATE_NOOP("Fields", "RoPE head dimension"), low=0, high=10**6),
    _f(_A + "v_head_dim", "int", QT_TRANSLATE_NOOP("Fields", "Value head dimension"), low=1, high=10**6),
    _f(_A + "attention_dropout", "fraction", QT_TRANSLATE_NOOP("Fields", "Attention dropout"),
       QT_TRANSLATE_NOOP("Fields", "Dropout on the attention probabilities; empty: GPT-2 0.1, others 0"),
       low=0.0, high=1.0, high_open=True),
    _f(_A + "residual_dropout", "fraction", QT_TRANSLATE_NOOP("Fields", "Residual dropout"),
       QT_TRANSLATE_NOOP("Fields", "Dropout on the attention and MLP outputs; empty: GPT-2 0.1, others 0"),
       low=0.0, high=1.0, high_open=True),
    _f(_A + "embedding_dropout", "fraction", QT_TRANSLATE_NOOP("Fields", "Embedding dropout"),
       QT_TRANSLATE_NOOP("Fields", "Dropout on the embedding output; empty: GPT-2 0.1, others 0"),
       low=0.0, high=1.0, high_open=True),
    _f(_A + "use_cache", "bool", QT_TRANSLATE_NOOP("Fields", "KV cache in training"),
       QT_TRANSLATE_NOOP("Fields", "config use_cache: GPT-2 copies K and V into a cache (not when checkpointing)")),
)
