"""The adviser: when a scenario does not fit (or fits with little headroom), the concrete ways out.

``advise(scenario)`` answers with a few ``Suggestion``\\ s, each one change of the scenario (one or a few fields, as the
form or the command line would set them) found by the reverse solves of ``vramgui.core.solve.questions`` (fewest GPUs,
largest micro-batch and sequence, cheapest strategy) or, where no solver exists, by trying the few values there are (the
next recompute level, TP and PP of 2, 4, 8, LoRA and QLoRA). Every suggestion is then checked by the estimate of the
changed scenario: judged by the step peak (``Estimate.fits``), it must leave at least ``LOW_HEADROOM`` of the usable
memory free, so that following it does not land in the "little headroom" case again; when a scenario that does not fit
has no such way of some kind, the one that just fits is given instead (judged as the solvers judge: the step peak within
the usable memory). The solvers are asked for the margin by solving a copy of the scenario whose reserve also keeps that
share back (the reserve changes only ``usable``, never the peak). The user's own GPUs are looked at first: a strategy
(ZeRO stage, CPU offload) that fits on them is also sought with full recompute when none fits without; more GPUs are
asked for in whole nodes once more than one node is needed. Each suggestion carries its step time (and the run's
cost when tokens and a price are given, ``Estimate.time``); they come fastest first when the times are known, else
(and after those with a time) in the order of ``KINDS``: the least change to the run first.

The cost is bounded: each solver is a bisection of O(log n) estimates, the GPU searches stop at
``GPU_SEARCH`` GPUs, and no kind is tried more than ``MAX_TRIES`` times (bench/bench_core.py times it).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from vramgui.core.advise.suggestion import KIND_ORDER, order
from vramgui.core.advise.suggestion import Suggestion as Suggestion
from vramgui.core.advise.suggestion import flags as flags
from vramgui.core.estimate import Estimate, estimate
from vramgui.core.fields import registry as fields
from vramgui.core.fields.registry import MAX_GPUS
from vramgui.core.parallel import world
from vramgui.core.scenario.choices import FinetuneMethod, Loss, Recompute
from vramgui.core.scenario.specs import RECOMPUTE, Scenario
from vramgui.core.scenario.strategy import FIELDS as STRATEGY_PATHS
from vramgui.core.scenario.strategy import Strategy
from vramgui.core.solve import questions as solve
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg

LOW_HEADROOM = 0.05  # advise below 5 % of usable memory free; a suggestion leaves that free where it can
GPU_SEARCH = 4096  # the most GPUs a suggestion asks for (or 4 x the scenario's own count, if that is more)
TP_SIZES = (2, 4, 8)  # tensor parallelism within a node
PP_SIZES = (2, 4, 8)
SEQ_STEP = 64  # a suggested sequence length is rounded down to a multiple of this
MIN_SEQ = 128  # ... and not suggested below this
MAX_TRIES = 4  # values tried per kind when the solver's answer does not hold with the scenario's global batch
# in the order they are listed: the least change to the run first (recompute costs compute, not the result;
# a smaller micro-batch keeps the global batch through accumulation; ... fine-tuning changes what is trained)
KINDS = KIND_ORDER

Changes = tuple[tuple[str, Any], ...]


def needs_advice(est: Estimate) -> bool:
    """Does not fit, or fits with less than ``LOW_HEADROOM`` of the usable memory free (unknown memory: no)."""
    if est.fits is None or est.usable is None or est.headroom is None:
        return False
    return not est.fits or est.headroom < LOW_HEADROOM * est.usable


def heading(est: Estimate) -> Msg:
    """"Ways to make it fit:" (or, when it fits with little headroom, the margin the suggestions keep)."""
    if est.fits:
        return Msg.of("advise.heading_headroom", share=f"{LOW_HEADROOM * 100:g}")
    return Msg.of("advise.heading_fit")


def advise(scenario: Scenario) -> tuple[Suggestion, ...]:
    """The ways to make ``scenario`` fit with room to spare, least change first; () when it fits comfortably or the
    GPU memory is not given. Raises ``InputError`` for an invalid scenario (as ``estimate`` does)."""
    base = estimate(scenario)
    if not needs_advice(base):
        return ()
    s = base.scenario
    assert base.usable is not None  # needs_advice: the fit is judged
    asks = [_Ask(s, _strict(s), _target(s), base)]
    if not base.fits:  # a way that just fits is still a way out
        asks.append(_Ask(s, s, base.usable, base))
    out: list[Suggestion] = []
    for finder in _FINDERS:  # the strategy finder answers "strategy" or "offload", whichever is the cheapest
        for ask in asks:
            try:
                found = finder(ask)
            except InputError:  # a solver refused this scenario (e.g. no architecture): nothing of this kind
                found = None
            if found is not None:
                if not any(set(done.changes) <= set(found.changes) for done in out):  # else more change, no gain
                    out.append(found)
                break
    return tuple(sorted(out, key=order))


# ------------------------------------------------------------------------------------------------ the finders


@dataclass(frozen=True)
class _Ask:
    scenario: Scenario  # as given (validated)
    strict: Scenario  # what the solvers solve: the scenario, its reserve raised by the margin (or not: just fits)
    target: int  # the highest peak a suggestion may have
    base: Estimate

    def gpu_limit(self) -> int:
        return min(MAX_GPUS, max(GPU_SEARCH, 4 * self.scenario.parallel.num_gpus))


def _strict(s: Scenario) -> Scenario:
    reserve = 1 - (1 - LOW_HEADROOM) * (1 - s.hardware.reserve)
    return replace(s, hardware=replace(s.hardware, reserve=reserve))


def _target(s: Scenario) -> int:
    memory = s.hardware.gpu_memory
    assert memory is not None  # needs_advice: the fit is judged
    return int(memory * (1 - s.hardware.reserve) * (1 - LOW_HEADROOM))


def _apply(s: Scenario, changes: Changes) -> Scenario:
    for path, value in changes:
        s = fields.with_value(s, path, value)
    return s


def _try(ask: _Ask, kind: str, changes: Changes, msg: Msg) -> Suggestion | None:
    """The suggestion, if the changed scenario is valid and its step peak leaves the margin free."""
    changes = tuple((p, v) for p, v in changes if fields.get(ask.scenario, p) != v)
    if not changes:
        return None
    try:
        est = estimate(_apply(ask.scenario, changes))
    except InputError:
        return None
    if est.peak is None or est.peak.bytes > ask.target or not est.fits:
        return None
    return Suggestion(kind, changes, msg, est)


def _first(ask: _Ask, kind: str, tries: list[tuple[Changes, Msg]]) -> Suggestion | None:
    for changes, msg in tries[:MAX_TRIES]:
        found = _try(ask, kind, changes, msg)
        if found is not None:
            return found
    return None


def _divisors(n: int) -> list[int]:
    small = [d for d in range(1, int(n**0.5) + 1) if n % d == 0]
    return sorted({*small, *(n // d for d in small)})


def _gpu_counts(ask: _Ask, changes: Changes, least: int) -> list[int]:
    """GPU counts from ``least`` up that the changed scenario accepts (``world.accepts``) and, with a global batch,
    whose data-parallel size dp = GPUs / (tp·cp·pp) divides global batch / micro-batch (the batch is kept)."""
    s = _apply(ask.scenario, changes)
    t = s.training
    if t.global_batch is None:
        counts = [_whole_nodes(s, least)]
    else:
        sizes = (dp * world.context_grid(s.parallel) for dp in _divisors(t.global_batch // t.micro_batch))
        counts = sorted({_whole_nodes(s, n) for n in sizes if n >= least})
        counts = [n for n in counts if world.accepts(s, n) and _batch_divides(s, n)]
    return [n for n in counts if n <= ask.gpu_limit()][:MAX_TRIES]


def _whole_nodes(s: Scenario, n: int) -> int:
    """More than one node's GPUs are asked for as whole nodes (a cluster is rented and scheduled by the node); the
    world group is kept (the lcm of the two)."""
    node = s.parallel.gpus_per_node
    if n <= node:
        return world.at_or_above(s, n)
    step = math.lcm(node, world.group_size(s))
    return -(-n // step) * step


def _batch_divides(s: Scenario, n: int) -> bool:
    t = s.training
    return t.global_batch is None or t.global_batch % (t.micro_batch * (n // world.context_grid(s.parallel))) == 0


def _recompute(ask: _Ask) -> Suggestion | None:
    s = ask.scenario
    if s.model.architecture is None:
        return None  # activations are not estimated: recompute changes nothing here
    later = RECOMPUTE[RECOMPUTE.index(s.training.recompute) + 1:]
    return _first(ask, "recompute", [((("training.recompute", level),), Msg.of("advise.recompute_" + level))
                                     for level in later])


def _loss(ask: _Ask) -> Suggestion | None:
    s = ask.scenario
    if s.model.architecture is None or s.training.loss == Loss.CHUNKED:
        return None
    return _try(ask, "loss", (("training.loss", "chunked"),), Msg.of("advise.loss_chunked"))


def _micro_batch(ask: _Ask) -> Suggestion | None:
    t = ask.scenario.training
    if ask.scenario.model.architecture is None or t.micro_batch <= 1:
        return None
    found = _smaller_micro_batch(ask, ())
    if found is None and t.recompute != Recompute.FULL:  # activations dominate: the same with full recompute
        found = _smaller_micro_batch(ask, (("training.recompute", "full"),))
    return found


def _and_recompute(msg: Msg, extra: Changes) -> Msg:
    return Msg.of("advise.and_recompute", change=msg) if extra else msg


def _smaller_micro_batch(ask: _Ask, extra: Changes) -> Suggestion | None:
    t = ask.scenario.training
    best = min(solve.max_micro_batch(_apply(ask.strict, extra)), t.micro_batch - 1)
    if best < 1:
        return None
    if t.global_batch is None:
        return _try(ask, "micro_batch", (*extra, ("training.micro_batch", best)),
                    _and_recompute(Msg.of("advise.micro_batch", n=best, was=t.micro_batch), extra))
    per_rank = t.global_batch // ask.base.data_parallel  # the solver drops the global batch; keep it
    sizes = [b for b in reversed(_divisors(per_rank)) if b <= best]
    return _first(ask, "micro_batch", [((*extra, ("training.micro_batch", b)), _and_recompute(Msg.of(
        "advise.micro_batch_accum", n=b, was=t.micro_batch, steps=per_rank // b), extra)) for b in sizes])


def _seq_len(ask: _Ask) -> Suggestion | None:
    t = ask.scenario.training
    if ask.scenario.model.architecture is None:
        return None
    found = _shorter_sequence(ask, ())
    if found is None and t.recompute != Recompute.FULL:
        found = _shorter_sequence(ask, (("training.recompute", "full"),))
    return found


def _shorter_sequence(ask: _Ask, extra: Changes) -> Suggestion | None:
    t = ask.scenario.training
    longest = min(solve.max_seq_len(_apply(ask.strict, extra)), t.seq_len - 1)
    step = math.lcm(SEQ_STEP, solve.seq_len_step(ask.scenario.parallel))  # a length the scenario accepts (SP, CP)
    tries = []
    for length in (longest, longest * 3 // 4, longest // 2):  # shorter ones in case accumulation adds to the peak
        n = length // step * step
        if n >= MIN_SEQ:
            msg = Msg.of("advise.seq_len", n=f"{n:,}", was=f"{t.seq_len:,}")
            tries.append(((*extra, ("training.seq_len", n)), _and_recompute(msg, extra)))
    return _first(ask, "seq_len", tries)


def _strategy_changes(s: Scenario, strategy: Strategy) -> Changes:
    applied = strategy.apply(s)
    return tuple((p, fields.get(applied, p)) for p in STRATEGY_PATHS)


def _strategy(ask: _Ask) -> Suggestion | None:
    """The lowest stage (then offload) that fits on the GPUs there are; when none does as the run recomputes, the
    same with full recompute (activations no strategy shards: Mixtral 8x7B at 8,192 tokens on 8 A100s)."""
    found = _strategy_with(ask, ())
    s = ask.scenario
    if found is not None or s.model.architecture is None or s.training.recompute == Recompute.FULL:
        return found
    assert ask.base.usable is not None  # needs_advice: the fit is judged
    if not ask.base.fits and ask.target < ask.base.usable and _strategy_with(
            _Ask(s, s, ask.base.usable, ask.base), ()) is not None:
        return None  # the strategy alone just fits: the next ask gives it, the least change
    return _strategy_with(ask, (("training.recompute", "full"),))


def _strategy_with(ask: _Ask, extra: Changes) -> Suggestion | None:
    found = solve.cheapest_strategy(_apply(ask.strict, extra))
    if found is None:
        return None
    strategy = found[0]
    current = Strategy.of(ask.scenario)
    msg = _and_recompute(Msg.of("advise.strategy", strategy=strategy.msg(), was=current.msg()), extra)
    return _try(ask, "offload" if strategy.offloads else "strategy",
                (*extra, *_strategy_changes(ask.scenario, strategy)), msg)


def _with_gpus(ask: _Ask, kind: str, changes: Changes, least: int,
               msg: Callable[[int], Msg]) -> Suggestion | None:
    tries = [((*changes, ("parallel.num_gpus", n)), msg(n)) for n in _gpu_counts(ask, changes, least)]
    return _first(ask, kind, tries)


def _gpus(ask: _Ask) -> Suggestion | None:
    """The fewest GPUs that fit (under ZeRO-3 when the strategy shards too little); with full recompute when that
    needs at most half as many GPUs (activations, which more GPUs do not shard, dominate)."""
    plain = _more_gpus(ask, ())
    s = ask.scenario
    if s.model.architecture is None or s.training.recompute == Recompute.FULL:
        return plain
    full = (("training.recompute", "full"),)
    if _try(ask, "recompute", full, Msg.of("advise.recompute_full")) is not None:
        return plain  # full recompute alone is the way out: the recompute suggestion
    recomputed = _more_gpus(ask, full)
    if recomputed is not None and (plain is None or 2 * recomputed.scenario.parallel.num_gpus
                                   <= plain.scenario.parallel.num_gpus):
        return recomputed
    return plain


def _more_gpus(ask: _Ask, extra: Changes) -> Suggestion | None:
    s = ask.scenario
    n_now = s.parallel.num_gpus
    least = solve.min_gpus(_apply(ask.strict, extra), ask.gpu_limit())
    if least is not None:  # at or below the count there is only when accumulation adds to the peak
        return _with_gpus(ask, "gpus", extra, max(least, n_now + 1), lambda n: _and_recompute(
            Msg.of("advise.gpus", n=f"{n:,}", was=f"{n_now:,}"), extra))
    current = Strategy.of(s)
    if current.megatron or current.stage == 3:
        return None
    # more GPUs do not help a strategy that does not shard (DDP) or not enough: the same under ZeRO-3
    zero3 = replace(current, stage=3)
    changes = (*extra, *_strategy_changes(s, zero3))
    least = solve.min_gpus(_apply(ask.strict, changes), ask.gpu_limit())
    if least is None or least <= n_now:  # ZeRO-3 on the GPUs there are: the strategy suggestion says so
        return None
    return _with_gpus(ask, "gpus", changes, least, lambda n: _and_recompute(Msg.of(
        "advise.gpus_strategy", strategy=zero3.msg(), n=f"{n:,}", was=f"{n_now:,}"), extra))


def _model_parallel(ask: _Ask, kind: str, path: str, sizes: tuple[int, ...],
                    usable: Callable[[int], bool]) -> Suggestion | None:
    """The smallest TP (or PP) size above the scenario's that fits: on the scenario's own GPUs when they divide
    into the new group, else on the fewest GPUs that fit (``solve.min_gpus``)."""
    s = ask.scenario
    p = s.parallel
    now = fields.get(s, path)
    for size in sizes:
        if size <= now or not usable(size):
            continue
        changes: Changes = ((path, size),)
        same = world.at_or_above(_apply(s, changes), p.num_gpus)  # the GPUs there are, rounded up to an accepted count
        found = _try(ask, kind, (*changes, ("parallel.num_gpus", same)), _parallel_msg(kind, size, now, same,
                                                                                       p.num_gpus))
        if found is not None:
            return found
        least = solve.min_gpus(_apply(ask.strict, changes), ask.gpu_limit())
        if least is None:
            continue
        found = _with_gpus(ask, kind, changes, max(least, same), partial(_parallel_msg, kind, size, now,
                                                                         was_n=p.num_gpus))
        if found is not None:
            return found
    return None


def _parallel_msg(kind: str, size: int, was: int, n: int, was_n: int) -> Msg:
    params: dict[str, str | int] = {kind: size, "was_" + kind: was}  # kind: "tp" or "pp"
    if n == was_n:
        return Msg.of(f"advise.{kind}_same", **params)
    return Msg.of(f"advise.{kind}", **params, n=f"{n:,}", was=f"{was_n:,}")


def _tp(ask: _Ask) -> Suggestion | None:
    s = ask.scenario
    arch = s.model.architecture

    def usable(t: int) -> bool:  # within a node, and the heads split evenly (Megatron's requirement)
        return t <= s.parallel.gpus_per_node and (arch is None or (arch.num_heads % t == 0 and arch.kv_heads % t == 0))
    return _model_parallel(ask, "tp", "parallel.tp", TP_SIZES, usable)


def _pp(ask: _Ask) -> Suggestion | None:
    arch = ask.scenario.model.architecture
    return _model_parallel(ask, "pp", "parallel.pp", PP_SIZES, lambda n: arch is None or n <= arch.num_layers)


def _finetune(ask: _Ask) -> Suggestion | None:
    s = ask.scenario
    if s.finetune.method != FinetuneMethod.FULL or s.model.architecture is None:
        return None  # LoRA needs the architecture's Linear layers
    rank = s.finetune.lora_rank
    return _first(ask, "finetune", [((("finetune.method", m),), Msg.of("advise." + m, rank=rank))
                                    for m in ("lora", "qlora")])


_FINDERS: tuple[Callable[[_Ask], Suggestion | None], ...] = (
    _recompute, _loss, _micro_batch, _strategy, _gpus, _tp, _pp, _seq_len, _finetune)
