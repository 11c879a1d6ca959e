"""The parts a step's time is made of, in one table: their keys, names and the order they stack in.

Each is the EXPOSED time of one kind of work on the slowest GPU (what the step waits for), in the order of the
interface (``estimate --json`` ``time.components``): they add up to the step time. A client takes every label
from here (``label``), as the memory components take theirs from ``vramgui.core.step.components``.
"""

from __future__ import annotations

from vramgui.core.text.message import Msg

TIME_KEYS: tuple[str, ...] = (
    "compute",  # forward and backward products and memory-bound kernels of every micro-batch
    "recompute",  # the forward work activation recomputation repeats
    "tp_comm",  # tensor-parallel all-reduce, or reduce-scatter + all-gather with sequence parallelism
    "cp_comm",  # context-parallel ring exchange of K and V, beyond what the attention hides
    "ep_comm",  # expert-parallel all-to-all (dispatch and combine)
    "dp_comm",  # data-parallel gradient reduction and parameter gathering, beyond what the backward hides
    "pp_bubble",  # pipeline fill and drain, (p − 1)/(m·v) of the pipelined work
    "pp_comm",  # pipeline point-to-point sends of activations and their gradients
    "optimizer",  # the optimizer step on the GPU (memory-bound)
    "offload",  # host transfers over PCIe and the CPU optimizer step
)


def label(key: str) -> Msg:
    """The name of time component ``key`` (``time.compute`` ...); KeyError for a key with no row."""
    if key not in TIME_KEYS:
        raise KeyError(key)
    return Msg.of(f"time.{key}")
