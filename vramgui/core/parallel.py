"""Parallel layout: data-parallel size, nodes, the most loaded pipeline stage, FSDP names of ZeRO stages.

Megatron-LM (Shoeybi et al. 2019; Narayanan et al. 2021): the GPUs form a tp x pp x dp grid, so the
data-parallel size is N_d = GPUs / (tp * pp); each pipeline stage holds its layers' share of the weights,
the first stage also the input embedding, the last the final norm and output layer (with tied embeddings the
last stage keeps its own copy of the embedding matrix for the output projection).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from vramgui.core import architecture as am
from vramgui.core.architecture import Architecture
from vramgui.core.messages import Msg
from vramgui.core.specs import ParallelSpec

FSDP_EQUIVALENT = {0: "NO_SHARD", 1: None, 2: "SHARD_GRAD_OP", 3: "FULL_SHARD"}


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
    note: Msg | None = None


def _block_params(arch: Architecture, index: int) -> int:
    return sum(sum(m) for m in am.layer_modules(arch, index))


@lru_cache(maxsize=256)
def _block_sizes(arch: Architecture) -> tuple[int, int]:
    """(dense block, MoE block) parameter counts, 0 for a kind the model does not have. Block 0 is dense
    unless every block is MoE."""
    dense = 0 if am.is_moe_layer(arch, 0) else _block_params(arch, 0)
    first = am.first_moe_block(arch)
    moe = 0 if first is None else _block_params(arch, first)
    return dense, moe


def blocks_params(arch: Architecture, start: int, stop: int) -> int:
    """Parameters of decoder blocks ``start .. stop-1``: ``sum(layer_params(arch)[start:stop])`` without
    building a per-layer tuple (O(1) in the layer count)."""
    start, stop = max(start, 0), min(stop, arch.num_layers)
    if start >= stop:
        return 0
    dense, moe = _block_sizes(arch)
    n_moe = am.moe_blocks_between(arch, start, stop)
    return n_moe * moe + (stop - start - n_moe) * dense


def stage_params(total: int, parallel: ParallelSpec, arch: Architecture | None, explicit: bool) -> StageParams:
    """Φ held per model-parallel rank of the most loaded pipeline stage.

    With only a count: Φ / (tp * pp). With an architecture: layers split as evenly as Megatron does, embeddings
    on the first stage, final norm and output layer on the last, the larger of the two counts; then / tp. An
    explicit count beside the architecture (a preset's stated size) scales that stage by count / architecture's
    count, so the most loaded stage is found whatever the input (Llama-3-8B at PP 8: the last stage holds 1.40 B,
    not Φ/8 = 1.00 B).
    """
    tp, pp = parallel.tp, parallel.pp
    if tp * pp == 1:
        return StageParams(total, "Φ")
    if arch is None or pp == 1 or arch.num_layers < pp:
        return StageParams(ceil_div(total, tp * pp), "Φ/(tp·pp)")
    base, extra = divmod(arch.num_layers, pp)
    first_layers = base + (1 if extra > 0 else 0)  # remainder layers go to the leading stages
    first = am.embedding_params(arch) + blocks_params(arch, 0, first_layers)
    # a tied head is the last stage's own copy of the embedding matrix
    last = blocks_params(arch, arch.num_layers - base, arch.num_layers) + am.head_params(arch, include_tied=True)
    if first >= last:
        held, code = first, "note.pipeline_first_stage"
    else:
        held, code = last, "note.pipeline_last_stage"
    if explicit:
        counted = am.count_params(arch)
        if counted != total:
            held = ceil_div(held * total, counted)
    note = Msg.of(code, params=f"{held:,}")
    return StageParams(ceil_div(held, tp), "Φ_stage/tp", note)
