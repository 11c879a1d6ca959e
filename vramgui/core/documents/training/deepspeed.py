"""A DeepSpeed config (the JSON given to ``deepspeed.initialize`` or to a trainer's ``deepspeed`` option).

Keys and defaults as DeepSpeed reads them: ``deepspeed/runtime/config.py`` (``DeepSpeedConfig``: batch, fp16/bf16,
optimizer), ``deepspeed/runtime/zero/config.py`` (``DeepSpeedZeroConfig``: every ZeRO key, each also accepted under
its alias: ``stage3_max_live_parameters`` / ``max_live_parameters`` ...), ``deepspeed/runtime/zero/offload_config.py``
(``offload_optimizer`` / ``offload_param`` devices). The batch: ``train_batch_size = train_micro_batch_size_per_gpu
× gradient_accumulation_steps × data-parallel size``, any two giving the third (``DeepSpeedConfig.
_set_batch_related_parameters``), resolved once the GPU count is known (``resolve.finish``).

``"auto"`` is not DeepSpeed's: transformers (``integrations/deepspeed.py``, ``HfTrainerDeepSpeedConfig``) and
accelerate fill it. Batch and precision autos take the trainer's values when the file is nested in a trainer's
config (``Context``); the bucket autos take the model's hidden size h: ``reduce_bucket_size = h²`` and, at ZeRO-3,
``stage3_prefetch_bucket_size = 0.9·h²``, ``stage3_param_persistence_threshold = 10·h``
(``trainer_config_finalize``), filled once the model is known.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vramgui.core.documents.training.imported import Imported, Reader, as_bool, as_int, is_auto, walk
from vramgui.core.scenario.choices import DType, Offload, Optimizer, OptimizerImpl, Recipe


@dataclass(frozen=True)
class Context:
    """What the trainer around a nested DeepSpeed file fills its ``"auto"`` values with (transformers'
    ``trainer_config_process``; accelerate's ``DeepSpeedPlugin``)."""

    tool: str  # who fills the autos, for messages
    micro: bool = False  # the trainer gives the micro-batch (per_device_train_batch_size)
    accumulation: bool = False  # ... and gradient_accumulation_steps
    dtype: DType | None = None  # the trainer's precision (bf16/fp16/fp32), None = not said


# DeepSpeedConfig's optimizer names (deepspeed/runtime/config.py: ADAM_OPTIMIZER ... LION_OPTIMIZER)
OPTIMIZERS = {"adam": Optimizer.ADAM, "adamw": Optimizer.ADAMW, "lion": Optimizer.LION}

# ZeRO keys under both names DeepSpeedZeroConfig accepts (its pydantic aliases), with the field each one sets
_LIVE = ("stage3_max_live_parameters", "max_live_parameters")
_PREFETCH = ("stage3_prefetch_bucket_size", "prefetch_bucket_size")
_PERSIST = ("stage3_param_persistence_threshold", "param_persistence_threshold")

_ZERO_NO_INPUT = {  # change memory, no vramgui input
    "allgather_bucket_size", "overlap_comm", "contiguous_gradients", "sub_group_size", "stage3_max_reuse_distance",
    "max_reuse_distance", "zero_hpz_partition_size", "zero_quantized_weights", "zero_quantized_gradients",
    "zero_quantized_nontrainable_weights", "mics_shard_size", "mics_hierarchical_params_gather",
    "memory_efficient_linear", "offload_optimizer.ratio", "offload_param.buffer_count", "offload_param.buffer_size",
    "offload_param.max_in_cpu", "offload_optimizer.buffer_count", "cpu_offload_use_pin_memory",
    "stage3_module_granularity_threshold", "module_granularity_threshold", "use_all_reduce_for_fetch_params",
}
_ZERO_NO_EFFECT = {
    "reduce_scatter", "allgather_partitions", "round_robin_gradients", "elastic_checkpoint", "load_from_fp32_weights",
    "ignore_unused_parameters", "legacy_stage1", "stage3_gather_16bit_weights_on_model_save",
    "gather_16bit_weights_on_model_save", "stage3_gather_fp16_weights_on_model_save", "offload_optimizer.pin_memory",
    "offload_param.pin_memory", "offload_optimizer.fast_init", "offload_optimizer.nvme_path",
    "offload_param.nvme_path", "offload_optimizer.pipeline_read", "offload_optimizer.pipeline_write",
    "log_trace_cache_warnings", "use_multi_rank_bucket_allreduce", "zeropp_loco_param",
}
_TOP_NO_EFFECT = {
    "gradient_clipping", "steps_per_print", "wall_clock_breakdown", "prescale_gradients",
    "gradient_predivide_factor", "zero_allow_untested_optimizer", "zero_force_ds_cpu_optimizer", "dump_state",
    "scheduler", "tensorboard", "wandb", "csv_monitor", "comet", "comms_logger", "flops_profiler", "monitor_config",
    "memory_breakdown", "sparse_gradients", "disable_allgather", "elasticity", "checkpoint", "aio",
    "dataloader_drop_last", "train_batch_size_per_gpu", "seed", "timers", "graph_harvesting",
}
_TOP_NO_INPUT = {
    "communication_data_type", "seq_parallel_communication_data_type", "data_types", "activation_checkpointing",
    "sparse_attention", "pipeline", "compression_training", "tensor_parallel", "amp", "torch_autocast",
    "data_efficiency", "curriculum_learning", "progressive_layer_drop", "eigenvalue", "nebula", "compile",
    "hybrid_engine", "weight_quantization", "quantize_training", "sequence_parallel_size",
}


def read(doc: dict[str, Any], what: str = "DeepSpeed config", context: Context | None = None,
         prefix: str = "") -> Imported:
    """The fields a DeepSpeed config sets; ``prefix`` names the keys of a nested file (``ds.json:``)."""
    r = Reader("deepspeed", what)
    _batch(r, doc, context, prefix)
    _precision(r, doc, context, prefix)
    zero = doc.get("zero_optimization")
    stage = _zero(r, zero if isinstance(zero, dict) else {}, prefix) if zero is not None else None
    if zero is not None and not isinstance(zero, dict):
        r.bad_value(prefix + "zero_optimization", zero)
    _optimizer(r, doc.get("optimizer"), prefix, stage)
    for key, value in doc.items():
        if key in _BATCH_KEYS or key in ("fp16", "bf16", "bfloat16", "zero_optimization", "optimizer"):
            continue
        if key in _TOP_NO_EFFECT:
            r.ignore(prefix + key, value)
        elif key in _TOP_NO_INPUT:
            r.unresolve(prefix + key, value)
        else:
            r.ignore(prefix + key, value, "imported.unknown_key")
    return r.result()


_BATCH_KEYS = ("train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps")


def _batch(r: Reader, doc: dict[str, Any], context: Context | None, prefix: str) -> None:
    filled = {"train_micro_batch_size_per_gpu": context is not None and context.micro,
              "gradient_accumulation_steps": context is not None and context.accumulation,
              "train_batch_size": context is not None and context.micro}  # world × micro × accumulation
    for key in _BATCH_KEYS:
        if key not in doc:
            continue
        value = doc[key]
        if is_auto(value) and filled[key]:
            assert context is not None
            r.ignore(prefix + key, value, "imported.auto_from", tool=context.tool)
            continue
        n = r.whole(prefix + key, value, 1)
        if n is None:
            continue
        if key == "train_micro_batch_size_per_gpu":
            r.micro = (n, prefix + key)
        elif key == "gradient_accumulation_steps":
            r.accumulation = (n, prefix + key)
        else:
            r.total = (n, prefix + key)


def _enabled(section: Any) -> Any:
    return section.get("enabled", False) if isinstance(section, dict) else section


def _precision(r: Reader, doc: dict[str, Any], context: Context | None, prefix: str) -> None:
    """fp16 / bf16 sections (``bfloat16`` is DeepSpeed's old name of ``bf16``): a 16-bit dtype with fp32 master
    weights and optimizer states (deepspeed/runtime/fp16/fused_optimizer.py, bf16_optimizer.py): mixed."""
    sections = [(k, doc[k]) for k in ("fp16", "bf16", "bfloat16") if k in doc]
    chosen: DType | None = None
    decided = True
    for key, section in sections:
        on = _enabled(section)
        if is_auto(on):
            if context is None or context.dtype is None:
                r.unresolve(f"{prefix}{key}.enabled", on, "imported.auto_unfilled")
                decided = False
            elif context.dtype != DType.FP32 and (key == "fp16") == (context.dtype == DType.FP16):
                chosen = context.dtype
            continue
        flag = as_bool(on)
        if flag is None:
            r.bad_value(f"{prefix}{key}.enabled", on)
            decided = False
        elif flag:
            chosen = DType.FP16 if key == "fp16" else DType.BF16
        for sub, value in section.items() if isinstance(section, dict) else ():
            if sub == "enabled":
                continue
            if sub in ("bf16_master_weights_and_grads", "bf16_optimizer_states", "immediate_grad_update",
                       "check_grad_overflow"):
                r.unresolve(f"{prefix}{key}.{sub}", value)
            else:
                r.ignore(f"{prefix}{key}.{sub}", value)
    if not decided:
        return
    if chosen is None and not sections and context is not None:
        # no section: the trainer adds one from its own precision (accelerate DeepSpeedPlugin
        # set_mixed_precision: ds_config["bf16"] = {"enabled": True})
        if context.dtype in (DType.BF16, DType.FP16):
            r.take("precision.recipe", Recipe.MIXED, f"{prefix}(no fp16/bf16 section)")
        return
    source = prefix + ("fp16.enabled" if chosen == DType.FP16 else "bf16.enabled" if chosen else "fp16/bf16")
    if chosen is not None:
        r.take("precision.dtype", chosen, source)
        r.take("precision.recipe", Recipe.MIXED, source)
    else:  # neither enabled: fp32 (DeepSpeedConfig's defaults)
        r.take("precision.dtype", DType.FP32, source)


def _first(zero: dict[str, Any], names: tuple[str, ...]) -> tuple[str, Any] | None:
    return next(((n, zero[n]) for n in names if n in zero), None)


def _zero(r: Reader, zero: dict[str, Any], prefix: str) -> int | None:
    p = prefix + "zero_optimization."
    stage = None
    if "stage" in zero:
        stage = as_int(zero["stage"])
        if stage in (0, 1, 2, 3):
            r.take("parallel.zero_stage", stage, p + "stage")
        else:
            r.bad_value(p + "stage", zero["stage"])
            stage = None
    done = {"stage"}
    for section, path in (("offload_optimizer", "offload.optimizer"), ("offload_param", "offload.params")):
        if section in zero:
            done.add(section)
            device = zero[section].get("device", "none") if isinstance(zero[section], dict) else zero[section]
            device = "none" if device is None else str(device).lower()
            if device in ("cpu", "none"):
                if not (path == "offload.params" and stage != 3 and device == "cpu"):
                    r.take(path, Offload(device), f"{p}{section}.device")
                else:
                    r.unresolve(f"{p}{section}.device", device, "imported.needs_zero3")
            else:  # nvme: DeepSpeed's ZeRO-Infinity
                r.unresolve(f"{p}{section}.device", device)
    for legacy, path in (("cpu_offload", "offload.optimizer"), ("cpu_offload_params", "offload.params")):
        if legacy in zero:  # deprecated booleans DeepSpeedZeroConfig still maps onto the offload sections
            done.add(legacy)
            on = as_bool(zero[legacy])
            if on is None:
                r.bad_value(p + legacy, zero[legacy])
            elif on and path == "offload.params" and stage != 3:
                r.unresolve(p + legacy, zero[legacy], "imported.needs_zero3")
            else:
                r.take(path, Offload.CPU if on else Offload.NONE, p + legacy)
    _bucket(r, zero, p, ("reduce_bucket_size",), "overhead.reduce_bucket", done)
    if stage == 3:
        _bucket(r, zero, p, _LIVE, "overhead.zero3_live_params", done)
        _bucket(r, zero, p, _PREFETCH, "overhead.zero3_prefetch", done)
        found = _first(zero, _PERSIST)
        if found is not None:
            done.add(found[0])
            if is_auto(found[1]):
                r.hidden_autos.append(p + found[0])
            else:
                r.unresolve(p + found[0], found[1])
    for key, value in walk(zero):
        if key.split(".")[0] in done:
            continue
        if key in _ZERO_NO_INPUT:
            r.unresolve(p + key, value)
        elif key in _ZERO_NO_EFFECT or key.split(".")[0] in (*_LIVE, *_PREFETCH, *_PERSIST):
            r.ignore(p + key, value, "imported.no_memory_effect" if key in _ZERO_NO_EFFECT else "imported.needs_zero3")
        else:
            r.ignore(p + key, value, "imported.unknown_key")
    return stage


def _bucket(r: Reader, zero: dict[str, Any], p: str, names: tuple[str, ...], path: str, done: set[str]) -> None:
    found = _first(zero, names)
    if found is None:
        return
    key, value = found
    done.add(key)
    if is_auto(value):
        r.hidden_autos.append(p + key)
        return
    n = r.whole(p + key, value, 0)
    if n is not None:
        r.take(path, n, p + key)


def _optimizer(r: Reader, section: Any, prefix: str, stage: int | None) -> None:
    if section is None:
        return
    key = prefix + "optimizer.type"
    name = section.get("type") if isinstance(section, dict) else None
    chosen = OPTIMIZERS.get(str(name).lower()) if isinstance(name, str) else None
    if chosen is None:
        r.bad_value(key, name)
    else:
        r.take("precision.optimizer", chosen, key)
    params = section.get("params", {}) if isinstance(section, dict) else {}
    params = params if isinstance(params, dict) else {}
    if chosen == Optimizer.LION:  # DeepSpeedEngine._configure_basic_optimizer: FusedLion (deepspeed/ops/lion)
        r.take("precision.optimizer_impl", OptimizerImpl.FUSED, key)
    if chosen in (Optimizer.ADAM, Optimizer.ADAMW):
        # DeepSpeedEngine._configure_basic_optimizer: torch_adam (default false) picks torch.optim.Adam(W);
        # otherwise DeepSpeed's FusedAdam (deepspeed/ops/adam/fused_adam.py), one multi-tensor kernel
        torch_adam = as_bool(params.get("torch_adam", False))
        impl = OptimizerImpl.FOREACH if torch_adam else OptimizerImpl.FUSED
        r.take("precision.optimizer_impl", impl, f"{prefix}optimizer.params.torch_adam")
    for sub, value in params.items():
        if sub == "torch_adam" and as_bool(value) is not None:
            continue
        r.ignore(f"{prefix}optimizer.params.{sub}", value)
