"""What an estimate needs that the GPU count does not change: the parameter count, the stage's parameters, the
largest layer and the activations (``count_free``). ``vramgui.core.estimate`` computes it for every estimate; a
sweep over GPU counts (``vramgui.core.solve.sweep``) computes it once and reuses it where it ``serves``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from vramgui.core.activations import fp8 as fp8_acts
from vramgui.core.memo import dict_init
from vramgui.core.parallel.layout import StageParams, ceil_div, stage_params
from vramgui.core.scenario.choices import FinetuneMethod, Recipe
from vramgui.core.scenario.model_facts import model_facts
from vramgui.core.scenario.specs import Scenario
from vramgui.core.step.components import Component
from vramgui.core.terms import Derivation, Part
from vramgui.core.text.message import Msg

if TYPE_CHECKING:  # the activation model is imported on first use (a count-only CLI run never needs it)
    from vramgui.core.activations.estimate import ActivationEstimate
    from vramgui.core.activations.lora import LoraActs
    from vramgui.core.scenario.architecture import Architecture
    from vramgui.core.scenario.specs import ParallelSpec, TrainingSpec


_LOADED: dict[str, Callable[..., ActivationEstimate]] = {}  # functions of modules imported on first use


def largest_layer(scenario: Scenario) -> int | None:
    """The largest layer's parameters: as given, else the architecture's, else None."""
    if scenario.model.largest_layer is not None:
        return scenario.model.largest_layer
    if scenario.model.architecture is not None:
        return model_facts(scenario.model.architecture).largest_layer
    return None


def activations_cached(arch: Architecture, training: TrainingSpec, parallel: ParallelSpec,
                       dtype: str, amp: bool = False, lora: LoraActs | None = None,
                       fp8: str = "none") -> ActivationEstimate:
    """``activations.cache.activations_for``, its module imported on the first call (not at every call: an
    import statement costs a microsecond even when the module is loaded)."""
    fn = _LOADED.get("activations_for")
    if fn is None:
        from vramgui.core.activations.cache import activations_for

        fn = _LOADED["activations_for"] = activations_for
    return fn(arch, training, parallel, dtype, amp, lora, fp8)


def activations_component(scenario: Scenario, lora: LoraActs | None = None
                          ) -> tuple[Component, ActivationEstimate | None]:
    """The activations row (not estimated without an architecture) and the activation estimate behind it."""
    arch = scenario.model.architecture
    if arch is None:
        why = Msg.of("deriv.no_architecture")
        deriv = Derivation(total=None, note=Msg.of("deriv.not_estimable", reason=why),
                           formula=Msg.of("deriv.not_available"))
        return Component(Part(0, deriv, "", "activations"), estimated=False), None
    act = activations_cached(arch, scenario.training, scenario.parallel, scenario.precision.dtype,
                             scenario.precision.recipe == Recipe.AMP, lora, fp8_acts.active_recipe(scenario))
    return Component(Part.later(act.total, act.derivation, act.source, "activations")), act


@dict_init
@dataclass(frozen=True)
class CountFree:
    """What an estimate needs that the GPU count does not change (``count_free``): a sweep over counts computes it
    once (``vramgui.core.solve.sweep``) and each point only what depends on the count."""

    scenario: Scenario  # what it was computed for: it serves another count of the same sections (``serves``)
    params: int
    active: int | None
    stage: StageParams
    tensors: int | None
    largest_layer: int | None
    activations: Component | None  # None under LoRA / QLoRA
    act: ActivationEstimate | None


def count_free(s: Scenario) -> CountFree:
    """The parts of ``estimate(s)`` that depend on the architecture, the layout's model-parallel sizes and the
    batch but not on the GPU count, for a validated ``s``. Activations depend on the count only through the
    micro-batches a pipeline holds in flight with a global batch (``activations.cache``): ``serves`` checks."""
    arch = s.model.architecture
    facts = model_facts(arch) if arch is not None else None
    if s.model.params is not None:
        params = s.model.params
    else:
        assert facts is not None  # validate_scenario: a parameter count or an architecture
        params = facts.params
    sp = stage_params(params, s.parallel, arch, s.model.params is not None)
    tensors = None if facts is None else facts.tensors
    if tensors is not None and s.parallel.tp * s.parallel.pp > 1:
        tensors = ceil_div(tensors, s.parallel.pp)
    # under LoRA the activations need the adapters (finetune_parts, with the count): computed with them
    act_comp, act = activations_component(s) if s.finetune.method == FinetuneMethod.FULL else (None, None)
    return CountFree(s, params, facts.active_params if facts is not None else None, sp, tensors, largest_layer(s),
                     act_comp, act)


def _model_parallel(p: ParallelSpec) -> tuple[object, ...]:
    return (p.tp, p.pp, p.cp, p.sp, p.ep, p.etp, p.vpp, p.first_stage_layers, p.last_stage_layers)


def serves(free: CountFree, s: Scenario) -> bool:
    """Whether ``free`` is ``count_free(s)``: computed for the same sections (the same objects, as a sweep hands
    them on) and model-parallel sizes, with no pipeline holding a count-dependent number of micro-batches."""
    f = free.scenario
    return (s.model is f.model and s.training is f.training and s.precision is f.precision
            and s.finetune is f.finetune and s.convention == f.convention
            and (s.parallel.pp == 1 or s.training.global_batch is None)
            and _model_parallel(s.parallel) == _model_parallel(f.parallel))
