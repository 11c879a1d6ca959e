"""When a field does nothing: one predicate per rule, on the whole ``Scenario``, returning why (a ``Msg`` the window
shows as the disabled editor's tooltip, and the reason pin names and captions leave the field out) or None.

Each field's row names its rule (``Field.inactive``); ``registry.inactive_reason`` asks it. The rules follow what
each convention and choice counts (docs/conventions.md, docs/peak.md, docs/finetune.md).
"""

from __future__ import annotations

from vramgui.core.scenario.choices import (
    BaseDType,
    DType,
    Engine,
    FinetuneMethod,
    Implementation,
    Offload,
    WeightFormat,
)
from vramgui.core.scenario.convention import convention_of
from vramgui.core.scenario.specs import Scenario
from vramgui.core.text.message import Msg


def always_applies(scenario: Scenario) -> Msg | None:
    """A field every scenario counts."""
    return None


# ----------------------------------------------------------------------------------- conventions and ZeRO stages


def zero_stage(scenario: Scenario) -> Msg | None:
    """Megatron-LM has no ZeRO stage (its distributed optimizer is the sharding)."""
    return None if convention_of(scenario).uses_zero_stage else Msg.of("inactive.stage_megatron")


def megatron_only(scenario: Scenario) -> Msg | None:
    return Msg.of("inactive.megatron_only") if convention_of(scenario).uses_zero_stage else None


def deepspeed_only(scenario: Scenario) -> Msg | None:
    return None if convention_of(scenario).host_memory else Msg.of("inactive.deepspeed_only")


def optimizer(scenario: Scenario) -> Msg | None:
    """DeepSpeed's estimators fix the precision recipe and the optimizer's bytes."""
    return Msg.of("inactive.deepspeed_precision") if convention_of(scenario).fixed_precision else None


def recipe(scenario: Scenario) -> Msg | None:
    rules = convention_of(scenario)
    if rules.fixed_precision:
        return Msg.of("inactive.deepspeed_precision")
    return Msg.of("inactive.megatron_recipe") if rules.always_main_params else None


def optimizer_offload(scenario: Scenario) -> Msg | None:
    return None if convention_of(scenario).models_offload else Msg.of("inactive.megatron_offload")


def params_offload(scenario: Scenario) -> Msg | None:
    """Parameter offload is ZeRO-3's (ZeRO-Infinity)."""
    if not convention_of(scenario).models_offload:
        return Msg.of("inactive.megatron_offload")
    return Msg.of("inactive.stage3_only") if scenario.parallel.zero_stage != 3 else None


def zero3_live_params(scenario: Scenario) -> Msg | None:
    if not convention_of(scenario).uses_zero_stage:
        return Msg.of("inactive.stage_megatron")
    return Msg.of("inactive.stage3_only") if scenario.parallel.zero_stage != 3 else None


def largest_layer(scenario: Scenario) -> Msg | None:
    """DeepSpeed's ZeRO-3 estimator is the only one that counts the largest layer."""
    if convention_of(scenario).largest_layer_term and scenario.parallel.zero_stage == 3:
        return None
    return Msg.of("inactive.largest_layer")


def sequence_parallel(scenario: Scenario) -> Msg | None:
    return Msg.of("inactive.sp_needs_tp") if scenario.parallel.tp == 1 else None


# ----------------------------------------------------------------------------------- the step peak's inputs


def ddp_bucket_view(scenario: Scenario) -> Msg | None:
    if scenario.parallel.zero_stage != 0 or not convention_of(scenario).uses_zero_stage:
        return Msg.of("inactive.ddp_only")
    return None


def optimizer_impl(scenario: Scenario) -> Msg | None:
    if convention_of(scenario).fused_optimizer:
        return Msg.of("inactive.fused_optimizer_convention")
    return Msg.of("inactive.optimizer_on_host") if scenario.offload.optimizer == Offload.CPU else None


def reduce_bucket(scenario: Scenario) -> Msg | None:
    if scenario.parallel.zero_stage == 0 or not convention_of(scenario).uses_zero_stage:
        return Msg.of("inactive.zero_only")
    return None


def zero3_prefetch(scenario: Scenario) -> Msg | None:
    rules = convention_of(scenario)
    if scenario.parallel.zero_stage != 3 or not rules.uses_zero_stage:
        return Msg.of("inactive.stage3_only")
    if not rules.zero3_live_default and scenario.overhead.zero3_live_params is None:
        return Msg.of("inactive.prefetch_deepspeed")
    return None


# ----------------------------------------------------------------------------------- fine-tuning


def adapters(scenario: Scenario) -> Msg | None:
    """Fine-tuning's inputs (vramgui.core.finetune.adapters) are moot under full training."""
    return Msg.of("inactive.full_finetune") if scenario.finetune.method == FinetuneMethod.FULL else None


def base_dtype(scenario: Scenario) -> Msg | None:
    """QLoRA fixes the base to NF4."""
    if scenario.finetune.method == FinetuneMethod.FULL:
        return Msg.of("inactive.full_finetune")
    return Msg.of("inactive.qlora_base") if scenario.finetune.method == FinetuneMethod.QLORA else None


def double_quant(scenario: Scenario) -> Msg | None:
    if scenario.serve.active:  # serving NF4 weights (vramgui.core.serve.formats) reads it, other formats do not
        return None if scenario.serve.weights == WeightFormat.NF4 else Msg.of("inactive.double_quant_nf4")
    ft = scenario.finetune
    if ft.method == FinetuneMethod.FULL:
        return Msg.of("inactive.full_finetune")
    nf4 = ft.method == FinetuneMethod.QLORA or ft.base_dtype == BaseDType.NF4
    return None if nf4 else Msg.of("inactive.double_quant_nf4")


# ----------------------------------------------------------------------------------- MoE and pipeline stages


def needs_moe(scenario: Scenario) -> Msg | None:
    """Expert parallelism and MoE routing need routed experts."""
    arch = scenario.model.architecture
    return None if arch is not None and arch.is_moe else Msg.of("inactive.needs_moe")


def moe_imbalance(scenario: Scenario) -> Msg | None:
    """The imbalance matters only across expert-parallel ranks."""
    reason = needs_moe(scenario)
    if reason is None and scenario.parallel.ep == 1:
        return Msg.of("inactive.imbalance_needs_ep")
    return reason


def needs_pp(scenario: Scenario) -> Msg | None:
    return Msg.of("inactive.needs_pp") if scenario.parallel.pp == 1 else None


def stage_layers(scenario: Scenario) -> Msg | None:
    """Uneven stages need pipeline stages and an architecture to split."""
    reason = needs_pp(scenario)
    if reason is None and scenario.model.architecture is None:
        return Msg.of("inactive.stages_need_architecture")
    return reason


# ----------------------------------------------------------------------------------- FP8


def fp8(scenario: Scenario) -> Msg | None:
    """FP8 Linears run through TransformerEngine in Megatron-Core (vramgui.core.activations.fp8): a 16-bit dtype,
    the fused profile, full training."""
    if scenario.precision.dtype not in (DType.BF16, DType.FP16):
        return Msg.of("inactive.fp8_needs_16bit")
    if scenario.training.implementation != Implementation.FUSED:
        return Msg.of("inactive.fp8_fused_only")
    if scenario.finetune.method != FinetuneMethod.FULL:
        return Msg.of("inactive.fp8_full_training")
    return None


# ----------------------------------------------------------------------------------- serving (vramgui serve)


def serving(scenario: Scenario) -> Msg | None:
    """A serving input: the training estimate does not read it (``vramgui serve`` and the window's Serve mode do)."""
    return None if scenario.serve.active else Msg.of("inactive.serving_only")


def vllm_only(scenario: Scenario) -> Msg | None:
    """vLLM's own knobs (its flag names): the other engines have none of them (``core.serve.estimate``)."""
    if not scenario.serve.active:
        return Msg.of("inactive.serving_only")
    return None if scenario.serve.engine == Engine.VLLM else Msg.of("inactive.serve_vllm_only")


def vllm_utilization(scenario: Scenario) -> Msg | None:
    """vLLM's share of the GPU: not read when the KV pool is given (``--kv-cache-memory-bytes``: no profiling)."""
    if scenario.serve.active and scenario.serve.kv_cache_memory_bytes is not None:
        return Msg.of("inactive.serve_pool_given")
    return vllm_only(scenario)


def llama_cpp_only(scenario: Scenario) -> Msg | None:
    if not scenario.serve.active:
        return Msg.of("inactive.serving_only")
    return None if scenario.serve.engine == Engine.LLAMA_CPP else Msg.of("inactive.serve_llama_cpp_only")


def reserve(scenario: Scenario) -> Msg | None:
    """Serving with vLLM: its ``gpu_memory_utilization`` is the share it takes, the reserve is not read."""
    if scenario.serve.active and scenario.serve.engine == Engine.VLLM:
        return Msg.of("inactive.serve_vllm_reserve")
    return None


def training_only(scenario: Scenario) -> Msg | None:
    """In Serve mode, an input ``vramgui serve`` does not take (``registry.serving_reads`` says which it takes)."""
    return Msg.of("inactive.training_only") if scenario.serve.active else None

