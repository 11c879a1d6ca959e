"""A torchtune recipe config (``tune run <recipe> --config file.yaml``; ``recipes/configs/``).

The model is a component: ``model._component_`` names a builder of ``torchtune/models/<family>/_model_builders.py``
(``llama3_1_8b``; ``lora_llama3_1_8b`` / ``qlora_llama3_1_8b`` for LoRA and QLoRA) with ``lora_attn_modules`` (q_proj,
k_proj, v_proj, output_proj), ``apply_lora_to_mlp`` (w1, w2, w3 = gate, down, up), ``apply_lora_to_output``,
``lora_rank``, ``lora_dropout``. QLoRA keeps the base as torchao NF4 (``torchtune/modules/peft/lora.py``: ``to_nf4``,
whose scalers are themselves quantised in blocks of 256: double quantisation). The recipes build the whole model,
adapters included, in ``dtype`` (``training.set_default_dtype``): bf16 weights, gradients and optimizer states, the
pure recipe. ``batch_size`` is per device; ``tokenizer.max_seq_len`` caps the sequence (null: the data decides);
``loss`` ``LinearCrossEntropyLoss`` / ``CEWithChunkedOutputLoss`` never keep fp32 logits; ``optimizer_in_bwd`` steps
each parameter inside the backward (no input here).
"""

from __future__ import annotations

from typing import Any

from vramgui.core.documents.training.imported import Imported, Reader, as_bool, walk
from vramgui.core.scenario.choices import (
    AdapterDType,
    DType,
    FinetuneMethod,
    Loss,
    Offload,
    Optimizer,
    OptimizerImpl,
    Recipe,
    Recompute,
)
from vramgui.core.text.message import Msg

# torchtune model builders -> vramgui presets of the same architecture (the builders' own numbers are the
# published config.json of each preset's source)
PRESETS = {
    "llama2_7b": "llama-2-7b", "llama2_13b": "llama-2-13b", "llama2_70b": "llama-2-70b",
    "llama3_8b": "llama-3-8b", "llama3_70b": "llama-3-70b", "llama3_1_8b": "llama-3.1-8b",
    "llama3_1_70b": "llama-3.1-70b", "llama3_1_405b": "llama-3.1-405b", "llama3_2_1b": "llama-3.2-1b",
    "llama3_2_3b": "llama-3.2-3b", "llama3_3_70b": "llama-3.3-70b", "mistral_7b": "mistral-7b-v0.1",
    "phi3_mini": "phi-3-mini", "phi4_14b": "phi-4", "qwen2_5_0_5b": "qwen2.5-0.5b", "qwen2_5_1_5b_base": "qwen2.5-1.5b",
    "qwen2_5_3b": "qwen2.5-3b", "qwen2_5_7b_base": "qwen2.5-7b", "qwen2_5_14b_base": "qwen2.5-14b",
    "qwen2_5_32b_base": "qwen2.5-32b", "qwen2_5_72b_base": "qwen2.5-72b", "qwen3_0_6b_base": "qwen3-0.6b",
    "qwen3_4b_base": "qwen3-4b", "qwen3_8b_base": "qwen3-8b", "qwen3_14b_base": "qwen3-14b", "qwen3_32b": "qwen3-32b",
    "gemma_7b": "gemma-7b", "gemma2_2b": "gemma-2-2b", "gemma2_9b": "gemma-2-9b", "gemma2_27b": "gemma-2-27b",
}
_ATTN_NAMES = {"q_proj": "q_proj", "k_proj": "k_proj", "v_proj": "v_proj", "output_proj": "o_proj"}
_OPTIMIZERS = {  # optimizer._component_ -> (optimizer, paged)
    "torch.optim.adamw": (Optimizer.ADAMW, False), "torch.optim.adam": (Optimizer.ADAM, False),
    "torch.optim.sgd": (Optimizer.SGD, False), "bitsandbytes.optim.pagedadamw8bit": (Optimizer.ADAM8BIT, True),
    "bitsandbytes.optim.adamw8bit": (Optimizer.ADAM8BIT, False), "torchao.optim.adamw8bit": (Optimizer.ADAM8BIT, False),
    "bitsandbytes.optim.pagedadamw": (Optimizer.ADAMW, True),
}
_CHUNKED = ("linearcrossentropyloss", "cewithchunkedoutputloss", "chunkedcrossentropyloss")
NO_EFFECT = {
    "output_dir", "checkpointer", "resume_from_checkpoint", "save_adapter_weights_only", "dataset", "seed", "shuffle",
    "lr_scheduler", "epochs", "max_steps_per_epoch", "clip_grad_norm", "metric_logger", "log_every_n_steps",
    "log_peak_memory_stats", "log_level", "device", "profiler", "low_cpu_ram", "run_val_every_n_steps", "dataset_val",
    "batch_size_val", "tokenizer", "loss", "model", "optimizer", "dtype", "batch_size", "gradient_accumulation_steps",
    "enable_activation_checkpointing", "save_last_epoch_only", "cudnn_deterministic_mode", "log_iteration",
    "custom_sharded_layers", "fsdp_cpu_offload", "fsdp_reshard_after_forward",
}
NO_INPUT = {"optimizer_in_bwd", "compile", "enable_activation_offloading", "activation_offloading_use_streams",
            "tensor_parallel_dim", "tensor_parallel_plan", "context_parallel_dim", "data_parallel_replicate_dim",
            "quantizer", "ac_mode", "ac_option"}


def component(doc: dict[str, Any], section: str) -> str:
    node = doc.get(section)
    name = node.get("_component_") if isinstance(node, dict) else None
    return name.strip() if isinstance(name, str) else ""


def read(doc: dict[str, Any], what: str = "torchtune config") -> Imported:
    r = Reader("torchtune", what)
    _model(r, doc)
    dtype = doc.get("dtype", "fp32")
    chosen = {"bf16": DType.BF16, "fp32": DType.FP32}.get(str(dtype).lower())
    if chosen is None:
        r.bad_value("dtype", dtype)
    else:
        r.take("precision.dtype", chosen, "dtype")
        r.take("precision.recipe", Recipe.PURE, "dtype", note=Msg.of("imported.loaded_in_dtype", tool="torchtune"))
        if any(t.path == "finetune.method" for t in r.taken):
            r.take("finetune.adapter_dtype", AdapterDType.BF16 if chosen == DType.BF16 else AdapterDType.FP32, "dtype")
    if "batch_size" in doc:
        n = r.whole("batch_size", doc["batch_size"], 1)
        if n is not None:
            r.micro = (n, "batch_size")
    if "gradient_accumulation_steps" in doc:
        n = r.whole("gradient_accumulation_steps", doc["gradient_accumulation_steps"], 1)
        if n is not None:
            r.accumulation = (n, "gradient_accumulation_steps")
    if "enable_activation_checkpointing" in doc:
        on = as_bool(doc["enable_activation_checkpointing"])
        r.take("training.recompute", Recompute.FULL if on else Recompute.NONE,
               "enable_activation_checkpointing") if on is not None else r.bad_value(
            "enable_activation_checkpointing", doc["enable_activation_checkpointing"])
    tokenizer = doc.get("tokenizer")
    seq = tokenizer.get("max_seq_len") if isinstance(tokenizer, dict) else None
    if seq is None:
        r.unresolve("tokenizer.max_seq_len", None, "imported.seq_from_data")
    else:
        n = r.whole("tokenizer.max_seq_len", seq, 1)
        if n is not None:
            r.take("training.seq_len", n, "tokenizer.max_seq_len")
    loss = component(doc, "loss").rsplit(".", 1)[-1].lower()
    if loss:
        r.take("training.loss", Loss.CHUNKED if loss in _CHUNKED else Loss.HF, "loss._component_")
    _optimizer(r, doc)
    _fsdp(r, doc)
    for key, value in doc.items():
        if key in NO_INPUT:
            (r.unresolve if as_bool(value) is not False and value is not None else r.ignore)(key, value)
        elif key not in NO_EFFECT:
            r.ignore(key, value, "imported.unknown_key")
    return r.result()


def _model(r: Reader, doc: dict[str, Any]) -> None:
    name = component(doc, "model")
    if not name:
        r.unresolve("model._component_", doc.get("model"), "imported.unknown_value")
        return
    builder = name.rsplit(".", 1)[-1]
    method = None
    if builder.startswith("qlora_"):
        method, builder = FinetuneMethod.QLORA, builder.removeprefix("qlora_")
    elif builder.startswith("lora_"):
        method, builder = FinetuneMethod.LORA, builder.removeprefix("lora_")
    r.model = (builder, "model._component_")
    model = doc["model"]
    if method is None:
        for key, value in model.items():
            if key != "_component_":
                r.ignore(f"model.{key}", value, "imported.unknown_key")
        return
    r.take("finetune.method", method, "model._component_")
    if method == FinetuneMethod.QLORA:
        r.take("finetune.double_quant", True, "model._component_", note=Msg.of("imported.torchao_nf4"))
    targets: list[str] = []
    for key, value in model.items():
        k = f"model.{key}"
        if key == "_component_":
            continue
        if key == "lora_attn_modules" and isinstance(value, list):
            unknown = [v for v in value if v not in _ATTN_NAMES]
            if unknown:
                r.bad_value(k, unknown)
            targets += [_ATTN_NAMES[v] for v in value if v in _ATTN_NAMES]
        elif key == "apply_lora_to_mlp" and as_bool(value):
            targets += ["gate_proj", "up_proj", "down_proj"]
        elif key == "apply_lora_to_output":
            (r.unresolve if as_bool(value) else r.ignore)(k, value)
        elif key == "lora_rank":
            n = r.whole(k, value, 1)
            if n is not None:
                r.take("finetune.lora_rank", n, k)
        elif key == "lora_dropout":
            r.take("finetune.lora_dropout", value, k)
        elif key in ("lora_alpha", "apply_lora_to_mlp", "quantize_base", "use_dora"):
            (r.unresolve if key == "use_dora" and as_bool(value) else r.ignore)(k, value)
        else:
            r.ignore(k, value, "imported.unknown_key")
    if targets:
        r.take("finetune.lora_targets", ",".join(targets), "model.lora_attn_modules")


def _optimizer(r: Reader, doc: dict[str, Any]) -> None:
    name = component(doc, "optimizer").lower()
    if not name:
        return
    known = _OPTIMIZERS.get(name)
    if known is None:
        r.bad_value("optimizer._component_", component(doc, "optimizer"))
        return
    r.take("precision.optimizer", known[0], "optimizer._component_")
    if known[1]:
        r.unresolve("optimizer._component_", component(doc, "optimizer"), "imported.paged_optimizer")
    for key, value in walk(doc["optimizer"], "optimizer."):
        if key == "optimizer.fused" and name.startswith("torch.optim"):
            on = as_bool(value)
            r.take("precision.optimizer_impl", OptimizerImpl.FUSED if on else OptimizerImpl.FOREACH, key)
        elif key == "optimizer.foreach" and name.startswith("torch.optim"):
            on = as_bool(value)
            r.take("precision.optimizer_impl", OptimizerImpl.FOREACH if on else OptimizerImpl.FOR_LOOP, key)
        elif key != "optimizer._component_":
            r.ignore(key, value)


def _fsdp(r: Reader, doc: dict[str, Any]) -> None:
    """The distributed recipes shard with FSDP2 ``fully_shard`` (recipes/full_finetune_distributed.py:
    ``reshard_after_forward=cfg.get("fsdp_reshard_after_forward", True)``, ``fsdp_cpu_offload`` = ``CPUOffloadPolicy``):
    true = ZeRO-3, false = ZeRO-2. A config for them is told by these keys or ``custom_sharded_layers`` (FSDP only)."""
    keys = [k for k in ("fsdp_reshard_after_forward", "fsdp_cpu_offload", "custom_sharded_layers") if k in doc]
    if not keys:
        return
    stage = 3
    if "fsdp_reshard_after_forward" in doc:
        on = as_bool(doc["fsdp_reshard_after_forward"])
        if on is None:
            r.bad_value("fsdp_reshard_after_forward", doc["fsdp_reshard_after_forward"])
            return
        stage = 3 if on else 2
        r.take("parallel.zero_stage", stage, "fsdp_reshard_after_forward")
    else:
        r.take("parallel.zero_stage", 3, keys[0], note=Msg.of("imported.tool_default", tool="torchtune"))
    if "fsdp_cpu_offload" in doc:
        on = as_bool(doc["fsdp_cpu_offload"])
        if on is None:
            r.bad_value("fsdp_cpu_offload", doc["fsdp_cpu_offload"])
            return
        r.take("offload.optimizer", Offload.CPU if on else Offload.NONE, "fsdp_cpu_offload")
        if stage == 3 or not on:
            r.take("offload.params", Offload.CPU if on else Offload.NONE, "fsdp_cpu_offload")
        else:
            r.unresolve("fsdp_cpu_offload", True, "imported.needs_zero3")
