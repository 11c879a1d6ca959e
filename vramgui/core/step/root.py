"""Moments of the step set by the root (embedding, final norm, LM head) when it is large next to a decoder layer:
FSDP2's all-gather of the root at the start of forward and its reduce-scatter at the end of backward, and the
tied-weight gradient sum at the embedding's backward. Measured on two gloo ranks and under fake tensors
(bench/validate, docs/accuracy.md "Training-step peak": vocabularies of 31 to 128 times the hidden size, tied and
untied); each term is zero, with a note, where its moment does not occur.

Notation: R the root's parameters on this tensor-parallel rank (embedding + final norm + an untied LM head),
W = V·h/t the embedding matrix, Φ_layer the largest decoder layer (FSDP2's unit), N_d the data-parallel size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from vramgui.core.memo import dict_init
from vramgui.core.model_states import precision as prec
from vramgui.core.parallel.layout import ceil_div
from vramgui.core.scenario.convention import convention_of
from vramgui.core.step.blocks import blocks_of, unit_layer
from vramgui.core.terms import Derivation, Part, Term
from vramgui.core.text.message import Msg

if TYPE_CHECKING:
    from vramgui.core.step.terms import StepInputs

FSDP2_SOURCE = "torch/distributed/fsdp/_fully_shard"
_ALL_GATHER_SOURCE = f"{FSDP2_SOURCE}/_fsdp_param_group.py wait_for_unshard, all_gather_state (measured, gloo)"
_REDUCE_SCATTER_SOURCE = (f"{FSDP2_SOURCE}/_fsdp_collectives.py foreach_reduce; _fsdp_state.py "
                          "_root_post_backward_final_callback (measured, gloo's own copy left out)")
TIED_SUM_SOURCE = ("torch/csrc/autograd/input_buffer.cpp InputBuffer::add: the LM head's and the embedding's "
                   "gradients summed out of place (measured, bench/validate: fake and real tensors, FSDP2 on gloo)")


@dict_init
@dataclass(frozen=True)
class Root:
    """The root's sizes on this GPU (elements) and the byte widths of the run."""

    params: int  # R: embedding + final norm + untied LM head, / tp
    matrix: int  # W = V·h / tp
    layer: int  # Φ_layer, the largest decoder layer / tp
    tied: bool
    wb: int  # bytes per weight
    gb: int  # bytes per gradient
    n_d: int


_ZEROS: dict[tuple[str, str], Part] = {}


def _zero(key: str, why: str) -> Part:
    """0 bytes: this moment does not occur, ``why`` (one shared part per key and reason: a frozen value)."""
    found = _ZEROS.get((key, why))
    if found is None:
        found = _ZEROS[key, why] = Part.later(0, _no_moment, "", key, (why,))
    return found


def _no_moment(why: str) -> Derivation:
    return Derivation(note=Msg.of("deriv.peak_no_root_moment", why=Msg.of(why)))


def _root_derivation(n: int, note: str, t: int, *terms: tuple[int, str, int, bool]) -> Derivation:
    """Grouped terms (coefficient, symbol, quantity, divided over t) totalling ``n``: the derivations of this
    module's moments, written when first read (``Part.later``; module-level, given its values: no closure)."""
    return Derivation(tuple(Term(c * q, c, symbol, q * t if over_t else q, t if over_t and t > 1 else None,
                                 "t" if over_t and t > 1 else "", style="grouped") for c, symbol, q, over_t in terms),
                      n, note=Msg.of(note))


def fsdp2(inp: StepInputs) -> bool:
    """FSDP2's ``fully_shard`` per decoder layer plus the root: ZeRO-3 under the paper convention, without
    DeepSpeed's live-parameter window (``working_set_terms`` draws the same line)."""
    s = inp.scenario
    rules = convention_of(s)
    return (s.parallel.zero_stage == 3 and rules.uses_zero_stage and not rules.zero3_live_default
            and s.overhead.zero3_live_params is None)


_LAST: list[tuple[StepInputs, Root | str]] = []  # the step being built: its four terms ask for the same root


def root_of(inp: StepInputs) -> Root | str:
    """The root's sizes, or the id of the reason none of its moments is modelled (worked out once per step)."""
    last = _LAST[-1] if _LAST else None  # read once: another thread's step may replace it (the plan search)
    if last is not None and last[0] is inp:
        return last[1]
    root = _root_of(inp)
    _LAST[:] = [(inp, root)]
    return root


def _root_of(inp: StepInputs) -> Root | str:
    s = inp.scenario
    arch = s.model.architecture
    if arch is None:
        return "deriv.no_architecture"
    if inp.finetune is not None:
        return "deriv.peak_root_frozen"  # LoRA: the root has no gradient
    if s.parallel.pp > 1:
        return "deriv.peak_root_pipeline"  # embedding and head on different stages
    tp = s.parallel.tp
    blocks = blocks_of(arch)
    # FSDP2's unit is a whole block: an MoE block's routed experts / (ep·etp) when apart
    layer = unit_layer(s.parallel, arch)
    return Root(params=ceil_div(blocks.embedding + blocks.head, tp),
                matrix=ceil_div(arch.vocab_size * arch.hidden_size, tp), layer=layer, tied=arch.tied_embeddings,
                wb=prec.weight_bytes(s.precision), gb=prec.gradient_bytes(s.precision), n_d=max(inp.data_parallel, 1))


def root_all_gather_term(inp: StepInputs) -> Part:
    """FSDP2, start of forward: the root and the first layer unsharded, each beside its all-gather output.

    ``foreach_all_gather`` gathers a group into one flat output buffer and copies it out into the unsharded
    parameters; ``FSDPParamGroup.wait_for_unshard`` keeps that output in ``comm_ctx.all_gather_state`` until the
    next group's all-gather is waited on (``_fsdp_param_group.py``: "free the all-gather result"). So while the
    first layer is gathered, the root's unsharded parameters, its all-gather output and the layer's two copies are
    live: 2·B_w·R + 2·B_w·Φ_layer beyond the shards, before any activation."""
    key = "root_all_gather"
    if not fsdp2(inp):
        return _zero(key, "deriv.peak_root_not_fsdp2")
    root = root_of(inp)
    if isinstance(root, str):
        return _zero(key, root)
    n = 2 * root.wb * root.params + 2 * root.wb * root.layer
    return Part.later(n, _root_derivation, _ALL_GATHER_SOURCE, key,
                      (n, "deriv.peak_root_all_gather", 1, (2 * root.wb, "R", root.params, False),
                       (2 * root.wb, "Φ_layer", root.layer, False)))


def root_reduce_scatter_term(inp: StepInputs) -> Part:
    """FSDP2, end of backward: the root's post-backward reduce-scatter.

    ``foreach_reduce`` copies the root's unsharded gradients into one reduce-scatter input of R elements and
    writes the reduce-scatter output R/N_d, which becomes the root's sharded gradients (counted under gradients);
    while ``_root_post_backward_final_callback`` runs, the last gradient autograd computed, the embedding's
    (V·h), is still referenced, and so is the previous group's reduce-scatter input (``comm_ctx.
    reduce_scatter_states`` keeps ``reduce_scatter_max_input_buffers``, default 1, until a later post-backward):
    B_g·R + B_g·W + B_g·Φ_layer beyond P + O + G. gloo's reduce-scatter adds an R-sized copy inside
    ``Work.wait()`` that NCCL does not make (it writes into the output it is given): not counted."""
    key = "root_reduce_scatter"
    if not fsdp2(inp):
        return _zero(key, "deriv.peak_root_not_fsdp2")
    root = root_of(inp)
    if isinstance(root, str):
        return _zero(key, root)
    t = inp.scenario.parallel.tp
    n = root.gb * root.params + root.gb * root.matrix + root.gb * root.layer
    return Part.later(n, _root_derivation, _REDUCE_SCATTER_SOURCE, key,
                      (n, "deriv.peak_root_reduce_scatter", t, (root.gb, "R", root.params, False),
                       (root.gb, "V·h", root.matrix, True), (root.gb, "Φ_layer", root.layer, False)))


def tied_sum_copies(inp: StepInputs, root: Root) -> int:
    """How many V·h gradients the tied sum holds beyond the gradients counted as G: the LM head's (kept in
    autograd's input buffer since the start of backward), the embedding's and their out-of-place sum. The sum
    becomes the tied weight's gradient - part of G - when that gradient is new and kept whole on this GPU (one
    micro-batch, gradients not partitioned); otherwise all three are beyond G."""
    s = inp.scenario
    partitioned = fsdp2(inp) or s.parallel.zero_stage >= 2
    return 3 if partitioned or inp.accumulation > 1 else 2


def tied_sum_term(inp: StepInputs) -> Part:
    """Tied embeddings, end of backward: the LM head's weight gradient waits for the embedding's and the two are
    summed (3 × V·h·B_g live at once, one of which may be the gradient itself, ``tied_sum_copies``)."""
    key = "tied_gradient_sum"
    root = root_of(inp)
    if isinstance(root, str):
        return _zero(key, root)
    if not root.tied:
        return _zero(key, "deriv.peak_root_untied")
    k = tied_sum_copies(inp, root)
    t = inp.scenario.parallel.tp
    n = k * root.gb * root.matrix
    note = "deriv.peak_tied_sum_three" if k == 3 else "deriv.peak_tied_sum_two"
    return Part.later(n, _root_derivation, TIED_SUM_SOURCE, key, (n, note, t, (k * root.gb, "V·h", root.matrix, True)))


def tied_sum_components(inp: StepInputs, gradients: int) -> tuple[int, int]:
    """(gradients, ZeRO-3 working set) at the tied sum. Under FSDP2 the root is still gathered (B_w·R) beside the
    first layer's reduce-scatter input that FSDP2 keeps (B_g·Φ_layer, ``root_reduce_scatter_term``), and the root's
    sharded gradients do not exist yet (its reduce-scatter follows): G less B_g·R/N_d."""
    if not fsdp2(inp):
        return gradients, 0
    root = root_of(inp)
    if isinstance(root, str):
        return gradients, 0
    return (max(gradients - ceil_div(root.gb * root.params, root.n_d), 0),
            root.wb * root.params + root.gb * root.layer)
