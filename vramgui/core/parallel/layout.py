"""Parallel layout: data-parallel size, nodes, the most loaded pipeline stage, FSDP names of ZeRO stages.

Megatron-LM (Shoeybi et al. 2019; Narayanan et al. 2021): the GPUs form a tp x cp x dp x pp grid, so the group
that shards the non-expert model states is N_d = GPUs / (tp * pp) = dp·cp (Megatron-Core's dp-cp group: context
ranks hold the same weights and reduce their gradients together) and the batch is split over dp; each pipeline
stage holds its layers' share of the weights, the first stage also the input embedding, the last the final norm
and output layer (with tied embeddings the last stage keeps its own copy of the embedding matrix for the output
projection). Routed experts live on a second grid, GPUs = pp x etp x ep x edp (Megatron-Core
``parallel_state.initialize_model_parallel``: ``expert_data_parallel_size = world_size //
(expert_tensor_parallel_size * expert_model_parallel_size * pipeline_model_parallel_size)``): a GPU holds
E/ep experts, each split over etp, and their states shard over N_e = edp. Layers per stage follow Megatron-Core
``transformer_block.get_num_layers_to_build`` (uneven first/last stages; the rest split evenly) and, with vpp
model chunks per rank, ``get_transformer_layer_offset`` (virtual stage c·pp + r is chunk c of rank r).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from vramgui.core.memo import dict_init
from vramgui.core.parallel.world import context_grid, expert_grid, model_grid
from vramgui.core.scenario import architecture as am
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.specs import ParallelSpec
from vramgui.core.text.message import Msg

FSDP_EQUIVALENT = {0: "NO_SHARD", 1: None, 2: "SHARD_GRAD_OP", 3: "FULL_SHARD"}


def ceil_div(a: int, b: int) -> int:
    """Per-GPU shard of ``a`` items over ``b`` ranks, rounded up (padding to equal partitions)."""
    return -(-a // b)


def data_parallel_size(parallel: ParallelSpec) -> int:
    """N_d = GPUs / (tp·pp) = dp·cp: the group that shards (and reduces) the non-expert model states."""
    return parallel.num_gpus // model_grid(parallel)


def batch_parallel_size(parallel: ParallelSpec) -> int:
    """dp = GPUs / (tp·cp·pp): the ranks that take different samples (context ranks share one sample)."""
    return parallel.num_gpus // context_grid(parallel)


def expert_data_parallel_size(parallel: ParallelSpec) -> int:
    """N_e = GPUs / (etp·ep·pp): the group that shards the routed experts' model states (Megatron-Core edp)."""
    return parallel.num_gpus // expert_grid(parallel)


def experts_split(parallel: ParallelSpec, arch: Architecture | None) -> bool:
    """Whether the routed experts are held differently from the rest (ep·etp != tp): a separate shard."""
    return arch is not None and arch.is_moe and parallel.ep * parallel.expert_tp != parallel.tp


def stage_layer_counts(num_layers: int, parallel: ParallelSpec) -> list[int]:
    """Layers per pipeline rank. Even: as equal as possible, the leading stages taking the remainder. Uneven
    (Megatron-Core ``get_num_layers_to_build``): the given first/last counts, the rest split evenly over the other
    stages (validate.py checks that it divides)."""
    pp, first, last = parallel.pp, parallel.first_stage_layers, parallel.last_stage_layers
    if pp == 1 or (first is None and last is None):
        base, extra = divmod(num_layers, pp)
        return [base + (1 if i < extra else 0) for i in range(pp)]
    middle = pp - (first is not None) - (last is not None)
    rest = num_layers - (first or 0) - (last or 0)
    each = rest // middle if middle > 0 else 0
    counts = [each] * pp
    if first is not None:
        counts[0] = first
    if last is not None:
        counts[-1] = last
    return counts


def rank_chunks(num_layers: int, parallel: ParallelSpec) -> list[list[tuple[int, int]]]:
    """Per pipeline rank, the (start, stop) layer range of each of its vpp model chunks, in chunk order. Virtual
    stage v = c·pp + r is chunk c of rank r and the layers run through the virtual stages in order."""
    counts, vpp, pp = stage_layer_counts(num_layers, parallel), parallel.vpp, parallel.pp
    chunks: list[list[tuple[int, int]]] = [[] for _ in range(pp)]
    start = 0
    for v in range(pp * vpp):
        r = v % pp
        size = counts[r] // vpp if vpp > 1 else counts[r]
        chunks[r].append((start, start + size))
        start += size
    return chunks


def ranks_per_node(parallel: ParallelSpec) -> int:
    return min(parallel.gpus_per_node, parallel.num_gpus)


def num_nodes(parallel: ParallelSpec) -> int:
    return ceil_div(parallel.num_gpus, parallel.gpus_per_node)


def fsdp_name(stage: int) -> str:
    name = FSDP_EQUIVALENT[stage]
    return f"FSDP {name}" if name else "no FSDP equivalent"


@dict_init
@dataclass(frozen=True)
class StageParams:
    """Parameters held by one GPU of the most loaded pipeline stage (before data-parallel sharding)."""

    params: int
    formula: str
    note: Msg | None = None
    experts: int = 0  # of ``params``, the routed experts held per GPU when they shard apart (``experts_split``)


def _block_params(arch: Architecture, index: int) -> int:
    return sum(sum(m) for m in am.layer_modules(arch, index))


@lru_cache(maxsize=256)
def _block_sizes(arch: Architecture, replicated: bool = False) -> tuple[int, int]:
    """(dense block, MoE block) parameter counts, 0 for a kind the model does not have (``replicated``: only what
    every TP rank holds whole, ``tp_replicated_block_params``). Block 0 is dense unless every block is MoE."""
    size = am.tp_replicated_block_params if replicated else _block_params
    dense = 0 if am.is_moe_layer(arch, 0) else size(arch, 0)
    first = am.first_moe_block(arch)
    moe = 0 if first is None else size(arch, first)
    return dense, moe


def blocks_params(arch: Architecture, start: int, stop: int, replicated: bool = False) -> int:
    """Parameters of decoder blocks ``start .. stop-1``: ``sum(layer_params(arch)[start:stop])`` without
    building a per-layer tuple (O(1) in the layer count); ``replicated``: only those every TP rank holds whole."""
    start, stop = max(start, 0), min(stop, arch.num_layers)
    if start >= stop:
        return 0
    dense, moe = _block_sizes(arch, replicated)
    n_moe = am.moe_blocks_between(arch, start, stop)
    return n_moe * moe + (stop - start - n_moe) * dense


def routed_expert_params(arch: Architecture) -> int:
    """The routed experts of one MoE block (E experts' MLPs), without router and shared experts."""
    return arch.num_experts * am.expert_params(arch)


def stage_params(total: int, parallel: ParallelSpec, arch: Architecture | None, explicit: bool) -> StageParams:
    """Φ held per GPU of the most loaded pipeline stage, before data-parallel sharding.

    With only a count: Φ / (tp * pp). With an architecture: layers placed as Megatron places them
    (``rank_chunks``), embeddings on the first stage, final norm and output layer on the last; every stage is
    weighed and the largest taken; then / tp except what every TP rank holds whole (Φ_rep: norms, the router,
    row-parallel biases, MLA's down-projections, learned positions; ``tp_replicated_block_params``), the routed
    experts / (ep·etp) when that differs
    (``experts_split``: ``StageParams.experts``). An explicit count beside the architecture (a preset's stated
    size) scales each stage by count / architecture's count, so the most loaded stage is found whatever the input
    (Llama-3-8B at PP 8: the last stage holds 1.40 B, not Φ/8 = 1.00 B).
    """
    tp, pp = parallel.tp, parallel.pp
    split = experts_split(parallel, arch)
    if tp * pp == 1 and not split:
        return StageParams(total, "Φ")
    if arch is None or arch.num_layers < pp:
        return StageParams(ceil_div(total, tp * pp), "Φ/(tp·pp)")
    counted = am.count_params(arch)
    scale = explicit and counted != total
    chunks = rank_chunks(arch.num_layers, parallel)
    plain = parallel.vpp == 1 and parallel.first_stage_layers is None and parallel.last_stage_layers is None
    # every stage is weighed: with dense leading layers (DeepSeek first_k_dense_replace) or every n-th block MoE a
    # middle stage can hold more than either end (DeepSeek-V3 at pp 8: a middle stage of 8 MoE blocks)
    weighed = range(pp)
    best: tuple[int, int, int, int] | None = None  # (per GPU, rank, held before /tp, experts per GPU)
    for r in weighed:
        ranges = chunks[r]
        held = sum(blocks_params(arch, a, b) for a, b in ranges)
        experts = sum(am.moe_blocks_between(arch, a, b) for a, b in ranges) * routed_expert_params(arch)
        whole = sum(blocks_params(arch, a, b, replicated=True) for a, b in ranges) if tp > 1 else 0  # on every TP rank
        if r == 0:
            held += am.embedding_params(arch)
            whole += am.tp_replicated_embedding_params(arch) if tp > 1 else 0
        if r == pp - 1:  # a tied head is the last stage's own copy of the embedding matrix (pp > 1)
            held += am.head_params(arch, include_tied=pp > 1)
            whole += am.tp_replicated_head_params(arch) if tp > 1 else 0
        if scale:
            held, experts = ceil_div(held * total, counted), ceil_div(experts * total, counted)
            whole = ceil_div(whole * total, counted)
        e_gpu = ceil_div(experts, parallel.ep * parallel.expert_tp) if split else 0
        gpu = ceil_div(held - whole - (experts if split else 0), tp) + whole + e_gpu
        if best is None or (gpu, held) > (best[0], best[2]):
            best = (gpu, r, held, e_gpu)
    assert best is not None
    gpu, rank, held, e_gpu = best
    if plain and not split and rank in (0, pp - 1) and pp > 1:
        code = "note.pipeline_first_stage" if rank == 0 else "note.pipeline_last_stage"
        note = Msg.of(code, params=f"{held:,}")
    else:
        layers = sum(b - a for a, b in chunks[rank])
        note = Msg.of("note.pipeline_stage", stage=rank + 1, pp=pp, layers=layers, params=f"{gpu:,}")
    if pp == 1 and not split:
        return StageParams(gpu, "(Φ − Φ_rep)/tp + Φ_rep")
    dense = "(Φ_stage − Φ_rep)/tp + Φ_rep" if tp > 1 else "Φ_stage"
    return StageParams(gpu, dense if not split else f"{dense.replace('stage', 'd')} + Φ_e/(ep·etp)", note, e_gpu)


def parallel_notes(p: ParallelSpec, seq_len: int, experts: int, n_d: int, n_e: int,
                   held: tuple[int, int] | None) -> list[Msg]:
    """What expert, context and interleaved pipeline parallelism changed (docs/conventions.md); ``held``: the
    activations' (micro-batches in flight, layers held) on the loaded stage, None when not estimated."""
    notes = []
    if experts:
        notes.append(Msg.of("note.expert_shard", experts=f"{experts:,}", group=p.ep * p.expert_tp, edp=n_e,
                            n_d=n_d))
    if p.cp > 1:
        notes.append(Msg.of("note.context_parallel", tokens=f"{seq_len // p.cp:,}", n_d=n_d))
    if p.vpp > 1 and held is not None:
        notes.append(Msg.of("note.interleaved_pipeline", vpp=p.vpp, chunks=held[0], layers=held[1]))
    return notes
