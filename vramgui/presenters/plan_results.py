"""The plan chart's numbers and words (``vramgui.core.solve.fastest``): every plan the search estimated as a point
(step time, step peak, whether it fits), the fastest that fits, what was searched, why nothing fits, and the edits
that apply a plan to the scenario.

Every number comes from the core's ``PlanSearch``; here it is only put in the display unit and the user's language.
A plan is said with the form's own caption words ("TP 2", "SP", "micro-batch 4"), the strategy's label and the
data-parallel size (``vramgui.core.parallel.layout.batch_parallel_size``).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from vramgui.core.fields import registry as fields
from vramgui.core.parallel.layout import batch_parallel_size
from vramgui.core.scenario.specs import Scenario
from vramgui.core.solve.fastest import PlanSearch
from vramgui.core.solve.plans import LAYOUT_PATHS, TRAINING_PATHS
from vramgui.core.text.mark import QT_TRANSLATE_NOOP
from vramgui.core.text.units import format_bytes, to_unit
from vramgui.presenters import scenario_inputs
from vramgui.presenters.plan_models import PlanAnswer, PlanChartVM, PlanPoint, PlanStatusVM
from vramgui.presenters.time_results import counted, seconds_text

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

# counted with time_results.counted, which translates in its "Results" context
STEPS = (QT_TRANSLATE_NOOP("Results", "%n accumulation step(s)", None, 1), "%n accumulation step",
         "%n accumulation steps")
CLIP_OVER = 1.3  # the y axis reaches 1.3 x the GPU's memory at most: higher peaks are drawn at its top (clipped)
SURVEY_SHARE = 250  # of 1,000: the progress bar's part for the survey of every layout (the refinement takes the rest)


def answer_of(search: PlanSearch) -> PlanAnswer:
    """The part of ``search`` the window keeps: each plan once (the search may estimate a layout's frugal plan
    twice), in the order first estimated, without its ``Estimate``."""
    seen: set[Any] = set()
    points: list[PlanPoint] = []
    best = -1
    for pt in search.points:
        if pt.plan in seen:
            continue
        seen.add(pt.plan)
        est = pt.estimate
        if search.best is not None and pt.plan == search.best.plan:
            best = len(points)
        points.append(PlanPoint(pt.plan, est.scenario, pt.seconds, pt.peak, pt.fits, est.strategy,
                                est.accumulation_steps))
    why = search.nothing
    least = None if why is None else why.least
    return PlanAnswer(search.gpus, search.batch, search.layouts, tuple(points), best,
                      "" if why is None else why.reason,
                      None if least is None or least.peak is None else least.peak.bytes,
                      None if least is None else least.usable)


def plan_words(pt: PlanPoint) -> str:
    """The plan as the form says its fields: "TP 2 · SP · PP 2 · DP 4 · ZeRO-3 · full recomputation ·
    micro-batch 1, 16 accumulation steps" (sizes of 1 left out)."""
    s = pt.scenario
    parts = []
    for path in LAYOUT_PATHS:
        value = fields.get(s, path)
        if not (value is None or (isinstance(value, bool) and not value) or (type(value) is int and value == 1)):
            said = scenario_inputs.text(path, value, s)
            if said:
                parts.append(said)
    parts.append(translate("Plans", "DP {0}").format(batch_parallel_size(s.parallel)))
    parts.append(scenario_inputs.text(scenario_inputs.STRATEGY, pt.strategy, s) or "")
    micro, recompute = (scenario_inputs.text(p, fields.get(s, p), s) for p in TRAINING_PATHS)
    parts.append(recompute or "")
    steps = pt.steps
    parts.append(translate("Plans", "{0}, {1}").format(micro, counted(STEPS, steps, f"{steps:,}")))
    return " · ".join(p for p in parts if p)


def tooltip(pt: PlanPoint, unit: str, chosen: bool) -> str:
    head = (translate("Plans", "Fastest plan that fits") if chosen else translate("Plans", "Fits") if pt.fits
            else translate("Plans", "Does not fit"))
    return "\n".join((
        f"{head}: {plan_words(pt)}",
        translate("Plans", "Step time {0} · peak {1} per GPU").format(seconds_text(pt.seconds),
                                                                       format_bytes(pt.peak, unit)),
        translate("Plans", "Click to apply this plan"),
    ))


def searched_text(search: PlanAnswer, shown: int, fitting: int) -> str:
    """ "16 GPUs, global batch 128: 594 plans searched over 318 layouts, 472 fit." """
    return translate("Plans", "{gpus} GPUs, global batch {batch}: {plans} plans searched over {layouts} layouts, "
                     "{fit} fit.").format(gpus=f"{search.gpus:,}", batch=f"{search.batch:,}", plans=f"{shown:,}",
                                          layouts=f"{search.layouts:,}", fit=f"{fitting:,}")


def nothing_text(search: PlanAnswer, unit: str) -> str:
    """Why the search has no answer (``NoPlanFits``), and what to change."""
    if search.reason != "memory" or search.least_peak is None or search.usable is None:
        return translate("Plans", "No layout of {0} GPUs takes the global batch {1} (the data-parallel size must "
                         "divide it): change the number of GPUs or the global batch.").format(
                             f"{search.gpus:,}", f"{search.batch:,}")
    return translate("Plans", "Nothing fits on {0} GPUs: even the most frugal plan (full recomputation, the most "
                     "sharded strategy with offload) needs {1} at the step's peak, more than the usable {2}. Try "
                     "more GPUs, a shorter sequence or a smaller global batch.").format(
                         f"{search.gpus:,}", format_bytes(search.least_peak, unit), format_bytes(search.usable, unit))


def _limits(s: Scenario, unit: str) -> tuple[float | None, float | None]:
    hw = s.hardware
    capacity = None if hw.gpu_memory is None else to_unit(hw.gpu_memory, unit)
    usable = None if hw.gpu_memory is None else to_unit(hw.gpu_memory * (1 - hw.reserve), unit)
    return capacity, usable


def y_label(unit: str) -> str:
    return translate("Plans", "Step peak per GPU ({0})").format(unit)


def empty_vm(scenario: Scenario, unit: str, title: str, note: str, summary: str = "") -> PlanChartVM:
    """No points: the note says why (nothing fits, nothing could be searched)."""
    capacity, usable = _limits(scenario, unit)
    return PlanChartVM((), (), (), (), (), -1, "", capacity, usable, unit, (capacity or 1.0) * 1.1, y_label(unit),
                       legend_texts(0, 0), summary, title, note)


def legend_texts(fit: int, over: int) -> tuple[str, str, str]:
    return (translate("Plans", "fits ({0})").format(f"{fit:,}"), translate("Plans", "does not fit ({0})").format(
        f"{over:,}"), translate("Plans", "fastest that fits"))


def chart_vm(search: PlanAnswer, scenario: Scenario, unit: str, title: str) -> PlanChartVM:
    """The chart of ``search`` for ``scenario``, in ``unit``."""
    capacity, usable = _limits(scenario, unit)
    points, chosen = search.points, search.best
    best = points[chosen] if chosen >= 0 else None
    peaks = [to_unit(pt.peak, unit) for pt in points]
    fits = tuple(pt.fits for pt in points)
    fitting = sum(fits)
    top = max((p for p, f in zip(peaks, fits, strict=True) if f), default=0.0)
    limit = (capacity or max(peaks, default=1.0)) * CLIP_OVER
    y_top = max(min(max(peaks, default=1.0), limit), top, capacity or 0.0) * 1.05
    summary = searched_text(search, len(points), fitting)
    label = ""
    if best is not None:
        summary += " " + translate("Plans", "Fastest that fits: {0}, {1} per step, peak {2}.").format(
            plan_words(best), seconds_text(best.seconds), format_bytes(best.peak, unit))
        label = translate("Plans", "fastest: {0}").format(seconds_text(best.seconds))
    return PlanChartVM(
        seconds=tuple(pt.seconds for pt in points), peaks=tuple(min(p, y_top) for p in peaks), fits=fits,
        clipped=tuple(p > y_top for p in peaks),
        tooltips=tuple(tooltip(pt, unit, i == chosen) for i, pt in enumerate(points)), chosen=chosen,
        chosen_label=label, capacity=capacity, usable=usable, unit=unit, y_top=y_top, y_label=y_label(unit),
        legend=legend_texts(fitting, len(points) - fitting), summary=summary, title=title,
        note="" if best is not None else nothing_text(search, unit))


def plan_edits(current: Scenario, planned: Scenario) -> tuple[tuple[str, Any], ...]:
    """(path, value) of every field ``planned`` sets differently from ``current``, in the registry's order: the plan's
    own fields and what its layout resets (the uneven pipeline stages, the expert tensor parallel size)."""
    out = []
    for f in fields.fields():
        value = fields.get(planned, f.path)
        if value != fields.get(current, f.path):
            out.append((f.path, value))
    return tuple(out)


def progress_status(gpus: int, done: int, total: int, layouts: int) -> PlanStatusVM:
    """The bar's state from the core's progress (``fastest.Progress``): the survey of all ``layouts``, then the
    refinement of the candidates (it may end early, at the bound)."""
    if total <= layouts:
        share = SURVEY_SHARE * done // max(total, 1)
        said = translate("Plans", "Searching plans on {0} GPUs: layout {1} of {2}").format(
            f"{gpus:,}", f"{done:,}", f"{total:,}")
    else:
        share = SURVEY_SHARE + (1000 - SURVEY_SHARE) * (done - layouts) // (total - layouts)
        said = translate("Plans", "Searching plans on {0} GPUs: ranking the layouts that fit, {1} of {2}").format(
            f"{gpus:,}", f"{done - layouts:,}", f"{total - layouts:,}")
    return PlanStatusVM(said, busy=True, progress=min(share, 1000), stale=True, can_search=False)
