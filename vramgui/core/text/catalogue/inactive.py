"""``inactive.*`` messages. Why an input has no effect under the current choices (the window disables it with this
reason).

Part of the one catalogue (``vramgui.core.text.message.CATALOGUE``, translation context "Core").
"""

from __future__ import annotations

from collections.abc import Mapping

from vramgui.core.text.mark import QT_TRANSLATE_NOOP


def entries() -> Mapping[str, str]:
    # QT_TRANSLATE_NOOP is spelled out in every entry: pyside6-lupdate extracts only calls by that name
    return {
        # ----- why an input has no effect (tooltips of disabled inputs)
        "inactive.stage_megatron": QT_TRANSLATE_NOOP(
            "Core", "The megatron convention ignores the ZeRO stage: the distributed optimizer decides the sharding"),
        "inactive.megatron_only": QT_TRANSLATE_NOOP("Core", "Used by the megatron convention only"),
        "inactive.serving_only": QT_TRANSLATE_NOOP(
            "Core", "A serving input: read by vramgui serve, not by the training estimate"),
        "inactive.serve_vllm_only": QT_TRANSLATE_NOOP("Core", "A vLLM setting: the chosen engine does not read it"),
        "inactive.serve_llama_cpp_only": QT_TRANSLATE_NOOP(
            "Core", "A llama.cpp setting: the chosen engine does not read it"),
        "inactive.serve_pool_given": QT_TRANSLATE_NOOP(
            "Core", "Not read while the KV cache memory is given (vLLM does not profile then)"),
        "inactive.serve_vllm_reserve": QT_TRANSLATE_NOOP(
            "Core", "vLLM takes its GPU memory utilization share instead of a reserve"),
        "inactive.training_only": QT_TRANSLATE_NOOP(
            "Core", "A training input: Serve mode does not read it (untick Serve mode to plan training)"),
        "inactive.deepspeed_only": QT_TRANSLATE_NOOP(
            "Core", "Used by the deepspeed convention only (host memory per node)"),
        "inactive.deepspeed_precision": QT_TRANSLATE_NOOP(
            "Core", "DeepSpeed's estimator assumes 16-bit mixed precision with Adam: not used by this convention"),
        "inactive.megatron_recipe": QT_TRANSLATE_NOOP(
            "Core", "The megatron convention always keeps fp32 main parameters for 16-bit training"),
        "inactive.megatron_offload": QT_TRANSLATE_NOOP("Core", "The megatron convention models no CPU offload"),
        "inactive.stage3_only": QT_TRANSLATE_NOOP("Core", "Applies at ZeRO stage 3 only"),
        "inactive.largest_layer": QT_TRANSLATE_NOOP(
            "Core", "DeepSpeed's ZeRO-3 term: used by the deepspeed convention at stage 3"),
        "inactive.sp_needs_tp": QT_TRANSLATE_NOOP("Core", "Sequence parallelism needs tensor parallelism (TP > 1)"),
        # ----- the training-step peak (vramgui.core.step.peak)
        "inactive.ddp_only": QT_TRANSLATE_NOOP("Core", "Only for DDP (ZeRO stage 0) outside the megatron convention"),
        "inactive.optimizer_on_host": QT_TRANSLATE_NOOP(
            "Core", "The optimizer steps on the host (optimizer offload): no temporaries on the GPU"),
        "inactive.fused_optimizer_convention": QT_TRANSLATE_NOOP(
            "Core", "DeepSpeed and Megatron-LM step with their own fused Adam: no temporaries"),
        "inactive.zero_only": QT_TRANSLATE_NOOP("Core", "Only for ZeRO stages 1-3 outside the megatron convention"),
        "inactive.prefetch_deepspeed": QT_TRANSLATE_NOOP(
            "Core", "DeepSpeed's knob: used under the deepspeed convention or with ZeRO-3 live parameters given"),
        # ----- LoRA / QLoRA fine-tuning (vramgui.core.finetune.adapters)
        "inactive.full_finetune": QT_TRANSLATE_NOOP("Core", "Only for LoRA and QLoRA fine-tuning"),
        "inactive.qlora_base": QT_TRANSLATE_NOOP("Core", "QLoRA keeps its base in NF4"),
        "inactive.double_quant_nf4": QT_TRANSLATE_NOOP("Core", "Only for a 4-bit (NF4) base"),
        # ----- expert, context and interleaved/uneven pipeline parallelism (vramgui.core.parallel.layout,
        # vramgui.core.fields.validate, vramgui.core.activations.moe)
        "inactive.needs_moe": QT_TRANSLATE_NOOP("Core", "Only for mixture-of-experts architectures"),
        "inactive.imbalance_needs_ep": QT_TRANSLATE_NOOP("Core", "Only with expert parallelism (ep > 1)"),
        "inactive.needs_pp": QT_TRANSLATE_NOOP("Core", "Only with pipeline parallelism (pp > 1)"),
        "inactive.stages_need_architecture": QT_TRANSLATE_NOOP(
            "Core", "Needs an architecture: a parameter count alone has no layers to place"),
        # ----- FP8 training through TransformerEngine (vramgui.core.model_states.fp8)
        "inactive.fp8_needs_16bit": QT_TRANSLATE_NOOP(
            "Core", "Only with bf16 or fp16: FP8 Linears run inside a 16-bit model"),
        "inactive.fp8_fused_only": QT_TRANSLATE_NOOP(
            "Core", "Only with the fused implementation (Megatron-Core / TransformerEngine): Hugging Face "
                    "transformers runs no FP8 Linears"),
        "inactive.fp8_full_training": QT_TRANSLATE_NOOP(
            "Core", "Only with full training: FP8 under LoRA or QLoRA is not modelled"),
    }
