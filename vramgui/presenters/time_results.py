"""The step time for the window (``vramgui.core.time``): the summary's time texts, the "Time and cost" chart's bars
per strategy beside each bar's step peak, the rows of the step's time with their derivations, and the texts the
comparison shows.

Every second, FLOP and cost comes from the core's ``StepTime`` (``Estimate.time``; None where the GPU has no compute
figures); here they are only formatted in the user's language and stacked in the core's order, so the views need no
arithmetic. Durations and counts are written with their plural forms (Qt's numerus messages, English's rule where
the language has no catalogue).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QCoreApplication

from vramgui.core.fields import paths
from vramgui.core.terms import render_derivation
from vramgui.core.text.mark import QT_TRANSLATE_NOOP
from vramgui.core.text.units import format_bytes
from vramgui.core.time import components as time_components
from vramgui.presenters.messages import field_label, qt_translate, text
from vramgui.presenters.step_results import moment_text, peak_tooltip
from vramgui.presenters.view_models import BarSegment, BreakdownRow, TimeBarsVM

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

# the inputs whose labels the hints name
TRAIN_TOKENS, PEAK, BANDWIDTH = paths.TRAIN_TOKENS, paths.PEAK_TFLOPS, paths.MEMORY_BANDWIDTH
# counted words: Qt's numerus source (the literal 1 marks it numerus for lupdate), then English's singular and
# plural ("%n" is the number as written)
MINUTES = (QT_TRANSLATE_NOOP("Results", "%n minute(s)", None, 1), "%n minute", "%n minutes")
HOURS = (QT_TRANSLATE_NOOP("Results", "%n hour(s)", None, 1), "%n hour", "%n hours")
DAYS = (QT_TRANSLATE_NOOP("Results", "%n day(s)", None, 1), "%n day", "%n days")
GPU_HOURS = (QT_TRANSLATE_NOOP("Results", "%n GPU-hour(s)", None, 1), "%n GPU-hour", "%n GPU-hours")


def counted(words: tuple[str, str, str], value: float, shown: str) -> str:
    """``value`` with its noun in the user's language, the number written as ``shown`` ("1,234"): the plural form
    for a whole ``value`` from Qt's catalogue (a fraction takes the "other" form), English's rule where the
    language has none."""
    source, one, other = words
    whole = float(value).is_integer()
    count = int(value) if whole else -1
    said = qt_translate("Results", source, count)
    if said in (source, source.replace("%n", str(count))):  # no translation (English): the core's rule
        return (one if count == 1 else other).replace("%n", shown)
    return said.replace(str(count), shown, 1) if whole and "%n" not in said else said.replace("%n", shown)


def _rounded(value: float) -> tuple[float, str]:
    """A measure as shown and the number it shows: one decimal below 10, whole numbers from there."""
    if value < 10:
        shown = round(value, 1)
        return (float(int(shown)) if shown.is_integer() else shown), f"{shown:,.1f}".rstrip("0").rstrip(".")
    return float(round(value)), f"{round(value):,}"


def seconds_text(s: float) -> str:
    """A step's time: "842 ms", "1.23 s", "12.3 s", "1,234 s"."""
    if s < 1:
        return translate("Results", "{0} ms").format(f"{s * 1e3:,.3g}")
    return translate("Results", "{0} s").format(f"{s:,.3g}" if s < 1000 else f"{s:,.0f}")


def duration_text(s: float) -> str:
    """A run's length: "42 minutes", "5.2 hours", "8.7 days", "340 days"."""
    if s < 3600:
        return counted(MINUTES, *_rounded(s / 60))
    if s < 2 * 86400:
        return counted(HOURS, *_rounded(s / 3600))
    return counted(DAYS, *_rounded(s / 86400))


def compact(n: float) -> str:
    """A large number in three figures: "1.33M", "20.8k", "950"."""
    for suffix, factor in (("T", 1e12), ("B", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(n) >= factor:
            return f"{n / factor:,.3g}{suffix}"
    return f"{n:,.3g}"


def rate_text(tokens_per_second: float) -> str:
    return translate("Results", "{0} tokens/s").format(compact(tokens_per_second))


def percent(x: float) -> str:
    return f"{100 * x:.1f}"


def gpu_hours_text(h: float) -> str:
    return counted(GPU_HOURS, *_rounded(h))


def cost_text(cost: float) -> str:
    """A cost in the price's own currency (the input names none): "33,500", "12.50"."""
    return f"{cost:,.0f}" if cost >= 100 else f"{cost:,.2f}"


def label(key: str) -> str:
    """A part of the step's time in the user's language (the core's one table, ``vramgui.core.time.components``)."""
    try:
        return text(time_components.label(key))
    except KeyError:  # not a part the core names: shown as it is
        return key


def parts(time: Any) -> list[tuple[str, float, Any]]:
    """(key, seconds, Part) of each part of a step's time, in the core's order."""
    return [(c.key, c.seconds, c.part) for c in time.components]


def unknown_text() -> str:
    """Why there is no time, and what gives one (the form's own words, not the CLI's flags)."""
    return translate("Results", "unknown: the GPU has no compute figures (choose a GPU preset, or enter {peak} and "
                     "{bandwidth})").format(peak=field_label(PEAK), bandwidth=field_label(BANDWIDTH))


def unknown_short() -> str:
    """The summary's cell where the time is unknown (its hover text says why: ``unknown_text``)."""
    return translate("Results", "unknown (no compute figures)")


# ----- the summary
def summary_texts(est: Any) -> dict[str, str]:
    """The summary's time fields (``SummaryVM``): the step and its MFU, the throughput, the days, GPU-hours and
    cost of the training tokens given; the figures behind them (and what to enter for the cost) as the hover
    text. Each on a line of the summary's grid, short enough for a 1,024 px window."""
    time = est.time
    if time is None:
        return {"step_time_text": unknown_short(), "throughput_text": "—", "training_text": "",
                "time_tip": unknown_text()}
    step = translate("Results", "{step} · MFU {mfu} %").format(step=seconds_text(time.step_seconds),
                                                             mfu=f"{100 * time.mfu:.0f}")  # the tip: one decimal
    tip = time_tip(time)
    if time.train_seconds is None:
        tip += "\n" + translate("Results", "Enter {0} for the days, GPU-hours and cost.").format(
            field_label(TRAIN_TOKENS))
    return {"step_time_text": step, "throughput_text": rate_text(time.tokens_per_second),
            "training_text": training_text(time), "time_tip": tip}


def training_text(time: Any) -> str:
    """ "8.7 days · 13,400 GPU-hours · cost 33,500" ("" without the training tokens)."""
    if time.train_seconds is None:
        return ""
    out = translate("Results", "{days} · {hours}").format(days=duration_text(time.train_seconds),
                                                       hours=gpu_hours_text(time.gpu_hours))
    if time.cost is not None:
        out = translate("Results", "{0} · cost {1}").format(out, cost_text(time.cost))
    return out


def step_line(time: Any) -> str:
    """ "683 ms per step · 24k tokens/s · MFU 46.3 %" """
    return translate("Results", "{step} per step · {rate} · MFU {mfu} %").format(
        step=seconds_text(time.step_seconds), rate=rate_text(time.tokens_per_second), mfu=percent(time.mfu))


def time_tip(time: Any) -> str:
    """The figures behind the step's time: throughput per GPU, model TFLOP/s per GPU, MFU and HFU, FLOPs."""
    return translate(
        "Results",
        "{per_gpu} per GPU · {tflops} model TFLOP/s per GPU\nMFU {mfu} % · HFU {hfu} % (with recomputation) of "
        "the {peak} TFLOP/s {dtype} dense peak\n{model} model FLOPs and {hardware} hardware FLOPs per step").format(
        per_gpu=rate_text(time.tokens_per_second_per_gpu), tflops=f"{time.model_tflops_per_gpu:,.1f}",
        mfu=percent(time.mfu), hfu=percent(time.hfu), peak=f"{time.peak_tflops:,.0f}", dtype=time.peak_name,
        model=f"{time.model_flops_per_step:.3g}", hardware=f"{time.hardware_flops_per_step:.3g}") + "".join(
        "\n" + text(note) for note in time.notes)  # the core's caveats: "step time from the achieved TFLOP/s ..."


# ----- the breakdown's rows
def time_rows(est: Any, unit: str) -> tuple[BreakdownRow, ...]:
    """The parts of the step's time that take any, each with its derivation and source; the step last."""
    time = est.time
    if time is None:
        return (BreakdownRow("step_time", translate("Results", "Step time"), None,
                             translate("Results", "unknown"), unknown_text(), total=True),)
    rows = [BreakdownRow(key, label(key), None, seconds_text(s), render_derivation(part.deriv, unit, qt_translate),
                         part.source, value_tip=translate("Results", "{0} s").format(f"{s:.6f}"))
            for key, s, part in parts(time) if s > 0]
    rows.append(BreakdownRow("step_time", translate("Results", "Step time"), None, seconds_text(time.step_seconds),
                             step_line(time), total=True, tip=time_tip(time),
                             value_tip=translate("Results", "{0} s").format(f"{time.step_seconds:.6f}")))
    return tuple(rows)


# ----- the chart
def time_bars(variants: Sequence[tuple[Any, Any, Any]], names: Sequence[str], short_labels: Sequence[str],
              chosen: int, unit: str) -> TimeBarsVM:
    """The memory chart's strategies (``variants``: (strategy, scenario, Estimate)) with their step's time
    stacked by part, each bar's label its time over its step peak."""
    estimates = [est for _, _, est in variants]
    times = [est.time for est in estimates]
    by_key: list[dict[str, tuple[float, Any]]] = [
        {} if t is None else {k: (s, p) for k, s, p in parts(t)} for t in times]
    peaks = [None if est.peak is None else est.peak.bytes for est in estimates]
    peak_tips = [peak_tooltip(p, "" if est.peak is None else moment_text(est.peak), est.per_gpu_total, unit)
                 for p, est in zip(peaks, estimates, strict=True)]
    segments = []
    bottoms = [0.0] * len(estimates)
    for key in time_components.TIME_KEYS:
        heights = [bar.get(key, (0.0, None))[0] for bar in by_key]
        if any(heights):
            name = label(key)
            tips = []
            for i, (h, bar) in enumerate(zip(heights, by_key, strict=True)):
                part = bar.get(key, (0.0, None))[1]
                share = f"{100 * h / times[i].step_seconds:.1f}" if h and times[i] is not None else "0"
                derivation = "" if part is None else render_derivation(part.deriv, unit, qt_translate)
                tips.append(translate("Results", "{strategy}\n{part}: {time} ({share} % of the step)\n{derivation}")
                            .format(strategy=names[i], part=name, time=seconds_text(h), share=share,
                                    derivation=derivation).rstrip())
            segments.append(BarSegment(key=key, label=name, bottoms=tuple(bottoms), heights=tuple(heights),
                                       tooltips=tuple(tips)))
            bottoms = [b + h for b, h in zip(bottoms, heights, strict=True)]
    peak_texts = tuple("" if p is None else translate("Results", "peak {0}").format(format_bytes(p, unit, 1))
                       for p in peaks)
    bar_tips = tuple(
        f"{names[i]}\n" + (unknown_text() if t is None else step_line(t) + "\n" + time_tip(t))
        + f"\n{peak_tips[i]}" for i, t in enumerate(times))
    unknown = bool(times) and all(t is None for t in times)  # no bars at all: nothing to explain
    return TimeBarsVM(
        strategies=tuple(names), short_labels=tuple(short_labels),
        keys=tuple(strategy.key for strategy, _, _ in variants),
        segments=tuple(segments),
        totals=tuple(0.0 if t is None else t.step_seconds for t in times),
        chosen=chosen,
        time_texts=tuple("—" if t is None else seconds_text(t.step_seconds) for t in times),
        peak_texts=peak_texts,
        fits=tuple(est.fits for est in estimates),
        bar_tooltips=bar_tips,
        axis_label=translate("Results", "Time per step (s)"),
        note="" if not unknown else translate(
            "Results", "No step time: the GPU has no compute figures. Choose a GPU preset (a memory size alone "
            "says nothing of its speed)."),
    )
