"""``imported.*`` messages. What a training config gave (``vramgui.core.documents.training``): why a key was
ignored or left unresolved, and how a taken value was derived.

Part of the one catalogue (``vramgui.core.text.message.CATALOGUE``, translation context "Core").
"""

from __future__ import annotations

from collections.abc import Mapping

from vramgui.core.text.mark import QT_TRANSLATE_NOOP


def entries() -> Mapping[str, str]:
    # QT_TRANSLATE_NOOP is spelled out in every entry: pyside6-lupdate extracts only calls by that name
    return {
        # ----- why a key was ignored
        "imported.no_memory_effect": QT_TRANSLATE_NOOP("Core", "does not change a training step's GPU memory"),
        "imported.unknown_key": QT_TRANSLATE_NOOP("Core", "not a setting vramgui reads"),
        "imported.auto_from": QT_TRANSLATE_NOOP("Core", "\"auto\": filled from {tool}'s own settings"),
        "imported.covered_by": QT_TRANSLATE_NOOP("Core", "already covered by {other}"),
        "imported.unused_without": QT_TRANSLATE_NOOP("Core", "not used without {other}"),
        # ----- why a key is unresolved
        "imported.no_input": QT_TRANSLATE_NOOP("Core", "changes memory, but vramgui has no input for it"),
        "imported.unknown_value": QT_TRANSLATE_NOOP("Core", "a value vramgui cannot read"),
        "imported.auto_unfilled": QT_TRANSLATE_NOOP(
            "Core", "\"auto\": the trainer fills it at run time; nothing in the file says the value"),
        "imported.auto_no_model": QT_TRANSLATE_NOOP(
            "Core", "\"auto\" follows the model's hidden size: no model architecture is known"),
        "imported.needs_zero3": QT_TRANSLATE_NOOP("Core", "applies at ZeRO stage 3 (full sharding) only"),
        "imported.hybrid_shard": QT_TRANSLATE_NOOP(
            "Core", "hybrid sharding (sharded within a node, replicated across nodes) has no vramgui input"),
        "imported.paged_optimizer": QT_TRANSLATE_NOOP(
            "Core", "a paged optimizer moves its states to the host under memory pressure; counted on the GPU here"),
        "imported.liger_other_kernels": QT_TRANSLATE_NOOP(
            "Core", "Liger's other fused kernels (RMSNorm, SwiGLU, RoPE) keep less than vramgui counts"),
        "imported.model_dtype_unknown": QT_TRANSLATE_NOOP(
            "Core", "autocast over the model as loaded: the recipe depends on the dtype the model was loaded in "
                    "(give --precision)"),
        "imported.cpu_training": QT_TRANSLATE_NOOP("Core", "this run trains on the CPU; vramgui plans GPU memory"),
        "imported.quantized_full": QT_TRANSLATE_NOOP(
            "Core", "a quantized base is trained with an adapter only; vramgui has no input for it here"),
        "imported.seq_from_data": QT_TRANSLATE_NOOP(
            "Core", "no cap: the longest sample of the data set sets the sequence length (give --seq-len)"),
        "imported.target_regex": QT_TRANSLATE_NOOP(
            "Core", "a regular expression of module names; give --lora-targets"),
        # ----- how a taken value was derived
        "imported.tool_default": QT_TRANSLATE_NOOP("Core", "{tool}'s default"),
        "imported.bf16_auto": QT_TRANSLATE_NOOP("Core", "\"auto\": bf16 on a GPU that has it (Ampere or newer)"),
        "imported.loaded_in_dtype": QT_TRANSLATE_NOOP(
            "Core", "{tool} loads and trains the model in this dtype: 16-bit weights and optimizer states"),
        "imported.peft_autocast": QT_TRANSLATE_NOOP("Core", "peft keeps adapters in fp32 (autocast_adapter_dtype)"),
        "imported.upcast_trainable": QT_TRANSLATE_NOOP(
            "Core", "LLaMA-Factory casts trainable parameters to fp32 unless pure_bf16"),
        "imported.torchao_nf4": QT_TRANSLATE_NOOP("Core", "torchao NF4 quantizes its scalers too"),
        "imported.micro_from_total": QT_TRANSLATE_NOOP(
            "Core", "train_batch_size / (data-parallel size × accumulation steps)"),
        "imported.total_from_accumulation": QT_TRANSLATE_NOOP(
            "Core", "micro-batch {micro} × {steps} accumulation steps × data-parallel size {dp}"),
        "imported.auto_h2": QT_TRANSLATE_NOOP("Core", "\"auto\" = hidden² = {h}²"),
        "imported.auto_09h2": QT_TRANSLATE_NOOP("Core", "\"auto\" = 0.9 × hidden² = 0.9 × {h}²"),
        "imported.megatron_run": QT_TRANSLATE_NOOP(
            "Core", "Megatron-LM keeps fp32 main parameters and gradients: its own accounting"),
        "imported.model_shape": QT_TRANSLATE_NOOP(
            "Core", "the model's shape: the model is the one --preset or --config gives"),
        # ----- the model a file names
        "imported.model_preset": QT_TRANSLATE_NOOP("Core", "{name} is the preset {preset}"),
        "imported.model_folder": QT_TRANSLATE_NOOP("Core", "{name} is a local model folder"),
        "imported.model_unknown": QT_TRANSLATE_NOOP(
            "Core", "no preset or local folder for this model; give --preset or --config"),
        "imported.model_given": QT_TRANSLATE_NOOP("Core", "not used: {option} gives the model"),
        "imported.file_missing": QT_TRANSLATE_NOOP(
            "Core", "{path} not found: resolved against the working directory {base}, as {tool} does"),
    }
