"""Model states per GPU under LoRA / QLoRA: the frozen base in its storage format plus the adapters, whose
gradients and optimizer states are the only ones there are.

The adapters are counted as full training counts parameters (``model_states.paper_model_states``), with Φ_A =
the trainable parameters and the adapters' own dtype (``finetune.adapter_dtype``: fp32 by default, peft's
``autocast_adapter_dtype``): with fp32 adapters and AdamW that is 4Φ_A + 4Φ_A + 8Φ_A (+ the ``step`` scalars under
the pure recipe), sharded and offloaded by the ZeRO stage as today. The frozen base (``finetune.lora_plan``) has
no gradient and no optimizer state; ZeRO-3 / FSDP shards it like any parameter, parameter offload moves it to the
host. The ``deepspeed`` and ``megatron`` conventions publish no fine-tuning figures: the paper's accounting is
used for the adapters under every convention (a note says so).
"""

from __future__ import annotations

from dataclasses import replace

from vramgui.core.finetune.adapters import FinetuneSizes
from vramgui.core.model_states.paper import ModelStates, Part, paper_model_states
from vramgui.core.parallel.layout import ceil_div
from vramgui.core.scenario.choices import AdapterDType, DType, Offload, Optimizer
from vramgui.core.scenario.convention import convention_of
from vramgui.core.scenario.specs import PrecisionSpec, Scenario
from vramgui.core.terms import Derivation, Term
from vramgui.core.text.message import Msg

SOURCE = ("peft LoraConfig (tuners/lora/layer.py); bitsandbytes Int8Params / Params4bit (nn/modules.py, "
          "functional.py); measured (bench/validate/lora_measure.py)")


def adapter_precision(precision: PrecisionSpec, adapter_dtype: AdapterDType) -> PrecisionSpec:
    """The precision the adapters train in: the recipe and optimizer as given, the dtype of the adapters."""
    return replace(precision, dtype=DType(adapter_dtype))


def finetune_model_states(s: Scenario, sizes: FinetuneSizes, n_d: int, ranks_on_node: int) -> ModelStates:
    rules = convention_of(s)
    stage = s.parallel.zero_stage if rules.uses_zero_stage else 0
    offload_opt = s.offload.optimizer == Offload.CPU and rules.models_offload
    offload_par = s.offload.params == Offload.CPU and stage == 3
    ap = adapter_precision(s.precision, s.finetune.adapter_dtype)
    # Φ written Φ_A: the trainable adapters' parameters, not the model's
    st = paper_model_states(sizes.trainable, ap, stage, n_d, ranks_on_node, offload_opt, offload_par, sizes.tensors,
                            symbol="Φ_A")
    storage = sizes.plan.base_storage
    label = Msg.of("deriv.frozen_base", storage=storage)
    base = sizes.base_bytes
    host = st.host_per_node
    host_formula = st.host_formula
    if offload_par:
        parameters = st.parameters
        shard = ceil_div(base, n_d)
        host = (host or 0) + shard * ranks_on_node
        host_formula = Msg.of("deriv.host_finetune", adapters=host_formula, storage=storage)
    else:
        adapters = st.parameters
        if stage == 3 and n_d > 1:
            shard = ceil_div(base, n_d)
            base_term = Term(shard, 1, "W_base", base, n_d, "N_d", label=label, style="bytes")
        else:
            shard = base
            base_term = Term(base, symbol="W_base", label=label, style="bytes")
        terms = (base_term, *adapters.deriv.terms)
        total = shard + adapters.bytes
        parameters = Part(total, Derivation(terms, total), SOURCE)
    notes = list(st.notes)
    if not convention_of(s).publishes_finetune:
        notes.append(Msg.of("note.finetune_convention", convention=s.convention))
    if sizes.scaled:
        notes.append(Msg.of("note.finetune_scaled"))
    if storage in ("int8", "nf4"):
        notes.append(Msg.of("note.finetune_kbit_modules"))
        if s.model.architecture is not None and s.model.architecture.is_moe:
            notes.append(Msg.of("note.finetune_moe_experts"))
    if s.precision.optimizer == Optimizer.ADAM8BIT:
        notes.append(Msg.of("note.finetune_paged_optimizer"))
    return ModelStates(parameters, st.gradients, st.optimizer_states, st.master_weights, None, host, host_formula,
                       tuple(notes))
