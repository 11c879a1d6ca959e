"""The plan as the config a run is launched with: a DeepSpeed JSON, an accelerate FSDP YAML, a torchrun + Megatron-LM
command line (``vramgui export``). Pure: a scenario in, a document (or the command line) and notes out; io/ writes it.

Each writer says what its tool reads, as the readers of this package read it back, so an export opened again with
``--training-config`` gives the same estimate (``tests/cli/test_export.py``, a property). What a config cannot hold
(the model, the sequence length, LoRA: the training script's; a recipe the tool does not run) is named in a note,
never dropped silently.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

from vramgui.core.accumulation import accumulation_steps
from vramgui.core.fields import registry as fields
from vramgui.core.parallel.layout import batch_parallel_size, num_nodes
from vramgui.core.scenario.choices import DType, FinetuneMethod, Offload, Optimizer, OptimizerImpl, Recipe, Recompute
from vramgui.core.scenario.specs import Scenario
from vramgui.core.text.message import Msg

TARGETS = ("deepspeed", "accelerate", "torchrun")
TOOLS = {"deepspeed": "DeepSpeed", "accelerate": "accelerate", "torchrun": "Megatron-LM"}
DEFAULT = Scenario()


@dataclass(frozen=True)
class Export:
    target: str
    document: dict[str, Any] | str  # a mapping (JSON / YAML) or the command line
    notes: tuple[Msg, ...]


def _flags(s: Scenario, paths: list[str]) -> list[str]:
    """The flags of the fields among ``paths`` that differ from their defaults (what a note must name)."""
    changed = [fields.field(path) for path in paths if fields.get(s, path) != fields.get(DEFAULT, path)]
    return [f"{f.flag or f.path} {fields.format_value(f, fields.get(s, f.path))}" for f in changed]


_SCRIPT = ["training.seq_len", "training.attention", "training.implementation", "training.loss", "finetune.method",
           "finetune.lora_rank", "finetune.lora_targets", "finetune.lora_dropout", "finetune.base_dtype",
           "finetune.double_quant", "finetune.adapter_dtype"]
_LAYOUT = ["parallel.tp", "parallel.pp", "parallel.cp", "parallel.ep"]


def _not_written(s: Scenario, tool: str, paths: list[str]) -> tuple[Msg, ...]:
    flags = _flags(s, paths)
    return (Msg.of("note.export_not_written", flags=", ".join(flags), tool=tool),) if flags else ()


def _steps(s: Scenario) -> int:
    return accumulation_steps(s.training, batch_parallel_size(s.parallel))


def deepspeed_config(s: Scenario) -> Export:
    """The DeepSpeed JSON: batch (micro-batch and accumulation; DeepSpeed derives train_batch_size), precision,
    ZeRO stage, offload, buckets, optimizer (deepspeed/runtime/config.py, runtime/zero/config.py)."""
    p, o, ov = s.precision, s.offload, s.overhead
    doc: dict[str, Any] = {"train_micro_batch_size_per_gpu": s.training.micro_batch,
                           "gradient_accumulation_steps": _steps(s)}
    doc["bf16"] = {"enabled": p.dtype == DType.BF16}
    doc["fp16"] = {"enabled": p.dtype == DType.FP16}
    zero: dict[str, Any] = {"stage": s.parallel.zero_stage, "offload_optimizer": {"device": str(o.optimizer)}}
    if s.parallel.zero_stage == 3:
        zero["offload_param"] = {"device": str(o.params)}
    buckets = {"reduce_bucket_size": ov.reduce_bucket, "stage3_max_live_parameters": ov.zero3_live_params,
               "stage3_prefetch_bucket_size": ov.zero3_prefetch}  # the last two are read at ZeRO-3 only
    zero.update({k: v for k, v in buckets.items()
                 if v is not None and (k == "reduce_bucket_size" or s.parallel.zero_stage == 3)})
    doc["zero_optimization"] = zero
    names = {Optimizer.ADAM: "Adam", Optimizer.ADAMW: "AdamW", Optimizer.LION: "Lion"}
    if p.optimizer in names:
        params: dict[str, Any] = {}
        if p.optimizer != Optimizer.LION:  # torch.optim for foreach / for-loop, DeepSpeed's FusedAdam for fused
            params["torch_adam"] = p.optimizer_impl != OptimizerImpl.FUSED
        doc["optimizer"] = {"type": names[p.optimizer], "params": params}
    paths = [*_SCRIPT, "training.recompute", *_LAYOUT]
    if p.dtype != DType.FP32 and p.recipe != Recipe.MIXED:
        paths.append("precision.recipe")  # DeepSpeed's fp16/bf16 keep fp32 masters: the mixed recipe
    if p.optimizer not in names:
        paths.append("precision.optimizer")  # not one of DeepSpeed's own: the script passes its optimizer
    if p.optimizer not in names or p.optimizer_impl == OptimizerImpl.FOR_LOOP or (
            p.optimizer == Optimizer.LION and p.optimizer_impl != OptimizerImpl.FUSED):
        paths.append("precision.optimizer_impl")  # torch_adam picks torch's default (foreach); Lion is FusedLion
    return Export("deepspeed", doc, _not_written(s, "DeepSpeed", paths))


def accelerate_config(s: Scenario) -> Export:
    """The accelerate YAML: FSDP2 for ZeRO-2/3 (reshard_after_forward), DDP for stage 0, the inline DeepSpeed
    section for ZeRO-1 or an optimizer-only offload (FSDP offloads parameters and optimizer together)."""
    par, o = s.parallel, s.offload
    doc: dict[str, Any] = {"compute_environment": "LOCAL_MACHINE", "debug": False}
    mixed = {DType.BF16: "bf16", DType.FP16: "fp16", DType.FP32: "no"}[s.precision.dtype]
    partial = o.optimizer != o.params
    paths = [*_SCRIPT, *_LAYOUT, "training.micro_batch", "training.global_batch", "precision.optimizer",
             "precision.optimizer_impl", "precision.recipe"]
    if par.zero_stage in (2, 3) and not partial:
        doc["distributed_type"] = "FSDP"
        doc["fsdp_config"] = {
            "fsdp_version": 2, "fsdp_reshard_after_forward": par.zero_stage == 3,
            "fsdp_offload_params": o.params == Offload.CPU or o.optimizer == Offload.CPU,
            "fsdp_activation_checkpointing": s.training.recompute == Recompute.FULL,
            "fsdp_auto_wrap_policy": "TRANSFORMER_BASED_WRAP", "fsdp_state_dict_type": "SHARDED_STATE_DICT",
            "fsdp_cpu_ram_efficient_loading": True}
        if s.training.recompute == Recompute.SELECTIVE:
            paths.append("training.recompute")
    elif par.zero_stage == 0 and o.optimizer == Offload.NONE:
        doc["distributed_type"] = "MULTI_GPU" if par.num_gpus > 1 else "NO"
        paths.append("training.recompute")
    else:
        doc["distributed_type"] = "DEEPSPEED"
        ds: dict[str, Any] = {"zero_stage": par.zero_stage, "offload_optimizer_device": str(o.optimizer),
                              "gradient_accumulation_steps": _steps(s)}
        if par.zero_stage == 3:
            ds["offload_param_device"] = str(o.params)
        doc["deepspeed_config"] = ds
        paths = [*(x for x in paths if x != "training.global_batch"), "training.recompute"]
    doc.update(mixed_precision=mixed, num_machines=num_nodes(par), num_processes=par.num_gpus, machine_rank=0,
               main_training_function="main", rdzv_backend="static", same_network=True, use_cpu=False)
    return Export("accelerate", doc, _not_written(s, "accelerate", paths))


def torchrun_command(s: Scenario, script: str = "pretrain_gpt.py") -> Export:
    """``torchrun`` over Megatron-LM's training script with the plan's parallel layout, batch, precision, recompute
    and model shape (megatron/training/arguments.py names every flag)."""
    par, t, p = s.parallel, s.training, s.precision
    nodes = num_nodes(par)
    per_node = min(par.num_gpus, par.gpus_per_node)
    args = ["torchrun", "--nnodes", str(nodes), "--nproc-per-node", str(per_node), script,
            "--tensor-model-parallel-size", str(par.tp), "--pipeline-model-parallel-size", str(par.pp)]
    if par.sp:
        args.append("--sequence-parallel")
    for flag, value, default in (("--context-parallel-size", par.cp, 1), ("--expert-model-parallel-size", par.ep, 1),
                                 ("--expert-tensor-parallel-size", par.etp, None),
                                 ("--num-virtual-stages-per-pipeline-rank", par.vpp, 1),
                                 ("--decoder-first-pipeline-num-layers", par.first_stage_layers, None),
                                 ("--decoder-last-pipeline-num-layers", par.last_stage_layers, None),
                                 ("--moe-expert-capacity-factor",
                                  None if t.moe_capacity_percent is None else t.moe_capacity_percent / 100, None)):
        if value is not None and value != default:
            args += [flag, str(value)]
    global_batch = t.global_batch if t.global_batch is not None else t.micro_batch * batch_parallel_size(par)
    args += ["--micro-batch-size", str(t.micro_batch), "--global-batch-size", str(global_batch),
             "--seq-length", str(t.seq_len)]
    if p.dtype != DType.FP32:
        args.append(f"--{p.dtype}")
    if par.distributed_optimizer:
        args.append("--use-distributed-optimizer")
    if t.recompute == Recompute.SELECTIVE:
        args.append("--recompute-activations")
    elif t.recompute == Recompute.FULL:
        args += ["--recompute-granularity", "full", "--recompute-method", "uniform", "--recompute-num-layers", "1"]
    arch = s.model.architecture
    if arch is not None:
        args += ["--num-layers", str(arch.num_layers), "--hidden-size", str(arch.hidden_size),
                 "--num-attention-heads", str(arch.num_heads), "--ffn-hidden-size", str(arch.ffn_size),
                 "--max-position-embeddings", str(arch.max_position_embeddings or t.seq_len)]
        if arch.num_kv_heads and arch.num_kv_heads != arch.num_heads:
            args += ["--group-query-attention", "--num-query-groups", str(arch.num_kv_heads)]
        if arch.num_experts:
            args += ["--num-experts", str(arch.num_experts), "--moe-router-topk", str(arch.experts_per_token)]
    paths = ["parallel.zero_stage", "offload.optimizer", "offload.params"]
    if s.finetune.method != FinetuneMethod.FULL:
        paths.insert(0, "finetune.method")
    return Export("torchrun", " ".join(shlex.quote(a) for a in args), _not_written(s, "Megatron-LM", paths))


WRITERS = {"deepspeed": deepspeed_config, "accelerate": accelerate_config, "torchrun": torchrun_command}


def export(target: str, s: Scenario) -> Export:
    return WRITERS[target](s)
