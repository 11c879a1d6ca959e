"""How much of ZeRO-3's communication can hide behind the compute: the share of its gathers issued ahead (prefetched).

A parameter all-gather hides only behind compute it was issued ahead of. ZeRO-3 gathers each module's parameters
just before the module runs (Rajbhandari et al. 2020 §5.3); what hides it is the prefetch that starts the next
module's gather while the current one computes:

* PyTorch FSDP prefetches the next unit (a decoder block) in the forward and the backward (``BackwardPrefetch.
  BACKWARD_PRE``, FSDP2's default one-layer prefetch): every gather but the first can hide;
* DeepSpeed ZeRO-3 (``deepspeed/runtime/zero/partitioned_param_coordinator.py`` ``fetch_sub_module``): after the
  current module's parameters are gathered it prefetches the next ones while the gathered parameters stay below
  ``stage3_max_live_parameters`` (default 1e9), up to ``stage3_prefetch_bucket_size`` of them (default 5e7; 0 turns
  prefetching off). So the module after one of ``stage3_max_live_parameters`` or more is not prefetched.

A gather not prefetched is waited for before its module runs: the GPU computes nothing meanwhile. In the backward it
also shares the network port with the reduce-scatter of the module just finished (both start when that module's
backward ends), so the wait lasts for both: the gather and the reduce-scatter add to the step, the same physical
fact as when nothing overlaps at all. DeepSpeed 0.3.13 to 0.5.5 (March to October 2021, the ZeRO-3 of Narayanan et
al. 2021 Table 2) prefetched nothing under compute: ``partition_parameters.py`` ``_allgather_param`` called
``torch.cuda.synchronize()`` before every gather, and ``stage3.py`` ``_synchronize_communication`` after each fetch
(DeepSpeed PR #1188, October 2021: "the async version is not async at all, because each all_gather calls
torch.cuda.synchronize()") — the same as ``stage3_prefetch_bucket_size`` 0.

The modules are a decoder block's Linears as Megatron-LM fuses them (DeepSpeed's ZeRO-3 hooks are per module): the
attention's input projection (q, k, v), its output projection, the MLP's input (gate and up) and its output, each
split over tp before ZeRO-3 shards it.
"""

from __future__ import annotations

from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.convention import convention_of
from vramgui.core.scenario.specs import Scenario
from vramgui.core.step.terms import DS_MAX_LIVE_PARAMETERS, DS_PREFETCH_BUCKET
from vramgui.core.time.flops import model_flops

SRC_PREFETCH = ("FSDP BackwardPrefetch.BACKWARD_PRE; DeepSpeed partitioned_param_coordinator.py fetch_sub_module "
                "(stage3_max_live_parameters, stage3_prefetch_bucket_size); DeepSpeed 0.3.13-0.5.5 "
                "torch.cuda.synchronize() before each gather (PR #1188)")


def deepspeed_style(s: Scenario) -> bool:
    """ZeRO-3 as DeepSpeed runs it (its live-parameter and prefetch limits), as the step peak decides it."""
    return convention_of(s).zero3_live_default or s.overhead.zero3_live_params is not None


def block_modules(arch: Architecture) -> tuple[int, ...]:
    """A decoder block's Linear weights in the order they run, as Megatron-LM fuses them: attention in (q, k, v),
    attention out, MLP in (gate and up), MLP out."""
    fl = model_flops(arch).dense
    attention, mlp = fl.attention_proj // 2, fl.mlp // 2
    attn_out = arch.num_heads * arch.value_head_size * arch.hidden_size
    mlp_out = arch.hidden_size * arch.ffn_size
    return (attention - attn_out, attn_out, mlp - mlp_out, mlp_out)


def prefetched_share(s: Scenario, arch: Architecture | None) -> float:
    """The share of ZeRO-3's gathered parameters issued ahead of the compute that needs them (0 to 1)."""
    if not deepspeed_style(s):
        return 1.0  # FSDP: the next unit, always
    ov = s.overhead
    bucket = DS_PREFETCH_BUCKET if ov.zero3_prefetch is None else ov.zero3_prefetch
    if bucket <= 0:
        return 0.0
    if arch is None:  # no module sizes: the prefetch is on
        return 1.0
    live = DS_MAX_LIVE_PARAMETERS if ov.zero3_live_params is None else ov.zero3_live_params
    sizes = [w / s.parallel.tp for w in block_modules(arch)]
    total = sum(sizes)
    if total <= 0:
        return 1.0
    # the module k is prefetched while module k - 1 (the previous block's last for the first) is computing, if
    # module k - 1's gathered parameters leave room under stage3_max_live_parameters
    ahead = sum(size for prev, size in zip(sizes[-1:] + sizes[:-1], sizes, strict=True) if prev < live)
    return ahead / total
