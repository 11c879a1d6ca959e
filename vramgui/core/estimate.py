"""The one place that turns a ``Scenario`` into per-GPU bytes: ``estimate(scenario) -> Estimate``.

Components (per GPU, integer bytes): parameters, gradients, optimizer_states (with master_weights, the fp32
copy, also given on its own), activations (None when no architecture is known), other (explicit fixed terms).
Fit: usable = gpu_memory x (1 - reserve) (the seed's overhead_ratio), headroom = usable - total.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from vramgui.core.accumulation import accumulation_steps, tokens_per_step
from vramgui.core.activations import fp8 as fp8_acts
from vramgui.core.count_free import (  # noqa: F401 - re-exported: the sweep and its tests ask this module
    CountFree,
    activations_cached,
    activations_component,
    count_free,
    largest_layer,
    serves,
)
from vramgui.core.fields.validate import validate_scenario
from vramgui.core.memo import dict_init
from vramgui.core.model_states import fp8 as fp8_mod
from vramgui.core.model_states.conventions import model_states_for
from vramgui.core.parallel.layout import (
    batch_parallel_size,
    data_parallel_size,
    expert_data_parallel_size,
    fsdp_name,
    parallel_notes,
)
from vramgui.core.scenario.choices import FinetuneMethod, Offload, Recipe, Recompute
from vramgui.core.scenario.convention import convention_of
from vramgui.core.scenario.model_facts import model_facts
from vramgui.core.scenario.specs import DTYPE_BYTES, HardwareSpec, Scenario
from vramgui.core.scenario.strategy import Strategy
from vramgui.core.step.components import COMPONENT_KEYS, Component  # noqa: F401 - re-exported
from vramgui.core.step.peak import StepInputs, StepPeak, step_peak
from vramgui.core.terms import Derivation, Part, Term
from vramgui.core.text.message import Msg, english, render

if TYPE_CHECKING:  # the activation model is imported on first use (a count-only CLI run never needs it)
    from vramgui.core.activations.estimate import ActivationEstimate
    from vramgui.core.activations.lora import LoraActs
    from vramgui.core.scenario.architecture import Architecture
    from vramgui.core.time.result import StepTime


@dict_init
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
    # what ``time`` is computed from (``_step_time``'s arguments), when first read: a sweep, a solve or the adviser
    # reading only the peak never pays for the step time
    time_inputs: tuple[Any, ...] | None = field(default=None, compare=False, repr=False)

    @cached_property
    def time(self) -> StepTime | None:
        """The step's time and the run's cost (vramgui.core.time); None: no compute figures (``time_note``)."""
        return None if self.time_inputs is None else _step_time(*self.time_inputs)

    @cached_property
    def time_note(self) -> Msg | None:
        """Why ``time`` is None (kept apart from ``notes``: the memory answer's own)."""
        return Msg.of("time.note_no_figures") if self.time is None else None

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


def clear_activation_cache() -> None:
    """Forget every activation estimate kept per layout and batch (bench: time a scenario not seen before; the
    per-model parts stay, see ``clear_caches``)."""
    from vramgui.core.activations import cache

    cache.clear()


def clear_caches() -> None:
    """Forget everything kept between estimates: the per-layout activations, the per-shape activation terms, the
    architecture's figures, the step time's work, rates and FLOPs, and which scenarios were found valid (bench:
    the first estimate of a new model)."""
    from vramgui.core.activations import cache
    from vramgui.core.fields.validate import forget_validated
    from vramgui.core.step.blocks import blocks_of
    from vramgui.core.time.work import clear_cache as clear_step_time

    cache.clear(every_shape=True)
    model_facts.cache_clear()
    blocks_of.cache_clear()
    clear_step_time()
    forget_validated()


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
        return _NO_OTHER
    source = extra_part.source + "; explicit inputs" if extra_part is not None else "explicit inputs"
    total = sum(t.bytes for t in terms)
    return Component(Part(total, Derivation(tuple(terms), total), source, "other"))


_NO_OTHER = Component(Part(0, Derivation(note=Msg.of("deriv.no_fixed_terms")), "explicit inputs", "other"))


def estimate(scenario: Scenario) -> Estimate:
    """Per-GPU memory of one training step under ``scenario`` (validated first; raises ``InputError``)."""
    s = validate_scenario(scenario)
    return _estimate(s, count_free(s))


def estimate_at_count(scenario: Scenario, free: CountFree) -> Estimate:
    """``estimate(scenario)`` reusing ``free`` (``count_free`` of the same scenario at another GPU count) where it
    ``serves``; validated like ``estimate`` (a bad scenario raises, whatever ``free`` holds)."""
    s = validate_scenario(scenario)
    return _estimate(s, free if serves(free, s) else count_free(s))


def peak_at_count(scenario: Scenario, free: CountFree) -> StepPeak:
    """``estimate_at_count(scenario, free).peak`` without the rest of the estimate (its rows, notes and fit): what
    a sweep of the step peak needs (``vramgui.core.solve.sweep.peak_sweep``); validated like ``estimate``."""
    s = validate_scenario(scenario)
    peak: StepPeak = _states_and_peak(s, free if serves(free, s) else count_free(s))[-1]
    return peak


def _states_and_peak(s: Scenario, free: CountFree) -> tuple[Any, ...]:
    """(data-parallel size, its batch size, expert data-parallel size, LoRA's parts or None, the model states, the
    FP8 states or None, the activations row and estimate, micro-batches per step, the step peak) of ``s`` (validated)
    from its count-free part: everything the estimate's figures are made from."""
    params, sp = free.params, free.stage
    n_d, dp = data_parallel_size(s.parallel), batch_parallel_size(s.parallel)
    n_e = expert_data_parallel_size(s.parallel)
    ft = None
    if s.finetune.method != FinetuneMethod.FULL:
        from vramgui.core.finetune.estimate import finetune_parts  # LoRA/QLoRA only: full training never imports it

        ft = finetune_parts(s, params, sp.params, n_d)
    states = ft.states if ft is not None else model_states_for(s, sp.params, n_d, free.tensors, free.largest_layer,
                                                               sp.experts, n_e)
    fp8 = fp8_mod.fp8_states(s)
    if fp8 is not None:  # FP8 weight copies and scaling state: persistent, beside the parameters
        states = replace(states, parameters=fp8_mod.with_fp8_parameters(states.parameters, fp8))
    act_comp, act = (free.activations, free.act) if free.activations is not None else activations_component(
        s, ft.acts if ft is not None else None)
    n_micro = accumulation_steps(s.training, dp)
    peak = step_peak(StepInputs(
        s, states.parameters.bytes, states.gradients.bytes, states.optimizer_states.bytes, act, sp.params, n_d,
        n_micro, _decoder_layer(s), _recompute_layer(s, ft.acts if ft is not None else None) if act is not None
        else 0, ft.step if ft is not None else None, sp.experts if ft is None else 0, n_e))
    return n_d, dp, n_e, ft, states, fp8, act_comp, act, n_micro, peak


def fit(hw: HardwareSpec, peak: int) -> tuple[int | None, bool | None, int | None]:
    """(usable, fits, headroom) of a step peak of ``peak`` bytes on ``hw``: usable = gpu_memory x (1 - reserve)
    (the seed's overhead_ratio), headroom = usable - peak; all None when the GPU memory is not given."""
    if hw.gpu_memory is None:
        return None, None, None
    usable = int(hw.gpu_memory * (1 - hw.reserve))
    return usable, peak <= usable, usable - peak


def _estimate(s: Scenario, free: CountFree) -> Estimate:
    """``estimate(s)`` from its count-free part (``s`` validated)."""
    arch = s.model.architecture
    params, sp = free.params, free.stage
    n_d, dp, n_e, ft, states, fp8, act_comp, act, n_micro, peak = _states_and_peak(s, free)
    comps = [Component(p.keyed(key)) for key, p in (
        ("parameters", states.parameters), ("gradients", states.gradients),
        ("optimizer_states", states.optimizer_states), ("master_weights", states.master_weights))]
    comps.append(act_comp)
    comps.append(_other_component(s, states.other))
    total = sum(c.bytes or 0 for c in comps if c.key != "master_weights")

    usable, fits, headroom = fit(s.hardware, peak.bytes)
    notes = list(states.notes)
    if sp.note:
        notes.append(sp.note)
    notes += parallel_notes(s.parallel, s.training.seq_len, sp.experts, n_d, n_e,
                            None if act is None else (act.in_flight, act.layers))
    if act_comp.bytes is None and act_comp.deriv.note is not None:
        notes.append(Msg.of("note.activations_not_estimated", reason=act_comp.deriv.note.kwargs["reason"]))
    if (s.offload.params != Offload.NONE and s.parallel.zero_stage == 3 and convention_of(s).fsdp_zero3
            and not s.overhead.zero3_live_params):
        notes.append(Msg.of("note.offloaded_params_gathered"))
    if ft is not None:
        notes += ft.notes
    if fp8 is not None:
        notes.append(Msg.of("note.fp8_not_measured", recipe=fp8.recipe))
    return Estimate(
        scenario=s, components=tuple(comps), per_gpu_total=total, host_per_node=states.host_per_node,
        host_formula_msg=states.host_formula, usable=usable, fits=fits, headroom=headroom, params=params,
        active_params=free.active, stage_params=sp.params, data_parallel=n_d,
        accumulation_steps=n_micro, tokens_per_step=tokens_per_step(s.training, dp),
        strategy=Strategy.of(s), fsdp=fsdp_name(s.parallel.zero_stage), notes=tuple(notes), activation_detail=act,
        peak=peak, trainable_params=ft.trainable if ft is not None else None,
        time_inputs=(s, arch, params, n_d, dp, n_micro, sp.params, states, ft.trainable if ft is not None else None),
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


def _decoder_layer(s: Scenario) -> int | None:
    """FSDP2's unit without an architecture: the explicit largest layer, if given."""
    return s.model.largest_layer if s.model.architecture is None else None


def _recompute_layer(s: Scenario, lora: LoraActs | None = None) -> int:
    """One layer's saved activations without recompute (the layer recomputed in backward under full recompute)."""
    arch = s.model.architecture
    if arch is None or s.training.recompute != Recompute.FULL:
        return 0
    plain = replace(s.training, recompute=Recompute.NONE)
    return activations_cached(arch, plain, s.parallel, s.precision.dtype, s.precision.recipe == Recipe.AMP,
                               lora, fp8_acts.active_recipe(s)).per_layer
