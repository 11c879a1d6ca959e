"""One training step on one GPU: what is live at each moment, and the peak that decides an out-of-memory error.

The per-GPU sum of the conventions (P + G + O + A, ``Estimate.per_gpu_total``) is no moment of a real step. A
step of PyTorch training with ``optimizer.zero_grad(set_to_none=True)`` goes through these moments (measured on
HF models with a live-bytes tracker and PyTorch's ``MemTracker`` under ``FakeTensorMode``, bench/validate;
docs/accuracy.md, "Peak of a training step"):

* **end of forward**: P + O + A (no gradients yet in the steady state; with gradient accumulation the
  gradients of the earlier micro-batches are live, G);
* **start of backward**: the same + the loss gradient. HF's ``ForCausalLMLoss`` keeps the fp32 log-softmax
  (part of A) and its backward allocates two more fp32 (b·s, v) tensors (the gradient out of ``nll_loss`` and
  the output of ``_log_softmax_backward_data``): 8·b·s·v/t bytes. A chunked cross-entropy (Liger, Megatron's
  fused loss) keeps neither;
* **end of backward**: P + O + G + the backward's temporaries (under full recompute the first layer is replayed
  and back-propagated: its saved activations without recompute + its largest pair of gradient temporaries, the
  MLP's (b·s, f) or eager attention's (a, s, s); about 1.3x the layer, measured);
* **optimizer step**: P + G + O + the optimizer's temporaries: foreach AdamW (PyTorch's default on CUDA,
  torch/optim/adamw.py ``_multi_tensor_adamw``) allocates one temporary the size of ``exp_avg_sq`` over the
  parameters it updates; ``fused=True`` none; the for-loop about two of the largest parameter tensor. The mixed
  recipe (fp32 master weights) also casts the gradient partition to fp32 for the update (DeepSpeed
  stage_1_and_2.py ``step``: ``single_grad_partition ... .to(fp32)``): + 4 bytes per updated parameter.

On the first step the optimizer states are created inside ``step()``, so its forward and backward hold no O; the
first step's peak is never above the steady state's, but both are listed. Beside these, live all the time: the
communication buckets (PyTorch DDP's reducer allocates buckets the size of the gradients when the model is
wrapped, torch/nn/parallel/distributed.py ``_Reducer``; with ``gradient_as_bucket_view`` the gradients are views
into them; DeepSpeed ZeRO-1/2 allocates a ``reduce_bucket_size`` buffer in ``backward()``, stage_1_and_2.py), the
ZeRO-3 working set (FSDP2 ``fully_shard`` per decoder layer plus the root: the root's parameters stay unsharded
from forward into backward, the current and prefetched layers are unsharded, backward adds the layer's unsharded
gradients and the reduce-scatter input, torch/distributed/fsdp/_fully_shard; DeepSpeed ZeRO-3:
``stage3_max_live_parameters`` + ``stage3_prefetch_bucket_size`` gathered parameters and a ``reduce_bucket_size``
buffer, deepspeed/runtime/zero/config.py defaults 1e9, 5e7, 5e8), the CUDA context (default 500 MiB: 300 MB with
lazy module loading since CUDA 11.7, pytorch/pytorch#107667, 200-700 MB reported in #28113) and the cuBLAS
workspace (32 MiB on Hopper, the cuBLAS documentation of ``cublasSetWorkspace``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from vramgui.core.memo import dict_init
from vramgui.core.scenario.convention import convention_of
from vramgui.core.step.components import PEAK_KEYS
from vramgui.core.step.root import root_all_gather_term, root_reduce_scatter_term, tied_sum_components, tied_sum_term
from vramgui.core.step.terms import (
    DEFAULT_CUDA_CONTEXT,
    StepInputs,
    backward_term,
    comm_terms,
    context_term,
    loss_term,
    optimizer_term,
    working_set_terms,
)
from vramgui.core.terms import Part
from vramgui.core.text.message import Msg, render

__all__ = ["DEFAULT_CUDA_CONTEXT", "PEAK_KEYS", "PHASES", "Part", "Phase", "StepInputs", "StepPeak", "step_peak"]

# ``phase`` below writes a moment's bytes as one tuple in this order (a dict per moment cost more than its sums)
_ROW_ORDER = ("parameters", "gradients", "optimizer_states", "activations", "loss_gradient", "backward_transient",
              "optimizer_temporaries", "comm_buffers", "zero3_working_set", "root_all_gather", "tied_gradient_sum",
              "root_reduce_scatter", "cuda_context", "other")
if PEAK_KEYS != _ROW_ORDER:  # pragma: no cover - a new component needs its place in ``phase``
    raise ImportError("step.peak writes its rows in an order that PEAK_KEYS no longer has")

PHASES = ("root_all_gather", "forward", "loss_backward", "forward_accum", "loss_backward_accum", "backward",
          "tied_gradient_sum", "root_reduce_scatter", "optimizer_step")


@dataclass(frozen=True)
class Phase:
    """One moment of a step: the bytes of every live component (``PEAK_KEYS`` order)."""

    name: str  # one of PHASES
    step: str  # "first" | "steady"
    components: tuple[tuple[str, int], ...]
    bytes: int = field(init=False, compare=False)  # their sum, computed once (the peak compares every phase's)

    def __post_init__(self) -> None:
        object.__setattr__(self, "bytes", sum([n for _, n in self.components]))

    def get(self, key: str) -> int:
        for k, n in self.components:
            if k == key:
                return n
        return 0

    @property
    def label_msg(self) -> Msg:
        return Msg.of("phase." + self.name)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "step": self.step, "bytes": self.bytes, "components": dict(self.components)}


@dict_init
@dataclass(frozen=True)
class StepPeak:
    """The peak (``bytes`` at ``phase`` of the ``step``) and every moment of the step: ``rows`` holds each phase's
    bytes in ``PEAK_KEYS`` order; the ``Phase`` objects are made from them when first read (a sweep or a solve
    reads only the peak)."""

    bytes: int
    phase: str
    step: str
    rows: tuple[tuple[str, str, tuple[int, ...]], ...]  # (name, step, bytes of each PEAK_KEYS component)
    terms: tuple[Part, ...]  # the step's own terms (loss gradient, temporaries, buckets, ...)
    notes: tuple[Msg, ...] = field(default=())

    @cached_property
    def phases(self) -> tuple[Phase, ...]:
        return tuple(Phase(name, step, tuple(zip(PEAK_KEYS, values, strict=True))) for name, step, values in self.rows)

    @property
    def at(self) -> Phase:
        for p in self.phases:
            if p.name == self.phase and p.step == self.step:
                return p
        raise LookupError(self.phase)  # pragma: no cover - built together

    @property
    def components(self) -> dict[str, int]:
        return dict(self.at.components)

    @property
    def at_msg(self) -> Msg:
        return Msg.of("peak.at", phase=Msg.of("phase." + self.phase), step=Msg.of("step." + self.step))

    def term(self, key: str) -> Part | None:
        for t in self.terms:
            if t.key == key:
                return t
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"bytes": self.bytes, "phase": self.phase, "step": self.step, "at": render(self.at_msg),
                "components": self.components, "phases": [p.to_dict() for p in self.phases],
                "formulas": {t.key: t.formula for t in self.terms},
                "derivations": {t.key: t.derivation for t in self.terms},
                "sources": {t.key: t.source for t in self.terms}}


# ------------------------------------------------------------------------------------------------ phases


def step_peak(inp: StepInputs) -> StepPeak:
    s = inp.scenario
    a = inp.activations.total if inp.activations is not None else 0
    loss, back, opt, ctx = loss_term(inp), backward_term(inp), optimizer_term(inp), context_term(inp)
    comm, comm_bwd, grads_in_buckets = comm_terms(inp)
    z, z_fwd, z_bwd, z_end = working_set_terms(inp)
    gather, tied, scatter = root_all_gather_term(inp), tied_sum_term(inp), root_reduce_scatter_term(inp)
    persistent_comm = comm.bytes - comm_bwd
    g = 0 if grads_in_buckets else inp.gradients
    # DDP with gradient_as_bucket_view under no_sync (the earlier micro-batches of an accumulation): the reducer
    # leaves the gradients as autograd made them and copies each into its bucket view only in the synced backward
    # (reducer.cpp mark_variable_ready_dense), so the later micro-batches hold the gradients beside the buckets
    g_accum = inp.gradients if grads_in_buckets else g
    # Megatron-Core's DDP allocates one contiguous gradient buffer when the model is wrapped and zeroes it in place
    # each step (megatron/core/distributed/param_and_grad_buffer.py: ``self.grad_data = torch.zeros(...)``,
    # ``zero_grad_buffer``): its gradients are live in every phase, the forward ones included
    always_grads = convention_of(s).main_grad_buffers
    extra = s.overhead.extra
    params, states, context = inp.parameters, inp.optimizer_states, ctx.bytes

    rows: list[tuple[str, str, tuple[int, ...]]] = []
    # each moment's bytes in _ROW_ORDER: parameters, gradients, optimizer states, activations, loss gradient,
    # backward temporaries, optimizer temporaries, buckets, ZeRO-3 working set, root all-gather, tied gradient sum,
    # root reduce-scatter, CUDA context, other. Buckets: the persistent ones, plus those of backward from the loss
    # gradient to the end of backward; gradients: none in forward (Megatron's buffer always), those of the earlier
    # micro-batches in the accumulated forwards, all from backward on.
    p, c, x, lg, bt, ot = params, context, extra, loss.bytes, back.bytes, opt.bytes
    pc, pcb = persistent_comm, persistent_comm + comm_bwd
    g_fwd = g if always_grads else 0
    accum = inp.accumulation > 1
    tied_g, tied_z = tied_sum_components(inp, g)
    for step in ("first", "steady"):
        o = states if step == "steady" else 0  # the first step's states are made inside step()
        if gather.bytes:  # FSDP2: the root gathered before the first activation (each micro-batch)
            rows.append(("root_all_gather", step, (p, g_accum if accum or always_grads else 0, o, 0, 0, 0, 0, pc, 0,
                                                   gather.bytes, 0, 0, c, x)))
        rows.append(("forward", step, (p, g_fwd, o, a, 0, 0, 0, pc, z_fwd, 0, 0, 0, c, x)))
        rows.append(("loss_backward", step, (p, g_fwd, o, a, lg, 0, 0, pcb, z_bwd, 0, 0, 0, c, x)))
        if accum:
            rows.append(("forward_accum", step, (p, g_accum, o, a, 0, 0, 0, pc, z_fwd, 0, 0, 0, c, x)))
            rows.append(("loss_backward_accum", step, (p, g_accum, o, a, lg, 0, 0, pcb, z_bwd, 0, 0, 0, c, x)))
        rows.append(("backward", step, (p, g, o, 0, 0, bt, 0, pcb, z_end, 0, 0, 0, c, x)))
        if tied.bytes:
            rows.append(("tied_gradient_sum", step, (p, tied_g, o, 0, 0, 0, 0, pcb, tied_z, 0, tied.bytes, 0, c, x)))
        if scatter.bytes:
            rows.append(("root_reduce_scatter", step, (p, g, o, 0, 0, 0, 0, pcb, 0, 0, 0, scatter.bytes, c, x)))
        rows.append(("optimizer_step", step, (p, g, states, 0, 0, 0, ot, pc, 0, 0, 0, 0, c, x)))
    best, peak = rows[0], sum(rows[0][2])
    for row in rows[1:]:  # the latest of equal peaks: the steady state over the first step
        total = sum(row[2])
        if total >= peak:
            best, peak = row, total
    notes: list[Msg] = []
    if inp.activations is None:
        notes.append(Msg.of("note.peak_without_activations"))
    if s.parallel.pp > 1:
        notes.append(Msg.of("note.peak_pipeline"))
    terms = (loss, back, opt, comm, z, gather, tied, scatter, ctx)
    return StepPeak(peak, best[0], best[1], tuple(rows), terms, tuple(notes))
