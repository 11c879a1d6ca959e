"""Scenario -> ResultVM: calls the core and shapes its answers for the views.

All bytes come from ``vramgui.core`` (estimate, solve); this module only formats them, converts them to the
display unit, and stacks the bars, so the views need no arithmetic.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache

from PySide6.QtCore import QCoreApplication

from vramgui.core.estimate import Estimate, estimate
from vramgui.core.fields.registry import MAX_PARAMS
from vramgui.core.parallel import world
from vramgui.core.scenario.specs import Scenario
from vramgui.core.scenario.strategy import Strategy
from vramgui.core.solve import questions as solve
from vramgui.core.solve import sweep
from vramgui.core.solve.nothing_fits import no_model_fits
from vramgui.core.step import components
from vramgui.core.terms import render_derivation
from vramgui.core.text.errors import InputError
from vramgui.core.text.units import format_bytes, format_count, to_unit
from vramgui.presenters.advice import advice_texts, suggestions_for
from vramgui.presenters.bar_clip import clip_bars
from vramgui.presenters.formulas import formulas_html
from vramgui.presenters.messages import qt_translate, text
from vramgui.presenters.scenario_inputs import export_caption
from vramgui.presenters.step_results import moment_text, peak_marks, peak_rows, peak_texts, peak_tooltip, step_vm
from vramgui.presenters.time_results import summary_texts, time_bars, time_rows
from vramgui.presenters.view_models import (
    BarSegment,
    BreakdownRow,
    ResultVM,
    Series,
    StrategyBarsVM,
    SummaryVM,
    SweepVM,
)

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

SWEEP_COUNTS = tuple(2**i for i in range(11))  # 1, 2, 4, ... 1024 GPUs


def component_label(key: str, fallback: str = "") -> str:
    """A component's name in the user's language (the core's one table, ``vramgui.core.step.components``)."""
    name = components.label_of(key)
    return text(name) if name is not None else (fallback or key)


@dataclass
class Computed:
    """Everything computed for one scenario: the view-model plus the raw core objects (for CSV, formulas)."""

    result: ResultVM
    estimate: Estimate
    variants: tuple[tuple[Strategy, Scenario, Estimate], ...]  # (strategy, scenario, Estimate); str(strategy): English
    sweep_bytes: dict[Strategy, tuple[int | None, ...]]
    max_params: dict[Strategy, tuple[int | None, ...]]
    suggestions: tuple = ()  # the adviser's ways out (vramgui.core.advise.suggestions.Suggestion), the first ones shown

    def to_dict(self) -> dict:
        """What the window shows in the shape of ``vramgui estimate --json`` (the self-test writes it)."""
        return {**self.estimate.to_dict(), "suggestions": [s.to_dict() for s in self.suggestions]}


def _with_gpus(scenario: Scenario, n: int) -> Scenario | None:
    """The scenario on ``n`` GPUs without its global batch, or None where the layout does not accept ``n``."""
    par = scenario.parallel
    if not world.accepts(scenario, n):
        return None
    return replace(scenario, parallel=replace(par, num_gpus=n, gpus_per_node=min(par.gpus_per_node, n)),
                   training=replace(scenario.training, global_batch=None))


def _safe(fn, *args):
    try:
        return fn(*args)
    except InputError:
        return None


def scenario_title(scenario: Scenario, est) -> str:
    par, hw = scenario.parallel, scenario.hardware
    gpu = hw.gpu_name or (format_bytes(hw.gpu_memory, "GB", 0) if hw.gpu_memory else translate("Results", "GPU"))
    name = scenario.model.name if scenario.model.name != "custom" else format_count(est.params)
    return translate("Results", "{model} on {n} × {gpu}").format(model=name, n=par.num_gpus, gpu=gpu)


def strategy_name(scenario: Scenario) -> str:
    """The scenario's strategy in the user's language (the core's one labelling function)."""
    return strategy_display(Strategy.of(scenario))


def strategy_display(strategy: Strategy) -> str:
    """A strategy's name in the user's language ("ZeRO-3 + CPU optimizer offload")."""
    return strategy.label(qt_translate)


def short_strategy_label(strategy: Strategy) -> str:
    """The two-line form for a chart axis ("ZeRO-3\n+ offload (opt.)")."""
    return strategy.label(qt_translate, short=True)


def _summary(scenario: Scenario, est, unit: str, suggestions: tuple = ()) -> SummaryVM:
    strategy = strategy_name(scenario)
    total = est.per_gpu_total
    total_text = translate("Results", "{total} per GPU").format(total=format_bytes(total, unit))
    if est.fits is None:
        fits_text = translate("Results", "Fit not judged: enter the GPU memory")
        headroom_text = "—"
    else:
        usable = format_bytes(est.usable, unit)
        capacity = format_bytes(scenario.hardware.gpu_memory, unit)
        reserve = scenario.hardware.reserve * 100
        if est.fits:
            fits_text = translate("Results", "Fits: {usable} usable of {capacity} ({reserve:g} % reserved)")
        else:
            fits_text = translate("Results", "Does not fit: {usable} usable of {capacity} ({reserve:g} % reserved)")
        fits_text = fits_text.format(usable=usable, capacity=capacity, reserve=reserve)
        if est.headroom is not None and est.headroom >= 0:
            headroom_text = translate("Results", "{h} free").format(h=format_bytes(est.headroom, unit))
        else:
            headroom_text = translate("Results", "{h} short").format(h=format_bytes(-(est.headroom or 0), unit))
    steps = est.accumulation_steps
    dp = est.data_parallel
    if scenario.training.global_batch is None:
        acc_text = translate("Results", "1 (no global batch set)")
    else:
        acc_text = translate("Results", "{k} (global batch {g} = micro-batch {b} × N_d {dp} × {k})").format(
            k=steps, g=scenario.training.global_batch, b=scenario.training.micro_batch, dp=dp
        )
    if scenario.hardware.gpu_memory is None:
        mb_text = "—"
    else:
        mb = _max_micro_batch_cached(_any_micro_batch(scenario))
        if mb is None:
            mb_text = translate("Results", "— (needs the architecture: choose a preset or import a config)")
        elif mb == 0:
            mb_text = translate("Results", "none fits")
        else:
            mb_text = translate("Results", "{n} × {s:,} tokens").format(n=mb, s=scenario.training.seq_len)
    if est.host_per_node:
        host_text = translate("Results", "{h} per node").format(h=format_bytes(est.host_per_node, unit))
    else:
        host_text = translate("Results", "no offload")
    return SummaryVM(
        strategy=strategy,
        total_bytes=total,
        total_text=total_text,
        fits=est.fits,
        fits_text=fits_text,
        headroom_text=headroom_text,
        accumulation_text=acc_text,
        max_micro_batch_text=mb_text,
        host_text=host_text,
        notes=tuple(text(n) for n in est.notes),
        trainable_text=trainable_text(est),
        **peak_texts(est, unit),  # type: ignore[arg-type]
        **advice_texts(est, suggestions, unit),  # type: ignore[arg-type]
        **summary_texts(est),  # type: ignore[arg-type]
    )


def trainable_text(est) -> str:
    """LoRA / QLoRA: the adapters' parameters and their share of the model, "41.94M (0.52 % of 8.03B)"."""
    if est.trainable_params is None or not est.params:
        return ""
    share = 100 * est.trainable_params / est.params
    return translate("Results", "{trainable} ({share} % of {params})").format(
        trainable=format_count(est.trainable_params), share=f"{share:.2f}" if share >= 0.01 else f"{share:.2g}",
        params=format_count(est.params))


def _breakdown(est, unit: str) -> tuple[BreakdownRow, ...]:
    rows = [
        BreakdownRow(
            key=c.key,
            label=("↳ " if c.key == "master_weights" else "") + component_label(c.key),
            bytes=c.bytes,  # None: not estimable (e.g. activations without an architecture)
            value_text=format_bytes(c.bytes, unit) if c.bytes is not None else translate("Results", "not estimated"),
            formula=render_derivation(c.deriv, unit, qt_translate),  # in the display unit, words translated
            source=c.source,
        )
        for c in est.components
    ]
    rows.append(
        BreakdownRow("total", translate("Results", "Total per GPU"), est.per_gpu_total,
                     format_bytes(est.per_gpu_total, unit), "", total=True)
    )
    return tuple(rows)


def component_stack(estimates) -> tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...]:
    """(key, bottoms, heights) in bytes, one value per estimate: the core's one stacking rule
    (``vramgui.core.step.components.stack``), for the strategy bars here and the comparison tab alike."""
    return components.stack([{c.key: c.bytes for c in est.components} for est in estimates])


def _bars(scenario: Scenario, variants, unit: str) -> StrategyBarsVM:
    segments = []
    names = [strategy_display(strategy) for strategy, _, _ in variants]
    estimates = [est for _, _, est in variants]
    peaks = [None if est.peak is None else est.peak.bytes for est in estimates]
    peak_tips = [peak_tooltip(p, "" if est.peak is None else moment_text(est.peak), est.per_gpu_total, unit)
                 for p, est in zip(peaks, estimates, strict=True)]
    for key, bottoms, heights in component_stack(estimates):
        if not any(heights):
            continue  # e.g. no fixed terms given: no empty legend entry
        label = component_label(key)
        segments.append(
            BarSegment(
                key=key,
                label=label,
                bottoms=tuple(to_unit(b, unit) for b in bottoms),
                heights=tuple(to_unit(h, unit) for h in heights),
                tooltips=tuple(
                    f"{names[i]}\n{label}: {format_bytes(h, unit)} ({h:,} B)\n{peak_tips[i]}"
                    for i, h in enumerate(heights)
                ),
            )
        )
    current = Strategy.of(scenario)
    chosen = next((i for i, (strategy, _, _) in enumerate(variants) if strategy == current), -1)
    hw = scenario.hardware
    usable = variants[0][2].usable if variants else None
    return clip_bars(StrategyBarsVM(  # a bar far above the GPU's memory cut, so the capacity line stays readable
        strategies=tuple(names),
        short_labels=tuple(short_strategy_label(strategy) for strategy, _, _ in variants),
        keys=tuple(strategy.key for strategy, _, _ in variants),
        segments=tuple(segments),
        totals=tuple(to_unit(est.per_gpu_total, unit) for _, _, est in variants),
        chosen=chosen,
        capacity=None if hw.gpu_memory is None else to_unit(hw.gpu_memory, unit),
        usable=None if usable is None else to_unit(usable, unit),
        unit=unit,
        peak_tooltips=tuple(peak_tips),
        **peak_marks(peaks, [est.per_gpu_total for est in estimates], [est.fits for est in estimates], unit),  # type: ignore[arg-type]
    ))


def _variants(scenario: Scenario):
    out = []
    for strategy, sc in solve.strategy_variants(scenario):
        est = _safe(estimate, sc)
        if est is not None:
            out.append((strategy, sc, est))
    return tuple(out)


def compute(scenario: Scenario, unit: str = "GB") -> Computed:
    """The immediate part of the result (summary, breakdown, strategy bars); raises ``InputError``.

    The two sweeps over GPU counts are computed afterwards, a piece at a time (``sweep_work``), because the
    largest-model solve bisects over many estimates."""
    est = estimate(scenario)
    suggestions = suggestions_for(scenario)
    variants = _variants(scenario)
    bars = _bars(scenario, variants, unit)
    result = ResultVM(
        title=scenario_title(scenario, est),
        caption=export_caption(scenario, est),  # the exports' own: every input that changes the result
        unit=unit,
        summary=_summary(scenario, est, unit, suggestions),
        breakdown=_breakdown(est, unit),
        bars=bars,
        formulas_html=formulas_html(est, unit),
        step=step_vm(est, unit),
        peak_breakdown=peak_rows(est, unit),
        time_bars=time_bars(variants, bars.strategies, bars.short_labels, bars.chosen, unit),
        time_breakdown=time_rows(est, unit),
    )
    return Computed(result, est, variants, {}, {}, suggestions)


def _any_micro_batch(scenario: Scenario) -> Scenario:
    """The largest micro-batch does not depend on the current one (nor on the global batch): one cache entry."""
    return replace(scenario, training=replace(scenario.training, micro_batch=1, global_batch=None))


@lru_cache(maxsize=1024)
def _max_micro_batch_cached(scenario: Scenario) -> int | None:
    """``solve.max_micro_batch``, or None when it cannot be solved (no architecture: activations unknown)."""
    return _safe(solve.max_micro_batch, scenario)


@lru_cache(maxsize=8192)
def _max_params_cached(scenario: Scenario) -> int | None:
    return _safe(solve.max_params, scenario)


@lru_cache(maxsize=1024)
def _sweep_cached(scenario: Scenario) -> tuple[int | None, ...]:
    """The step peak at each of SWEEP_COUNTS (what decides fits, vramgui.core.step.peak), so a line below "usable"
    means it fits; None where the layout refuses the count (``vramgui.core.solve.sweep``)."""
    return tuple(peak for _, peak in sweep.peak_sweep(scenario, SWEEP_COUNTS))


def sweep_vm(computed: Computed, unit: str) -> SweepVM:
    scenario = computed.estimate.scenario
    return SweepVM(
        counts=SWEEP_COUNTS,
        series=tuple(
            Series(strategy_display(strategy), tuple(None if b is None else to_unit(b, unit) for b in values),
                   key=strategy.key, dashed=strategy.offloads)
            for strategy, values in computed.sweep_bytes.items()
        ),
        capacity=None if scenario.hardware.gpu_memory is None else to_unit(scenario.hardware.gpu_memory, unit),
        usable=None if computed.estimate.usable is None else to_unit(computed.estimate.usable, unit),
        unit=unit,
        current=scenario.parallel.num_gpus,
    )


def _unbounded_label(label: str, values) -> str:
    """A strategy whose model size GPU memory never limits (e.g. everything offloaded) says so in the legend."""
    if values and all(p is not None and p >= MAX_PARAMS for p in values):
        return translate("Results", "{0} (not limited by GPU memory)").format(label)
    return label


def nothing_fits_note(computed: Computed, unit: str) -> str:
    """Why the largest-model chart is empty when no model fits at any number of GPUs ("" otherwise): the core's
    answer (``vramgui.core.solve.nothing_fits``), rendered in the user's language and ``unit``."""
    why = no_model_fits(computed.estimate, (p for per in computed.max_params.values() for p in per))
    if why is None:
        return ""
    args: dict[str, object] = {k: format_bytes(v, unit) for k, v in (("act", why.activations), ("need", why.floor),
                                                                      ("usable", why.usable))}
    args.update(s=why.seq_len, b=why.micro_batch)
    if why.reason == "activations":
        return translate("Results", "Activations alone exceed the usable memory at {s:,} tokens, micro-batch {b}: "
                         "{act} of {usable} per GPU, so no model fits at any number of GPUs. A shorter sequence, "
                         "recomputation or tensor / sequence parallelism lowers them.").format(**args)
    if why.reason == "floor":
        parts = [f"{component_label(k)} {format_bytes(v, unit)}" for k, v in why.floor_parts]
        return translate("Results", "Activations and fixed terms exceed the usable memory at {s:,} tokens, micro-batch "
                         "{b}: {need} of {usable} per GPU ({parts}), so no model fits at any number of GPUs.").format(
            parts=" + ".join(parts), **args)
    return translate("Results", "No model fits at any number of GPUs, not even one parameter: what a step holds "
                     "whatever the model's size (activations, communication buckets, ZeRO-3 gathered parameters, the "
                     "CUDA context) exceeds the {usable} usable per GPU.").format(**args)


def max_model_vm(computed: Computed, unit: str | None = None) -> SweepVM:
    """The largest trainable model per strategy against the GPU count; ``note`` says why when nothing fits (in
    ``unit``, by default the result's)."""
    return SweepVM(
        counts=SWEEP_COUNTS,
        series=tuple(
            Series(_unbounded_label(strategy_display(strategy), values),
                   tuple(None if p is None or p >= MAX_PARAMS else p / 1e9 for p in values),
                   key=strategy.key, dashed=strategy.offloads)
            for strategy, values in computed.max_params.items()
        ),
        capacity=None,
        usable=None,
        unit="B",
        current=computed.estimate.scenario.parallel.num_gpus,
        note=nothing_fits_note(computed, unit or computed.result.unit) if computed.max_params else translate(
            "Results", "Enter the GPU memory to solve for the largest trainable model."),
    )


def sweep_work(computed: Computed) -> Iterator[str]:
    """Fills ``computed.sweep_bytes`` then ``computed.max_params``, yielding after each piece of work:
    "sweep" when the per-GPU sweep is complete, "max_model" when the largest-model sweep is, else "".
    Results are cached per scenario, so revisiting a scenario is instant."""
    scenario = computed.estimate.scenario
    for strategy, sc, _ in computed.variants:
        computed.sweep_bytes[strategy] = _sweep_cached(sc)
        yield ""
    yield "sweep"
    scaled = {strategy: [_with_gpus(sc, n) for n in SWEEP_COUNTS] for strategy, sc, _ in computed.variants}
    if scenario.hardware.gpu_memory is None:
        yield "max_model"
        return
    for strategy, scenarios in scaled.items():
        values: list[int | None] = []
        for s in scenarios:
            values.append(None if s is None else _max_params_cached(s))
            yield ""
        computed.max_params[strategy] = tuple(values)
    yield "max_model"
