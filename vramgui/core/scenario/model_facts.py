"""What an estimate needs of the architecture alone, computed once per model.

Every estimate of a model (each edit of the window, each point of a sweep, each probe of a solve) asks the same
questions of its frozen ``Architecture``: how many parameters, how many of them active per token, how many
tensors, the largest layer. They depend on nothing else, so they are answered once and kept, looked up by the
architecture's identity first (``vramgui.core.memo``: hashing forty fields costs more than the lookup). A new
architecture-only figure (FLOPs per token, for the step time) is one more field here.
"""

from __future__ import annotations

from dataclasses import dataclass

from vramgui.core.memo import by_identity
from vramgui.core.scenario import architecture as am
from vramgui.core.scenario.architecture import Architecture


@dataclass(frozen=True)
class ModelFacts:
    params: int  # am.count_params: every parameter
    active_params: int | None  # am.count_active_params for an MoE model (per token), None for a dense one
    tensors: int  # am.count_param_tensors (the fused layout): AdamW's per-tensor step counters, DeepSpeed's 4·n
    largest_layer: int  # am.largest_layer_params: DeepSpeed's largest-layer term, FSDP's unit


@by_identity(256)
def model_facts(arch: Architecture) -> ModelFacts:
    """The architecture-only figures of ``arch`` (cached; see the module docstring)."""
    return ModelFacts(
        params=am.count_params(arch),
        active_params=am.count_active_params(arch) if arch.is_moe else None,
        tensors=am.count_param_tensors(arch),
        largest_layer=am.largest_layer_params(arch),
    )
