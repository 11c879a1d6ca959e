"""An axolotl config (``axolotl train config.yml``): schema ``src/axolotl/utils/schemas/`` (config.py, peft.py,
training.py), normalised by ``utils/config/__init__.py`` (``normalize_config``, ``resolve_dtype``) and handed to the
Hugging Face Trainer.

What it means for memory: ``micro_batch_size`` is the Trainer's per-device batch, ``gradient_accumulation_steps``
(or ``batch_size`` = micro × accumulation), ``sequence_len``; ``bf16: auto`` is bf16 on a GPU that has it
(``resolve_dtype``: ``is_torch_bf16_gpu_available``) and the model is loaded in that dtype (``cfg.torch_dtype``), so a
full fine-tune keeps 16-bit weights and optimizer states (the pure recipe) unless DeepSpeed adds fp32 masters;
``adapter: lora | qlora`` with ``load_in_8bit`` (an int8 base) or ``load_in_4bit`` (NF4 with double quantisation:
``loaders/model.py``, ``bnb_4bit_use_double_quant: True``); ``lora_target_linear`` = every linear layer;
``gradient_checkpointing``; ``deepspeed`` (a file path, opened with ``os.path.exists`` relative to the working
directory); ``fsdp`` / ``fsdp_config`` / ``fsdp_version``; liger / cut-cross-entropy plugins (no fp32 logits).
"""

from __future__ import annotations

from typing import Any

from vramgui.core.documents.training import trainer
from vramgui.core.documents.training.imported import Imported, Reader, as_bool, as_int, is_auto
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
    "base_model_config", "model_type", "tokenizer_type", "tokenizer_config", "tokenizer_use_fast", "tokenizer_legacy",
    "trust_remote_code", "datasets", "test_datasets", "dataset_prepared_path", "val_set_size", "output_dir",
    "lora_model_dir", "lora_alpha", "lora_fan_in_fan_out", "peft_use_rslora", "wandb_project", "wandb_entity",
    "wandb_watch", "wandb_name", "wandb_log_model", "wandb_run_id", "mlflow_tracking_uri", "mlflow_experiment_name",
    "num_epochs", "max_steps", "lr_scheduler", "lr_scheduler_kwargs", "learning_rate", "tf32", "resume_from_checkpoint",
    "auto_resume_from_checkpoints", "logging_steps", "warmup_steps", "warmup_ratio", "evals_per_epoch", "eval_steps",
    "saves_per_epoch", "save_steps", "save_strategy", "save_total_limit", "save_safetensors", "weight_decay",
    "special_tokens", "tokens", "eval_sample_packing", "eval_batch_size", "eval_sequence_len", "sample_packing",
    "pad_to_sequence_len", "group_by_length", "train_on_inputs", "early_stopping_patience", "local_rank",
    "loss_watchdog_threshold", "loss_watchdog_patience", "strict", "seed", "hub_model_id", "hub_strategy",
    "max_grad_norm", "adam_beta1", "adam_beta2", "adam_epsilon", "gradient_checkpointing_kwargs", "chat_template",
    "default_system_message", "dataset_processes", "shuffle_merged_datasets", "xformers_attention",
    "flash_attn_rms_norm", "flash_attn_fuse_qkv", "flash_attn_fuse_mlp", "ddp_timeout", "ddp_bucket_cap_mb",
    "ddp_broadcast_buffers", "eval_table_size", "eval_max_new_tokens", "profiler_steps", "debug", "deepspeed_config",
    "flash_optimum", "plugins", "use_tensorboard", "load_best_model_at_end", "is_llama_derived_model",
    "is_mistral_derived_model", "is_qwen_derived_model", "lora_on_cpu", "dataset_exact_deduplication",
    "sample_packing_eff_est", "total_num_tokens", "skip_prepare_dataset", "pretraining_dataset", "rl", "trl",
    "ddp", "eval_causal_lm_metrics", "do_causal_lm_eval", "metric_for_best_model", "greater_is_better",
    "gc_steps", "cosine_min_lr_ratio", "lora_qkv_kernel", "lora_o_kernel", "lora_mlp_kernel", "save_first_step",
    "include_tokens_per_second", "use_wandb", "dataloader_num_workers", "dataloader_pin_memory",
    "dataloader_prefetch_factor", "remove_unused_columns", "low_cpu_mem_usage", "fsdp_final_state_dict_type",
}
NO_INPUT = {
    "unfrozen_parameters", "lora_modules_to_save", "peft_use_dora", "torch_compile", "model_config",
    "lora_target_parameters", "relora_steps", "lisa_n_layers", "tensor_parallel_size", "dp_shard_size",
    "sequence_parallel_degree", "activation_offloading", "gptq", "loftq_config", "qat", "fp8", "torch_compile_backend",
    "float16", "bfloat16", "neftune_noise_alpha", "lora_rank_pattern", "lora_alpha_pattern", "tiled_mlp",
}
_LOSS_KEYS = ("liger_fused_linear_cross_entropy", "cut_cross_entropy", "chunked_cross_entropy")
_ATTENTION = {"flash_attention_2": Attention.FLASH, "flash_attention_3": Attention.FLASH, "sdpa": Attention.FLASH,
              "eager": Attention.EAGER}  # vramgui's flash = no a·s² scores kept (SDPA's flash/efficient kernels)


def read(doc: dict[str, Any], what: str = "axolotl config") -> Imported:
    r = Reader("axolotl", what)
    seen: set[str] = set()

    def has(name: str) -> bool:
        if name in doc:
            seen.add(name)
            return doc[name] is not None
        return False

    if has("base_model") and isinstance(doc["base_model"], str):
        r.model = (doc["base_model"].strip(), "base_model")
    if has("sequence_len"):
        n = r.whole("sequence_len", doc["sequence_len"], 1)
        if n is not None:
            r.take("training.seq_len", n, "sequence_len")
    if has("micro_batch_size"):
        trainer.take_batch(r, "micro_batch_size", doc["micro_batch_size"])
    if has("gradient_accumulation_steps"):
        trainer.take_batch(r, "gradient_accumulation_steps", doc["gradient_accumulation_steps"], accumulation=True)
    elif has("batch_size") and r.micro is not None:  # normalize_config: accumulation = batch_size // micro
        n = r.whole("batch_size", doc["batch_size"], 1)
        if n is not None:
            r.accumulation = (max(1, n // r.micro[0]), "batch_size")
    seen.update(("batch_size", "gradient_accumulation_steps"))
    dtype = _precision(r, doc)
    seen.update(("bf16", "fp16"))
    _adapter(r, doc, seen, dtype)
    if has("gradient_checkpointing"):
        value = doc["gradient_checkpointing"]
        if isinstance(value, str) and value.startswith("offload"):  # checkpoints offloaded to the host
            r.take("training.recompute", Recompute.FULL, "gradient_checkpointing")
            r.unresolve("gradient_checkpointing", value, "imported.no_input")
        else:
            trainer.take_recompute(r, "gradient_checkpointing", value)
    if has("optimizer"):
        trainer.take_optimizer(r, "optimizer", doc["optimizer"])
    if has("attn_implementation"):
        attention = _ATTENTION.get(str(doc["attn_implementation"]).lower())
        r.take("training.attention", attention, "attn_implementation") if attention else r.bad_value(
            "attn_implementation", doc["attn_implementation"])
    for key, attention in (("flash_attention", Attention.FLASH), ("sdp_attention", Attention.FLASH)):
        if has(key) and as_bool(doc[key]):
            r.take("training.attention", attention, key)
    for key in _LOSS_KEYS:
        if has(key) and as_bool(doc[key]):
            r.take("training.loss", Loss.CHUNKED, key)
    if has("deepspeed"):
        trainer.take_deepspeed(r, "deepspeed", doc["deepspeed"])
    if "fsdp" in doc or "fsdp_config" in doc:
        seen.update(("fsdp", "fsdp_config", "fsdp_version"))
        trainer.read_fsdp(r, doc, "", "fsdp_version")
    if "context_parallel_size" in doc:
        seen.add("context_parallel_size")
        n = as_int(doc["context_parallel_size"])
        if n is not None and n >= 1:
            r.take("parallel.cp", n, "context_parallel_size")
        elif doc["context_parallel_size"] is not None:
            r.bad_value("context_parallel_size", doc["context_parallel_size"])
    for key in [k for k in doc if k.startswith("liger_") and k not in seen]:
        seen.add(key)
        r.unresolve(key, doc[key], "imported.liger_other_kernels") if as_bool(doc[key]) else r.ignore(key, doc[key])
    trainer.report_rest(r, doc, seen, NO_EFFECT, NO_INPUT)
    return r.result()


def _precision(r: Reader, doc: dict[str, Any]) -> DType | None:
    """resolve_dtype: bf16 "auto" is bf16 where the GPU has it, fp16 wins over an auto bf16."""
    bf16, fp16 = doc.get("bf16"), doc.get("fp16")
    fp16_on = as_bool(fp16) is True
    if is_auto(bf16) and not fp16_on:
        r.take("precision.dtype", DType.BF16, "bf16", note=Msg.of("imported.bf16_auto"))
        return DType.BF16
    if as_bool(bf16) is True:
        r.take("precision.dtype", DType.BF16, "bf16")
        return DType.BF16
    if fp16_on or as_bool(doc.get("load_in_8bit")) is True:
        r.take("precision.dtype", DType.FP16, "fp16" if fp16_on else "load_in_8bit")
        return DType.FP16
    for key in ("bf16", "fp16"):
        if key in doc and doc[key] is not None and as_bool(doc[key]) is None and not is_auto(doc[key]):
            r.bad_value(key, doc[key])
            return None
    # neither on: resolve_dtype loads the model in float32
    r.take("precision.dtype", DType.FP32, "bf16/fp16", note=None if "bf16" in doc or "fp16" in doc else Msg.of(
        "imported.tool_default", tool="axolotl"))
    return DType.FP32


def _adapter(r: Reader, doc: dict[str, Any], seen: set[str], dtype: DType | None) -> None:
    seen.update(("adapter", "load_in_8bit", "load_in_4bit", "lora_r", "lora_dropout", "lora_target_modules",
                 "lora_target_linear"))
    adapter = doc.get("adapter")
    four, eight = as_bool(doc.get("load_in_4bit")) is True, as_bool(doc.get("load_in_8bit")) is True
    if adapter in (None, ""):
        if dtype in (DType.BF16, DType.FP16):  # the model loaded in torch_dtype and trained as it is
            r.take("precision.recipe", Recipe.PURE, "bf16" if dtype == DType.BF16 else "fp16",
                   note=Msg.of("imported.loaded_in_dtype", tool="axolotl"))
        for key in ("load_in_8bit", "load_in_4bit"):
            if doc.get(key):
                r.unresolve(key, doc[key], "imported.quantized_full")
        return
    name = str(adapter).lower()
    if name not in ("lora", "qlora"):
        r.unresolve("adapter", adapter, "imported.unknown_value")
        return
    method = FinetuneMethod.QLORA if name == "qlora" or four else FinetuneMethod.LORA
    r.take("finetune.method", method, "adapter")
    if method == FinetuneMethod.QLORA:
        r.take("finetune.double_quant", True, "load_in_4bit", note=Msg.of("imported.tool_default", tool="axolotl"))
    elif eight:
        r.take("finetune.base_dtype", BaseDType.INT8, "load_in_8bit")
    r.take("finetune.adapter_dtype", AdapterDType.FP32, "adapter", note=Msg.of("imported.peft_autocast"))
    if "lora_r" in doc:
        n = r.whole("lora_r", doc["lora_r"], 1)
        if n is not None:
            r.take("finetune.lora_rank", n, "lora_r")
    if doc.get("lora_dropout") is not None:
        r.take("finetune.lora_dropout", doc["lora_dropout"], "lora_dropout")
    targets = doc.get("lora_target_modules")
    if as_bool(doc.get("lora_target_linear")):
        r.take("finetune.lora_targets", LoraTargetSet.ALL_LINEAR, "lora_target_linear")
        if targets:
            r.ignore("lora_target_modules", targets, "imported.covered_by", other="lora_target_linear")
    elif isinstance(targets, list) and targets and all(isinstance(t, str) for t in targets):
        r.take("finetune.lora_targets", ",".join(t.strip() for t in targets), "lora_target_modules")
    elif isinstance(targets, str) and targets.strip():
        r.unresolve("lora_target_modules", targets, "imported.target_regex")
    elif targets is not None:
        r.bad_value("lora_target_modules", targets)
