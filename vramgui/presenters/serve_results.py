"""Scenario -> ServeResultVM: the window's Serve mode over ``vramgui.core.serve`` (the same answers as
``vramgui serve``), shaped for the summary, the breakdown table and the memory-against-context chart.

All bytes come from ``serve_estimate``; this module only formats them in the display unit and the user's language.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from PySide6.QtCore import QCoreApplication

from vramgui.core.fields import paths
from vramgui.core.scenario.architecture import count_active_params, count_params
from vramgui.core.scenario.specs import Scenario
from vramgui.core.serve.estimate import ServeEstimate, serve_estimate
from vramgui.core.terms import render_derivation
from vramgui.core.text.errors import InputError
from vramgui.core.text.units import format_bytes, to_unit
from vramgui.presenters import scenario_inputs
from vramgui.presenters.messages import qt_translate, text
from vramgui.presenters.view_models import BreakdownRow, Series, ServeResultVM, SummaryVM, SweepVM

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

CONTEXT_SWEEP = tuple(2**i for i in range(8, 18))  # 256 ... 131,072 tokens (the chart widens to hold the context)


@dataclass
class ServeComputed:
    """What the Serve mode computed for one scenario: the view-model and the core's answer (for CSV and tests)."""

    result: ServeResultVM
    estimate: ServeEstimate
    points: tuple[tuple[int, ServeEstimate | None], ...] = ()  # the chart's contexts and their answers (None: refused)

    def to_dict(self) -> dict:
        """What the window shows in the shape of ``vramgui serve --json``."""
        return self.estimate.to_dict()

    def counts(self) -> Counted | None:
        """Φ and the active count of the served architecture (the form's hint beside the model), as training counts
        them (``core.scenario.architecture``)."""
        arch = self.estimate.scenario.model.architecture
        if arch is None:
            return None
        try:
            return Counted(count_params(arch), count_active_params(arch))
        except (ArithmeticError, ValueError, TypeError):
            return None


@dataclass(frozen=True)
class Counted:
    params: int
    active_params: int


def part_label(key: str) -> str:
    """A serving part's name in the user's language (the keys of ``ServeEstimate.components``)."""
    names = {
        "weights": translate("Serve", "Weights"),
        "kv_cache": translate("Serve", "KV cache"),
        "kv_pool": translate("Serve", "KV cache pool (vLLM)"),
        "activations": translate("Serve", "Prefill activations"),
        "cuda_context": translate("Serve", "CUDA context"),
        "other": translate("Serve", "Other (extra memory)"),
    }
    return names.get(key, key)


def contexts(context: int) -> tuple[int, ...]:
    """The chart's contexts: powers of two from 256 to 131,072, continued to the first one at or above ``context``."""
    out = list(CONTEXT_SWEEP)
    while out[-1] < context:
        out.append(out[-1] * 2)
    return tuple(out)


def compute_serve(scenario: Scenario, unit: str) -> ServeComputed:
    """The Serve mode's answer; raises ``InputError`` (naming the field) as ``vramgui serve`` does."""
    est = serve_estimate(scenario)
    points = tuple((n, _at(scenario, n)) for n in contexts(scenario.serve.context))
    vm = ServeResultVM(
        title=serve_title(scenario),
        caption=scenario_inputs.export_caption(scenario),
        unit=unit,
        summary=_summary(est, unit),
        breakdown=_breakdown(est, unit),
        chart=context_vm(est, points, unit),
    )
    return ServeComputed(vm, est, points)


def _said(key: str, scenario: Scenario) -> str:
    return scenario_inputs.text(key, scenario_inputs.value(scenario, key), scenario, short=False) or ""


def serve_title(scenario: Scenario) -> str:
    hw = scenario.hardware
    gpu = hw.gpu_name or (format_bytes(hw.gpu_memory, "GB", 0) if hw.gpu_memory else translate("Serve", "GPU"))
    return translate("Serve", "Serving {model} on {n} × {gpu}").format(
        model=scenario.model.name, n=scenario.parallel.num_gpus, gpu=gpu)


def _needed(est: ServeEstimate) -> int:
    """What ``batch`` sequences of ``context`` tokens need on one GPU: weights, their KV cache, the prefill peak and
    the fixed terms (under vLLM the pool it allocates is larger: the rest of its share)."""
    return est.weights.bytes + est.kv.bytes + est.activations.bytes + est.context.bytes


def _summary(est: ServeEstimate, unit: str) -> SummaryVM:
    s, v = est.scenario, est.scenario.serve
    engine = _said(paths.SERVE_ENGINE, s)
    head = translate("Serve", "{engine} · {weights} weights · {kv} KV cache").format(
        engine=engine, weights=v.weights, kv=v.kv_dtype)
    peak = est.peak_bytes
    if est.fits is None:
        fits_text = translate("Serve", "Fit not judged: enter the GPU memory")
        headroom_text = "—"
    else:
        fits_text = (translate("Serve", "Fits: {batch} × {context:,} tokens") if est.fits else
                     translate("Serve", "Does not fit: {batch} × {context:,} tokens")).format(
            batch=v.batch, context=v.context)
        h = est.headroom or 0
        headroom_text = (translate("Serve", "{h} free") if h >= 0 else translate("Serve", "{h} short")).format(
            h=format_bytes(abs(h), unit))
    sequences = translate("Serve", "{batch} × {context:,} tokens need {kv} of KV cache").format(
        batch=v.batch, context=v.context, kv=format_bytes(est.kv.bytes, unit))
    per_token = translate("Serve", "{b:,} bytes a token (all layers, one GPU)").format(b=est.kv_bytes_per_token)
    sum_text = translate("Serve", "needed: {n} (weights, KV cache, activations, fixed terms)").format(
        n=format_bytes(_needed(est), unit))
    third, fourth = translate("Serve", "Weights:"), translate("Serve", "Replicas:")
    third_text = format_bytes(est.weights.bytes, unit)
    tp = s.parallel.tp
    fourth_text = translate("Serve", "{r} (tp {tp} each)").format(r=s.parallel.num_gpus // tp, tp=tp)
    if est.vllm is not None:
        c = est.vllm
        third, fourth = translate("Serve", "KV cache tokens:"), translate("Serve", "Max concurrency:")
        third_text = translate("Serve", "{tokens:,} ({blocks:,} blocks of {size})").format(
            tokens=c.kv_cache_tokens, blocks=c.num_blocks, size=c.block_size)
        fourth_text = translate("Serve", "{x:.2f}× at {context:,} tokens a request").format(
            x=c.max_concurrency, context=v.context)
        sum_text = translate("Serve", "needed: {n}; vLLM takes {pool} for its KV cache pool").format(
            n=format_bytes(_needed(est), unit), pool=format_bytes(est.pool.bytes if est.pool else 0, unit))
    elif est.llama_cpp is not None:
        lc = est.llama_cpp
        third = translate("Serve", "KV cells:")
        third_text = (translate("Serve", "{cells:,} (sliding-window cache {swa:,})") if lc.swa_cells else
                      translate("Serve", "{cells:,}")).format(cells=lc.cells, swa=lc.swa_cells)
    return SummaryVM(
        strategy=head, total_bytes=peak,
        total_text=translate("Serve", "{total} per GPU").format(total=format_bytes(peak, unit)),
        fits=est.fits, fits_text=fits_text, headroom_text=headroom_text,
        accumulation_text=per_token, max_micro_batch_text=third_text, host_text=fourth_text,
        notes=tuple(text(n) for n in est.notes), peak_bytes=peak,
        peak_text=translate("Serve", "Peak {total} per GPU").format(total=format_bytes(peak, unit)),
        moment_text=sequences, sum_text=sum_text,
        title_text=translate("Serve", "Serving: {0}").format(head),
        row_names=(translate("Serve", "Headroom:"), translate("Serve", "KV per token:"), third, fourth),
    )


def _breakdown(est: ServeEstimate, unit: str) -> tuple[BreakdownRow, ...]:
    rows = [BreakdownRow(key=p.key, label=part_label(p.key), bytes=p.bytes, value_text=format_bytes(p.bytes, unit),
                         formula=render_derivation(p.deriv, unit, qt_translate), source=p.source)
            for p in est.components]
    if est.pool is not None:  # the part of the pool the sequences asked for take, beside the pool itself
        rows.insert(2, BreakdownRow("kv_cache", "↳ " + translate("Serve", "used by the sequences"), est.kv.bytes,
                                    format_bytes(est.kv.bytes, unit),
                                    render_derivation(est.kv.deriv, unit, qt_translate), est.kv.source))
    rows.append(BreakdownRow("total", translate("Serve", "Peak per GPU"), est.peak_bytes,
                             format_bytes(est.peak_bytes, unit), "", total=True))
    return tuple(rows)


def _at(scenario: Scenario, context: int) -> ServeEstimate | None:
    try:
        return serve_estimate(replace(scenario, serve=replace(scenario.serve, context=context)))
    except InputError:
        return None


def usable_bytes(est: ServeEstimate) -> int | None:
    """The memory the engine may use on one GPU: vLLM its ``gpu_memory_utilization`` share, the others what the
    reserve leaves (``serve_estimate`` judges the fit by the same)."""
    hw = est.scenario.hardware
    if hw.gpu_memory is None:
        return None
    share = est.scenario.serve.gpu_memory_utilization if est.vllm is not None else 1 - hw.reserve
    return int(hw.gpu_memory * share)


def context_vm(est: ServeEstimate, points: tuple[tuple[int, ServeEstimate | None], ...], unit: str) -> SweepVM:
    """Memory per GPU against the context length: the weights, with the sequences' KV cache, and the peak they need;
    for vLLM the concurrency it would report at each context (the hover text)."""
    s = est.scenario
    xs = tuple(n for n, _ in points)
    at = [e for _, e in points]

    def line(fn) -> tuple[float | None, ...]:
        return tuple(None if e is None else to_unit(fn(e), unit) for e in at)

    series = (
        Series(translate("Serve", "weights"), line(lambda e: e.weights.bytes), key="weights"),
        Series(translate("Serve", "+ KV cache, {0} × the context").format(s.serve.batch),
               line(lambda e: e.weights.bytes + e.kv.bytes), key="kv_cache"),
        Series(translate("Serve", "needed (with activations)"), line(_needed), key="needed"),
    )
    notes = tuple("" if e is None or e.vllm is None else
                  translate("Serve", "vLLM: max concurrency {0:.2f}×").format(e.vllm.max_concurrency) for e in at)
    capacity = None if s.hardware.gpu_memory is None else to_unit(s.hardware.gpu_memory, unit)
    share = usable_bytes(est)
    usable = None if share is None else to_unit(share, unit)
    # the GPU's scale: up to twice its memory, or what the scenario's own context needs where that is more (the
    # curves of long contexts leave the plot upwards; their values stay in the hover text)
    top = None if capacity is None else max(2 * capacity, to_unit(_needed(est), unit) * 1.1)
    return SweepVM(counts=xs, series=series, capacity=capacity, usable=usable, unit=unit, current=s.serve.context,
                   point_notes=notes, y_top=top)


CSV_COLUMNS = ("table", "engine", "context", "batch", "component", "bytes", "formula")


def csv_rows(served: ServeComputed) -> list[dict[str, object]]:
    """The Serve mode's result as tidy rows (exact bytes): its parts, then what is needed at each context."""
    est, v = served.estimate, served.estimate.scenario.serve
    base = {"engine": str(v.engine), "batch": v.batch}
    rows: list[dict[str, object]] = [
        {"table": "serve_breakdown", **base, "context": v.context, "component": p.key, "bytes": p.bytes,
         "formula": p.derivation} for p in (*est.components, *((est.kv,) if est.pool is not None else ()))]
    rows.append({"table": "serve_breakdown", **base, "context": v.context, "component": "total",
                 "bytes": est.peak_bytes, "formula": ""})
    for n, e in served.points:
        if e is not None:
            for key, b in (("weights", e.weights.bytes), ("kv_cache", e.kv.bytes), ("needed", _needed(e))):
                rows.append({"table": "serve_vs_context", **base, "context": n, "component": key, "bytes": b,
                             "formula": ""})
    return rows
