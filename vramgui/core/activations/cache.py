"""Activation estimates kept between estimates: one per layout and batch, looked up without hashing a model.

Activations depend on tp/pp/cp/sp/ep/etp/vpp and the stage sizes, on the batch and the precision, not on the ZeRO
stage, the offload or the GPU count, except through the number of micro-batches a pipeline holds in flight
(pp > 1 with a global batch: the data-parallel size). The key holds exactly that. The architecture and the
training section enter it as small tokens found by identity (``vramgui.core.memo``), so a sweep over GPU counts,
the strategy bars and a parameter-count solve find their activations for the cost of a tuple of ints; under it,
``estimate_activations`` keeps the per-shape terms (``profile_terms``) for layouts that share a shape.
"""

from __future__ import annotations

from itertools import count
from typing import TYPE_CHECKING

from vramgui.core.activations.estimate import ActivationEstimate, clear_profile_cache, estimate_activations
from vramgui.core.memo import ByIdentity, replaced
from vramgui.core.parallel.layout import batch_parallel_size

if TYPE_CHECKING:
    from vramgui.core.activations.lora import LoraActs
    from vramgui.core.scenario.architecture import Architecture
    from vramgui.core.scenario.specs import ParallelSpec, TrainingSpec

_TOKENS = count()
# a token per distinct value (equal values share one, found by value when the identity is new); a token is never
# given to another value, so a key built from tokens names exactly one (architecture, training) pair
_ARCH_TOKEN: ByIdentity[Architecture, int] = ByIdentity(lambda arch: next(_TOKENS), 1024)
_TRAINING_TOKEN: ByIdentity[TrainingSpec, int] = ByIdentity(lambda training: next(_TOKENS), 4096)

_ESTIMATES: dict[tuple[object, ...], ActivationEstimate] = {}
_MAX = 4096


def activations_for(arch: Architecture, training: TrainingSpec, parallel: ParallelSpec, dtype: str,
                    amp: bool = False, lora: LoraActs | None = None, fp8: str = "none") -> ActivationEstimate:
    """``estimate_activations`` for this layout, kept (see the module docstring)."""
    p = parallel
    n_d = batch_parallel_size(p) if p.pp > 1 and training.global_batch is not None else 1
    key = (_ARCH_TOKEN(arch), _TRAINING_TOKEN(training), p.tp, p.pp, p.sp, n_d, dtype, amp, lora, p.cp, p.ep,
           p.expert_tp, p.vpp, p.first_stage_layers, p.last_stage_layers, fp8)
    hit = _ESTIMATES.get(key)
    if hit is None:
        group = p.tp * p.cp * p.pp
        norm = replaced(p, num_gpus=group * n_d, gpus_per_node=max(1, group), zero_stage=0,
                         distributed_optimizer=True, ddp_bucket_view=False)
        hit = estimate_activations(arch, training, norm, dtype, amp, lora, fp8)
        if len(_ESTIMATES) >= _MAX:
            _ESTIMATES.clear()
        _ESTIMATES[key] = hit
    return hit


def clear(every_shape: bool = False) -> None:
    """Forget the per-layout estimates; ``every_shape``: the per-shape terms under them too."""
    _ESTIMATES.clear()
    if every_shape:
        clear_profile_cache()
