"""A LLaMA-Factory config (``llamafactory-cli train config.yaml``): ``src/llamafactory/hparams/`` (model_args.py,
data_args.py, finetuning_args.py) plus the Hugging Face ``Seq2SeqTrainingArguments`` (``trainer.py``).

Its defaults matter where a key is absent: ``finetuning_type`` lora, ``lora_rank`` 8, ``lora_target`` all,
``lora_dropout`` 0, ``cutoff_len`` 2048, gradient checkpointing on (``disable_gradient_checkpointing`` false),
``double_quantization`` true, and TrainingArguments' ``per_device_train_batch_size`` 8. The dtype: the model is
loaded in ``compute_dtype`` (bf16/fp16) and ``model/adapter.py`` (``init_adapter``) casts the trainable parameters to
fp32 unless ``pure_bf16`` (or ZeRO-3 without quantisation, where DeepSpeed keeps the fp32 masters): a full fine-tune
then keeps fp32 weights and optimizer states under autocast (the amp recipe), LoRA adapters are fp32.
"""

from __future__ import annotations

from typing import Any

from vramgui.core.documents.training import trainer
from vramgui.core.documents.training.imported import Imported, Reader, as_bool, as_int
from vramgui.core.scenario.choices import (
    AdapterDType,
    Attention,
    BaseDType,
    DType,
    FinetuneMethod,
    LoraTargetSet,
    Loss,
    Recipe,
    Recompute,
)
from vramgui.core.text.message import Msg

NO_EFFECT = {
    "trust_remote_code", "do_train", "dataset", "dataset_dir", "eval_dataset", "template", "max_samples",
    "overwrite_cache", "preprocessing_num_workers", "plot_loss", "val_size", "lora_alpha", "use_rslora",
    "loraplus_lr_ratio", "loraplus_lr_embedding", "create_new_adapter", "adapter_name_or_path", "export_dir",
    "cache_dir", "model_revision", "hf_hub_token", "ms_hub_token", "om_hub_token", "tokenized_path", "streaming",
    "buffer_size", "mix_strategy", "interleave_probs", "packing", "neat_packing", "tool_format", "mask_history",
    "train_on_prompt", "ignore_pad_token_for_loss", "default_system", "enable_thinking", "image_max_pixels",
    "image_min_pixels", "video_max_pixels", "video_min_pixels", "video_fps", "video_maxlen", "media_dir",
    "image_dir", "split", "infer_backend", "temperature", "top_p", "top_k", "max_new_tokens", "do_sample",
    "pref_beta", "pref_loss", "pref_ftx", "resize_vocab", "split_special_tokens", "new_special_tokens",
    "low_cpu_mem_usage", "use_fast_tokenizer", "quantization_device_map", "print_param_status", "compute_accuracy",
    "disable_shuffling", "include_effective_tokens_per_second", "use_swanlab", "finetuning_args",
}
NO_INPUT = {
    "additional_target", "use_dora", "pissa_init", "use_unsloth", "use_unsloth_gc", "upcast_layernorm",
    "upcast_lmhead_output", "shift_attn", "mixture_of_depths", "use_galore", "use_apollo", "use_badam",
    "use_llama_pro", "freeze_trainable_layers", "freeze_trainable_modules", "freeze_extra_modules", "rope_scaling",
    "ref_model", "reward_model", "moe_aux_loss_coef", "freeze_vision_tower", "freeze_multi_modal_projector",
    "train_mm_proj_only", "use_reentrant_gc", "kt_cpu_activation", "use_kt", "quantization_type",
    "quantization_method",
}
_ATTENTION = {"auto": Attention.FLASH, "sdpa": Attention.FLASH, "fa2": Attention.FLASH, "fa3": Attention.FLASH,
              "disabled": Attention.EAGER}  # auto: transformers' sdpa; disabled: eager (model_utils/attention.py)
_OWN = frozenset({"model_name_or_path", "stage", "finetuning_type", "lora_rank", "lora_dropout", "lora_target",
                  "quantization_bit", "double_quantization", "quantization_type", "quantization_method", "cutoff_len",
                  "disable_gradient_checkpointing", "flash_attn", "enable_liger_kernel", "pure_bf16",
                  "per_device_train_batch_size"})


def read(doc: dict[str, Any], what: str = "LLaMA-Factory config") -> Imported:
    r = Reader("llamafactory", what)
    seen: set[str] = {k for k in _OWN if k in doc}
    name = doc.get("model_name_or_path")
    if isinstance(name, str) and name.strip():
        r.model = (name.strip(), "model_name_or_path")
    default = Msg.of("imported.tool_default", tool="LLaMA-Factory")
    micro = doc.get("per_device_train_batch_size", 8)
    trainer.take_batch(r, "per_device_train_batch_size", micro)
    if "per_device_train_batch_size" not in doc:
        r.micro_note = Msg.of("imported.tool_default", tool="TrainingArguments")
    seq = doc.get("cutoff_len", 2048)
    n = r.whole("cutoff_len", seq, 1)
    if n is not None:
        r.take("training.seq_len", n, "cutoff_len", note=None if "cutoff_len" in doc else default)
    seen |= trainer.read_trainer_keys(r, doc, skip=frozenset({"per_device_train_batch_size"}))
    off = as_bool(doc.get("disable_gradient_checkpointing", False))
    if off is None:
        r.bad_value("disable_gradient_checkpointing", doc["disable_gradient_checkpointing"])
    elif "gradient_checkpointing" not in doc and "activation_checkpointing" not in doc:
        r.take("training.recompute", Recompute.NONE if off else Recompute.FULL, "disable_gradient_checkpointing",
               note=None if "disable_gradient_checkpointing" in doc else default)
    attention = _ATTENTION.get(str(doc.get("flash_attn", "auto")).lower())
    if attention is None:
        r.bad_value("flash_attn", doc.get("flash_attn"))
    elif "flash_attn" in doc:
        r.take("training.attention", attention, "flash_attn")
    if as_bool(doc.get("enable_liger_kernel")):
        r.take("training.loss", Loss.CHUNKED, "enable_liger_kernel")
        r.unresolve("enable_liger_kernel", True, "imported.liger_other_kernels")
    if not any(doc.get(k) is not None for k in ("bf16", "fp16")):  # the dtype is then the checkpoint's own
        r.unresolve("bf16/fp16", "not given", "imported.model_dtype_unknown")
    stage = str(doc.get("stage", "sft")).lower()
    if stage not in ("sft", "pt"):  # rm/ppo/dpo/kto: a value head, a reference or reward model, paired batches
        r.unresolve("stage", stage)
    _method(r, doc, default)
    trainer.report_rest(r, doc, seen, NO_EFFECT | trainer.NO_EFFECT, NO_INPUT | trainer.NO_INPUT)
    return r.result()


def _dtype(r: Reader) -> DType | None:
    return next((t.value for t in r.taken if t.path == "precision.dtype"), None)


def _method(r: Reader, doc: dict[str, Any], default: Msg) -> None:
    kind = str(doc.get("finetuning_type", "lora")).lower()
    pure = as_bool(doc.get("pure_bf16")) is True
    dtype = _dtype(r)
    if kind == "full":
        if dtype in (DType.BF16, DType.FP16):  # trainable params upcast to fp32, autocast in the dtype
            r.take("precision.recipe", Recipe.PURE if pure else Recipe.AMP, "pure_bf16" if pure else "bf16",
                   note=Msg.of("imported.upcast_trainable"))
        if doc.get("quantization_bit") is not None:
            r.unresolve("quantization_bit", doc["quantization_bit"], "imported.quantized_full")
        return
    if kind != "lora":
        r.unresolve("finetuning_type", kind)
        return
    bits = as_int(doc.get("quantization_bit"))
    method = FinetuneMethod.QLORA if bits == 4 else FinetuneMethod.LORA
    r.take("finetune.method", method, "finetuning_type", note=None if "finetuning_type" in doc else default)
    if bits == 4:
        dq = as_bool(doc.get("double_quantization", True))
        if dq is not None:
            r.take("finetune.double_quant", dq, "double_quantization",
                   note=None if "double_quantization" in doc else default)
        if str(doc.get("quantization_type", "nf4")).lower() != "nf4":
            r.unresolve("quantization_type", doc["quantization_type"])
    elif bits == 8:
        r.take("finetune.base_dtype", BaseDType.INT8, "quantization_bit")
    elif bits is not None or doc.get("quantization_bit") is not None:
        r.unresolve("quantization_bit", doc.get("quantization_bit"))
    if bits is not None and str(doc.get("quantization_method", "bnb")).lower() != "bnb":
        r.unresolve("quantization_method", doc["quantization_method"])
    r.take("finetune.adapter_dtype", AdapterDType.BF16 if pure else AdapterDType.FP32, "pure_bf16",
           note=None if "pure_bf16" in doc else Msg.of("imported.upcast_trainable"))
    rank = r.whole("lora_rank", doc.get("lora_rank", 8), 1)
    if rank is not None:
        r.take("finetune.lora_rank", rank, "lora_rank", note=None if "lora_rank" in doc else default)
    if "lora_dropout" in doc:
        r.take("finetune.lora_dropout", doc["lora_dropout"], "lora_dropout")
    target = doc.get("lora_target", "all")
    names = [t.strip() for t in str(target).split(",") if t.strip()]
    value: str = LoraTargetSet.ALL_LINEAR if names == ["all"] else ",".join(names)
    r.take("finetune.lora_targets", value, "lora_target", note=None if "lora_target" in doc else default)
