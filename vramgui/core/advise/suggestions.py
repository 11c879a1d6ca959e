"""The adviser: when a scenario does not fit (or fits with little headroom), the concrete ways out.

``advise(scenario)`` answers with a few ``Suggestion``\\ s, each one change of the scenario (one or a few fields, as the
form or the command line would set them) found by the reverse solves of ``vramgui.core.solve.questions`` (fewest GPUs,
largest micro-batch and sequence, cheapest strategy), by trying the few values there are (the next recompute level,
LoRA and QLoRA) or by trying the layouts (TP, PP, CP and EP sizes: ``vramgui.core.advise.layouts``). Every suggestion
is then checked by the estimate of the changed scenario: judged by the step peak (``Estimate.fits``), it must leave
at least ``LOW_HEADROOM`` of the usable memory free, so that following it does not land in the "little headroom"
case again; when a scenario that does not fit has no such way of some kind, the one that just fits is given instead
(judged as the solvers judge: the step peak within the usable memory). The solvers are asked for the margin by
solving a copy of the scenario whose reserve also keeps that share back (the reserve changes only ``usable``, never
the peak). The user's own GPUs are looked at first: a strategy (ZeRO stage, CPU offload) that fits on them is also
sought with full recompute when none fits without, and so is each layout (through the one world-group rule of
``vramgui.core.parallel.world``); more GPUs are asked for in whole nodes once more than one node is needed. Each
suggestion carries its step time (and the run's cost when tokens and a price are given, ``Estimate.time``); they
come fastest first when the times are known, else (and after those with a time) in the order of ``KINDS``: the
least change to the run first. A suggestion that needs as many GPUs and changes as another and is no faster is left
out (``_dominates``).

The cost is bounded: each solver is a bisection of O(log n) estimates, the GPU searches stop at
``GPU_SEARCH`` GPUs, and no kind is tried more than ``MAX_TRIES`` times (bench/bench_core.py times it). One advice
estimates each scenario once (``vramgui.core.advise.estimates``: the finders and the two asks share it, and a copy
that differs only in the reserve or the compute peak is refitted, not estimated again).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

from vramgui.core.advise import layouts
from vramgui.core.advise.ask import (
    FULL_RECOMPUTE,
    GPU_SEARCH,
    LOW_HEADROOM,
    MAX_TRIES,
    Ask,
    Changes,
    and_recompute,
    attempt,
    divisors,
    first,
    strategy_changes,
    strict,
    target,
    with_gpus,
)
from vramgui.core.advise.estimates import Estimates
from vramgui.core.advise.layouts import CP_SIZES, PP_SIZES, TP_SIZES
from vramgui.core.advise.suggestion import KIND_ORDER, order
from vramgui.core.advise.suggestion import Suggestion as Suggestion
from vramgui.core.advise.suggestion import flags as flags
from vramgui.core.estimate import Estimate
from vramgui.core.scenario.choices import FinetuneMethod, Loss, Recompute
from vramgui.core.scenario.specs import RECOMPUTE, Scenario
from vramgui.core.scenario.strategy import Strategy
from vramgui.core.solve import questions as solve
from vramgui.core.solve.fastest import frugal_strategies
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg

__all__ = ["CP_SIZES", "GPU_SEARCH", "KINDS", "LOW_HEADROOM", "MAX_TRIES", "PP_SIZES", "TP_SIZES", "Suggestion",
           "advise", "flags", "heading", "needs_advice"]
SEQ_STEP = 64  # a suggested sequence length is rounded down to a multiple of this
MIN_SEQ = 128  # ... and not suggested below this
# in the order they are listed: the least change to the run first (recompute costs compute, not the result;
# a smaller micro-batch keeps the global batch through accumulation; ... fine-tuning changes what is trained)
KINDS = KIND_ORDER


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
    estimates = Estimates()  # the two asks share one memory of this advice's estimates
    base = estimates.of(scenario)
    if not needs_advice(base):
        return ()
    s = base.scenario
    assert base.usable is not None  # needs_advice: the fit is judged
    asks = [Ask(s, strict(s), target(s), base, estimates)]
    if not base.fits:  # a way that just fits is still a way out
        asks.append(asks[0].just_fits())
    out: list[Suggestion] = []
    for finder in _FINDERS:  # the strategy finder answers "strategy" or "offload", whichever is the cheapest
        for ask in asks:
            try:
                found = finder(ask)
            except InputError:  # a solver refused this scenario (e.g. no architecture): nothing of this kind
                found = None
            ways = () if found is None else (found,) if isinstance(found, Suggestion) else found
            for way in ways:
                if not any(_no_gain(done, way) for done in out):
                    out.append(way)
            if ways:
                break
    return tuple(sorted((x for x in out if not any(_dominates(y, x) for y in out)), key=order))


def _no_gain(done: Suggestion, found: Suggestion) -> bool:
    """``found`` makes every change ``done`` makes and more, and its step is no shorter (or not timed)."""
    if not set(done.changes) <= set(found.changes):
        return False
    return done.seconds is None or found.seconds is None or found.seconds >= done.seconds


SAME_RESULT_EXCEPT = ("seq_len", "finetune")  # kinds that change what is trained: weighed by no step time


def _dominates(y: Suggestion, x: Suggestion) -> bool:
    """``y`` needs no more GPUs, no more changes and no longer a step than ``x``, and is better in one of them (or
    equal and listed first): then ``x`` only adds to the list (Mixtral 8x7B on 8 A100s: tensor, pipeline and context
    parallelism on 16 GPUs with ZeRO-3 are each slower than expert parallelism on 16 with ZeRO-3)."""
    if x is y or y.seconds is None or x.seconds is None or {x.kind, y.kind} & set(SAME_RESULT_EXCEPT):
        return False
    mine = (y.scenario.parallel.num_gpus, len(y.changes), y.seconds)
    theirs = (x.scenario.parallel.num_gpus, len(x.changes), x.seconds)
    if any(a > b for a, b in zip(mine, theirs, strict=True)):
        return False
    return mine != theirs or KINDS.index(y.kind) < KINDS.index(x.kind)


# ------------------------------------------------------------------------------------------------ the finders


def _recompute(ask: Ask) -> Suggestion | None:
    s = ask.scenario
    if s.model.architecture is None:
        return None  # activations are not estimated: recompute changes nothing here
    later = RECOMPUTE[RECOMPUTE.index(s.training.recompute) + 1:]
    return first(ask, "recompute", [((("training.recompute", level),), Msg.of("advise.recompute_" + level))
                                    for level in later])


def _loss(ask: Ask) -> Suggestion | None:
    s = ask.scenario
    if s.model.architecture is None or s.training.loss == Loss.CHUNKED:
        return None
    return attempt(ask, "loss", (("training.loss", "chunked"),), Msg.of("advise.loss_chunked"))


def _micro_batch(ask: Ask) -> Suggestion | None:
    t = ask.scenario.training
    if ask.scenario.model.architecture is None or t.micro_batch <= 1:
        return None
    found = _smaller_micro_batch(ask, ())
    if found is None and t.recompute != Recompute.FULL:  # activations dominate: the same with full recompute
        found = _smaller_micro_batch(ask, FULL_RECOMPUTE)
    return found


def _smaller_micro_batch(ask: Ask, extra: Changes) -> Suggestion | None:
    t = ask.scenario.training
    best = min(solve.max_micro_batch(ask.apply(ask.strict, extra), ask.estimate), t.micro_batch - 1)
    if best < 1:
        return None
    if t.global_batch is None:
        return attempt(ask, "micro_batch", (*extra, ("training.micro_batch", best)),
                       and_recompute(Msg.of("advise.micro_batch", n=best, was=t.micro_batch), extra))
    per_rank = t.global_batch // ask.base.data_parallel  # the solver drops the global batch; keep it
    sizes = [b for b in reversed(divisors(per_rank)) if b <= best]
    return first(ask, "micro_batch", [((*extra, ("training.micro_batch", b)), and_recompute(Msg.of(
        "advise.micro_batch_accum", n=b, was=t.micro_batch, steps=per_rank // b), extra)) for b in sizes])


def _seq_len(ask: Ask) -> Suggestion | None:
    t = ask.scenario.training
    if ask.scenario.model.architecture is None:
        return None
    found = _shorter_sequence(ask, ())
    if found is None and t.recompute != Recompute.FULL:
        found = _shorter_sequence(ask, FULL_RECOMPUTE)
    return found


def _shorter_sequence(ask: Ask, extra: Changes) -> Suggestion | None:
    t = ask.scenario.training
    longest = min(solve.max_seq_len(ask.apply(ask.strict, extra), ask.estimate), t.seq_len - 1)
    step = math.lcm(SEQ_STEP, solve.seq_len_step(ask.scenario.parallel))  # a length the scenario accepts (SP, CP)
    tries = []
    for length in (longest, longest * 3 // 4, longest // 2):  # shorter ones in case accumulation adds to the peak
        n = length // step * step
        if n >= MIN_SEQ:
            msg = Msg.of("advise.seq_len", n=f"{n:,}", was=f"{t.seq_len:,}")
            tries.append(((*extra, ("training.seq_len", n)), and_recompute(msg, extra)))
    return first(ask, "seq_len", tries)


def _strategy(ask: Ask) -> Suggestion | None:
    """The lowest stage (then offload) that fits on the GPUs there are; when none does as the run recomputes, the
    same with full recompute (activations no strategy shards: Mixtral 8x7B at 8,192 tokens on 8 A100s)."""
    found = _strategy_with(ask, ())
    s = ask.scenario
    if found is not None or s.model.architecture is None or s.training.recompute == Recompute.FULL:
        return found
    assert ask.base.usable is not None  # needs_advice: the fit is judged
    if not ask.base.fits and ask.target < ask.base.usable and _strategy_with(ask.just_fits(), ()) is not None:
        return None  # the strategy alone just fits: the next ask gives it, the least change
    return _strategy_with(ask, FULL_RECOMPUTE)


def _strategy_with(ask: Ask, extra: Changes) -> Suggestion | None:
    base = ask.apply(ask.strict, extra)
    if not any(_fits(ask, st.apply(base)) for st in frugal_strategies(base)):
        return None  # the most frugal strategies do not fit: none does (layouts._frugal's rule; 1-2 estimates, not 7)
    found = solve.cheapest_strategy(base, ask.estimate)
    if found is None:
        return None
    strategy = found[0]
    current = Strategy.of(ask.scenario)
    msg = and_recompute(Msg.of("advise.strategy", strategy=strategy.msg(), was=current.msg()), extra)
    return attempt(ask, "offload" if strategy.offloads else "strategy",
                   (*extra, *strategy_changes(ask.scenario, strategy)), msg)


def _fits(ask: Ask, s: Scenario) -> bool:
    try:
        return bool(ask.estimate(s).fits)
    except InputError:
        return False


def _gpus(ask: Ask) -> Suggestion | None:
    """The fewest GPUs that fit (under ZeRO-3 when the strategy shards too little); with full recompute when that
    needs at most half as many GPUs (activations, which more GPUs do not shard, dominate)."""
    plain = _more_gpus(ask, ())
    s = ask.scenario
    if s.model.architecture is None or s.training.recompute == Recompute.FULL:
        return plain
    full = FULL_RECOMPUTE
    if attempt(ask, "recompute", full, Msg.of("advise.recompute_full")) is not None:
        return plain  # full recompute alone is the way out: the recompute suggestion
    recomputed = _more_gpus(ask, full)
    if recomputed is not None and (plain is None or 2 * recomputed.scenario.parallel.num_gpus
                                   <= plain.scenario.parallel.num_gpus):
        return recomputed
    return plain


def _more_gpus(ask: Ask, extra: Changes) -> Suggestion | None:
    s = ask.scenario
    n_now = s.parallel.num_gpus
    least = solve.min_gpus(ask.apply(ask.strict, extra), ask.gpu_limit(), ask.estimate, at_least=n_now + 1)
    if least is not None:  # at or below the count there is only when accumulation adds to the peak
        return with_gpus(ask, "gpus", extra, least, lambda n: and_recompute(
            Msg.of("advise.gpus", n=f"{n:,}", was=f"{n_now:,}"), extra))
    current = Strategy.of(s)
    if current.megatron or current.stage == 3:
        return None
    # more GPUs do not help a strategy that does not shard (DDP) or not enough: the same under ZeRO-3
    zero3 = replace(current, stage=3)
    changes = (*extra, *strategy_changes(s, zero3))
    least = solve.min_gpus(ask.apply(ask.strict, changes), ask.gpu_limit(), ask.estimate, at_least=n_now)
    if least is None or least <= n_now:  # ZeRO-3 on the GPUs there are: the strategy suggestion says so
        return None
    return with_gpus(ask, "gpus", changes, least, lambda n: and_recompute(Msg.of(
        "advise.gpus_strategy", strategy=zero3.msg(), n=f"{n:,}", was=f"{n_now:,}"), extra))


def _finetune(ask: Ask) -> Suggestion | None:
    s = ask.scenario
    if s.finetune.method != FinetuneMethod.FULL or s.model.architecture is None:
        return None  # LoRA needs the architecture's Linear layers
    rank = s.finetune.lora_rank
    return first(ask, "finetune", [((("finetune.method", m),), Msg.of("advise." + m, rank=rank))
                                   for m in ("lora", "qlora")])


_FINDERS: tuple[Callable[[Ask], Suggestion | tuple[Suggestion, ...] | None], ...] = (
    _recompute, _loss, _micro_batch, _strategy, _gpus, layouts.tp, layouts.pp, layouts.cp, layouts.ep, _seq_len,
    _finetune)
