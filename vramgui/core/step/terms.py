"""The terms of the training-step peak (``vramgui.core.step.peak``): the loss gradient, the backward's and the
optimizer's temporaries, the communication buckets, the ZeRO-3 working set and the CUDA context, each with its
derivation and source (docs/peak.md has the table).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vramgui.core.memo import dict_init
from vramgui.core.model_states import precision as prec
from vramgui.core.parallel.layout import ceil_div
from vramgui.core.scenario import architecture as am
from vramgui.core.scenario.choices import Attention, Loss, Offload, OptimizerImpl, Recompute
from vramgui.core.scenario.convention import convention_of
from vramgui.core.step.blocks import blocks_of, unit_layer
from vramgui.core.step.derivations import (
    buckets_derivation,
    bytes_derivation,
    context_derivation,
    fsdp_derivation,
    grouped_derivation,
    note_derivation,
    optimizer_derivation,
    updated_bytes,
)
from vramgui.core.terms import Derivation, Part, Term
from vramgui.core.text.message import Msg

if TYPE_CHECKING:
    from vramgui.core.activations.estimate import ActivationEstimate
    from vramgui.core.scenario.architecture import Architecture
    from vramgui.core.scenario.specs import PrecisionSpec, Scenario

MiB = 2**20
DEFAULT_CUDA_CONTEXT = 500 * MiB + 32 * MiB  # CUDA context (pytorch#107667, #28113) + cuBLAS workspace (Hopper)
DS_MAX_LIVE_PARAMETERS = 10**9  # deepspeed/runtime/zero/config.py stage3_max_live_parameters default
DS_PREFETCH_BUCKET = 5 * 10**7  # stage3_prefetch_bucket_size default
DS_REDUCE_BUCKET = 5 * 10**8  # reduce_bucket_size default
LOSS_GRAD_FP32_TENSORS = 2  # nll_loss's gradient + _log_softmax_backward_data's output, fp32 (b·s, v) each
FOR_LOOP_TEMPORARIES = 2  # torch/optim/adamw.py _single_tensor_adamw: about two of the largest tensor


@dict_init
@dataclass(frozen=True)
class TrainableStep:
    """Under LoRA / QLoRA (``vramgui.core.finetune.estimate``): only the adapters have gradients and optimizer
    states, in their own dtype; the frozen base's bytes; one quantised weight dequantised (bitsandbytes'
    ``MatMul4Bit`` / ``MatMul8bitLt`` dequantise the weight for each matmul, forward and backward)."""

    trainable: int  # adapter parameters per model-parallel rank, before data-parallel sharding
    precision: PrecisionSpec  # the adapters' precision (their dtype, the recipe and optimizer as given)
    frozen_bytes: int  # the frozen base per model-parallel rank, in its storage format
    dequant: int = 0  # bytes of the largest quantised weight in the compute dtype (0: a float base)
    largest_trainable: int = 0  # elements of the largest adapter tensor (the for-loop optimizer's temporaries)


@dict_init
@dataclass(frozen=True)
class StepInputs:
    """What the step model needs from an estimate (``vramgui.core.estimate`` builds it)."""

    scenario: Scenario
    parameters: int
    gradients: int
    optimizer_states: int
    activations: ActivationEstimate | None
    stage_params: int  # Φ held per model-parallel rank before data-parallel sharding
    data_parallel: int
    accumulation: int  # micro-batches per optimizer step on this GPU
    largest_layer: int | None  # parameters of the largest decoder layer (FSDP2's unit), None if unknown
    recompute_layer: int = 0  # one layer's saved activations without recompute (full recompute only)
    finetune: TrainableStep | None = None  # LoRA / QLoRA: what trains; None = every parameter
    experts: int = 0  # of stage_params, routed experts held apart (parallel.experts_split), sharded over N_e
    expert_data_parallel: int = 1  # N_e = GPUs/(etp·ep·pp)

    @property
    def trained(self) -> int:
        """Φ the optimizer updates on this model-parallel rank (the adapters under LoRA)."""
        return self.stage_params if self.finetune is None else self.finetune.trainable

    @property
    def trained_precision(self) -> PrecisionSpec:
        return self.scenario.precision if self.finetune is None else self.finetune.precision

    def frozen(self, n: int) -> int:
        """Bytes of ``n`` of this rank's parameters as the base stores them (LoRA: in proportion to the base)."""
        assert self.finetune is not None
        return ceil_div(n * self.finetune.frozen_bytes, max(self.stage_params, 1))


# ------------------------------------------------------------------------------------------------ terms


def _bytes_term(key: str, n: int, source: str) -> Part:
    """An explicit byte amount (``comm_buffers``)."""
    return Part.later(n, bytes_derivation, source, key, (key, n))


_ZEROS: dict[tuple[Any, ...], Part] = {}


def _zero(key: str, note: str, source: str = "", **params: Any) -> Part:
    """0 bytes with a note: one shared part per (key, note, source, params), as a frozen value may be."""
    args = (note, tuple(params.items()))
    found = _ZEROS.get((key, source, args))
    if found is None:
        if len(_ZEROS) >= 256:  # bounded (the notes are a fixed set; their params are messages)
            _ZEROS.clear()
        found = _ZEROS[key, source, args] = Part.later(0, note_derivation, source, key, args)
    return found


def loss_term(inp: StepInputs) -> Part:
    s = inp.scenario
    act = inp.activations
    if s.training.loss == Loss.CHUNKED:
        return _zero("loss_gradient", "deriv.peak_loss_chunked", "Liger FusedLinearCrossEntropy; Megatron fused CE")
    if act is None or s.model.architecture is None:
        return _zero("loss_gradient", "deriv.not_estimable", reason=Msg.of("deriv.no_architecture"))
    if act.stage != s.parallel.pp - 1:
        return _zero("loss_gradient", "deriv.peak_loss_not_here")
    # context parallelism: this GPU computes the loss of its s/cp tokens
    b, v, t = s.training.micro_batch, s.model.architecture.vocab_size, s.parallel.tp
    seq = s.training.seq_len // s.parallel.cp
    per = ceil_div(v, t)
    n = LOSS_GRAD_FP32_TENSORS * prec.FP32 * b * seq * per
    return Part.later(n, grouped_derivation, "transformers loss_utils.ForCausalLMLoss (measured, bench/validate)",
                      "loss_gradient", (n, LOSS_GRAD_FP32_TENSORS * prec.FP32, "b·s·v", b * seq * v, t,
                                        "deriv.peak_loss_hf"))


def backward_term(inp: StepInputs) -> Part:
    s = inp.scenario
    arch = s.model.architecture
    if inp.activations is None or arch is None:
        return _zero("backward_transient", "deriv.not_estimable", reason=Msg.of("deriv.no_architecture"))
    from vramgui.core.scenario.specs import DTYPE_BYTES

    bb = DTYPE_BYTES[s.precision.dtype]
    b, seq, t = s.training.micro_batch, s.training.seq_len // s.parallel.cp, s.parallel.tp
    if s.training.recompute == Recompute.FULL:
        # the layer replayed (its saved activations without recompute) and, while it is back-propagated, its
        # largest pair of gradient temporaries: the MLP's two (b·s, f) gradients, or with eager attention the
        # softmax backward's two (a, s, s) gradients (measured: bench/validate, llama-gqa eager, 1.001)
        layer = inp.recompute_layer
        mlp = 2 * bb * b * seq * ceil_div(_mlp_width(arch), t)
        attn = 2 * bb * b * ceil_div(arch.num_heads, t) * seq * seq if s.training.attention == Attention.EAGER else 0
        terms = [Term(layer, symbol="A_layer", style="bytes")]
        if attn > mlp:
            terms.append(Term(attn, 2 * bb, "a·s²·b", arch.num_heads * seq * seq * b, t if t > 1 else None,
                              "t" if t > 1 else "", style="grouped"))
        else:
            terms.append(Term(mlp, 2 * bb, "b·s·f", b * seq * _mlp_width(arch), t if t > 1 else None,
                              "t" if t > 1 else "", style="grouped"))
        n = sum(x.bytes for x in terms)
        deriv = Derivation(tuple(terms), n, note=Msg.of("deriv.peak_recompute_layer", layer=layer))
        return _with_dequant(inp, Part(
            n, deriv, "torch.utils.checkpoint replays one layer in backward (measured, bench/validate)",
            "backward_transient"))
    # without recompute: the gradient flowing into and out of the first layer (2·B·b·s·h)
    rows = b * seq
    n = 2 * bb * rows * arch.hidden_size
    return _with_dequant(inp, Part.later(n, grouped_derivation, "measured (bench/validate)", "backward_transient",
                                         (n, 2 * bb, "b·s·h", rows * arch.hidden_size, 1,
                                          "deriv.peak_backward_grads")))


def _with_dequant(inp: StepInputs, t: Part) -> Part:
    """A quantised base adds one weight dequantised to the compute dtype while its layer is back-propagated."""
    if inp.finetune is None or not inp.finetune.dequant:
        return t
    d = inp.finetune.dequant
    terms = (*t.deriv.terms, Term(d, symbol="W_dequant", label=Msg.of("deriv.peak_dequant"), style="bytes"))
    n = t.bytes + d
    return Part(n, Derivation(terms, n, note=t.deriv.note),
                t.source + "; bitsandbytes MatMul4Bit / MatMul8bitLt backward (measured)", t.key)


def _mlp_width(arch: Architecture) -> int:
    """The MLP's intermediate width one token sees: the dense FFN, or k experts (+ shared experts) in MoE."""
    if not arch.is_moe:
        return arch.ffn_size
    moe = (arch.moe_ffn_size or arch.ffn_size) * arch.experts_per_token
    shared = arch.shared_expert_ffn_size or (arch.moe_ffn_size or arch.ffn_size) * arch.shared_experts
    return max(arch.ffn_size if arch.dense_layers else 0, moe + shared)


def largest_tensor(arch: Architecture) -> int:
    """Elements of the largest parameter tensor: the embedding/LM head matrix or a block's largest weight."""
    sizes = [arch.vocab_size * arch.hidden_size]
    first = am.first_moe_block(arch)
    for index in {0, first if first is not None else 0}:
        sizes += [max(m) for m in am.layer_modules(arch, index) if m]
    return max(sizes)


def optimizer_term(inp: StepInputs) -> Part:
    s = inp.scenario
    src = "torch/optim/adamw.py (measured, bench/validate)"
    rules = convention_of(s)
    if s.offload.optimizer == Offload.CPU and rules.models_offload:
        return _zero("optimizer_temporaries", "deriv.peak_no_temporaries", src,
                     why=Msg.of("deriv.peak_optimizer_on_host"))
    precision = inp.trained_precision
    info = prec.OPTIMIZER_INFO[precision.optimizer]
    sharded = s.parallel.zero_stage >= 1 or (not rules.uses_zero_stage and s.parallel.distributed_optimizer)
    n_shard = inp.data_parallel if sharded and inp.data_parallel > 1 else 1
    phi = inp.trained
    updated = ceil_div(phi, n_shard)
    experts = inp.experts if inp.finetune is None else 0
    if experts:  # the routed experts' states shard over N_e (parallel.experts_split): what this GPU updates
        n_e = inp.expert_data_parallel if sharded else 1
        phi = phi - experts
        updated = ceil_div(phi, n_shard) + ceil_div(experts, n_e)
    width = prec.state_bytes(precision) // info.states if info.states and info.fixed_state_bytes is None else 0
    # DeepSpeed steps with its FusedAdam (deepspeed/ops/adam/fused_adam.py, the default for "Adam"/"AdamW" on GPU)
    # and Megatron-LM with TransformerEngine's / Apex's FusedAdam (megatron/core/optimizer): no temporaries
    impl = OptimizerImpl.FUSED if rules.fused_optimizer else precision.optimizer_impl
    n_e = inp.expert_data_parallel if sharded else 1
    foreach = bool(width) and impl == OptimizerImpl.FOREACH
    big = 0
    if width and impl == OptimizerImpl.FOR_LOOP:
        arch = s.model.architecture
        big = largest_tensor(arch) if arch is not None else inp.largest_layer or 0
        if inp.finetune is not None:
            big = inp.finetune.largest_trainable
        big = min(ceil_div(big, s.parallel.tp), updated)
    for_loop = bool(width) and impl == OptimizerImpl.FOR_LOOP
    # the low-precision gradient partition cast to fp32 for the master update (Megatron keeps fp32 main grads:
    # already part of its optimizer states)
    cast = bool(prec.master_bytes(precision)) and not rules.main_grad_buffers
    if not (foreach or for_loop or cast):
        why = "deriv.peak_fused_optimizer" if impl == OptimizerImpl.FUSED else "deriv.peak_no_state"
        return _zero("optimizer_temporaries", "deriv.peak_no_temporaries", src, why=Msg.of(why))
    n = ((sum(updated_bytes(width, phi, n_shard, experts, n_e)) if foreach else 0)
         + (FOR_LOOP_TEMPORARIES * width * big if for_loop else 0)
         + (sum(updated_bytes(prec.FP32, phi, n_shard, experts, n_e)) if cast else 0))
    return Part.later(n, optimizer_derivation, src, "optimizer_temporaries",
                      (n, foreach, for_loop, cast, width, big, phi, n_shard, experts, n_e, FOR_LOOP_TEMPORARIES))


def comm_terms(inp: StepInputs) -> tuple[Part, int, bool]:
    """(the buckets' term, bytes live during backward only, whether gradients live inside the buckets)."""
    s = inp.scenario
    ov, par = s.overhead, s.parallel
    if ov.comm_buffers is not None:
        return _bytes_term("comm_buffers", ov.comm_buffers, "explicit input"), 0, False
    if par.num_gpus == 1 or inp.data_parallel == 1:
        return _zero("comm_buffers", "deriv.peak_no_buckets"), 0, False
    if convention_of(s).main_grad_buffers:
        return _zero("comm_buffers", "deriv.peak_megatron_buffers", "megatron/core/distributed"), 0, False
    gb = prec.gradient_bytes(inp.trained_precision)
    if par.zero_stage == 0:  # PyTorch DDP: buckets the size of the gradients, allocated at wrap
        n, trained = gb * inp.trained, inp.trained
        src = "torch/nn/parallel/distributed.py _Reducer (measured, gloo, bench/validate)"
        note = "deriv.peak_buckets_no_sync" if par.ddp_bucket_view and inp.accumulation > 1 else None
        return (Part.later(n, buckets_derivation, src, "comm_buffers", (n, gb, "Φ", trained, "sci", note)),
                0, par.ddp_bucket_view)
    if par.zero_stage == 3 and s.convention == "paper" and ov.reduce_bucket is None:
        return _zero("comm_buffers", "deriv.peak_no_buckets"), 0, False  # FSDP2: in the working set
    bucket = DS_REDUCE_BUCKET if ov.reduce_bucket is None else ov.reduce_bucket
    elems = min(bucket, inp.trained)
    n = gb * elems
    src = "deepspeed/runtime/zero/stage_1_and_2.py backward(): ipg_buffer of reduce_bucket_size"
    return (Part.later(n, buckets_derivation, src, "comm_buffers", (n, gb, "reduce_bucket", elems, "grouped", None)),
            n, False)


def working_set_terms(inp: StepInputs) -> tuple[Part, int, int, int]:
    """(the ZeRO-3 working set at its largest, bytes live in forward, at the start of backward, at its end)."""
    s = inp.scenario
    par, ov = s.parallel, s.overhead
    if par.zero_stage != 3 or not convention_of(s).uses_zero_stage:
        return _zero("zero3_working_set", "deriv.peak_no_working_set"), 0, 0, 0
    wb, gb = prec.weight_bytes(s.precision), prec.gradient_bytes(s.precision)
    phi = inp.stage_params
    if convention_of(s).zero3_live_default or ov.zero3_live_params is not None:
        if inp.finetune is not None:  # the gathered parameters in the base's storage format
            wb = max(1, inp.frozen(phi) // max(phi, 1))
        live = min(DS_MAX_LIVE_PARAMETERS if ov.zero3_live_params is None else ov.zero3_live_params, phi)
        pre = min(DS_PREFETCH_BUCKET if ov.zero3_prefetch is None else ov.zero3_prefetch, phi)
        terms = (Term(wb * live, wb, "live_params", live, style="grouped"),
                 Term(wb * pre, wb, "prefetch_bucket", pre, style="grouped"))
        n = sum(t.bytes for t in terms)
        src = "deepspeed/runtime/zero/config.py: stage3_max_live_parameters, stage3_prefetch_bucket_size"
        return Part(n, Derivation(terms, n), src, "zero3_working_set"), n, n, n
    arch = s.model.architecture
    layer = inp.largest_layer
    if arch is not None:  # the largest block; an MoE block's routed experts / (ep·etp) when they are held apart
        layer = unit_layer(par, arch)
    if not layer:
        return _zero("zero3_working_set", "deriv.peak_working_set_unknown"), 0, 0, 0
    n_d = max(inp.data_parallel, 1)
    root = root_params = 0
    if arch is not None:  # embedding, final norm and head: unsharded from forward into backward
        blocks = blocks_of(arch)
        whole = blocks.embedding + blocks.head
        if par.pp > 1:  # one stage holds the embedding (first) or the head (last), not both (not measured)
            whole = max(blocks.embedding, blocks.head_tied)
        root_params = ceil_div(whole, par.tp)
        # the unsharded copy is a storage of its own beside the shard (FSDPParam._unsharded_param), so all of it
        # counts (measured: the gathered parameters at every FSDP2 peak are B_w·R)
        root = wb * root_params
    if inp.finetune is not None:
        return _lora_working_set(inp, layer, root_params * par.tp, n_d)
    # end of forward and start of backward: the root and one layer, the last one at the start of backward (its
    # all-gather issued by FSDP2's backward prefetch) - measured to the byte at the loss gradient
    gathered = wb * layer
    units = 2 * wb * layer - 2 * ceil_div(wb * layer, n_d)  # current + prefetched layer, beyond their shards
    grads = 2 * gb * layer  # the layer's unsharded gradients and the reduce-scatter input
    fwd, end = root + gathered, root + units + grads
    src = "torch.distributed.fsdp fully_shard per layer + root (FSDPMemTracker, gloo, bench/validate)"
    return (Part.later(end, fsdp_derivation, src, "zero3_working_set", (end, root, units, grads, wb, gb,
                                                                          root_params, layer)), fwd, fwd, end)


def _lora_working_set(inp: StepInputs, layer: int, root_params: int, n_d: int) -> tuple[Part, int, int, int]:
    """FSDP2 over a frozen base: the root and two layers unsharded in the base's storage format; backward adds only
    the adapters' unsharded gradients of one layer (twice: gradients and the reduce-scatter input)."""
    ft = inp.finetune
    assert ft is not None
    tp = inp.scenario.parallel.tp
    root_b = inp.frozen(ceil_div(root_params, tp))
    root = root_b - ceil_div(root_b, n_d)
    layer_b = inp.frozen(layer)
    units = 2 * layer_b - 2 * ceil_div(layer_b, n_d)
    gb = prec.gradient_bytes(ft.precision)
    adapters = ceil_div(layer * ft.trainable, max(inp.stage_params, 1))
    grads = 2 * gb * adapters
    terms = [Term(root, style="bytes", symbol="root")] if root else []
    terms += [Term(units, 2, "W_layer", layer_b, style="bytes"), Term(grads, 2 * gb, "Φ_A,layer", adapters,
                                                                      style="grouped")]
    bwd = root + units + grads
    src = "torch.distributed.fsdp fully_shard per layer + root, frozen base (not measured)"
    return Part(bwd, Derivation(tuple(terms), bwd), src, "zero3_working_set"), root + units, bwd, bwd


def context_term(inp: StepInputs) -> Part:
    given = inp.scenario.overhead.cuda_context
    if given is not None:
        return Part(given, Derivation(note=Msg.of("deriv.cuda_context_given"), total=given,
                                      terms=(Term(given, symbol="cuda_context", style="bytes"),) if given else ()),
                    "explicit input", "cuda_context")
    return _DEFAULT_CONTEXT


_DEFAULT_CONTEXT = Part.later(DEFAULT_CUDA_CONTEXT, context_derivation,  # one frozen value for every estimate
                              "pytorch/pytorch#107667, #28113; cuBLAS docs cublasSetWorkspace", "cuda_context",
                              (DEFAULT_CUDA_CONTEXT,))
