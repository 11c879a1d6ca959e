"""The accounting conventions as objects: what each one decides, asked of it instead of branching on its name.

``paper`` (the ZeRO paper, the seed) is the base; ``deepspeed`` (DeepSpeed's estimators) and ``megatron``
(Megatron-LM's distributed-optimizer table) differ where their sources do (docs/conventions.md). The model-state
arithmetic of each is in ``vramgui.core.model_states.conventions``; the facts here are what validation, the step
peak, the estimate and the solvers ask, so they sit beside the Scenario that names the convention.
"""

from __future__ import annotations

from dataclasses import dataclass

from vramgui.core.scenario.choices import Convention
from vramgui.core.scenario.specs import Scenario


@dataclass(frozen=True)
class Rules:
    """What one convention decides, asked of it instead of branching on its name (``convention_of``).

    ``paper`` (the ZeRO paper, the seed) is the base; ``deepspeed`` and ``megatron`` differ where their sources do."""

    key: Convention = Convention.PAPER
    uses_zero_stage: bool = True  # megatron: the distributed optimizer decides the sharding, not a ZeRO stage
    models_offload: bool = True  # megatron: no CPU offload
    fused_optimizer: bool = False  # deepspeed, megatron: their own fused optimizer step, not torch.optim's impls
    host_memory: bool = False  # deepspeed: host memory per node (its estimator's CPU figure, zero.Init)
    zero3_live_default: bool = False  # deepspeed: stage3_max_live_parameters / prefetch default to its own
    largest_layer_term: bool = False  # deepspeed: ZeRO-3's 4 x largest layer
    fixed_precision: bool = False  # deepspeed: its estimator assumes 16-bit mixed precision with Adam
    refuses_param_offload_alone: bool = False  # deepspeed: parameter offload needs optimizer offload
    always_main_params: bool = False  # megatron: fp32 main parameters for 16-bit training, whatever the recipe
    main_grad_buffers: bool = False  # megatron: contiguous fp32 main-gradient buffers, live in every phase
    fsdp_zero3: bool = True  # paper: ZeRO-3 as FSDP2 (per-layer units, buckets inside the working set)
    publishes_finetune: bool = True  # only the paper's accounting prices LoRA adapters


PAPER = Rules()
DEEPSPEED = Rules(Convention.DEEPSPEED, fused_optimizer=True, host_memory=True, zero3_live_default=True,
                  largest_layer_term=True, fixed_precision=True, refuses_param_offload_alone=True, fsdp_zero3=False,
                  publishes_finetune=False)
MEGATRON = Rules(Convention.MEGATRON, uses_zero_stage=False, models_offload=False, fused_optimizer=True,
                 always_main_params=True, main_grad_buffers=True, fsdp_zero3=False, publishes_finetune=False)
RULES: dict[str, Rules] = {r.key: r for r in (PAPER, DEEPSPEED, MEGATRON)}


def convention_of(s: Scenario) -> Rules:
    """The scenario's convention as the object that answers for it."""
    return RULES[s.convention]
