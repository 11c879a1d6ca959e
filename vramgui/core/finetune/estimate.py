"""What ``estimate`` needs under LoRA / QLoRA, built in one place: the model states (frozen base + adapters), the
adapters for the activation model, and the step peak's trainable counts (``step_terms.TrainableStep``).
"""

from __future__ import annotations

from dataclasses import dataclass

from vramgui.core.activations import lora as activations_lora
from vramgui.core.activations.lora import LoraActs
from vramgui.core.finetune.adapters import finetune_sizes, lora_acts, lora_plan
from vramgui.core.finetune.states import adapter_precision, finetune_model_states
from vramgui.core.model_states import precision as prec
from vramgui.core.model_states.paper import ModelStates
from vramgui.core.parallel.layout import ceil_div, ranks_per_node
from vramgui.core.scenario.choices import Implementation, Recipe
from vramgui.core.scenario.specs import DTYPE_BYTES, Scenario
from vramgui.core.step.terms import TrainableStep
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg


@dataclass(frozen=True)
class FinetuneParts:
    states: ModelStates
    acts: LoraActs
    step: TrainableStep
    trainable: int  # adapter parameters of the whole model (scaled to an explicit count)
    notes: tuple[Msg, ...]


def finetune_parts(s: Scenario, params: int, stage_params: int, n_d: int) -> FinetuneParts:
    arch = s.model.architecture
    if arch is None:
        raise InputError("finetune.method", Msg.of("error.finetune_needs_architecture"),
                         Msg.of("allowed.preset_or_config"))
    amp = s.precision.recipe == Recipe.AMP
    weight_dtype = "fp32" if amp else s.precision.dtype
    plan = lora_plan(arch, s.finetune, weight_dtype, prec.weight_bytes(s.precision))
    par = s.parallel
    sizes = finetune_sizes(plan, params, stage_params, par.tp, par.pp)
    states = finetune_model_states(s, sizes, n_d, ranks_per_node(par))
    acts = lora_acts(plan, s.finetune, DTYPE_BYTES[s.finetune.adapter_dtype])
    quantised = plan.base_storage in ("int8", "nf4")
    dequant = DTYPE_BYTES[s.precision.dtype] * ceil_div(plan.largest_quantised, par.tp) if quantised else 0
    largest = s.finetune.lora_rank * max(max(m.n_in, m.n_out) for m, _ in plan.adapted)
    step = TrainableStep(sizes.trainable, adapter_precision(s.precision, s.finetune.adapter_dtype),
                         sizes.base_bytes, dequant, largest)
    notes: list[Msg] = []
    if s.model.architecture is not None and (s.training.implementation == Implementation.FUSED
                                             or not activations_lora.supported(arch, amp)):
        notes.append(Msg.of("note.finetune_activations"))
    trainable = ceil_div(plan.trainable * params, plan.base_params) if sizes.scaled else plan.trainable
    return FinetuneParts(states, acts, step, trainable, tuple(notes))
