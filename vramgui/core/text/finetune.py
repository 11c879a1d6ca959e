"""The message templates of fine-tuning (``vramgui.core.finetune.adapters``): LoRA / QLoRA errors, derivation words,
notes
and the reasons its inputs are moot.

Part of the one catalogue (``vramgui.core.text.message.CATALOGUE``), in the same "Core" translation context; kept in
a module of its own so that each file stays readable.
"""

from __future__ import annotations

from collections.abc import Mapping

from vramgui.core.text.mark import QT_TRANSLATE_NOOP


def finetune_catalogue() -> Mapping[str, str]:
    # QT_TRANSLATE_NOOP is spelled out in every entry: pyside6-lupdate extracts only calls by that name
    return {
        # ----- errors
        "error.lora_targets": QT_TRANSLATE_NOOP(
            "Core", "{value} is not attention, all-linear or a comma list of module names"),
        "error.lora_target_unknown": QT_TRANSLATE_NOOP("Core", "this model has no Linear layer named {name}"),
        "error.lora_no_targets": QT_TRANSLATE_NOOP("Core", "the LoRA targets match no Linear layer of this model"),
        "error.finetune_needs_architecture": QT_TRANSLATE_NOOP(
            "Core", "LoRA and QLoRA count their adapters from the architecture: choose a preset or a config.json"),
        "allowed.lora_targets": QT_TRANSLATE_NOOP("Core", "attention, all-linear, or names among: {names}"),
        "allowed.lora_target_syntax": QT_TRANSLATE_NOOP(
            "Core", "attention, all-linear, or module names separated by commas (q_proj,v_proj)"),
        # ----- derivation words
        "deriv.frozen_base": QT_TRANSLATE_NOOP("Core", "{value} frozen base ({storage})"),
        "deriv.host_finetune": QT_TRANSLATE_NOOP("Core", "{adapters} + frozen base ({storage})/N_d"),
        "deriv.peak_dequant": QT_TRANSLATE_NOOP(
            "Core", "{value} one quantised weight dequantised to the compute dtype"),
        # ----- inputs a choice makes moot
        "inactive.full_finetune": QT_TRANSLATE_NOOP("Core", "Only for LoRA and QLoRA fine-tuning"),
        "inactive.qlora_base": QT_TRANSLATE_NOOP("Core", "QLoRA keeps its base in NF4"),
        "inactive.double_quant_nf4": QT_TRANSLATE_NOOP("Core", "Only for a 4-bit (NF4) base"),
        # ----- notes
        "note.finetune_convention": QT_TRANSLATE_NOOP(
            "Core", "fine-tuning: the {convention} convention publishes no LoRA figures; the adapters' states are "
            "counted as the ZeRO paper counts parameters"),
        "note.finetune_scaled": QT_TRANSLATE_NOOP(
            "Core", "the adapters and the frozen base are scaled from the architecture to the parameter count given"),
        "note.finetune_kbit_modules": QT_TRANSLATE_NOOP(
            "Core", "the modules bitsandbytes leaves unquantised (embeddings, LM head, norms, routers) are counted "
            "in the model's dtype; peft's prepare_model_for_kbit_training casts them to fp32 (not counted)"),
        "note.finetune_moe_experts": QT_TRANSLATE_NOOP(
            "Core", "routed experts (transformers 5's fused 3-D parameters) are no nn.Linear: bitsandbytes leaves "
            "them in the model's dtype and LoRA gives them no adapter"),
        "note.finetune_paged_optimizer": QT_TRANSLATE_NOOP(
            "Core", "8-bit optimizer states of the adapters are counted on the GPU; bitsandbytes' paged optimizers "
            "can page them to host memory under pressure (not modelled)"),
        "note.finetune_activations": QT_TRANSLATE_NOOP(
            "Core", "LoRA activations are measured for Llama-style blocks; for this block style the frozen layers "
            "are counted as in full training (an upper bound)"),
    }
