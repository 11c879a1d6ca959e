"""PyTorch FSDP as the trainers configure it, into vramgui's ZeRO stage, offload and recompute fields.

accelerate (``utils/dataclasses.py``, ``FullyShardedDataParallelPlugin.__post_init__``): FSDP1 takes
``sharding_strategy`` by name or number (``utils/constants.py`` FSDP_SHARDING_STRATEGY = FULL_SHARD, SHARD_GRAD_OP,
NO_SHARD, HYBRID_SHARD, HYBRID_SHARD_ZERO2, numbered from 1), default FULL_SHARD; FSDP2 takes
``reshard_after_forward`` (default true): true shards parameters after the forward like FULL_SHARD, false keeps them
gathered until the backward like SHARD_GRAD_OP. ``cpu_offload`` / ``offload_params``: ``CPUOffload(offload_params=
True)`` (FSDP1) or ``CPUOffloadPolicy`` (FSDP2) keeps parameters, gradients and the optimizer step on the host. The
same map vramgui's strategy names use (``core/parallel/layout.fsdp_name``): FULL_SHARD = ZeRO-3, SHARD_GRAD_OP =
ZeRO-2, NO_SHARD = DDP.
"""

from __future__ import annotations

from typing import Any

from vramgui.core.documents.training.imported import Reader, as_bool, as_int
from vramgui.core.scenario.choices import Offload, Recompute

STRATEGIES = ("FULL_SHARD", "SHARD_GRAD_OP", "NO_SHARD", "HYBRID_SHARD", "HYBRID_SHARD_ZERO2")
STAGE_OF = {"FULL_SHARD": 3, "SHARD_GRAD_OP": 2, "NO_SHARD": 0}


def strategy_name(value: Any) -> str | None:
    """A strategy as accelerate reads it: its name in any case, or its number as int or text."""
    n = as_int(value)
    if n is not None:
        return STRATEGIES[n - 1] if 1 <= n <= len(STRATEGIES) else None
    if isinstance(value, str) and value.strip().upper() in STRATEGIES:
        return value.strip().upper()
    return None


def take_strategy(r: Reader, key: str, value: Any) -> int | None:
    """The ZeRO stage of an FSDP1 sharding strategy; hybrid sharding (sharded inside a node, replicated across
    nodes) has no vramgui input: unresolved."""
    name = strategy_name(value)
    if name is None:
        r.bad_value(key, value)
        return None
    if name not in STAGE_OF:
        r.unresolve(key, value, "imported.hybrid_shard")
        return None
    r.take("parallel.zero_stage", STAGE_OF[name], key)
    return STAGE_OF[name]


def take_reshard(r: Reader, key: str, value: Any, version: int) -> int | None:
    """FSDP2's ``reshard_after_forward`` (a bool); under FSDP1 accelerate reads the same key as a strategy."""
    if version == 1 and not isinstance(value, bool):
        return take_strategy(r, key, value)
    on = as_bool(value)
    if on is None:
        r.bad_value(key, value)
        return None
    stage = 3 if on else 2
    r.take("parallel.zero_stage", stage, key)
    return stage


def take_offload(r: Reader, key: str, value: Any, stage: int | None) -> None:
    """FSDP CPU offload: the optimizer step on the host, and at ZeRO-3 (FULL_SHARD) the parameters too."""
    on = as_bool(value)
    if on is None:
        r.bad_value(key, value)
        return
    r.take("offload.optimizer", Offload.CPU if on else Offload.NONE, key)
    if stage == 3 or not on:
        r.take("offload.params", Offload.CPU if on else Offload.NONE, key)
    else:
        r.unresolve(key, value, "imported.needs_zero3")


def take_checkpointing(r: Reader, key: str, value: Any) -> None:
    """FSDP activation checkpointing wraps every transformer layer (accelerate ``fsdp_utils``): full recompute."""
    on = as_bool(value)
    if on is None:
        r.bad_value(key, value)
    else:
        r.take("training.recompute", Recompute.FULL if on else Recompute.NONE, key)


NO_EFFECT = {  # FSDP keys that do not change a training step's memory
    "auto_wrap_policy", "transformer_layer_cls_to_wrap", "min_num_params", "state_dict_type", "sync_module_states",
    "use_orig_params", "cpu_ram_efficient_loading", "ignored_modules", "xla", "xla_fsdp_v2", "xla_fsdp_grad_ckpt",
    "xla_fsdp_settings", "activation_cpu_offload", "version", "mixed_precision_policy", "cpu_offload_pin_memory",
    "offload_pin_memory",
}
NO_INPUT = {  # they do change it, vramgui has no input
    "backward_prefetch", "forward_prefetch", "limit_all_gathers",
}


def read_config(r: Reader, config: dict[str, Any], prefix: str, version: int, stage: int | None) -> None:
    """An ``fsdp_config`` mapping, keys with or without their ``fsdp_`` prefix (transformers strips it:
    ``TrainingArguments._process_fsdp_args``)."""
    entries = {k.removeprefix("fsdp_"): (k, v) for k, v in config.items()}
    if "sharding_strategy" in entries:
        key, value = entries.pop("sharding_strategy")
        stage = take_strategy(r, prefix + key, value)
    if "reshard_after_forward" in entries:
        key, value = entries.pop("reshard_after_forward")
        stage = take_reshard(r, prefix + key, value, version)
    for name in ("offload_params", "cpu_offload"):
        if name in entries:
            key, value = entries.pop(name)
            take_offload(r, prefix + key, value, stage)
    if "activation_checkpointing" in entries:
        key, value = entries.pop("activation_checkpointing")
        take_checkpointing(r, prefix + key, value)
    for name, (key, value) in entries.items():
        if name in NO_EFFECT:
            r.ignore(prefix + key, value)
        elif name in NO_INPUT:
            r.unresolve(prefix + key, value)
        else:
            r.ignore(prefix + key, value, "imported.unknown_key")


def version_of(value: Any) -> int:
    n = as_int(value)
    return 2 if n == 2 else 1
