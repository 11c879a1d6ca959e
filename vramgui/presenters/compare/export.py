"""The comparison's texts: its table rows, its CSV rows (every input that changes the result, then the core's
exact bytes) and the caption under its PNG (the unit, what the marks mean, and every input: those all pins share,
then each pin's own).

CSV column names and values are machine-readable English (docs/i18n.md): an input's column is its registry path
(``training.seq_len``) and its value the exact, re-parsable text the CLI takes (``fields.format_value``), so a new
field of the registry is a new column without a change here.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication

from vramgui import __version__
from vramgui.core.fields import registry as fields
from vramgui.core.step import components
from vramgui.core.text.units import format_bytes, to_unit
from vramgui.presenters import scenario_inputs
from vramgui.presenters.compare.models import CompareRowVM, Figures, Pinned
from vramgui.presenters.messages import text
from vramgui.presenters.serve_results import part_label
from vramgui.presenters.step_results import moment_of, peak_tooltip
from vramgui.presenters.time_results import (
    cost_text,
    duration_text,
    gpu_hours_text,
    rate_text,
    seconds_text,
    time_tip,
    unknown_text,
)

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for


def component_label(key: str) -> str:
    """The core's one component table (``vramgui.core.step.components``), in the user's language."""
    name = components.label_of(key)
    return text(name) if name is not None else part_label(key)  # a serving part (``compare.serving``)


def row_vm(p: Pinned, f: Figures, unit: str) -> CompareRowVM:
    """The table's row of one pin, its tooltip listing the components and the step peak."""
    if f.fits is None:
        fits_text = translate("ComparePresenter", "Unknown (no GPU memory given)")
    else:
        fits_text = translate("ComparePresenter", "Yes") if f.fits else translate("ComparePresenter", "No")
    not_estimated = translate("ComparePresenter", "not estimated")
    lines = [p.name]  # in full (the table's cell may cut it short)
    lines += [f"{component_label(k)}: {not_estimated if v is None else format_bytes(v, unit)}" for k, v in f.components]
    lines.append(peak_tooltip(f.peak, moment_of(f.peak_phase, f.peak_step) if f.peak_phase else "",
                              f.total, unit))
    lines.append(unknown_text() if f.time is None else time_tip(f.time))
    lines += [text(n) for n in f.notes]
    t = f.time
    return CompareRowVM(
        id=p.id, name=p.name,
        total_text=format_bytes(f.total, unit),
        fits=f.fits, fits_text=fits_text,
        headroom_text="—" if f.headroom is None else format_bytes(f.headroom, unit),
        max_micro_batch_text="—" if f.max_micro_batch is None else str(f.max_micro_batch),
        accumulation_text=str(f.accumulation_steps),
        tooltip="\n".join(lines),
        peak_text="—" if f.peak is None else format_bytes(f.peak, unit),
        step_time_text="—" if t is None else seconds_text(t.step_seconds),
        throughput_text="—" if t is None else rate_text(t.tokens_per_second),
        training_text="—" if t is None or t.train_seconds is None else duration_text(t.train_seconds),
        cost_text="—" if t is None or t.cost is None else cost_text(t.cost),
    )


def bar_time_text(f: Figures) -> str:
    """A bar's time under its name in the chart (and its PNG): "12.3 s/step", with the cost where it is known."""
    if f.time is None:
        return translate("ComparePresenter", "time unknown")
    shown = translate("ComparePresenter", "%1/step").replace("%1", seconds_text(f.time.step_seconds))
    if f.time.cost is not None:
        shown = translate("ComparePresenter", "%1 · cost %2").replace("%1", shown).replace("%2", cost_text(f.time.cost))
    return shown


TIME_COLUMNS = ("step_seconds", "tokens_per_second", "tokens_per_second_per_gpu", "model_flops_per_step",
                "hardware_flops_per_step", "model_tflops_per_gpu", "mfu", "hfu", "train_seconds", "gpu_hours", "cost")


def time_columns(f: Figures) -> dict[str, object]:
    """The step's time as ``estimate --json`` names it (exact floats, "" where unknown), then each part's seconds."""
    t = f.time
    row: dict[str, object] = {name: "" if t is None or getattr(t, name) is None else repr(getattr(t, name))
                              for name in TIME_COLUMNS}
    for c in () if t is None else t.components:
        row[f"time_{c.key}_seconds"] = repr(c.seconds)
    return row


def time_line(pinned: Sequence[Pinned], figures: Sequence[Figures]) -> str:
    """The caption's line of each bar's time: "Step time: A 12.3 s (1.33M tokens/s, 8.7 days, 13,400 GPU-hours,
    cost 33,500); B ..." ("" when no bar has a time)."""
    if all(f.time is None for f in figures):
        return ""
    parts = []
    for p, f in zip(pinned, figures, strict=True):
        t = f.time
        if t is None:
            parts.append(translate("ComparePresenter", "%1 unknown").replace("%1", p.name))
            continue
        said = [rate_text(t.tokens_per_second)]
        if t.train_seconds is not None:
            said += [duration_text(t.train_seconds), gpu_hours_text(t.gpu_hours)]
        if t.cost is not None:
            said.append(translate("ComparePresenter", "cost %1").replace("%1", cost_text(t.cost)))
        parts.append(translate("ComparePresenter", "%1 %2 (%3)").replace("%1", p.name).replace(
            "%2", seconds_text(t.step_seconds)).replace("%3", ", ".join(said)))
    return translate("ComparePresenter", "Step time: %1").replace("%1", translate("ComparePresenter", "; ").join(
        parts))


def csv_rows(pinned: Sequence[Pinned], figures: dict[int, Figures], unit: str) -> list[dict[str, object]]:
    """One row per pinned scenario: its name, model, GPU and strategy, every input column, then exact bytes."""
    rows = []
    registry = fields.registry()
    for p in pinned:
        f = figures[p.id]
        s = p.scenario
        row: dict[str, object] = {"name": p.name, "model": s.model.name, "gpu": s.hardware.gpu_name or "",
                                  "strategy": f.strategy.label()}
        for path in scenario_inputs.result_paths():
            row[path] = fields.format_value(registry[path], fields.get(s, path))
        for key, value in f.components:
            row[f"{key}_bytes"] = "" if value is None else value
        row["total_bytes"] = f.total
        row[f"total_{unit}"] = f"{to_unit(f.total, unit):.3f}"
        row["peak_bytes"] = "" if f.peak is None else f.peak  # the step peak per GPU: what decides "fits"
        row[f"peak_{unit}"] = "" if f.peak is None else f"{to_unit(f.peak, unit):.3f}"
        row["peak_phase"], row["peak_step"] = f.peak_phase, f.peak_step
        row["usable_bytes"] = "" if f.usable is None else f.usable
        row["fits"] = "" if f.fits is None else str(f.fits).lower()
        row["headroom_bytes"] = "" if f.headroom is None else f.headroom
        row["max_micro_batch"] = "" if f.max_micro_batch is None else f.max_micro_batch
        row["accumulation_steps"] = f.accumulation_steps
        row.update(time_columns(f))
        rows.append(row)
    return rows


def common_text(pinned: Sequence[Pinned]) -> str:
    """The inputs every pinned scenario shares (" · " between them), after the model's and the GPU's names; "" for
    fewer than two pins (the one pin's name says it)."""
    if len(pinned) < 2:
        return ""
    scenarios = [p.scenario for p in pinned]
    differing = frozenset(scenario_inputs.differing_keys(scenarios))
    first = scenarios[0]
    # what the pins are called (the model's and the GPU's names), where they share it
    labels = [t for key in scenario_inputs.LABEL_PATHS
              if key not in differing and (t := scenario_inputs.text(key, scenario_inputs.value(first, key), first))]
    # the inputs shared where they count (one pin's view: a field another pin ignores is still shared)
    return " · ".join([*labels, *scenario_inputs.caption_parts(first, skip=differing)])


def caption(pinned: Sequence[Pinned], unit: str, unit_meaning: str, figures: Sequence[Figures] = ()) -> str:
    """The PNG's caption: what the chart shows, then every input - shared, and each pin's differences - and each
    bar's step time, throughput, days and cost (``figures``, one per pin)."""
    head = (translate("ComparePresenter",
                      "Stacked per-GPU memory by component (the sum), in %1 (%2). Marks: the step peak, which decides "
                      "the fit, and the usable GPU memory after the reserve. vramgui %3, convention per scenario.")
            .replace("%1", unit).replace("%2", unit_meaning).replace("%3", __version__))
    if not pinned:
        return head
    lines = [head]
    shared = common_text(pinned)
    if shared:
        lines.append(translate("ComparePresenter", "Every scenario: %1").replace("%1", shared))
    if len(pinned) == 1:  # its name is "model · GPUs · strategy" or the user's: every input after it
        p = pinned[0]
        lines.append(translate("Fields", "{0}: {1}").format(p.name, " · ".join(scenario_inputs.caption_parts(
            p.scenario))))
    else:  # the bars by their full names (a tick label may be cut short), a name the user gave with what differs
        named = translate("ComparePresenter", "%1 (%2)")
        differing = scenario_inputs.differing_parts([p.scenario for p in pinned])
        bars = [named.replace("%1", p.name).replace("%2", scenario_inputs.list_text(own)) if p.named and own
                else p.name for p, own in zip(pinned, differing, strict=True)]
        lines.append(translate("ComparePresenter", "Left to right: %1.").replace(
            "%1", translate("ComparePresenter", "; ").join(bars)))
    times = time_line(pinned, figures) if len(figures) == len(pinned) else ""
    return "\n".join([*lines, times] if times else lines)
