"""Parallel layout: data-parallel size, nodes, the most loaded pipeline stage, FSDP names of ZeRO stages.

Megatron-LM (Shoeybi et al. 2019; Narayanan et al. 2021): the GPUs form a tp x pp x dp grid, so the
data-parallel size is N_d = GPUs / (tp * pp); each pipeline stage holds its layers' share of the weights,
the first stage also the input embedding, the last the final norm and output layer (with tied embeddings the
last stage keeps its own copy of the embedding matrix for the output projection).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from vramgui.core.architecture import Architecture
from vramgui.core.specs import ParallelSpec

FSDP_EQUIVALENT = {0: "NO_SHARD", 1: None, 2: "SHARD_GRAD_OP", 3: "FULL_SHARD"}
STAGE_LABELS = {0: "DDP", 1: "ZeRO-1", 2: "ZeRO-2", 3: "ZeRO-3"}


def ceil_div(a: int, b: int) -> int:
    """Per-GPU shard of ``a`` items over ``b`` ranks, rounded up (padding to equal partitions)."""
    return -(-a // b)


def data_parallel_size(parallel: ParallelSpec) -> int:
    return parallel.num_gpus // (parallel.tp * parallel.pp)


def ranks_per_node(parallel: ParallelSpec) -> int:
    return min(parallel.gpus_per_node, parallel.num_gpus)


def num_nodes(parallel: ParallelSpec) -> int:
    return ceil_div(parallel.num_gpus, parallel.gpus_per_node)


def fsdp_name(stage: int) -> str:
    name = FSDP_EQUIVALENT[stage]
    return f"FSDP {name}" if name else "no FSDP equivalent"


@dataclass(frozen=True)
class StageParams:
    """Parameters held by one GPU of the most loaded pipeline stage (before data-parallel sharding)."""

    params: int
    formula: str
    note: str | None = None


@lru_cache(maxsize=256)
def _arch_split(arch: Architecture, total: int) -> tuple[int, tuple[int, ...], int]:
    """(embedding, per-layer counts, final norm + output layer as the last stage holds it)."""
    from vramgui.core import architecture as am

    if all(hasattr(am, f) for f in ("embedding_params", "layer_params", "head_params")):
        return am.embedding_params(arch), am.layer_params(arch), am.head_params(arch, include_tied=True)
    embed = arch.vocab_size * arch.hidden_size
    if arch.learned_pos_embeddings:
        embed += arch.max_position_embeddings * arch.hidden_size
    head = arch.vocab_size * arch.hidden_size + arch.hidden_size * (2 if arch.norm == "layernorm" else 1)
    untied_head = head if not arch.tied_embeddings else head - arch.vocab_size * arch.hidden_size
    per_layer = max(0, total - embed - untied_head) // max(1, arch.num_layers)
    return embed, (per_layer,) * arch.num_layers, head


def stage_params(total: int, parallel: ParallelSpec, arch: Architecture | None, explicit: bool) -> StageParams:
    """Φ held per model-parallel rank of the most loaded pipeline stage.

    With only a count (or an explicit count overriding the architecture): Φ / (tp * pp). With an
    architecture: layers split as evenly as Megatron does, embeddings on the first stage, final norm and
    output layer on the last, the larger of the two counts; then / tp.
    """
    tp, pp = parallel.tp, parallel.pp
    if tp * pp == 1:
        return StageParams(total, "Φ")
    if arch is None or explicit or pp == 1 or arch.num_layers < pp:
        return StageParams(ceil_div(total, tp * pp), "Φ/(tp·pp)")
    embed, layers, head = _arch_split(arch, total)
    base, extra = divmod(arch.num_layers, pp)
    first_layers = base + (1 if extra > 0 else 0)  # remainder layers go to the leading stages
    first = embed + sum(layers[:first_layers])
    last = sum(layers[arch.num_layers - base:]) + head  # a tied head is the last stage's own embedding copy
    if first >= last:
        held, which = first, "first stage: embedding + ⌈L/pp⌉ layers"
    else:
        held, which = last, "last stage: ⌊L/pp⌋ layers + final norm + output layer"
    note = f"most loaded pipeline stage is the {which} ({held:,} parameters before /tp)"
    return StageParams(ceil_div(held, tp), "Φ_stage/tp", note)
