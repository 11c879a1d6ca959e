"""The one place that turns a ``Scenario`` into per-GPU bytes: ``estimate(scenario) -> Estimate``.

Components (per GPU, integer bytes): parameters, gradients, optimizer_states (with master_weights, the fp32
copy, also given on its own), activations (None when no architecture is known), other (explicit fixed terms).
Fit: usable = gpu_memory x (1 - reserve) (the seed's overhead_ratio), headroom = usable - total.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from vramgui.core.accumulation import accumulation_steps, tokens_per_step
from vramgui.core.activations import fp8 as fp8_acts
from vramgui.core.fields.validate import validate_scenario
from vramgui.core.model_states import fp8 as fp8_mod
from vramgui.core.model_states.conventions import model_states_for
from vramgui.core.parallel.layout import (
    batch_parallel_size,
    ceil_div,
    data_parallel_size,
    expert_data_parallel_size,
    fsdp_name,
    stage_params,
)
from vramgui.core.scenario import architecture as arch_mod
from vramgui.core.scenario.choices import FinetuneMethod, Offload, Recipe, Recompute
from vramgui.core.scenario.convention import convention_of
from vramgui.core.scenario.specs import DTYPE_BYTES, Scenario
from vramgui.core.scenario.strategy import Strategy
from vramgui.core.step import components
from vramgui.core.step.components import COMPONENT_KEYS  # noqa: F401 - re-exported
from vramgui.core.step.peak import StepInputs, StepPeak, step_peak
from vramgui.core.terms import Derivation, Part, Term
from vramgui.core.text.message import Msg, english, render

if TYPE_CHECKING:  # the activation model is imported on first use (a count-only CLI run never needs it)
    from vramgui.core.activations.estimate import ActivationEstimate
    from vramgui.core.activations.lora import LoraActs
    from vramgui.core.scenario.architecture import Architecture
    from vramgui.core.scenario.specs import ParallelSpec, TrainingSpec
    from vramgui.core.time.result import StepTime


@dataclass(frozen=True)
class Component:
    """One row of an estimate: a keyed ``Part`` (``part.key`` one of ``COMPONENT_KEYS``) and its place in the
    bars (``components.label``, ``components.stack``). ``estimated`` is False only for activations that cannot
    be estimated: their ``bytes`` is None, not 0."""

    part: Part
    estimated: bool = True

    @property
    def key(self) -> str:
        return self.part.key

    @property
    def bytes(self) -> int | None:
        return self.part.bytes if self.estimated else None

    @property
    def deriv(self) -> Derivation:
        return self.part.deriv

    @property
    def source(self) -> str:
        return self.part.source

    @property
    def label_msg(self) -> Msg:
        return components.label(self.key)

    @property
    def label(self) -> str:
        """The English name (``vramgui.core.step.components``)."""
        return render(self.label_msg, english)

    @property
    def formula(self) -> str:
        """The symbolic formula in English: ``2Φ/N_d``."""
        return self.part.formula

    @property
    def derivation(self) -> str:
        """The derivation in English and GB, as ``--json`` gives it: ``2 × 7.00e9 / 8 = 1.75 GB``."""
        return self.part.derivation


@dataclass(frozen=True)
class Estimate:
    scenario: Scenario
    components: tuple[Component, ...]
    per_gpu_total: int
    host_per_node: int | None
    host_formula_msg: Msg | None
    usable: int | None
    fits: bool | None
    headroom: int | None
    params: int
    active_params: int | None
    stage_params: int
    data_parallel: int
    accumulation_steps: int
    tokens_per_step: int
    strategy: Strategy
    fsdp: str
    notes: tuple[Msg, ...] = field(default=())
    activation_detail: ActivationEstimate | None = None  # None when activations are not estimated
    peak: StepPeak | None = None  # the training step's peak (vramgui.core.step.peak); fits and headroom use it
    trainable_params: int | None = None  # None = every parameter (full training); LoRA: the adapters
    time: StepTime | None = None  # the step's time and the run's cost (vramgui.core.time); None: no compute figures
    time_note: Msg | None = None  # why ``time`` is None (kept apart from ``notes``: the memory answer's own)

    @property
    def host_formula(self) -> str:
        """The host-memory formula in English ("" when nothing is on the host)."""
        return render(self.host_formula_msg, english)

    def component(self, key: str) -> Component:
        for c in self.components:
            if c.key == key:
                return c
        raise KeyError(key)

    def bytes_of(self, key: str) -> int | None:
        return self.component(key).bytes

    @property
    def model_states(self) -> int:
        return sum(self.bytes_of(k) or 0 for k in ("parameters", "gradients", "optimizer_states"))

    def to_dict(self) -> dict[str, Any]:
        """The CLI's ``--json`` shape : integer bytes under ``per_gpu``."""
        per_gpu = {c.key: c.bytes for c in self.components}
        per_gpu["total"] = self.per_gpu_total
        s = self.scenario
        return {
            "convention": s.convention,
            "strategy": self.strategy.sharding.label(),
            "strategy_key": self.strategy.key,
            "fsdp_equivalent": self.fsdp,
            "model": {"name": s.model.name, "params": self.params, "active_params": self.active_params,
                      "params_per_gpu_before_sharding": self.stage_params,
                      **({} if self.trainable_params is None else {"trainable_params": self.trainable_params})},
            "per_gpu": per_gpu,
            "per_node_host": None if self.host_per_node is None else {"total": self.host_per_node,
                                                                       "formula": self.host_formula},
            "gpu_memory": s.hardware.gpu_memory,
            "reserve": s.hardware.reserve,
            "usable": self.usable,
            "fits": self.fits,
            "headroom": self.headroom,
            "peak": None if self.peak is None else self.peak.to_dict(),
            "data_parallel": self.data_parallel,
            "num_gpus": s.parallel.num_gpus,
            "accumulation_steps": self.accumulation_steps,
            "tokens_per_step": self.tokens_per_step,
            "formulas": {c.key: c.formula for c in self.components},
            "derivations": {c.key: c.derivation for c in self.components},
            "sources": {c.key: c.source for c in self.components},
            "activation_terms": None if self.activation_detail is None else [
                {"name": t.name, "bytes": t.bytes, "formula": t.formula} for t in self.activation_detail.terms],
            "notes": [render(n, english) for n in self.notes],
            "terms": {c.key: c.deriv.to_dict() for c in self.components},
            "time": None if self.time is None else self.time.to_dict(),
            "time_note": None if self.time_note is None else render(self.time_note, english),
        }


@lru_cache(maxsize=256)  # architectures are frozen; sweeps ask for the same counts again and again
def count_params(arch: Architecture) -> int:
    return arch_mod.count_params(arch)


@lru_cache(maxsize=256)
def count_active_params(arch: Architecture) -> int:
    return arch_mod.count_active_params(arch)


@lru_cache(maxsize=256)
def count_param_tensors(arch: Architecture) -> int:
    return arch_mod.count_param_tensors(arch)


@lru_cache(maxsize=256)
def _largest_layer_of(arch: Architecture) -> int:
    return arch_mod.largest_layer_params(arch)


def largest_layer(scenario: Scenario) -> int | None:
    if scenario.model.largest_layer is not None:
        return scenario.model.largest_layer
    if scenario.model.architecture is not None:
        return _largest_layer_of(scenario.model.architecture)
    return None


_ACT_CACHE: dict[tuple[object, ...], ActivationEstimate] = {}
_ACT_CACHE_MAX = 4096


def clear_activation_cache() -> None:
    """Forget every cached activation estimate (bench: time the activation model, not a cache hit)."""
    _ACT_CACHE.clear()


def _activations_cached(arch: Architecture, training: TrainingSpec, parallel: ParallelSpec,
                        dtype: str, amp: bool = False, lora: LoraActs | None = None,
                        fp8: str = "none") -> ActivationEstimate:
    """Activations depend on tp/pp/sp, not on the ZeRO stage; on the data-parallel size only through the number
    of micro-batches a pipeline holds in flight (pp > 1 with a global batch). Cache on exactly that."""
    group = parallel.tp * parallel.cp * parallel.pp
    n_d = batch_parallel_size(parallel) if parallel.pp > 1 and training.global_batch is not None else 1
    key = (arch, training, parallel.tp, parallel.pp, parallel.sp, n_d, dtype, amp, lora, parallel.cp, parallel.ep,
           parallel.expert_tp, parallel.vpp, parallel.first_stage_layers, parallel.last_stage_layers, fp8)
    hit = _ACT_CACHE.get(key)
    if hit is None:
        from vramgui.core.activations.estimate import estimate_activations

        norm = replace(parallel, num_gpus=group * n_d, gpus_per_node=max(1, group), zero_stage=0,
                       distributed_optimizer=True, ddp_bucket_view=False)
        hit = estimate_activations(arch, training, norm, dtype, amp, lora, fp8)
        if len(_ACT_CACHE) >= _ACT_CACHE_MAX:
            _ACT_CACHE.clear()
        _ACT_CACHE[key] = hit
    return hit


def activations_component(scenario: Scenario, lora: LoraActs | None = None
                          ) -> tuple[Component, ActivationEstimate | None]:
    arch = scenario.model.architecture
    if arch is None:
        why = Msg.of("deriv.no_architecture")
        deriv = Derivation(total=None, note=Msg.of("deriv.not_estimable", reason=why),
                           formula=Msg.of("deriv.not_available"))
        return Component(Part(0, deriv, "", "activations"), estimated=False), None
    act = _activations_cached(arch, scenario.training, scenario.parallel, scenario.precision.dtype,
                              scenario.precision.recipe == Recipe.AMP, lora, fp8_acts.active_recipe(scenario))
    return Component(Part(act.total, _activation_derivation(act), act.source, "activations")), act


def _activation_derivation(act: ActivationEstimate) -> Derivation:
    """"32 layers × 134.2 MB + 8.94 GB outside the layers (embedding, logits, loss) = 13.24 GB": the per-layer
    figure with enough digits that the product can be checked by hand, and the embedding/logits/loss terms named
    rather than "rest"."""
    in_layers = act.layers * act.per_layer
    outside = act.total - in_layers
    layers = Term(in_layers, act.layers, quantity=act.per_layer, style="fine_bytes", label=Msg.of("deriv.layers"))
    if outside < 0:  # layer kinds differ (e.g. dense + MoE layers): per_layer is the largest kind
        return Derivation((layers,), act.total, formula=act.formula_msg, shape=Msg.of("deriv.layers_differ"))
    rest = Term(outside, style="fine_bytes", label=Msg.of("deriv.outside_layers"))
    return Derivation((layers, rest), act.total, formula=act.formula_msg)


def _other_component(scenario: Scenario, extra_part: Part | None) -> Component:
    """Explicit fixed terms (plus DeepSpeed's largest-layer term): each a term of its own."""
    ov = scenario.overhead
    terms: list[Term] = []
    if extra_part is not None:
        terms += extra_part.deriv.terms
    if ov.cuda_context:
        terms.append(Term(ov.cuda_context, symbol="cuda_context", style="bytes"))
    if ov.comm_buffers:
        terms.append(Term(ov.comm_buffers, symbol="comm_buffers", style="bytes"))
    if ov.zero3_live_params and scenario.parallel.zero_stage == 3 and convention_of(scenario).uses_zero_stage:
        # a DeepSpeed ZeRO-3 setting (stage3_max_live_parameters): Megatron-LM has no ZeRO stage to gather under
        wb = DTYPE_BYTES[scenario.precision.dtype]
        terms.append(Term(ov.zero3_live_params * wb, wb, "live_params", ov.zero3_live_params, style="grouped",
                          coefficient_symbol="b_w"))
    if ov.extra:
        terms.append(Term(ov.extra, symbol="extra", style="bytes"))
    if not terms:
        return Component(Part(0, Derivation(note=Msg.of("deriv.no_fixed_terms")), "explicit inputs", "other"))
    source = extra_part.source + "; explicit inputs" if extra_part is not None else "explicit inputs"
    total = sum(t.bytes for t in terms)
    return Component(Part(total, Derivation(tuple(terms), total), source, "other"))


def estimate(scenario: Scenario) -> Estimate:
    """Per-GPU memory of one training step under ``scenario`` (validated first; raises ``InputError``)."""
    s = validate_scenario(scenario)
    arch = s.model.architecture
    explicit = s.model.params is not None
    if s.model.params is not None:
        params = s.model.params
    else:
        assert arch is not None  # validate_scenario: a parameter count or an architecture
        params = count_params(arch)
    active = count_active_params(arch) if arch is not None and arch.is_moe else None
    n_d, dp = data_parallel_size(s.parallel), batch_parallel_size(s.parallel)
    n_e = expert_data_parallel_size(s.parallel)
    sp = stage_params(params, s.parallel, arch, explicit)
    tensors = None if arch is None else count_param_tensors(arch)
    if tensors is not None and s.parallel.tp * s.parallel.pp > 1:
        tensors = ceil_div(tensors, s.parallel.pp)
    ft = None
    if s.finetune.method != FinetuneMethod.FULL:
        from vramgui.core.finetune.estimate import finetune_parts  # LoRA/QLoRA only: full training never imports it

        ft = finetune_parts(s, params, sp.params, n_d)
    states = ft.states if ft is not None else model_states_for(s, sp.params, n_d, tensors, largest_layer(s),
                                                               sp.experts, n_e)
    fp8 = fp8_mod.fp8_states(s)
    if fp8 is not None:  # FP8 weight copies and scaling state: persistent, beside the parameters
        states = replace(states, parameters=fp8_mod.with_fp8_parameters(states.parameters, fp8))

    comps = [Component(replace(p, key=key)) for key, p in (
        ("parameters", states.parameters), ("gradients", states.gradients),
        ("optimizer_states", states.optimizer_states), ("master_weights", states.master_weights))]
    act_comp, act = activations_component(s, ft.acts if ft is not None else None)
    comps.append(act_comp)
    comps.append(_other_component(s, states.other))
    total = sum(c.bytes or 0 for c in comps if c.key != "master_weights")
    n_micro = accumulation_steps(s.training, dp)
    peak = step_peak(StepInputs(
        s, states.parameters.bytes, states.gradients.bytes, states.optimizer_states.bytes, act, sp.params, n_d,
        n_micro, _decoder_layer(s), _recompute_layer(s, ft.acts if ft is not None else None) if act is not None
        else 0, ft.step if ft is not None else None, sp.experts if ft is None else 0, n_e))

    hw = s.hardware
    usable = fits = headroom = None
    if hw.gpu_memory is not None:
        usable = int(hw.gpu_memory * (1 - hw.reserve))
        fits = peak.bytes <= usable
        headroom = usable - peak.bytes
    notes = list(states.notes)
    if sp.note:
        notes.append(sp.note)
    notes += _parallel_notes(s, sp.experts, n_d, n_e, act)
    if act_comp.bytes is None and act_comp.deriv.note is not None:
        notes.append(Msg.of("note.activations_not_estimated", reason=act_comp.deriv.note.kwargs["reason"]))
    if (s.offload.params != Offload.NONE and s.parallel.zero_stage == 3 and convention_of(s).fsdp_zero3
            and not s.overhead.zero3_live_params):
        notes.append(Msg.of("note.offloaded_params_gathered"))
    if ft is not None:
        notes += ft.notes
    if fp8 is not None:
        notes.append(Msg.of("note.fp8_not_measured", recipe=fp8.recipe))
    time = _step_time(s, arch, params, n_d, dp, n_micro, sp.params, states, ft.trainable if ft is not None else None)
    return Estimate(
        scenario=s, components=tuple(comps), per_gpu_total=total, host_per_node=states.host_per_node,
        host_formula_msg=states.host_formula, usable=usable, fits=fits, headroom=headroom, params=params,
        active_params=active, stage_params=sp.params, data_parallel=n_d,
        accumulation_steps=n_micro, tokens_per_step=tokens_per_step(s.training, dp),
        strategy=Strategy.of(s), fsdp=fsdp_name(s.parallel.zero_stage), notes=tuple(notes), activation_detail=act,
        peak=peak, trainable_params=ft.trainable if ft is not None else None, time=time,
        time_note=Msg.of("time.note_no_figures") if time is None else None,
    )


def _step_time(s: Scenario, arch: Architecture | None, params: int, n_d: int, dp: int, n_micro: int,
               stage: int, states: Any, trainable: int | None) -> StepTime | None:
    """The step's time (vramgui.core.time), or None when the GPU's compute figures are not known."""
    from vramgui.core.time.rates import compute_figures_known

    if not compute_figures_known(s.hardware):
        return None
    from vramgui.core.time.step import TimeInputs, step_time

    return step_time(TimeInputs(
        s, arch, params, n_d, dp, n_micro, tokens_per_step(s.training, dp), stage, states.parameters.bytes,
        states.gradients.bytes, states.optimizer_states.bytes, trainable))


def _parallel_notes(s: Scenario, experts: int, n_d: int, n_e: int, act: ActivationEstimate | None) -> list[Msg]:
    """What expert, context and interleaved pipeline parallelism changed (docs/conventions.md)."""
    p, notes = s.parallel, []
    if experts:
        notes.append(Msg.of("note.expert_shard", experts=f"{experts:,}", group=p.ep * p.expert_tp, edp=n_e,
                            n_d=n_d))
    if p.cp > 1:
        notes.append(Msg.of("note.context_parallel", tokens=f"{s.training.seq_len // p.cp:,}", n_d=n_d))
    if p.vpp > 1 and act is not None:
        notes.append(Msg.of("note.interleaved_pipeline", vpp=p.vpp, chunks=act.in_flight, layers=act.layers))
    return notes


def _decoder_layer(s: Scenario) -> int | None:
    """FSDP2's unit without an architecture: the explicit largest layer, if given."""
    return s.model.largest_layer if s.model.architecture is None else None


def _recompute_layer(s: Scenario, lora: LoraActs | None = None) -> int:
    """One layer's saved activations without recompute (the layer recomputed in backward under full recompute)."""
    arch = s.model.architecture
    if arch is None or s.training.recompute != Recompute.FULL:
        return 0
    plain = replace(s.training, recompute=Recompute.NONE)
    return _activations_cached(arch, plain, s.parallel, s.precision.dtype, s.precision.recipe == Recipe.AMP,
                               lora, fp8_acts.active_recipe(s)).per_layer
