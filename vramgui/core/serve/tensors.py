"""The served model's weight tensors, by role, as one tensor-parallel rank holds them.

The blocks' Linear layers are ``vramgui.core.finetune.adapters.block_linears`` (transformers' modules, the same list
LoRA and bitsandbytes use); the routed experts are E copies of the expert MLP per MoE block (GGUF merges them into
one 3-D ``ffn_*_exps`` tensor, vLLM's ``FusedMoE`` into ``w13``/``w2``); the rest (embedding, LM head, norms,
routers, sinks, position table) is what the exact count (``architecture.count_params``) has beyond those.

Tensor parallelism splits as vLLM's layers do (``model_executor/layers/linear.py``): q/k/v, gate/up and the
experts' gate/up column-wise (output rows over tp), the output and down projections row-wise (input columns over
tp, the bias whole on every rank); k/v heads are split, or replicated when there are fewer KV heads than tp
(``QKVParallelLinear``: ``num_kv_heads = max(1, total_num_kv_heads // tp)``); MLA's down-projections are
``ReplicatedLinear``; the vocabulary is padded to a multiple of 64 and split (``vocab_parallel_embedding.py``
``pad_vocab_size``, ``DEFAULT_VOCAB_PADDING_SIZE = 64``); norms and routers are whole on every rank.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from vramgui.core.finetune.adapters import LinearModule, block_linears
from vramgui.core.parallel.layout import ceil_div
from vramgui.core.scenario import architecture as am
from vramgui.core.scenario.architecture import Architecture

VOCAB_PADDING = 64  # vLLM DEFAULT_VOCAB_PADDING_SIZE
# GGUF tensor roles (llama-quant.cpp tensor_get_category): which rule picks a tensor's type
ROLES = ("attn_q", "attn_k", "attn_v", "attn_qkv", "attn_kv_b", "attn_output", "ffn_gate", "ffn_up", "ffn_down",
         "other")
_ROLE = {"q_proj": "attn_q", "k_proj": "attn_k", "v_proj": "attn_v", "qkv_proj": "attn_qkv", "c_attn": "attn_qkv",
         "query_key_value": "attn_qkv", "kv_b_proj": "attn_kv_b", "gate_proj": "ffn_gate", "up_proj": "ffn_up",
         "gate_up_proj": "ffn_up", "c_fc": "ffn_up", "fc1": "ffn_up", "dense_h_to_4h": "ffn_up", "fc_in": "ffn_up",
         "down_proj": "ffn_down", "fc2": "ffn_down", "dense_4h_to_h": "ffn_down", "fc_out": "ffn_down"}
_REPLICATED = ("q_a_proj", "kv_a_proj_with_mqa", "shared_expert_gate")


@dataclass(frozen=True)
class Tensor:
    """One quantisable weight (``n_out × n_in``) of a block, ``copies`` times (the experts), on one rank."""

    role: str
    layer: int
    n_in: int
    n_out: int
    bias: bool
    copies: int = 1
    expert: bool = False

    @property
    def elements(self) -> int:
        return self.copies * self.n_in * self.n_out


@dataclass(frozen=True)
class ServedTensors:
    """The quantisable weights per layer and the 16-bit rest, on one rank."""

    linears: tuple[Tensor, ...]
    embedding: int  # elements of the token embedding on this rank (vocabulary padded and split)
    head: int  # elements of the LM head on this rank (0 when tied)
    rest: int  # every other parameter on this rank: norms, routers, biases of the rest, sinks, positions
    full_linear: int  # elements of the quantisable weights of the whole model (tp = 1), for the notes


def _role(m: LinearModule, moe_mlp: bool) -> str:
    if m.name in _ROLE:
        return _ROLE[m.name]
    if m.attention:
        return "attn_output" if m.reads == "attn_out" else "other"
    return "ffn_down" if m.reads == "mlp_mid" else "ffn_up" if moe_mlp or m.reads == "norm2" else "other"


def _kv_rank(arch: Architecture, tp: int) -> int:
    return max(1, arch.kv_heads // tp)


def _split(arch: Architecture, m: LinearModule, tp: int) -> tuple[int, int]:
    """(n_in, n_out) of ``m`` on one of ``tp`` ranks."""
    if tp == 1 or m.name in _REPLICATED:
        return m.n_in, m.n_out
    d = arch.head_size
    if m.name in ("k_proj", "v_proj"):
        return m.n_in, _kv_rank(arch, tp) * (arch.value_head_size if m.name == "v_proj" else d)
    if _ROLE.get(m.name) == "attn_qkv":
        return m.n_in, (ceil_div(arch.num_heads, tp) + 2 * _kv_rank(arch, tp)) * d
    if m.reads in ("attn_out", "mlp_mid"):
        return ceil_div(m.n_in, tp), m.n_out
    return m.n_in, ceil_div(m.n_out, tp)


def _expert_linears(arch: Architecture) -> list[LinearModule]:
    h, w = arch.hidden_size, arch.expert_ffn_size
    down = LinearModule("down_proj", "experts", w, h, False, arch.mlp_bias, "mlp_mid")
    if not arch.gated_mlp:
        return [LinearModule("up_proj", "experts", h, w, False, arch.mlp_bias, "norm2"), down]
    return [LinearModule("gate_proj", "experts", h, w, False, arch.mlp_bias, "norm2"),
            LinearModule("up_proj", "experts", h, w, False, arch.mlp_bias, "norm2"), down]


def padded_vocab(arch: Architecture, tp: int) -> int:
    """Rows of the embedding (and LM head) on one rank: the vocabulary padded to 64, split over tp."""
    return ceil_div(ceil_div(arch.vocab_size, VOCAB_PADDING) * VOCAB_PADDING, tp) if tp > 1 else arch.vocab_size


@lru_cache(maxsize=256)
def served_tensors(arch: Architecture, tp: int = 1) -> ServedTensors:
    linears: list[Tensor] = []
    full = whole_linear_params = 0
    for layer in range(arch.num_layers):
        moe = am.is_moe_layer(arch, layer)
        for m in block_linears(arch, moe):
            n_in, n_out = _split(arch, m, tp)
            linears.append(Tensor(_role(m, False), layer, n_in, n_out, m.bias))
            full += m.n_in * m.n_out
            whole_linear_params += m.n_in * m.n_out + (m.n_out if m.bias else 0)
        if moe:
            for m in _expert_linears(arch):
                n_in, n_out = _split(arch, m, tp)
                linears.append(Tensor(_role(m, True), layer, n_in, n_out, m.bias, arch.num_experts, True))
                full += arch.num_experts * m.n_in * m.n_out
                whole_linear_params += arch.num_experts * (m.n_in * m.n_out + (m.n_out if m.bias else 0))
    h = arch.hidden_size
    rows = padded_vocab(arch, tp)
    embedding = rows * h
    head = 0 if arch.tied_embeddings else rows * h
    vocab_params = arch.vocab_size * h * (1 if arch.tied_embeddings else 2)
    rest = am.count_params(arch) - whole_linear_params - vocab_params  # norms, routers, sinks, head bias, positions
    return ServedTensors(tuple(linears), embedding, head, rest, full)
