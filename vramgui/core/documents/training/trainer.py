"""Hugging Face ``TrainingArguments`` (``transformers/training_args.py``) as ``trainer.args.to_json_string()`` writes
it, and the same keys where LLaMA-Factory and axolotl hand them to the Trainer.

Memory keys: ``per_device_train_batch_size`` (the micro-batch), ``gradient_accumulation_steps``, ``bf16`` / ``fp16``
(autocast in that dtype: the Trainer keeps the model's own dtype, so the recipe depends on how the model was loaded
and is left unresolved), ``activation_checkpointing`` (transformers 5; ``gradient_checkpointing`` its older name),
``optim`` (``OptimizerNames``), ``use_liger_kernel`` (Liger's fused linear cross-entropy: no fp32 logits),
``fsdp`` / ``fsdp_config`` (``fsdp.py``) and ``deepspeed`` (a file, or the config itself, ``deepspeed.py``).
"""

from __future__ import annotations

from typing import Any

from vramgui.core.documents.training import fsdp
from vramgui.core.documents.training.imported import Imported, Include, Reader, as_bool, is_auto
from vramgui.core.scenario.choices import DType, Loss, Optimizer, OptimizerImpl, Recompute

# transformers OptimizerNames (training_args.py) -> (optimizer, implementation or None, paged)
OPTIMIZERS: dict[str, tuple[Optimizer, OptimizerImpl | None, bool]] = {
    "adamw_torch": (Optimizer.ADAMW, OptimizerImpl.FOREACH, False),  # torch.optim.AdamW, foreach on CUDA
    "adamw_torch_fused": (Optimizer.ADAMW, OptimizerImpl.FUSED, False),
    "adamw_apex_fused": (Optimizer.ADAMW, OptimizerImpl.FUSED, False),
    "adamw_hf": (Optimizer.ADAMW, OptimizerImpl.FOR_LOOP, False),  # transformers' own AdamW, one tensor at a time
    "adafactor": (Optimizer.ADAFACTOR, None, False),
    "sgd": (Optimizer.SGD, None, False),  # torch.optim.SGD, momentum 0
    "adamw_bnb_8bit": (Optimizer.ADAM8BIT, None, False),
    "adamw_8bit": (Optimizer.ADAM8BIT, None, False),
    "adam8bit": (Optimizer.ADAM8BIT, None, False),
    "paged_adamw_8bit": (Optimizer.ADAM8BIT, None, True),
    "paged_adamw_32bit": (Optimizer.ADAMW, None, True),
    "lion_32bit": (Optimizer.LION, None, False),
    "paged_lion_32bit": (Optimizer.LION, None, True),
}


def take_optimizer(r: Reader, key: str, value: Any) -> None:
    name = value.strip().lower() if isinstance(value, str) else None
    known = OPTIMIZERS.get(name) if name else None
    if known is None:
        r.bad_value(key, value)
        return
    optimizer, impl, paged = known
    r.take("precision.optimizer", optimizer, key)
    if impl is not None:
        r.take("precision.optimizer_impl", impl, key)
    if paged:  # bitsandbytes paged optimizers: states in unified memory, evicted to the host under pressure
        r.unresolve(key, value, "imported.paged_optimizer")


def take_precision(r: Reader, doc: dict[str, Any], prefix: str = "") -> DType | None:
    """bf16 / fp16 as booleans (``"auto"`` is axolotl's: unresolved there); neither: fp32."""
    flags = {}
    for name in ("bf16", "fp16"):
        if name in doc and doc[name] is not None:
            on = as_bool(doc[name])
            if on is None:
                r.unresolve(prefix + name, doc[name], "imported.auto_unfilled" if is_auto(doc[name])
                            else "imported.unknown_value")
                return None
            flags[name] = on
    if flags.get("bf16"):
        r.take("precision.dtype", DType.BF16, prefix + "bf16")
        return DType.BF16
    if flags.get("fp16"):
        r.take("precision.dtype", DType.FP16, prefix + "fp16")
        return DType.FP16
    if flags:
        r.take("precision.dtype", DType.FP32, prefix + "bf16/fp16")
        return DType.FP32
    return None


def take_recompute(r: Reader, key: str, value: Any) -> None:
    on = as_bool(value)
    if on is None:
        r.bad_value(key, value)
    else:
        r.take("training.recompute", Recompute.FULL if on else Recompute.NONE, key)


def take_batch(r: Reader, key: str, value: Any, accumulation: bool = False) -> None:
    n = r.whole(key, value, 1)
    if n is not None:
        if accumulation:
            r.accumulation = (n, key)
        else:
            r.micro = (n, key)


def take_deepspeed(r: Reader, key: str, value: Any) -> None:
    """A path (read by io/, resolved against the working directory as ``HfTrainerDeepSpeedConfig`` opens it) or the
    config itself as a mapping."""
    if isinstance(value, str) and value.strip():
        r.includes.append(Include(key, value.strip()))
    elif isinstance(value, dict):
        r.includes.append(Include(key, "", "deepspeed-inline"))
    elif value not in (None, "", False):
        r.bad_value(key, value)


def read_fsdp(r: Reader, doc: dict[str, Any], prefix: str = "", version_key: str = "fsdp_version") -> None:
    """``fsdp``: TrainingArguments' option list ("full_shard auto_wrap offload", a list, or transformers 5's true)
    with ``fsdp_config``."""
    value = doc.get("fsdp")
    config = doc.get("fsdp_config")
    config = config if isinstance(config, dict) else {}
    # transformers 5 writes fsdp: true and fsdp_config["version"], default 2 (training_args.py _process_fsdp_args);
    # before it the option list went to accelerate, whose default is FSDP1
    given = doc.get(version_key, config.get("version", config.get("fsdp_version")))
    version = fsdp.version_of(given) if given is not None else 2 if value is True else 1
    stage = None
    options = value.split() if isinstance(value, str) else value if isinstance(value, list) else []
    if value is True:
        options = ["full_shard"]
    strategies = ("full_shard", "shard_grad_op", "no_shard", "hybrid_shard", "hybrid_shard_zero2")
    options = sorted(options, key=lambda o: str(o).strip().lower() not in strategies)  # the strategy first
    for option in options:
        name = str(option).strip().lower()
        if name in strategies:
            stage = fsdp.take_strategy(r, prefix + "fsdp", name)
        elif name == "offload":
            fsdp.take_offload(r, prefix + "fsdp", True, stage)
        elif name != "auto_wrap":
            r.bad_value(prefix + "fsdp", option)
    if config and (options or version == 2):
        fsdp.read_config(r, config, prefix + "fsdp_config.", version, stage)
    elif config:
        r.ignore(prefix + "fsdp_config", "{...}", "imported.unused_without", other=prefix + "fsdp")


NO_EFFECT = {  # TrainingArguments fields that do not change a training step's GPU memory
    "output_dir", "overwrite_output_dir", "do_train", "do_eval", "do_predict", "eval_strategy", "evaluation_strategy",
    "prediction_loss_only", "per_device_eval_batch_size", "per_gpu_train_batch_size", "per_gpu_eval_batch_size",
    "eval_accumulation_steps", "eval_delay", "torch_empty_cache_steps", "learning_rate", "weight_decay",
    "adam_beta1", "adam_beta2", "adam_epsilon", "max_grad_norm", "num_train_epochs", "max_steps", "lr_scheduler_type",
    "lr_scheduler_kwargs", "warmup_ratio", "warmup_steps", "log_level", "log_level_replica", "log_on_each_node",
    "logging_dir", "logging_strategy", "logging_first_step", "logging_steps", "logging_nan_inf_filter",
    "save_strategy", "save_steps", "save_total_limit", "save_safetensors", "save_on_each_node", "save_only_model",
    "restore_callback_states_from_checkpoint", "no_cuda", "use_cpu", "use_mps_device", "seed", "data_seed",
    "jit_mode_eval", "use_ipex", "bf16_full_eval", "fp16_full_eval", "tf32", "local_rank", "ddp_backend",
    "tpu_num_cores", "tpu_metrics_debug", "debug", "dataloader_drop_last", "eval_steps", "dataloader_num_workers",
    "dataloader_prefetch_factor", "past_index", "run_name", "disable_tqdm", "remove_unused_columns", "label_names",
    "load_best_model_at_end", "metric_for_best_model", "greater_is_better", "ignore_data_skip",
    "accelerator_config", "group_by_length", "length_column_name", "report_to", "ddp_find_unused_parameters",
    "ddp_bucket_cap_mb", "ddp_broadcast_buffers", "ddp_static_graph", "dataloader_pin_memory",
    "dataloader_persistent_workers", "dataloader_multiprocessing_context", "dataloader_in_order",
    "skip_memory_metrics", "use_legacy_prediction_loop", "push_to_hub", "resume_from_checkpoint", "hub_model_id",
    "hub_strategy", "hub_token", "hub_private_repo", "hub_always_push", "hub_revision",
    "activation_checkpointing_kwargs",
    "gradient_checkpointing_kwargs", "include_inputs_for_metrics", "include_for_metrics", "eval_do_concat_batches",
    "fp16_backend", "push_to_hub_model_id", "push_to_hub_organization", "push_to_hub_token", "mp_parameters",
    "auto_find_batch_size", "full_determinism", "torchdynamo", "ray_scope", "ddp_timeout", "torch_compile_backend",
    "torch_compile_mode", "include_tokens_per_second", "include_num_input_tokens_seen", "neftune_noise_alpha",
    "optim_args", "batch_eval_metrics", "eval_on_start", "eval_use_gather_object", "average_tokens_across_devices",
    "half_precision_backend", "fp16_opt_level", "project", "trackio_space_id", "trackio_bucket_id",
    "trackio_static_space_id", "enable_jit_checkpoint", "train_sampling_strategy", "adafactor", "sharded_ddp",
    "fsdp_min_num_params", "fsdp_transformer_layer_cls_to_wrap", "liger_kernel_config", "use_cache",
    "dispatch_batches", "split_batches", "optim_target_modules",
    "predict_with_generate", "generation_max_length", "generation_num_beams", "generation_config",
    "sortish_sampler",
}
NO_INPUT = {"torch_compile", "parallelism_config", "tp_size"}


def read_trainer_keys(r: Reader, doc: dict[str, Any], prefix: str = "", skip: frozenset[str] = frozenset()) -> set[str]:
    """The TrainingArguments keys of ``doc``; returns the keys it handled (the caller reports the rest)."""
    seen: set[str] = set()

    def has(name: str) -> bool:
        if name in doc and name not in skip:
            seen.add(name)
            return True
        return False

    if has("per_device_train_batch_size"):
        take_batch(r, prefix + "per_device_train_batch_size", doc["per_device_train_batch_size"])
    if has("gradient_accumulation_steps"):
        take_batch(r, prefix + "gradient_accumulation_steps", doc["gradient_accumulation_steps"], accumulation=True)
    for name in ("bf16", "fp16"):
        has(name)
    take_precision(r, {k: doc[k] for k in ("bf16", "fp16") if k in doc and k not in skip}, prefix)
    for name in ("gradient_checkpointing", "activation_checkpointing"):  # the new name wins when both are given
        if has(name) and doc[name] is not None:
            take_recompute(r, prefix + name, doc[name])
    if has("optim"):
        take_optimizer(r, prefix + "optim", doc["optim"])
    if has("use_liger_kernel"):
        on = as_bool(doc["use_liger_kernel"])
        if on:  # liger-kernel: fused linear cross-entropy (no logits kept), with fused RMSNorm/SwiGLU/RoPE
            r.take("training.loss", Loss.CHUNKED, prefix + "use_liger_kernel")
            r.unresolve(prefix + "use_liger_kernel", doc["use_liger_kernel"], "imported.liger_other_kernels")
        elif on is None:
            r.bad_value(prefix + "use_liger_kernel", doc["use_liger_kernel"])
    if has("label_smoothing_factor"):
        value = doc["label_smoothing_factor"]
        if value:  # LabelSmoother: a second log-softmax over the vocabulary
            r.unresolve(prefix + "label_smoothing_factor", value)
        else:
            r.ignore(prefix + "label_smoothing_factor", value)
    if has("deepspeed"):
        take_deepspeed(r, prefix + "deepspeed", doc["deepspeed"])
    if has("fsdp"):
        has("fsdp_config")
        read_fsdp(r, doc, prefix)
    elif has("fsdp_config") and doc["fsdp_config"]:
        r.ignore(prefix + "fsdp_config", "{...}", "imported.unused_without", other=prefix + "fsdp")
    return seen


def read(doc: dict[str, Any], what: str = "TrainingArguments") -> Imported:
    """A ``TrainingArguments`` JSON. The Trainer loads no model itself: the recipe (fp32 weights under autocast,
    or weights already in 16 bits) follows the dtype the model was loaded in, which the file does not say."""
    r = Reader("trainer", what)
    seen = read_trainer_keys(r, doc)
    if doc.get("bf16") is True or doc.get("fp16") is True:
        r.unresolve("bf16" if doc.get("bf16") is True else "fp16", True, "imported.model_dtype_unknown")
    if doc.get("use_cpu") is True or doc.get("no_cuda") is True:
        r.unresolve("use_cpu" if doc.get("use_cpu") is True else "no_cuda", True, "imported.cpu_training")
        seen.update(("use_cpu", "no_cuda"))
    report_rest(r, doc, seen, NO_EFFECT, NO_INPUT)
    return r.result()


def report_rest(r: Reader, doc: dict[str, Any], seen: set[str], no_effect: set[str], no_input: set[str],
                prefix: str = "") -> None:
    """Every key not handled: ignored (no effect, or unknown) or unresolved (no input; ignored when it is off),
    never dropped."""
    for key, value in doc.items():
        if key in seen:
            continue
        if key in no_input and (value is None or value is False or value in ("", 0) or value == [] or value == {}):
            r.ignore(prefix + key, value)
        elif key in no_input:
            r.unresolve(prefix + key, value)
        elif key in no_effect:
            r.ignore(prefix + key, value)
        else:
            r.ignore(prefix + key, value, "imported.unknown_key")
