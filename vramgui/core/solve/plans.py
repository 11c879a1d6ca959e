"""The plan space of the fastest-plan search: every way to train one scenario on N GPUs with its global batch.

A ``Plan`` is a layout (tp with or without sequence parallelism, pp with its interleaving, cp, ep: Megatron-Core's
``initialize_model_parallel`` sizes) with a micro-batch (gradient accumulation follows from the global batch), a
recompute level and a strategy (ZeRO stage / FSDP with CPU offload, or Megatron's distributed optimizer). Which
layouts exist is decided where validation decides it: ``world.accepts`` (the world group tiles N), the divisibility
rules of ``validate_scenario`` (heads over tp, layers over pp and vpp, the sequence over 2·cp, experts over ep), and
Megatron-LM's own requirements: tp divides the attention and key-value heads
(``megatron/core/transformer/attention.py``: ``divide(num_query_groups, world_size)``), and expert parallelism with
tensor parallelism needs sequence parallelism (``megatron/core/transformer/transformer_config.py``,
``TransformerConfig.__post_init__``: "When using expert parallelism and tensor parallelism, sequence parallelism must
be used").
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from vramgui.core.accumulation import steps_for
from vramgui.core.fields import registry as fields
from vramgui.core.parallel import world
from vramgui.core.parallel.layout import batch_parallel_size
from vramgui.core.scenario.choices import Convention, Recompute
from vramgui.core.scenario.specs import RECOMPUTE, Scenario
from vramgui.core.scenario.strategy import FIELDS as STRATEGY_PATHS
from vramgui.core.scenario.strategy import Strategy

VPP_SIZES = (1, 2, 4)  # interleaved 1F1B chunks tried per pipeline rank (Narayanan et al. 2021 §2.2.2)
# Search restrictions (what the space leaves out, and why): interleaving is Megatron-LM's schedule, tried under the
# megatron convention (or when the scenario interleaves already); tp × cp stays inside a node, where their traffic
# per layer and micro-batch runs over NVLink (Narayanan et al. 2021 §3.2: tensor parallelism within a node).
# The fields a plan sets, in the order its key and its changes list them (the JSON's "plan" is these, nested).
LAYOUT_PATHS = ("parallel.tp", "parallel.sp", "parallel.pp", "parallel.vpp", "parallel.cp", "parallel.ep")
TRAINING_PATHS = ("training.micro_batch", "training.recompute")
PLAN_PATHS = ("parallel.num_gpus", *LAYOUT_PATHS, *TRAINING_PATHS, "training.global_batch", *STRATEGY_PATHS)


@dataclass(frozen=True, order=True)
class Layout:
    """How the GPUs are split (everything of a plan but the recompute level and the strategy)."""

    tp: int
    sp: bool
    pp: int
    vpp: int
    cp: int
    ep: int
    micro_batch: int

    def apply(self, s: Scenario, gpus: int, batch: int) -> Scenario:
        p = replace(s.parallel, num_gpus=gpus, tp=self.tp, sp=self.sp, pp=self.pp, vpp=self.vpp, cp=self.cp,
                    ep=self.ep, etp=None, first_stage_layers=None, last_stage_layers=None)
        return replace(s, parallel=p, training=replace(s.training, micro_batch=self.micro_batch, global_batch=batch))

    @property
    def family(self) -> tuple[int, bool, int, int, int, int]:
        """The layout without its micro-batch: the peak grows with the micro-batch inside one family."""
        return self.tp, self.sp, self.pp, self.vpp, self.cp, self.ep


@dataclass(frozen=True)
class Plan:
    """One point of the search: a layout, a recompute level and a strategy, on ``gpus`` GPUs."""

    gpus: int
    layout: Layout
    recompute: Recompute
    strategy: Strategy

    def apply(self, s: Scenario, batch: int) -> Scenario:
        changed = self.layout.apply(s, self.gpus, batch)
        return self.strategy.apply(replace(changed, training=replace(changed.training, recompute=self.recompute)))

    @property
    def order(self) -> tuple[Any, ...]:
        """The deterministic tie-break: fewer GPUs, then the smaller layout, less recompute, the lower strategy."""
        return (self.gpus, self.layout, RECOMPUTE.index(self.recompute), _strategy_rank(self.strategy))


def _strategy_rank(st: Strategy) -> tuple[int, int, int, int]:
    return (st.stage, int(st.offload_optimizer), int(st.offload_params), int(st.distributed_optimizer))


def plan_values(s: Scenario) -> dict[str, dict[str, Any]]:
    """The plan's fields of a scenario, nested as a scenario file nests them ({"parallel": {"tp": 2, ...}, ...})."""
    out: dict[str, dict[str, Any]] = {}
    for path in PLAN_PATHS:
        section, name = path.split(".")
        out.setdefault(section, {})[name] = fields.get(s, path)
    return out


def plan_changes(s: Scenario, planned: Scenario) -> tuple[tuple[str, Any], ...]:
    """(path, value) of every plan field ``planned`` sets differently from ``s``."""
    return tuple((p, fields.get(planned, p)) for p in PLAN_PATHS if fields.get(planned, p) != fields.get(s, p))


def target_batch(s: Scenario) -> int:
    """The global batch every plan keeps: the scenario's, or (none given) its micro-batch × dp, the samples one of
    its own steps takes."""
    t = s.training
    return t.global_batch if t.global_batch is not None else t.micro_batch * batch_parallel_size(s.parallel)


def _divisors(n: int) -> list[int]:
    small = [d for d in range(1, int(n**0.5) + 1) if n % d == 0]
    return sorted({*small, *(n // d for d in small)})


def _powers(limit: int) -> list[int]:
    out, n = [], 1
    while n <= limit:
        out.append(n)
        n *= 2
    return out


def recompute_levels(s: Scenario) -> tuple[Recompute, ...]:
    """Every level with an architecture; without one activations are not estimated, so only the scenario's."""
    return RECOMPUTE if s.model.architecture is not None else (s.training.recompute,)


def layouts(s: Scenario, gpus: int, batch: int) -> Iterator[Layout]:
    """Every layout on ``gpus`` GPUs that could take ``batch`` (dp divides it, the micro-batch divides batch / dp),
    in a fixed order; validation (``estimate``) still refuses the few the divisibility prefilter lets through."""
    arch = s.model.architecture
    gpn = s.parallel.gpus_per_node
    layers = arch.num_layers if arch is not None else None
    for tp in _divisors(min(gpn, gpus)):
        if gpus % tp or (arch is not None and (arch.num_heads % tp or arch.kv_heads % tp)):
            continue
        for sp in ((False, True) if tp > 1 and arch is not None else (False,)):
            for cp in _powers(min(gpn, gpus) // tp) if arch is not None else [1]:
                if cp > 1 and (s.training.seq_len % (2 * cp) or (sp and s.training.seq_len % (cp * tp))):
                    continue
                if sp and s.training.seq_len % tp:
                    continue
                rest = gpus // (tp * cp)
                if gpus % (tp * cp):
                    continue
                for pp in _divisors(rest):
                    if layers is not None and (pp > layers or layers % pp):
                        continue
                    dp = rest // pp
                    if batch % dp:
                        continue
                    yield from _inner(s, gpus, batch, tp, sp, cp, pp, dp, layers)


def _inner(s: Scenario, gpus: int, batch: int, tp: int, sp: bool, cp: int, pp: int, dp: int,
           layers: int | None) -> Iterator[Layout]:
    arch = s.model.architecture
    experts = arch.num_experts if arch is not None and arch.is_moe else 0
    interleaves = s.convention == Convention.MEGATRON or s.parallel.vpp > 1
    for vpp in VPP_SIZES if pp > 1 and layers is not None and interleaves else (1,):
        if vpp > 1 and layers is not None and (layers // pp) % vpp:
            continue
        for ep in [e for e in _divisors(experts) if e <= gpus] if experts else [1]:
            if ep > 1 and tp > 1 and not sp:  # Megatron-Core refuses it (below)
                continue
            probe = Layout(tp, sp, pp, vpp, cp, ep, 1).apply(s, gpus, batch)
            if not world.accepts(probe, gpus):
                continue
            for mb in _divisors(batch // dp):
                if vpp > 1 and steps_for(batch, mb, dp) % pp:  # Megatron: interleaving needs m a multiple of pp
                    continue
                yield Layout(tp, sp, pp, vpp, cp, ep, mb)
