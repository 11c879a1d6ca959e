"""How the input form presents the registry's fields: the words shown for choice values, check-box texts, the
mnemonic letter of a label, placeholders, the unit words and the longer explanations (formulas) in tooltips.

Presentation only: which fields exist, their labels, ranges and choices come from the registry (through
``vramgui.presenters.form.groups`` / ``form_texts``). Strings use the "InputPanel" context.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

A = "model.architecture."


def group_titles() -> dict[str, str]:
    return {
        "model": translate("InputPanel", "Model"),
        "training": translate("InputPanel", "Training"),
        "finetune": translate("InputPanel", "Fine-tuning"),
        "hardware": translate("InputPanel", "Hardware"),
        "strategy": translate("InputPanel", "Strategy"),
        "overheads": translate("InputPanel", "Overheads"),
    }


def choice_texts() -> dict[str, dict[str, str]]:
    """Shown text per choice value (a value missing here is shown as it is: fp16, bf16...)."""
    return {
        A + "family": {
            "llama": translate("InputPanel", "Llama-style (RMSNorm, gated MLP)"),
            "gpt": translate("InputPanel", "GPT-style (LayerNorm, GELU MLP)"),
        },
        A + "norm": {"rmsnorm": "RMSNorm", "layernorm": "LayerNorm"},
        "precision.recipe": {
            "mixed": translate("InputPanel", "mixed (fp32 master copy)"),
            "pure": translate("InputPanel", "pure (dtype only)"),
            "amp": translate("InputPanel", "amp (fp32 weights, autocast)"),
        },
        "training.loss": {
            "hf": translate("InputPanel", "Hugging Face cross-entropy"),
            "chunked": translate("InputPanel", "chunked (fused) cross-entropy"),
        },
        "precision.optimizer": {
            "adam": "Adam", "adamw": "AdamW", "adam8bit": translate("InputPanel", "Adam 8-bit"), "sgd": "SGD",
            "sgd_momentum": translate("InputPanel", "SGD + momentum"), "adafactor": "Adafactor", "lion": "Lion",
        },
        "training.recompute": {
            "none": translate("InputPanel", "none"),
            "selective": translate("InputPanel", "selective"),
            "full": translate("InputPanel", "full"),
        },
        "training.attention": {
            "flash": translate("InputPanel", "flash / SDPA"),
            "eager": translate("InputPanel", "eager"),
        },
        "training.implementation": {
            "hf": translate("InputPanel", "Hugging Face"),
            "fused": translate("InputPanel", "fused kernels"),
        },
        "parallel.zero_stage": {
            "0": translate("InputPanel", "DDP (no sharding)"),
            "1": translate("InputPanel", "ZeRO-1 (optimizer states)"),
            "2": translate("InputPanel", "ZeRO-2 (+ gradients)"),
            "3": translate("InputPanel", "ZeRO-3 / FSDP (+ parameters)"),
        },
        "finetune.method": {
            "full": translate("InputPanel", "full (every parameter)"),
            "lora": "LoRA",
            "qlora": translate("InputPanel", "QLoRA (4-bit NF4 base)"),
        },
        "finetune.base_dtype": {
            "auto": translate("InputPanel", "auto (the weights' dtype)"),
            "int8": translate("InputPanel", "int8 (LLM.int8)"),
            "nf4": translate("InputPanel", "NF4 (4-bit)"),
        },
        "convention": {"paper": translate("InputPanel", "ZeRO paper"), "deepspeed": "DeepSpeed",
                       "megatron": "Megatron-LM"},
    }


def check_texts() -> dict[str, str]:
    """The text of a check box that stands in for its label (flags of the strategy)."""
    return {
        "parallel.sp": translate("InputPanel", "Sequence parallel (SP)"),
        "parallel.distributed_optimizer": translate("InputPanel", "Distributed optimizer (Megatron)"),
        "offload.optimizer": translate("InputPanel", "Offload optimizer states to CPU"),
        "offload.params": translate("InputPanel", "Offload parameters to CPU"),
        "offload.zero_init": translate("InputPanel", "Create the model partitioned (zero.Init)"),
    }


# The mnemonic (Alt+letter) of a field's label: marked in the text, or appended "(&X)" when the translated label
# lacks the letter (as Chinese labels do). File, View and Help take F, V and H.
MNEMONICS = {
    "model.preset": "S", "model.mode": "D", "model.params": "M", "precision.dtype": "Y", "precision.recipe": "R",
    "precision.optimizer": "P", "training.micro_batch": "B", "training.seq_len": "Q", "training.global_batch": "L",
    "training.recompute": "C", "training.attention": "A", "hardware.gpu": "G", "hardware.gpu_memory": "U",
    "parallel.num_gpus": "N", "parallel.gpus_per_node": "O", "hardware.reserve": "E", "parallel.zero_stage": "Z",
    "parallel.tp": "T", "parallel.pp": "I", "overhead.cuda_context": "X", "finetune.lora_rank": "K",
}


def with_mnemonic(text: str, letter: str | None) -> str:
    if not letter:
        return text
    at = text.lower().find(letter.lower())
    if at < 0:
        return f"{text} (&{letter})" if text.isascii() else f"{text}(&{letter})"
    return text[:at] + "&" + text[at:]


def placeholders() -> dict[str, str]:
    """Shown in an empty line edit: what empty means (the value is derived, or not given)."""
    return {
        "model.params": "7B",
        "model.largest_layer": translate("InputPanel", "from the architecture"),
        A + "num_kv_heads": translate("InputPanel", "= attention heads"),
        A + "head_dim": translate("InputPanel", "= hidden size ÷ heads"),
        A + "moe_ffn_size": translate("InputPanel", "= FFN size"),
        A + "shared_expert_ffn_size": translate("InputPanel", "= expert FFN size × shared experts"),
        A + "v_head_dim": translate("InputPanel", "= head dimension"),
        "training.global_batch": translate("InputPanel", "optional"),
        "hardware.gpu_name": translate("InputPanel", "optional"),
        "hardware.gpu_memory": "80GB",
    }


def unit_texts() -> dict[str, str]:
    """The registry's unit ids as shown beside a whole-number field."""
    return {
        "samples": translate("InputPanel", "sequences"),
        "tokens": translate("InputPanel", "tokens"),
        "GPUs": translate("InputPanel", "GPUs"),
    }


def explanations() -> dict[str, str]:
    """What a field means, with its formula, added to the registry's tooltip."""
    return {
        "model.preset": translate(
            "InputPanel",
            "A model from the catalog: its architecture gives Φ exactly and sizes the activations. Type to search."),
        "model.mode": translate(
            "InputPanel",
            "Where Φ comes from. A parameter count alone sizes the model states (16Φ for mixed-precision Adam) but "
            "not the activations, which need the architecture."),
        A + "family": translate(
            "InputPanel", "The transformer block: it fixes which weights and activations a layer holds."),
        A + "num_layers": translate("InputPanel", "Number of transformer blocks."),
        A + "hidden_size": translate("InputPanel", "Model width h."),
        A + "num_heads": translate(
            "InputPanel", "Query heads a. Each head is h ÷ a wide, rounded down, unless Head dimension is set "
                          "(More architecture fields)."),
        A + "num_kv_heads": translate(
            "InputPanel", "Key/value heads (fewer than the query heads: grouped-query attention)."),
        A + "ffn_size": translate("InputPanel", "Intermediate size of the MLP."),
        A + "vocab_size": translate("InputPanel", "Vocabulary size V."),
        "precision.dtype": translate(
            "InputPanel",
            "Type of the weights, gradients and activations: 2 bytes per parameter for fp16/bf16, 4 for fp32."),
        "precision.recipe": translate(
            "InputPanel",
            "Mixed precision keeps an fp32 master copy of the weights in the optimizer states: with Adam, K = 12 "
            "bytes per parameter (4 master + 4 momentum + 4 variance), so 2Φ + 2Φ + KΦ = 16Φ."),
        "precision.optimizer": translate(
            "InputPanel", "Sets K, the optimizer-state bytes per parameter (Adam mixed precision: K = 12)."),
        "training.global_batch": translate(
            "InputPanel",
            "Sequences per optimizer step. Accumulation steps = global batch ÷ (micro-batch × N_d). Empty: one "
            "micro-batch per step."),
        "training.recompute": translate(
            "InputPanel",
            "Activation checkpointing: full keeps only each layer's input; selective recomputes the attention scores "
            "(Korthikanti et al. 2022)."),
        "training.attention": translate(
            "InputPanel", "Eager attention stores the a·s² score and softmax matrices; flash attention does not."),
        "training.implementation": translate(
            "InputPanel",
            "Activation accounting profile: Hugging Face eager modules, or fused kernels (Megatron-style) that keep "
            "fewer intermediates."),
        "hardware.gpu": translate(
            "InputPanel", "A GPU from the catalog (its memory as the vendor states it), or custom memory."),
        "parallel.num_gpus": translate(
            "InputPanel", "N, the GPUs of the run; the data-parallel size N_d = N ÷ (TP × PP)."),
        "hardware.reserve": translate("InputPanel", "Usable = memory × (1 − reserve)."),
        "parallel.zero_stage": translate(
            "InputPanel",
            "DDP: 2Φ + 2Φ + KΦ per GPU. ZeRO-1: 2Φ + 2Φ + KΦ/N_d. ZeRO-2: 2Φ + (2+K)Φ/N_d. ZeRO-3: (2+2+K)Φ/N_d "
            "(Rajbhandari et al. 2020)."),
        "parallel.tp": translate(
            "InputPanel", "Tensor-parallel size: splits each layer's weights and most activations."),
        "parallel.pp": translate("InputPanel", "Pipeline stages: each holds 1/PP of the layers."),
        "offload.optimizer": translate("InputPanel", "ZeRO-Offload: optimizer states (KΦ) live in host memory."),
        "offload.params": translate("InputPanel", "ZeRO-Infinity parameter offload (ZeRO-3 only)."),
        "convention": translate(
            "InputPanel",
            "Whose accounting to follow: the ZeRO paper (the seed's 16Φ), DeepSpeed's estimators, or Megatron-LM's."),
    }


def ui_labels() -> dict[str, str]:
    """Labels of the UI-only rows (not scenario fields)."""
    return {
        "model.preset": translate("InputPanel", "Preset"),
        "model.mode": translate("InputPanel", "Defined by"),
        "hardware.gpu": "GPU",
    }


def mode_choices() -> list[tuple[str, str]]:
    return [
        ("preset", translate("InputPanel", "the preset or import")),
        ("params", translate("InputPanel", "parameter count Φ")),
        ("architecture", translate("InputPanel", "architecture fields")),
    ]
