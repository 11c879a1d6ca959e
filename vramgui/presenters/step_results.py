"""The training step's peak for the window (``vramgui.core.step.peak``): the headline texts, the step chart's stacked
bars and the rows of what is live at the peak, each with its derivation.

The fit is judged by the peak of one step, not by the per-GPU sum of the conventions; the sum stays visible as the
figure the ZeRO paper, DeepSpeed and Megatron-LM publish. Bytes come from the core; here they are only formatted,
converted to the display unit and stacked (``PEAK_KEYS`` order), so the views need no arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QCoreApplication

from vramgui.core.step import components
from vramgui.core.step.peak import PEAK_KEYS, Phase, StepPeak
from vramgui.core.terms import Derivation, render_derivation
from vramgui.core.text.message import Msg
from vramgui.core.text.units import format_bytes, to_unit
from vramgui.presenters.messages import qt_translate, text
from vramgui.presenters.view_models import BarSegment, BreakdownRow, StepChartVM

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

STEP_GAP = 0.7  # extra x distance between the first step's bars and the steady state's


def label(key: str) -> str:
    """A component's name in the user's language (the core's one table, step components included)."""
    name = components.label_of(key)
    return text(name) if name is not None else key


def phase_name(phase: Phase) -> str:
    """ "start of backward (loss gradient), steady state" """
    return translate("Results", "{phase}, {step}").format(phase=text(phase.label_msg),
                                                          step=text(Msg.of("step." + phase.step)))


def moment_text(peak: StepPeak) -> str:
    """The moment that sets the peak: "at the start of backward (loss gradient), steady state"."""
    return moment_of(peak.phase, peak.step)


def moment_of(phase: str, step: str) -> str:
    """``moment_text`` from the phase and step ids ("optimizer_step", "steady")."""
    return translate("Results", "at the {phase}, {step}").format(phase=text(Msg.of("phase." + phase)),
                                                                 step=text(Msg.of("step." + step)))


def peak_tooltip(peak: int | None, moment: str, total: int, unit: str) -> str:
    """A bar's hover line: "Step peak: 46.06 GB (at the optimizer step, steady state) — sum of components: ..."."""
    if peak is None:
        return translate("Results", "Total: {t}").format(t=format_bytes(total, unit))
    return translate("Results", "Step peak: {peak} ({moment}) — sum of components: {total}").format(
        peak=format_bytes(peak, unit), moment=moment, total=format_bytes(total, unit))


def peak_marks(peaks: Sequence[int | None], sums: Sequence[int], fits: Sequence[bool | None],
               unit: str) -> dict[str, tuple]:
    """The step peak marked on each bar of a by-strategy or comparison chart (the bar itself stacks the sum): its
    height and the label's in the unit, whether it fits (judged by the peak, ``Estimate.fits``) and the label's two
    lines ("peak 46.1", "sum 38.5")."""
    tops = [to_unit(s if p is None else max(p, s), unit) for p, s in zip(peaks, sums, strict=True)]
    return {
        "peaks": tuple(None if p is None else to_unit(p, unit) for p in peaks),
        "fits": tuple(fits),
        "peak_texts": tuple("" if p is None else translate("Results", "peak {0}").format(f"{to_unit(p, unit):,.1f}")
                            for p in peaks),
        "sum_texts": tuple(translate("Results", "sum {0}").format(f"{to_unit(s, unit):,.1f}") for s in sums),
        "label_tops": tuple(tops),
    }


def peak_texts(est: Any, unit: str) -> dict[str, object]:
    """The summary's peak fields (``SummaryVM``): the headline, the moment, the sum as the conventions' figure."""
    peak: StepPeak | None = est.peak
    total = format_bytes(est.per_gpu_total, unit)
    sum_text = translate("Results", "sum of components (the conventions' figure): {total}").format(total=total)
    sum_tip = translate(
        "Results",
        "P + G + O + A + fixed terms per GPU, as the ZeRO paper, DeepSpeed and Megatron-LM count it. No moment of a "
        "training step holds exactly this: the fit and the headroom are judged by the step's peak.")
    if peak is None:
        return {"peak_bytes": None, "peak_text": translate("Results", "{total} per GPU").format(total=total),
                "moment_text": "", "sum_text": sum_text, "sum_tip": sum_tip}
    return {"peak_bytes": peak.bytes,
            "peak_text": translate("Results", "Peak {peak} per GPU").format(peak=format_bytes(peak.bytes, unit)),
            "moment_text": moment_text(peak), "sum_text": sum_text, "sum_tip": sum_tip}


CROWDED = 8  # more bars than this (gradient accumulation): every word of an axis label on a line of its own


def _short(phase: Phase, crowded: bool) -> str:
    """The axis label: the short name, broken before a parenthesis (and, when the bars are many, at every space) so
    that neighbouring labels never meet."""
    name = text(Msg.of("phase.short." + phase.name)).replace(" (", "\n(").replace("（", "\n（")
    return name.replace(" ", "\n") if crowded else name


def step_vm(est: Any, unit: str) -> StepChartVM | None:
    peak: StepPeak | None = est.peak
    if peak is None:
        return None
    phases = peak.phases
    x: list[float] = []
    groups: list[tuple[str, float]] = []
    separators: list[float] = []
    pos, previous = 0.0, ""
    for p in phases:
        if previous and p.step != previous:
            separators.append(pos - 0.5 + STEP_GAP / 2)
            pos += STEP_GAP
        previous = p.step
        x.append(pos)
        pos += 1.0
    for step in dict.fromkeys(p.step for p in phases):
        xs = [xi for xi, p in zip(x, phases, strict=True) if p.step == step]
        groups.append((text(Msg.of("step." + step)), (xs[0] + xs[-1]) / 2))
    names = [phase_name(p) for p in phases]
    segments = []
    bottoms = [0] * len(phases)
    for key in PEAK_KEYS:
        heights = [p.get(key) for p in phases]
        if any(heights):
            name = label(key)
            segments.append(BarSegment(
                key=key, label=name,
                bottoms=tuple(to_unit(b, unit) for b in bottoms),
                heights=tuple(to_unit(h, unit) for h in heights),
                tooltips=tuple(f"{names[i]}\n{name}: {format_bytes(h, unit)} ({h:,} B)\n"
                               + translate("Results", "Total: {t}").format(t=format_bytes(phases[i].bytes, unit))
                               for i, h in enumerate(heights)),
            ))
        bottoms = [b + h for b, h in zip(bottoms, heights, strict=True)]
    at = next(i for i, p in enumerate(phases) if (p.name, p.step) == (peak.phase, peak.step))
    hw = est.scenario.hardware
    return StepChartVM(
        x=tuple(x), short_labels=tuple(_short(p, len(phases) > CROWDED) for p in phases), labels=tuple(names),
        groups=tuple(groups),
        separators=tuple(separators), segments=tuple(segments),
        totals=tuple(to_unit(p.bytes, unit) for p in phases),
        total_texts=tuple(f"{to_unit(p.bytes, unit):,.1f}" for p in phases),
        peak=at,
        peak_text=translate("Results", "peak\n{0}").format(format_bytes(peak.bytes, unit)),
        capacity=None if hw.gpu_memory is None else to_unit(hw.gpu_memory, unit),
        usable=None if est.usable is None else to_unit(est.usable, unit),
        unit=unit, span=(-0.6, x[-1] + 0.6),
    )


def _derivation(est: Any, peak: StepPeak, key: str) -> tuple[Derivation | None, int | None, str]:
    """The derivation of what ``key`` holds at its largest, those bytes, and the source."""
    term = peak.term(key)
    if term is not None:
        return term.deriv, term.bytes, term.source
    if key in components.COMPONENT_KEYS and key != "other":
        comp = est.component(key)
        return comp.deriv, comp.bytes, comp.source
    return None, None, ""


def peak_rows(est: Any, unit: str) -> tuple[BreakdownRow, ...]:
    """What is live at the peak, in stacking order, each with its derivation; the peak total last (what is not live
    at that moment in its tooltip)."""
    peak: StepPeak | None = est.peak
    if peak is None:
        return ()
    at = peak.at
    rows = []
    for key in PEAK_KEYS:
        n = at.get(key)
        if not n:
            continue
        deriv, full, source = _derivation(est, peak, key)
        if deriv is None:  # "other" in the step: the extra memory given
            formula = translate("Results", "{0}, as given (Extra memory)").format(format_bytes(n, unit))
            source = translate("Results", "explicit input")
        else:
            formula = render_derivation(deriv, unit, qt_translate)
            if full is not None and full != n:  # live in part at this moment (e.g. forward's working set)
                formula = translate("Results", "{part} live now, of {whole}").format(
                    part=format_bytes(n, unit), whole=formula)
        rows.append(BreakdownRow(key, label(key), n, format_bytes(n, unit), formula, source))
    freed = [label(k) for k in PEAK_KEYS if not at.get(k) and any(p.get(k) for p in peak.phases)]
    tip = translate("Results", "Not live at this moment: {0}").format(", ".join(freed)) if freed else ""
    rows.append(BreakdownRow("peak", translate("Results", "Peak per GPU"), peak.bytes, format_bytes(peak.bytes, unit),
                             moment_text(peak), total=True, tip=tip))
    return tuple(rows)
