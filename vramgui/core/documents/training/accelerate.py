"""An accelerate config (``accelerate config`` writes it; ``accelerate launch --config_file`` reads it).

Keys as ``accelerate/commands/config/config_args.py`` (``ClusterConfig``) holds them and ``commands/launch.py``
passes them on: ``distributed_type`` (NO, MULTI_GPU = DDP, FSDP, DEEPSPEED, MEGATRON_LM), ``num_processes`` (all
GPUs) over ``num_machines``, ``mixed_precision`` (no, fp16, bf16, fp8), ``fsdp_config`` (``fsdp.py``),
``deepspeed_config`` (inline ``zero_stage`` / ``offload_*_device`` / ``gradient_accumulation_steps``, or a
``deepspeed_config_file`` that ``DeepSpeedPlugin`` opens as given, relative to the working directory) and
``megatron_lm_config`` (``MegatronLMPlugin``: tp/pp degree, sequence parallelism, recompute, distributed optimizer).
"""

from __future__ import annotations

from typing import Any

from vramgui.core.documents.training import fsdp
from vramgui.core.documents.training.imported import Imported, Include, Reader, as_bool, as_int, walk
from vramgui.core.documents.training.trainer import report_rest
from vramgui.core.scenario.choices import Convention, DType, Offload, Recipe, Recompute
from vramgui.core.text.message import Msg

PRECISIONS = {"no": DType.FP32, "fp16": DType.FP16, "bf16": DType.BF16}

NO_EFFECT = {
    "compute_environment", "debug", "machine_rank", "main_process_ip", "main_process_port", "main_training_function",
    "rdzv_backend", "same_network", "tpu_env", "tpu_use_cluster", "tpu_use_sudo", "tpu_name", "tpu_zone",
    "commands", "command_file", "enable_cpu_affinity", "downcast_bf16", "gpu_ids", "ipex_config", "mpirun_config",
    "dynamo_backend", "use_mps_device", "num_cpu_threads_per_process", "sagemaker_config", "ec2_instance_type",
    "iam_role_name", "image_uri", "profile", "region", "base_job_name", "pytorch_version", "transformers_version",
    "py_version", "sagemaker_inputs_file", "sagemaker_metrics_file", "additional_args", "tpu_vm",
}
NO_INPUT = {"dynamo_config", "fp8_config", "parallelism_config"}
_DS_NO_EFFECT = {"deepspeed_multinode_launcher", "zero3_save_16bit_model", "gradient_clipping", "deepspeed_hostfile",
                 "deepspeed_exclusion_filter", "deepspeed_inclusion_filter", "zero3_init_flag"}
_MEGATRON = {"megatron_lm_tp_degree": "parallel.tp", "megatron_lm_pp_degree": "parallel.pp"}
_MEGATRON_NO_EFFECT = {"megatron_lm_gradient_clipping"}


def read(doc: dict[str, Any], what: str = "accelerate config") -> Imported:
    r = Reader("accelerate", what)
    seen = {"distributed_type", "num_processes", "num_machines", "mixed_precision", "use_cpu", "fsdp_config",
            "deepspeed_config", "megatron_lm_config"}
    kind = str(doc.get("distributed_type", "NO")).upper()
    gpus = as_int(doc.get("num_processes"))
    if "num_processes" in doc:
        if gpus is not None and gpus >= 1:
            r.take("parallel.num_gpus", gpus, "num_processes")
        else:
            r.bad_value("num_processes", doc["num_processes"])
    machines = as_int(doc.get("num_machines", 1))
    if "num_machines" in doc and not gpus:
        r.ignore("num_machines", doc["num_machines"], "imported.unused_without", other="num_processes")
    elif "num_machines" in doc and gpus and machines and machines >= 1 and gpus % machines == 0:
        r.take("parallel.gpus_per_node", gpus // machines, "num_machines")
    elif "num_machines" in doc:
        r.bad_value("num_machines", doc["num_machines"])
    if doc.get("use_cpu") is True or kind == "MULTI_CPU":
        r.unresolve("use_cpu" if doc.get("use_cpu") is True else "distributed_type", True, "imported.cpu_training")
    dtype = _precision(r, doc.get("mixed_precision"), deepspeed=kind == "DEEPSPEED")
    if kind in ("NO", "MULTI_GPU"):
        r.take("parallel.zero_stage", 0, "distributed_type")
    elif kind == "FSDP":
        _fsdp(r, doc.get("fsdp_config"))
    elif kind == "DEEPSPEED":
        _deepspeed(r, doc.get("deepspeed_config"), dtype)
    elif kind == "MEGATRON_LM":
        r.take("convention", Convention.MEGATRON, "distributed_type")
        _megatron(r, doc.get("megatron_lm_config"))
    else:
        r.unresolve("distributed_type", doc.get("distributed_type"), "imported.unknown_value")
    for section, used in (("fsdp_config", "FSDP"), ("deepspeed_config", "DEEPSPEED"),
                          ("megatron_lm_config", "MEGATRON_LM")):
        if section in doc and kind != used and doc[section]:
            r.ignore(section, "{...}", "imported.unused_without", other=f"distributed_type: {used}")
    report_rest(r, doc, seen, NO_EFFECT, NO_INPUT)
    return r.result()


def _precision(r: Reader, value: Any, deepspeed: bool) -> DType | None:
    if value is None:
        return None
    name = "no" if value is False else str(value).strip().lower()  # YAML 1.1 reads a bare `no` as false
    dtype = PRECISIONS.get(name)
    if dtype is None:
        r.unresolve("mixed_precision", value, "imported.no_input" if name == "fp8" else "imported.unknown_value")
        return None
    r.take("precision.dtype", dtype, "mixed_precision")
    if deepspeed and dtype != DType.FP32:  # DeepSpeed keeps fp32 master weights and optimizer states
        r.take("precision.recipe", Recipe.MIXED, "mixed_precision")
    elif dtype != DType.FP32:  # torch.autocast over the model as loaded: the recipe is the load dtype's
        r.unresolve("mixed_precision", value, "imported.model_dtype_unknown")
    return dtype


def _fsdp(r: Reader, config: Any) -> None:
    config = config if isinstance(config, dict) else {}
    version = fsdp.version_of(config.get("fsdp_version"))
    stage = None
    if not {"fsdp_sharding_strategy", "sharding_strategy", "fsdp_reshard_after_forward",
            "reshard_after_forward"} & set(config):
        # FULL_SHARD (FSDP1) / reshard_after_forward true (FSDP2): FullyShardedDataParallelPlugin's default
        stage = 3
        r.take("parallel.zero_stage", 3, "distributed_type", note=Msg.of("imported.tool_default", tool="accelerate"))
    fsdp.read_config(r, config, "fsdp_config.", version, stage)


def _deepspeed(r: Reader, config: Any, dtype: DType | None) -> None:
    config = config if isinstance(config, dict) else {}
    p = "deepspeed_config."
    accumulation = config.get("gradient_accumulation_steps")
    if accumulation is not None:
        n = r.whole(p + "gradient_accumulation_steps", accumulation, 1)
        if n is not None:
            r.accumulation = (n, p + "gradient_accumulation_steps")
    path = config.get("deepspeed_config_file")
    if isinstance(path, str) and path.strip() and path.strip().lower() != "none":
        r.includes.append(Include(p + "deepspeed_config_file", path.strip()))
    stage = as_int(config.get("zero_stage"))
    if "zero_stage" in config:
        if stage in (0, 1, 2, 3):
            r.take("parallel.zero_stage", stage, p + "zero_stage")
        else:
            r.bad_value(p + "zero_stage", config["zero_stage"])
    for key, path_ in (("offload_optimizer_device", "offload.optimizer"), ("offload_param_device", "offload.params")):
        if key in config:
            device = str(config[key]).lower() if config[key] is not None else "none"
            if device in ("cpu", "none") and not (device == "cpu" and path_ == "offload.params" and stage != 3):
                r.take(path_, Offload(device), p + key)
            else:
                r.unresolve(p + key, config[key], "imported.needs_zero3" if device == "cpu" else "imported.no_input")
    for key, value in walk(config):
        if key in ("gradient_accumulation_steps", "deepspeed_config_file", "zero_stage", "offload_optimizer_device",
                   "offload_param_device"):
            continue
        r.ignore(p + key, value, "imported.no_memory_effect" if key in _DS_NO_EFFECT else "imported.unknown_key")


def _megatron(r: Reader, config: Any) -> None:
    config = config if isinstance(config, dict) else {}
    p = "megatron_lm_config."
    for key, value in config.items():
        if key in _MEGATRON:
            n = r.whole(p + key, value, 1)
            if n is not None:
                r.take(_MEGATRON[key], n, p + key)
        elif key == "megatron_lm_sequence_parallelism":
            on = as_bool(value)
            r.take("parallel.sp", on, p + key) if on is not None else r.bad_value(p + key, value)
        elif key == "megatron_lm_use_distributed_optimizer":
            on = as_bool(value)
            r.take("parallel.distributed_optimizer", on, p + key) if on is not None else r.bad_value(p + key, value)
        elif key == "megatron_lm_recompute_activations":  # Megatron --recompute-activations: selective
            on = as_bool(value)
            if on is None:
                r.bad_value(p + key, value)
            else:
                r.take("training.recompute", Recompute.SELECTIVE if on else Recompute.NONE, p + key)
        elif key in _MEGATRON_NO_EFFECT:
            r.ignore(p + key, value)
        elif key == "megatron_lm_num_micro_batches":  # micro-batches in flight in the pipeline
            r.unresolve(p + key, value)
        else:
            r.ignore(p + key, value, "imported.unknown_key")
