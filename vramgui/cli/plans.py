"""``vramgui solve fastest`` and ``vramgui solve cheapest``: the plan search of vramgui.core.solve.fastest as text or
JSON. Stdlib only, no Qt.

JSON: ``found``; ``plan`` (the plan's fields nested as a scenario file nests them: parallel, training, offload) with
``flags`` (what to add to an ``estimate`` command line); ``estimate`` (``estimate --json`` of the plan: ``peak`` and
``time``); ``alternatives`` (the next best, each with its plan, flags, step time, peak and cost); when nothing fits,
``reason`` (``NoPlanFits.reason``), ``why`` (the same in English words) and the estimate with the smallest peak seen;
exit 1.
"""

from __future__ import annotations

from typing import Any

from vramgui.core.advise.suggestions import flags
from vramgui.core.fields.registry import MAX_GPUS
from vramgui.core.scenario.specs import Scenario
from vramgui.core.solve.fastest import CostSearch, PlanSearch, Point, cheapest, collector_paused, fastest
from vramgui.core.solve.plans import plan_changes, plan_values
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg, render
from vramgui.core.text.units import counted, format_bytes, format_seconds

EXIT_NOTHING_FITS = 1
PLAN_QUESTIONS = {
    "fastest": "the plan with the shortest step time that fits on --gpus GPUs at the global batch: tp, sp, pp, cp, "
               "ep, ZeRO stage, offload, recompute and micro-batch searched together",
    "cheapest": "the plan with the lowest cost of the run (--train-tokens, --gpu-hour-price) over whole nodes up to "
                "--max-gpus; equal costs go to the shorter run",
}
DEFAULT_MAX_GPUS = 1024


def _point(s: Scenario, pt: Point) -> dict[str, Any]:
    return {"plan": plan_values(pt.estimate.scenario), "flags": flags(plan_changes(s, pt.estimate.scenario)),
            "step_seconds": pt.seconds, "peak": pt.peak, "cost": pt.cost, "gpus": pt.plan.gpus}


def _describe(pt: Point) -> str:
    lay, p = pt.plan.layout, pt.estimate.scenario.parallel
    parts = [f"tp {lay.tp}" + (" + SP" if lay.sp else ""), f"pp {lay.pp}" + (f" × vpp {lay.vpp}" if lay.vpp > 1
                                                                           else "")]
    if lay.cp > 1:
        parts.append(f"cp {lay.cp}")
    if lay.ep > 1:
        parts.append(f"ep {lay.ep}")
    steps = pt.estimate.accumulation_steps
    parts += [f"dp {p.num_gpus // (lay.tp * lay.cp * lay.pp)}", pt.estimate.strategy.label(),
              f"recompute {pt.plan.recompute}", f"micro-batch {lay.micro_batch} × {counted(steps, 'step')}"]
    return ", ".join(parts)


def _line(pt: Point, unit: str) -> str:
    cost = "" if pt.cost is None else f", run cost {pt.cost:,.0f}"
    return (f"{counted(pt.plan.gpus, 'GPU')}: {_describe(pt)}: step {format_seconds(pt.seconds)}, peak "
            f"{format_bytes(pt.peak, unit)}{cost}")


def _nothing(search: PlanSearch, unit: str) -> tuple[dict[str, Any], list[str]]:
    why = search.nothing
    assert why is not None
    if why.reason == "no_layout" or why.least is None:
        text = (f"Nothing fits: no layout of {counted(search.gpus, 'GPU')} takes the global batch {search.batch:,} "
                f"(dp = GPUs / (tp × cp × pp) must divide it); change --gpus or --global-batch.")
        return {"reason": why.reason, "why": text, "layouts": why.layouts}, [text]
    least = why.least
    assert least.peak is not None and least.usable is not None
    text = (f"Nothing fits on {counted(search.gpus, 'GPU')}: even the most frugal plan of each of the "
            f"{why.layouts:,} layouts (full recompute, the most sharded strategy with offload) needs "
            f"{format_bytes(least.peak.bytes, unit)} at the peak of a step, more than the usable "
            f"{format_bytes(least.usable, unit)}; try more GPUs (`vramgui solve cheapest`), a shorter sequence or "
            f"a smaller global batch.")
    return {"reason": why.reason, "why": text, "layouts": why.layouts, "least": least.to_dict()}, [text]


def fastest_output(s: Scenario, unit: str = "GB") -> tuple[dict[str, Any], str, int]:
    """(JSON data, text, exit code) of ``vramgui solve fastest``."""
    with collector_paused():
        search = fastest(s, s.parallel.num_gpus)
    head = (f"{s.model.name} on {counted(search.gpus, 'GPU')} of {s.hardware.gpu_name or 'GPU'}, global batch "
            f"{search.batch:,} of {s.training.seq_len:,} tokens: {search.layouts:,} layouts, {len(search.points):,} "
            f"plans estimated")
    data: dict[str, Any] = {"question": "fastest", "found": search.found, "gpus": search.gpus,
                            "global_batch": search.batch, "layouts": search.layouts,
                            "plans_estimated": len(search.points)}
    if search.best is None:
        extra, lines = _nothing(search, unit)
        return {**data, **extra}, "\n".join([head, *lines]), EXIT_NOTHING_FITS
    best = search.best
    lines = [head, f"Fastest plan that fits: {_line(best, unit)}",
             f"  add: {' '.join(flags(plan_changes(s, best.estimate.scenario))) or '(the scenario as given)'}"]
    if search.alternatives:
        lines.append("Next best:")
        lines += [f"  {_line(pt, unit)}" for pt in search.alternatives]
    data.update(_point(s, best), estimate=best.estimate.to_dict(),
                alternatives=[_point(s, pt) for pt in search.alternatives])
    return data, "\n".join(lines), 0


def cheapest_output(s: Scenario, max_gpus: int, unit: str = "GB") -> tuple[dict[str, Any], str, int]:
    """(JSON data, text, exit code) of ``vramgui solve cheapest``."""
    if not 1 <= max_gpus <= MAX_GPUS:
        raise InputError("--max-gpus", Msg.of("error.out_of_range", value=f"{max_gpus:,}"),
                         Msg.of("allowed.range", low="1", high=f"{MAX_GPUS:,}"))
    with collector_paused():
        found: CostSearch = cheapest(s, max_gpus)
    head = (f"{s.model.name} on up to {counted(max_gpus, 'GPU')} of {s.hardware.gpu_name or 'GPU'}: "
            f"{len(found.counts):,} GPU counts searched")
    data: dict[str, Any] = {"question": "cheapest", "found": found.found, "counts": list(found.counts)}
    if found.best is None:
        text = (f"Nothing fits with up to {counted(max_gpus, 'GPU')}, in whole nodes of "
                f"{s.parallel.gpus_per_node} or fewer: raise --max-gpus, shorten the sequence or the global batch.")
        return {**data, "reason": "memory", "why": text}, f"{head}\n{text}", EXIT_NOTHING_FITS
    best = found.best
    t = best.estimate.time
    assert t is not None and t.train_days is not None and t.gpu_hours is not None
    lines = [head, f"Cheapest plan that fits: {_line(best, unit)}",
             f"  run: {t.train_days:,.1f} days, {t.gpu_hours:,.0f} GPU-hours",
             f"  add: {' '.join(flags(plan_changes(s, best.estimate.scenario)))}"]
    if found.alternatives:
        lines.append("Next cheapest (the best of other GPU counts):")
        lines += [f"  {_line(pt, unit)}" for pt in found.alternatives]
    data.update(_point(s, best), estimate=best.estimate.to_dict(),
                alternatives=[_point(s, pt) for pt in found.alternatives])
    return data, "\n".join(lines), 0


def plan_output(question: str, s: Scenario, unit: str, max_gpus: int,
                notes: tuple[Msg, ...] = ()) -> tuple[dict[str, Any], str, int]:
    data, text, code = (fastest_output(s, unit) if question == "fastest" else cheapest_output(s, max_gpus, unit))
    texts = [render(n) for n in notes]
    if texts:
        text += "\nNotes:\n" + "\n".join(f"  - {n}" for n in texts)
    return {**data, "notes": texts}, text, code
