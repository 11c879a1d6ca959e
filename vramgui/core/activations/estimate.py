"""Activation memory per GPU: what autograd keeps for backward at the end of the forward pass.

``estimate_activations`` counts, for the most loaded pipeline stage, the saved tensors of every micro-batch in
flight there (1F1B: stage i holds p - i micro-batches, so the first stage holds p micro-batches of L/p layers,
about L layers' worth - Korthikanti et al. 2022, Section 4.2.3), plus the embedding terms on the first stage and
the final norm, logits and loss terms on the last. Two profiles:

* ``hf`` - Hugging Face transformers' implementations, tensor by tensor (``activations_hf``), calibrated
  against measured models (bench/validate, docs/accuracy.md);
* ``fused`` - Megatron-style fused kernels after Korthikanti et al. 2022 (``activations_fused``).

The transient peak during backward (one layer recomputed under full recompute, gradients of the logits) is not
part of this figure; see docs/activations.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from vramgui.core.activations import fp8, window
from vramgui.core.activations import fused as activations_fused
from vramgui.core.activations import hf as activations_hf
from vramgui.core.activations import lora as activations_lora
from vramgui.core.activations.common import RawTerm, Shape
from vramgui.core.memo import dict_init
from vramgui.core.parallel.layout import batch_parallel_size, ceil_div, rank_chunks
from vramgui.core.scenario.architecture import FAMILIES, Architecture, moe_blocks_between, sliding_blocks_between
from vramgui.core.scenario.choices import Attention, Implementation, Recompute
from vramgui.core.scenario.specs import ATTENTION, DTYPE_BYTES, IMPLEMENTATIONS, RECOMPUTE, ParallelSpec, TrainingSpec
from vramgui.core.terms import Derivation, Term
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg, english, render


@dict_init
@dataclass(frozen=True)
class ActivationTerm:
    """One group of saved tensors on the most loaded GPU; ``bytes`` already counts layers and micro-batches.
    ``key`` (``layers.qkv_input``: where, then the ``RawTerm`` key) is its identity; ``name`` is for display.
    ``counts`` are the ``RawTerm``s merged into it with how many times each is held: the name and the formula
    are written from them when asked for (most estimates are never shown)."""

    key: str
    bytes: int
    place: str  # "layers", "embedding" or "output"
    counts: tuple[tuple[int, RawTerm], ...]

    @property
    def name(self) -> str:
        return f"{self.place}: {self.counts[0][1].name}"

    @property
    def formula(self) -> str:
        return " + ".join(f"{count}×({raw.formula})" for count, raw in self.counts)


@dict_init
@dataclass(frozen=True)
class StageHeld:
    """What the most loaded stage holds: the raw terms of one micro-batch (``profile_terms``) and how many times
    each list is held (``_stage_terms`` merges them into ``ActivationTerm``s)."""

    dense: list[RawTerm]
    moe: list[RawTerm] | None
    n_dense: int
    n_moe: int
    n_inputs: int
    inputs: list[RawTerm]
    outputs: list[RawTerm]
    sliding: list[RawTerm]  # what a sliding-window layer keeps beyond its kind's terms
    n_sliding: int

    def total(self) -> int:
        """The sum of the merged terms' bytes, without merging them (a count of 0 holds nothing)."""
        return (_held(self.dense, self.n_dense) + _held(self.moe, self.n_moe) + _held(self.sliding, self.n_sliding)
                + _held(self.inputs, self.n_inputs) + _held(self.outputs, 1))

    def terms(self) -> tuple[ActivationTerm, ...]:
        return tuple(_stage_terms(self.dense, self.moe, self.n_dense, self.n_moe, self.n_inputs, self.inputs,
                                  self.outputs, self.sliding, self.n_sliding))


def _held(terms: list[RawTerm] | None, count: int) -> int:
    return count * _sum(terms) if count > 0 else 0


@dict_init
@dataclass(frozen=True)
class ActivationEstimate:
    """``total`` = sum of ``terms`` bytes; ``per_layer`` = one layer of one micro-batch (the largest layer kind);
    ``layers`` = layer activations held on the stage (layers on the stage x micro-batches in flight). ``terms``
    are merged from ``held`` when first read (most estimates are never shown term by term)."""

    total: int
    per_layer: int
    layers: int
    held: StageHeld = field(compare=False, repr=False)
    # ``_formula``'s arguments: the formula is written when first read (``formula_msg``). Not compared: they hold
    # the whole shape, fields the formula does not read included (amp in fp32 changes nothing else)
    formula_args: tuple[Any, ...] = field(repr=False, compare=False)
    source: str
    stage: int = 0  # index of the most loaded pipeline stage
    in_flight: int = 1  # micro-batches whose activations that stage holds

    @cached_property
    def terms(self) -> tuple[ActivationTerm, ...]:
        return self.held.terms()

    @cached_property
    def formula_msg(self) -> Msg:
        return _formula(*self.formula_args)

    def derivation(self) -> Derivation:
        """"32 layers × 134.2 MB + 8.94 GB outside the layers (embedding, logits, loss) = 13.24 GB": the per-layer
        figure with enough digits that the product can be checked by hand, and the embedding/logits/loss terms
        named rather than "rest"."""
        in_layers = self.layers * self.per_layer
        outside = self.total - in_layers
        layers = Term(in_layers, self.layers, quantity=self.per_layer, style="fine_bytes",
                      label=Msg.of("deriv.layers"))
        if outside < 0:  # layer kinds differ (e.g. dense + MoE layers): per_layer is the largest kind
            return Derivation((layers,), self.total, formula=self.formula_msg, shape=Msg.of("deriv.layers_differ"))
        rest = Term(outside, style="fine_bytes", label=Msg.of("deriv.outside_layers"))
        return Derivation((layers, rest), self.total, formula=self.formula_msg)

    @property
    def formula(self) -> str:
        """The formula in English (``formula_msg`` rendered)."""
        return render(self.formula_msg, english)


def estimate_activations(
    arch: Architecture, training: TrainingSpec, parallel: ParallelSpec, dtype: str, amp: bool = False,
    lora: activations_lora.LoraActs | None = None, fp8_recipe: str = "none",
) -> ActivationEstimate:
    """Bytes per GPU that autograd keeps at the end of the forward pass (see module docstring). ``lora``: the
    adapters over a frozen base (``activations_lora``; the ``hf`` profile only). ``fp8_recipe``: the FP8 Linears'
    inputs saved in FP8 (``vramgui.core.model_states.fp8``; the ``fused`` profile only)."""
    _validate(arch, training, parallel, dtype)
    sh = Shape(
        b=training.micro_batch, s=ceil_div(training.seq_len, parallel.cp), h=arch.hidden_size, a=arch.num_heads,
        kv=arch.kv_heads, d=arch.head_size, v=arch.vocab_size, t=parallel.tp, sp=bool(parallel.sp),
        dtype_bytes=DTYPE_BYTES[dtype], attention=training.attention, recompute=training.recompute,
        loss=training.loss, amp=amp, **_routing(training, parallel),
    )
    gpt = arch.family == "gpt"
    fused = training.implementation == Implementation.FUSED
    profile = profile_terms(arch, sh, fused, lora, fp8_recipe)
    dense, moe_layer, inputs, outputs, sliding = profile
    s_dense, s_moe, s_inputs, s_outputs, s_sliding = _profile_sums(profile)

    chunks = rank_chunks(arch.num_layers, parallel)
    flights = _chunk_flights(training, parallel)
    last = len(chunks) - 1
    best: tuple[int, int, int, int, int, int, int] | None = None
    for i, ranges in enumerate(chunks):
        counts = flights[i]
        n_all = n_moe = n_slide = 0
        for (a, b), c in zip(ranges, counts, strict=True):
            n_all += (b - a) * c
            n_moe += moe_blocks_between(arch, a, b) * c
            if sliding:
                n_slide += sliding_blocks_between(arch, a, b) * c
        # StageHeld.total() of this stage, from the cached sums (a count of 0 holds nothing)
        n_inputs = counts[0] if i == 0 else 0
        has_outputs = i == last and counts[-1]
        total = (_held_sum(s_dense, n_all - n_moe) + _held_sum(s_moe, n_moe) + _held_sum(s_sliding, n_slide)
                 + _held_sum(s_inputs, n_inputs) + (s_outputs if has_outputs else 0))
        if best is None or total > best[0]:
            best = (total, i, n_all, sum(counts), n_moe, n_slide, n_inputs)
    assert best is not None
    total, stage, held, m, n_moe, n_slide, n_inputs = best
    on_stage = StageHeld(dense, moe_layer, held - n_moe, n_moe, n_inputs, inputs if stage == 0 else [],
                         outputs if stage == last and flights[stage][-1] else [], sliding, n_slide)
    per_layer = max(s_dense, s_moe) + s_sliding
    return ActivationEstimate(
        total=total, per_layer=per_layer, layers=held, held=on_stage,
        formula_args=(sh, gpt, fused and fp8_recipe == "none", held // max(m, 1), m, len(chunks), arch),
        source=activations_fused.SOURCE if fused else activations_hf.SOURCE, stage=stage, in_flight=m,
    )


def _held_sum(total: int, count: int) -> int:
    return count * total if count > 0 else 0


Profile = tuple[list[RawTerm], list[RawTerm] | None, list[RawTerm], list[RawTerm], list[RawTerm]]
_SUMS: dict[int, tuple[Profile, tuple[int, int, int, int, int]]] = {}


def _profile_sums(profile: Profile) -> tuple[int, int, int, int, int]:
    """The bytes of each of ``profile_terms``'s lists, summed once per shape: looked up by the identity of the
    cached tuple ``profile_terms`` returns, kept beside its sums so that the id cannot be reused while listed."""
    hit = _SUMS.get(id(profile))
    if hit is not None and hit[0] is profile:
        return hit[1]
    dense, moe, inputs, outputs, sliding = profile
    sums = (_sum(dense), _sum(moe) if moe else 0, _sum(inputs), _sum(outputs), _sum(sliding))
    if len(_SUMS) >= 1024:
        _SUMS.clear()
    _SUMS[id(profile)] = (profile, sums)
    return sums


@lru_cache(maxsize=1024)
def profile_terms(arch: Architecture, sh: Shape, fused: bool, lora: activations_lora.LoraActs | None = None,
                  fp8_recipe: str = "none") -> tuple[list[RawTerm], list[RawTerm] | None, list[RawTerm], list[RawTerm],
                                                     list[RawTerm]]:
    """(one dense layer, one MoE layer or None, the embedding's, the output layer's, what a sliding-window layer
    keeps beyond its kind's) saved tensors for one micro-batch of ``sh``: they depend on the architecture and the
    shape one GPU sees, not on the pipeline layout or the data-parallel size, so a sweep, a solve over those, or
    the strategy bars compute them once (cached; the lists are shared: read them, never change them)."""
    if lora is not None and not fused:
        dense = activations_lora.layer_terms(sh, arch, False, lora)
        moe_layer = activations_lora.layer_terms(sh, arch, True, lora) if arch.is_moe else None
        inputs = activations_lora.input_terms(sh, arch, lora)
        outputs = activations_lora.output_terms(sh, arch, lora)
    else:
        profile = activations_fused if fused else activations_hf
        dense = profile.layer_terms(sh, arch, False)
        moe_layer = profile.layer_terms(sh, arch, True) if arch.is_moe else None
        inputs = profile.input_terms(sh, arch)
        outputs = profile.output_terms(sh, arch)
    # sliding-window layers whose window cuts the sequence: SDPA's mask (activations.window; transformers only)
    sliding = [] if fused else window.layer_terms(sh, arch)
    if not fused:
        inputs = inputs + window.checkpoint_terms(sh, arch)
    if fused and fp8_recipe != "none":
        dense = fp8.layer_terms(dense, fp8_recipe, sh, False)
        moe_layer = fp8.layer_terms(moe_layer, fp8_recipe, sh, True) if moe_layer is not None else None
    return dense, moe_layer, inputs, outputs, sliding


def clear_profile_cache() -> None:
    """Forget the per-shape terms (bench: time the activation model from nothing)."""
    profile_terms.cache_clear()
    _SUMS.clear()


def _sum(terms: list[RawTerm] | None) -> int:
    return sum(t.bytes for t in terms or [])


def _routing(training: TrainingSpec, parallel: ParallelSpec) -> dict[str, int]:
    """The routed experts' share of tokens (``Shape.received``): gathered over the ETP group under sequence
    parallelism; the most loaded EP rank receives min(imbalance, capacity factor) of a balanced share (with one EP
    rank every routed slot stays home: only the capacity can drop some)."""
    pct = training.moe_imbalance_percent if parallel.ep > 1 else 100
    if training.moe_capacity_percent is not None:
        pct = min(pct, training.moe_capacity_percent)
    etp = parallel.expert_tp
    return {"etp": etp, "route_gather": etp if parallel.sp else 1, "route_pct": pct}


def _chunk_flights(training: TrainingSpec, parallel: ParallelSpec) -> list[list[int]]:
    """Per pipeline rank, how many forwards of each of its model chunks are in flight when its first backward
    starts. 1F1B (Narayanan et al. 2021, PipeDream-Flush): rank r runs pp - r - 1 warm-up forwards, then one more
    before its first backward: min(pp - r, m) micro-batches, m = micro-batches per step when the global batch is
    known. Interleaved 1F1B (Megatron-Core ``pipeline_parallel/schedules.py``
    ``forward_backward_pipelining_with_interleaving``): (pp - r - 1)·2 + (vpp - 1)·pp warm-up forwards plus one,
    at most m·vpp; forward k runs chunk (k // pp) mod vpp (``get_model_chunk_id``)."""
    pp, vpp = parallel.pp, parallel.vpp
    m = None
    dp = batch_parallel_size(parallel)
    if training.global_batch and dp > 0 and training.micro_batch > 0:
        m = max(1, training.global_batch // (training.micro_batch * dp))
    out = []
    for r in range(pp):
        if vpp == 1:
            out.append([min(pp - r, m) if m is not None else pp - r])
            continue
        forwards = (pp - r - 1) * 2 + (vpp - 1) * pp + 1
        if m is not None:
            forwards = min(forwards, m * vpp)
        counts = [0] * vpp
        for k in range(forwards):
            counts[(k // pp) % vpp] += 1
        out.append(counts)
    return out


def _stage_terms(dense: list[RawTerm], moe: list[RawTerm] | None, n_dense: int, n_moe: int, n_inputs: int,
                 inputs: list[RawTerm], outputs: list[RawTerm], sliding: list[RawTerm],
                 n_sliding: int) -> list[ActivationTerm]:
    """``n_dense`` / ``n_moe``: layer activations held (layers × forwards in flight); ``n_inputs``: forwards of
    the first chunk in flight (the embedding's terms); the output layer's terms once; ``sliding``: what each of
    the ``n_sliding`` sliding-window layer activations keeps on top of its kind's terms."""
    merged: dict[str, list[tuple[int, RawTerm]]] = {}  # the raw terms per key, in first-seen order
    places: dict[str, str] = {}

    def add(terms: list[RawTerm] | None, count: int, place: str) -> None:
        if count <= 0:
            return
        for raw in terms or ():
            if raw.bytes:
                key = f"{place}.{raw.key}"
                group = merged.get(key)
                if group is None:
                    merged[key] = [(count, raw)]
                    places[key] = place
                else:
                    group.append((count, raw))

    add(dense, n_dense, "layers")
    add(moe, n_moe, "layers")
    add(sliding, n_sliding, "layers")
    add(inputs, n_inputs, "embedding")
    add(outputs, 1, "output")
    return [ActivationTerm(k, sum([c * r.bytes for c, r in group]), places[k], tuple(group))
            for k, group in merged.items()]


def _formula(sh: Shape, gpt: bool, fused: bool, n_layers: int, m: int, pp: int, arch: Architecture) -> Msg:
    held = Msg.of("deriv.layers", coefficient=n_layers, quantity=Msg.of("deriv.in_flight", count=m))
    if fused and gpt and not arch.is_moe and arch.ffn_size == 4 * arch.hidden_size and sh.dtype_bytes == 2:
        if sh.recompute == Recompute.FULL:
            core = "sbh·2" + ("/t" if sh.sp else "")
        else:
            lin = "34/t" if sh.sp else ("10 + 24/t" if sh.t > 1 else "34")
            if sh.recompute == Recompute.SELECTIVE:
                att = ""
            elif sh.attention == Attention.EAGER:
                att = " + 5as/(ht)" if sh.t > 1 else " + 5as/h"
            else:
                att = " + 4a/(ht)" if sh.t > 1 else " + 4a/h"
            core = f"sbh({lin}{att})"
        return Msg.of("deriv.activations_korthikanti", core=core, held=held)
    return Msg.of("deriv.activations_tensors", held=held)


def _validate(arch: Architecture, training: TrainingSpec, parallel: ParallelSpec, dtype: str) -> None:
    if dtype not in DTYPE_BYTES:
        raise InputError("precision.dtype", Msg.of("error.unknown_dtype", value=repr(dtype)),
                         Msg.of("allowed.choices", choices=", ".join(DTYPE_BYTES)))
    for name, value, allowed in (
        ("training.recompute", training.recompute, RECOMPUTE),
        ("training.attention", training.attention, ATTENTION),
        ("training.implementation", training.implementation, IMPLEMENTATIONS),
        ("model.architecture.family", arch.family, FAMILIES),
    ):
        if value not in allowed:
            raise InputError(name, Msg.of("error.unknown_value", value=repr(value)),
                             Msg.of("allowed.choices", choices=", ".join(allowed)))
    counts: tuple[tuple[str, object], ...] = (  # checked as values: a Scenario built in code may hold anything
        ("training.micro_batch", training.micro_batch), ("training.seq_len", training.seq_len),
        ("parallel.tp", parallel.tp), ("parallel.pp", parallel.pp),
        ("model.architecture.num_layers", arch.num_layers), ("model.architecture.hidden_size", arch.hidden_size),
        ("model.architecture.num_heads", arch.num_heads), ("model.architecture.kv_heads", arch.kv_heads),
        ("model.architecture.head_size", arch.head_size), ("model.architecture.ffn_size", arch.ffn_size),
        ("model.architecture.vocab_size", arch.vocab_size),
    )
    for name, count in counts:
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise InputError(name, Msg.of("error.positive_integer", value=repr(count)), Msg.of("allowed.at_least_one"))
    if arch.num_heads % arch.kv_heads:
        raise InputError("model.architecture.num_kv_heads",
                         Msg.of("error.kv_heads_divide", kv_heads=arch.kv_heads,
                                heads=Msg.of("error.attention_heads", heads=arch.num_heads)),
                         Msg.of("allowed.divisor", n=arch.num_heads))
    if arch.num_heads % parallel.tp:
        heads = Msg.of("error.attention_heads", heads=arch.num_heads)
        raise InputError("parallel.tp", Msg.of("error.tp_divides_heads", tp=parallel.tp, heads=heads),
                         Msg.of("allowed.divisor", n=arch.num_heads))
    if parallel.pp > arch.num_layers:
        raise InputError("parallel.pp", Msg.of("error.pp_over_layers", pp=parallel.pp, layers=arch.num_layers),
                         Msg.of("allowed.span", low=1, high=arch.num_layers))
    if parallel.sp and (training.seq_len // parallel.cp) % parallel.tp:
        raise InputError("training.seq_len", Msg.of("error.sp_splits_sequence", tp=parallel.tp),
                         Msg.of("allowed.multiple_of", n=parallel.tp))
    if arch.is_moe and not 1 <= arch.experts_per_token <= arch.num_experts:
        raise InputError("model.architecture.experts_per_token",
                         Msg.of("error.experts_per_token", per_token=arch.experts_per_token,
                                experts=arch.num_experts),
                         Msg.of("allowed.span", low=1, high=arch.num_experts))
