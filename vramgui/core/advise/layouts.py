"""The adviser's ways out that split the model, the sequence or the experts: tensor (tp), pipeline (pp), context (cp)
and expert (ep) parallelism, each on the scenario's own GPUs first, then on the fewest more GPUs (whole nodes).

Each finder answers the least change that fits on the GPUs there are and, when it is faster (or nothing fits there),
the first size that fits on more. On the GPUs there are, a size is tried only where its world group tiles them
(``world.accepts``, the rule validation and the solvers share) and the layout's most frugal plan fits (full
recompute, ZeRO-3: no other plan of the layout has a smaller peak); each size alone first, then each with the
cheapest strategy that fits (``solve.strategy_variants`` in order), then at full recompute. Plans without offload
are tried first, offload only when none fits: its host transfers cost more than a larger layout's exchanges
(Llama-3-8B at 65,536 tokens on 8 H100s, the same 8 samples per step: cp 4 with ZeRO-2 steps faster than cp 2 with
ZeRO-3 and optimizer offload in this model; NVIDIA's Megatron Bridge MoE workflow, "Make the run memory-feasible":
"Add offloading only when recompute and parallelism are still insufficient"). On more GPUs: the fewest that fit
(``solve.min_gpus``), under ZeRO-2 or else ZeRO-3 when the strategy does not shard, at full recompute when nothing
fits without.

Without a global batch the samples of a step follow dp = GPUs / (tp·cp·pp): a size that lowers dp on the same GPUs
would train fewer samples per step, and its step time would not compare with the others'. Such a suggestion keeps
the scenario's samples per step as its global batch (gradient accumulation makes up the difference) and says so.

Which sizes (the same rules as the plan search, ``vramgui.core.solve.plans``): tp within a node and dividing the
query and key-value heads (Megatron-LM ``attention.py``: ``divide(num_query_groups, world_size)``); pp dividing the
layers; cp a power of two with tp·cp within a node and 2·cp dividing the sequence (validate.py); ep dividing the
routed experts (Megatron-Core ``moe_layer.py``: ``num_local_experts = num_moe_experts // ep``), within the GPUs there
are or one node, largest first: the fewest experts per GPU hold the least expert state and reduce the least expert
gradient (Mixtral 8x7B at 8,192 tokens on 8 A100s, ZeRO-2 with optimizer offload: 8.0, 6.0, 5.0 s per step at ep 2,
4, 8 in this model).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from vramgui.core.advise.ask import (
    FULL_RECOMPUTE,
    Ask,
    Changes,
    and_recompute,
    apply,
    attempt,
    cheapest_strategy,
    fewest_gpus,
    strategy_changes,
    with_gpus,
    within,
)
from vramgui.core.advise.suggestion import Suggestion
from vramgui.core.fields import registry as fields
from vramgui.core.parallel import world
from vramgui.core.parallel.layout import batch_parallel_size
from vramgui.core.scenario.choices import Recompute
from vramgui.core.scenario.specs import Scenario
from vramgui.core.scenario.strategy import Strategy
from vramgui.core.solve.fastest import frugal_strategies
from vramgui.core.solve.questions import strategies as solve_strategies
from vramgui.core.text.message import Msg

TP_SIZES = (2, 4, 8)  # tensor parallelism within a node
PP_SIZES = (2, 4, 8)
CP_SIZES = (2, 4, 8)  # context parallelism: powers of two (Megatron-LM's ring attention halves each chunk)
# a layout on more GPUs is looked for up to this many times the GPUs there are (at least this many nodes): the
# fewest-GPUs suggestion ("gpus") looks further, and each solve stays a short bisection (bench/bench_core.py)
MORE_GPUS = 8
MORE_NODES = 4


def tp(ask: Ask) -> tuple[Suggestion, ...]:
    s = ask.scenario
    arch = s.model.architecture

    def usable(t: int) -> bool:  # within a node, and the heads split evenly (Megatron's requirement)
        return t <= s.parallel.gpus_per_node and (arch is None or (arch.num_heads % t == 0 and arch.kv_heads % t == 0))
    return _layout(ask, "tp", "parallel.tp", [t for t in TP_SIZES if usable(t)])


def pp(ask: Ask) -> tuple[Suggestion, ...]:
    arch = ask.scenario.model.architecture
    return _layout(ask, "pp", "parallel.pp", [n for n in PP_SIZES if arch is None or n <= arch.num_layers])


def cp(ask: Ask) -> tuple[Suggestion, ...]:
    s = ask.scenario
    p, seq = s.parallel, s.training.seq_len
    if s.model.architecture is None:
        return ()  # activations are not estimated: splitting the sequence changes nothing here

    def usable(c: int) -> bool:
        step = 2 * c if not p.sp else max(2 * c, c * p.tp)
        return p.tp * c <= p.gpus_per_node and seq % step == 0 and (not p.sp or seq % (c * p.tp) == 0)
    return _layout(ask, "cp", "parallel.cp", [c for c in CP_SIZES if usable(c)])


def ep(ask: Ask) -> tuple[Suggestion, ...]:
    s = ask.scenario
    arch = s.model.architecture
    if arch is None or not arch.is_moe:
        return ()
    p = s.parallel
    most = max(p.num_gpus, p.gpus_per_node)  # an expert group within the GPUs there are, or within a node
    sizes = [e for e in range(arch.num_experts, 1, -1) if arch.num_experts % e == 0 and e <= most]
    return _layout(ask, "ep", "parallel.ep", sizes)


# ------------------------------------------------------------------------------------------------ the search


def _layout(ask: Ask, kind: str, path: str, sizes: Iterable[int]) -> tuple[Suggestion, ...]:
    """The least change that fits on the GPUs there are, and the first size that fits on the fewest more GPUs when
    that is faster (or nothing fits on the GPUs there are)."""
    s = ask.scenario
    now = fields.get(s, path)
    tried = [size for size in sizes if size > now]
    own = _on_own_gpus(ask, kind, path, tried)
    if own is not None and own.seconds is None:
        return (own,)  # a size on more GPUs is given beside it only when faster: without a step time, never
    for size in tried:
        more = _on_more_gpus(ask, kind, _kept_samples(ask, ((path, size),)), size)
        if more is not None:
            if own is None:
                return (more,)
            faster = more.seconds is not None and own.seconds is not None and more.seconds < own.seconds
            return (own, more) if faster else (own,)
    return () if own is None else (own,)


def _kept_samples(ask: Ask, changes: Changes) -> Changes:
    """Without a global batch, the scenario's samples per step (micro-batch × dp) as the global batch where the
    change lowers dp on the same GPUs."""
    s = ask.scenario
    if s.training.global_batch is not None:
        return changes
    dp = batch_parallel_size(s.parallel)
    if batch_parallel_size(ask.apply(s, changes).parallel) >= dp:
        return changes
    return (*changes, ("training.global_batch", s.training.micro_batch * dp))


def _frugal(ask: Ask, changes: Changes, offload: bool, level: Changes | None = None) -> bool:
    """Whether the layout's most frugal plans fit (full recompute, or ``level``): ZeRO-3 (the distributed optimizer
    under the megatron convention), or with offload ``fastest.frugal_strategies``; if not, no plan of it does."""
    s = ask.scenario
    if level is None:
        level = FULL_RECOMPUTE if s.model.architecture is not None else ()
    changed = ask.apply(s, changes)
    if offload:
        strategies: tuple[Strategy, ...] = frugal_strategies(changed)
    else:
        strategies = tuple(st for st in solve_strategies(changed) if not st.offloads)[-1:]
    return any(within(ask, (*changes, *strategy_changes(s, st), *level)) for st in strategies)


def _on_own_gpus(ask: Ask, kind: str, path: str, tried: list[int]) -> Suggestion | None:
    """The least change that fits on the GPUs there are, each step over the sizes in order: a size alone, else with
    the cheapest strategy at the scenario's recompute level, else at full recompute; without offload, then with it.
    A size whose most frugal plan does not fit (at a level) is passed over: no plan of it does."""
    s = ask.scenario
    sized = []
    for size in tried:
        changes = _kept_samples(ask, ((path, size),))
        if world.accepts(ask.apply(s, changes), s.parallel.num_gpus):
            sized.append((changes, size))  # (its words made only for a suggestion tried)
    levels: list[Changes] = [()]
    if s.model.architecture is not None and s.training.recompute != Recompute.FULL:
        levels.append(FULL_RECOMPUTE)
    for offload in (False, True):
        fitting = [(changes, size) for changes, size in sized if _frugal(ask, changes, offload)]
        for changes, size in fitting if not offload else ():
            found = attempt(ask, kind, changes, _msg(s, kind, size, changes)) if within(ask, changes) else None
            if found is not None:
                return found
        for extra in levels:
            for changes, size in fitting:
                if extra != levels[-1] and not _frugal(ask, changes, offload, extra):
                    continue  # no strategy fits at this recompute level
                strategy = cheapest_strategy(ask, (*changes, *extra), offload)
                if strategy is None:
                    continue
                found = attempt(ask, kind, (*extra, *changes, *strategy_changes(s, strategy)),
                                and_recompute(_with_strategy(_msg(s, kind, size, changes), s, strategy), extra))
                if found is not None:
                    return found
    return None


def _on_more_gpus(ask: Ask, kind: str, changes: Changes, size: int) -> Suggestion | None:
    """The fewest GPUs (whole nodes) with the size, up to ``MORE_GPUS`` times the GPUs there are and as many as keep
    the global batch; under ZeRO-2, then ZeRO-3, when the strategy does not shard enough; with full recompute when
    nothing fits without."""
    s = ask.scenario
    current = Strategy.of(s)
    # more GPUs shrink the model states only as far as the strategy shards them (DDP not at all): the strategy as it
    # is, else ZeRO-2 (its traffic is DDP's: reduce-scatter and all-gather in place of the all-reduce, Rajbhandari
    # et al. 2020 §7), else ZeRO-3 (which gathers the parameters again in every pass)
    strategies: list[Strategy | None] = [] if current.stage == 0 and not current.megatron else [None]
    if not current.megatron:
        strategies += [replace(current, stage=stage) for stage in (2, 3) if stage > current.stage]
    levels: list[Changes] = [()]
    if s.model.architecture is not None and s.training.recompute != Recompute.FULL:
        levels.append(FULL_RECOMPUTE)
    n_now = s.parallel.num_gpus
    limit = max(MORE_GPUS * n_now, MORE_NODES * s.parallel.gpus_per_node)
    changed = ask.apply(s, changes)
    t = changed.training
    if t.global_batch is not None:  # beyond dp = global batch / micro-batch the batch cannot be kept
        limit = min(limit, world.context_grid(changed.parallel) * (t.global_batch // t.micro_batch))
    if limit <= n_now:
        return None
    last = strategies[-1]
    frugal = (*levels[-1], *changes, *(strategy_changes(s, last) if last is not None else ()))
    if len(levels) * len(strategies) > 1 and fewest_gpus(ask, frugal, limit, at_least=limit) is None:
        return None  # the most frugal of them does not fit on ``limit`` GPUs: none does (``_frugal``'s rule)
    for extra in levels:
        for strategy in strategies:
            more = (*extra, *changes, *(strategy_changes(s, strategy) if strategy is not None else ()))
            least = fewest_gpus(ask, more, limit, at_least=n_now + 1)  # (fewer than now + 1 are not asked for)
            if least is None:
                continue

            def msg(n: int, strategy: Strategy | None = strategy, more: Changes = more,
                    extra: Changes = extra) -> Msg:
                m = _msg(s, kind, size, (*more, ("parallel.num_gpus", n)), n)
                return and_recompute(m if strategy is None else _with_strategy(m, s, strategy), extra)
            found = with_gpus(ask, kind, more, least, msg)
            if found is not None:
                return _unpinned(ask, found)
    return None


def _unpinned(ask: Ask, found: Suggestion) -> Suggestion:
    """The suggestion without the global batch ``_kept_samples`` pinned when its GPU count takes that many samples
    in one step anyway (no accumulation: the same run, one flag fewer)."""
    changes = dict(found.changes)
    if "training.global_batch" not in changes or found.estimate.accumulation_steps != 1:
        return found
    kept = tuple((p, v) for p, v in found.changes if p != "training.global_batch")
    n = changes["parallel.num_gpus"]
    size = changes[f"parallel.{found.kind}"]
    msg = _msg(ask.scenario, found.kind, size, kept, n)
    strategy = Strategy.of(found.scenario)
    msg = and_recompute(_with_strategy(msg, ask.scenario, strategy), FULL_RECOMPUTE
                        if "training.recompute" in changes else ())
    return attempt(ask, found.kind, kept, msg) or found


# ------------------------------------------------------------------------------------------------ the words


def _msg(s: Scenario, kind: str, size: int, changes: Changes, n: int | None = None) -> Msg:
    """"context parallel 8 instead of 1" (on the GPUs there are) or "... on 16 GPUs instead of 1 on 8", with the
    accumulation steps that keep the samples per step when the global batch is the change's."""
    was_n = s.parallel.num_gpus
    params: dict[str, str | int] = {kind: size, "was_" + kind: fields.get(s, f"parallel.{kind}")}
    if n is None or n == was_n:
        msg = Msg.of(f"advise.{kind}_same", **params)
    else:
        msg = Msg.of(f"advise.{kind}", **params, n=f"{n:,}", was=f"{was_n:,}")
    kept = dict(changes).get("training.global_batch")
    if kept is None or s.training.global_batch is not None:
        return msg
    changed = apply(s, changes)
    steps = kept // (changed.training.micro_batch * batch_parallel_size(changed.parallel))
    return Msg.of("advise.samples_kept", change=msg, steps=steps, samples=kept)


def _with_strategy(msg: Msg, s: Scenario, strategy: Strategy) -> Msg:
    current = Strategy.of(s)
    if strategy == current:
        return msg
    return Msg.of("advise.with_strategy", change=msg, strategy=strategy.msg(), was=current.msg())

