"""How a field is said in a pin's name, the caption under an exported chart and the comparison's shared inputs, where
"label: value" (or the words of a choice, ``Words.said``) is not how people say it: "micro-batch 4", "seq 8k",
"16 GPUs", "TP 2". The registry attaches each form to its row (``Field.caption``); the window renders what it returns.

A caption form takes the row, the value, the scenario and ``short`` (a pin's name; else a caption, which spells
numbers out) and returns a ``Msg`` (``caption.*`` in the catalogue), a plain text (a name, a symbol in any language),
"" for nothing to show, or None where the row's ordinary form applies (a value not given, a choice it does not
shorten). Also here: the free-text fields that name the model and the GPU (``NAMES``: said as they are, no byte
changes) and the fields said together as the training strategy's name (``STRATEGY``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from vramgui.core.fields import paths
from vramgui.core.parallel.layout import num_nodes, ranks_per_node
from vramgui.core.scenario.specs import Scenario
from vramgui.core.scenario.strategy import FIELDS as STRATEGY
from vramgui.core.text.message import Msg
from vramgui.core.text.units import compact_count_text, format_count, tokens_text, typed_size_text

Said = Msg | str | None
Caption = Callable[[Any, Any, "Scenario | None", bool], Said]  # (the row, a ``Field``; value; scenario; short)

__all__ = ["CAPTIONS", "NAMES", "STRATEGY", "Caption", "Said"]


def _model_name(f: Any, v: Any, s: Scenario | None, short: bool) -> Said:
    return Msg.of("caption.custom_model") if v == "custom" else v


def _gpu_name(f: Any, v: Any, s: Scenario | None, short: bool) -> Said:
    return v or ""


def _params(f: Any, v: Any, s: Scenario | None, short: bool) -> Said:
    if v is None:
        return None
    return Msg.of("caption.params", params=compact_count_text(v) if short else format_count(v))


def _micro_batch(f: Any, v: Any, s: Scenario | None, short: bool) -> Said:
    return None if v is None else Msg.of("caption.micro_batch", n=f"{v:,}")


def _seq_len(f: Any, v: Any, s: Scenario | None, short: bool) -> Said:
    return None if v is None else Msg.of("caption.seq_len", n=tokens_text(v) if short else f"{v:,}")


def _global_batch(f: Any, v: Any, s: Scenario | None, short: bool) -> Said:
    """A pin's name says the global batch even when it is not given (it changes the accumulation steps)."""
    if not short:
        return None
    return Msg.of("caption.no_global_batch") if v is None else Msg.of("caption.global_batch", n=f"{v:,}")


def _num_gpus(f: Any, v: Any, s: Scenario | None, short: bool) -> Said:
    if v is None:
        return None
    if short:
        return Msg.of("caption.gpus", n=f"{v:,}")
    assert s is not None  # a caption of a scenario's GPUs
    return Msg.of("caption.gpus_nodes", n=v, nodes=num_nodes(s.parallel), per=ranks_per_node(s.parallel))


def _gpus_per_node(f: Any, v: Any, s: Scenario | None, short: bool) -> Said:
    if v is None:
        return None
    return Msg.of("caption.gpus_per_node", n=f"{v:,}") if short else ""  # "" : said in the GPUs' caption


def _grid_size(f: Any, v: Any, s: Scenario | None, short: bool) -> Said:
    """ "TP 2", "PP 4": the names Megatron-LM and the papers use, in any language."""
    return None if v is None else f"{f.name.upper()} {v:,}"


def _sequence_parallel(f: Any, v: Any, s: Scenario | None, short: bool) -> Said:
    return "SP" if v else None


def _gpu_memory(f: Any, v: Any, s: Scenario | None, short: bool) -> Said:
    return None if v is None else Msg.of("caption.per_gpu", total=typed_size_text(v))


def _reserve(f: Any, v: Any, s: Scenario | None, short: bool) -> Said:
    return None if v is None else Msg.of("caption.reserve", r=f"{v * 100:g}")


def _lora_targets(f: Any, v: Any, s: Scenario | None, short: bool) -> Said:
    """A named set of targets is said in its choice words; a list of module names as "LoRA on q_proj,v_proj"."""
    return None if v is None or v in f.choices else Msg.of("caption.lora_on", targets=v)


# path -> its caption form (a row not here is said as "label: value", or in its choice's words)
CAPTIONS: dict[str, Caption] = {
    paths.MODEL_NAME: _model_name,
    paths.GPU_NAME: _gpu_name,
    paths.PARAMS: _params,
    paths.MICRO_BATCH: _micro_batch,
    paths.SEQ_LEN: _seq_len,
    paths.GLOBAL_BATCH: _global_batch,
    paths.NUM_GPUS: _num_gpus,
    "parallel.gpus_per_node": _gpus_per_node,
    **dict.fromkeys((paths.TP, paths.PP, "parallel.cp", "parallel.ep", "parallel.etp", "parallel.vpp"), _grid_size),
    "parallel.sp": _sequence_parallel,
    paths.GPU_MEMORY: _gpu_memory,
    paths.RESERVE: _reserve,
    "finetune.lora_targets": _lora_targets,
}

# the free-text fields that name something ("model", "gpu"): said as they are, and no byte changes with them
NAMES: dict[str, str] = {paths.MODEL_NAME: "model", paths.GPU_NAME: "gpu"}
