"""Compare pinned scenarios side by side: per-GPU totals by component and the headline figures.

Each pinned scenario is estimated once, when pinned (scenarios are frozen), by the core
(``vramgui.core.estimate.estimate`` and ``vramgui.core.solve.max_micro_batch``); a unit or language change only
re-formats. The view is passive (``CompareView``); tests drive this presenter with ``MagicMock(spec=CompareView)``.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QObject, Signal

from vramgui import __version__
from vramgui.core import components
from vramgui.core.components import STACK_KEYS
from vramgui.core.errors import InputError
from vramgui.core.specs import Scenario
from vramgui.core.strategy import Strategy
from vramgui.core.units import format_bytes, to_unit
from vramgui.io.files import atomic_write_text
from vramgui.presenters.messages import input_error_text, qt_translate, text
from vramgui.presenters.step_results import moment_of, peak_marks, peak_tooltip

MAX_PINNED = 6
__all__ = ["MAX_PINNED", "STACK_KEYS", "ComparePresenter", "CompareView"]  # STACK_KEYS: the core's stacking order


@dataclass(frozen=True)
class Pinned:
    id: int
    name: str
    scenario: Scenario


@dataclass(frozen=True)
class Figures:
    """The core's numbers for one pinned scenario, in bytes."""

    components: tuple[tuple[str, int | None], ...]  # (key, bytes) in STACK_KEYS order; None = not estimable
    total: int
    usable: int | None
    fits: bool | None
    headroom: int | None
    max_micro_batch: int | None  # None when it cannot be solved (e.g. no GPU memory given)
    accumulation_steps: int
    strategy: Strategy  # str(strategy): the English label (the CSV's)
    notes: tuple = ()  # the core's notes (``Msg``)
    peak: int | None = None  # the training step's peak (what ``fits`` and ``headroom`` judge); None: no peak
    peak_phase: str = ""  # the moment that sets it (``vramgui.core.step`` ids): "optimizer_step"
    peak_step: str = ""  # "first" or "steady"


@dataclass(frozen=True)
class CompareRowVM:
    id: int
    name: str
    total_text: str  # the sum of components
    fits: bool | None  # by the step peak
    fits_text: str
    headroom_text: str
    max_micro_batch_text: str
    accumulation_text: str
    tooltip: str
    peak_text: str = ""  # "46.06 GB" ("—": no step peak)


@dataclass(frozen=True)
class CompareSeriesVM:
    """One component across every pinned scenario: stacked bar ``bottoms`` and ``heights`` in the unit."""

    key: str
    label: str
    bottoms: tuple[float, ...]
    heights: tuple[float, ...]


@dataclass(frozen=True)
class CompareVM:
    rows: tuple[CompareRowVM, ...]
    names: tuple[str, ...]
    series: tuple[CompareSeriesVM, ...]
    totals: tuple[float, ...]  # bar tops, in the unit
    capacities: tuple[float | None, ...]  # usable GPU memory after the reserve, in the unit
    unit: str
    axis_label: str
    can_pin: bool
    empty_hint: str  # shown when nothing is pinned ("" otherwise)
    # each bar's step peak, marked on it (``step_results.peak_marks``): heights in the unit, fit, label lines
    peaks: tuple[float | None, ...] = ()
    fits: tuple[bool | None, ...] = ()
    peak_texts: tuple[str, ...] = ()
    sum_texts: tuple[str, ...] = ()
    label_tops: tuple[float, ...] = ()


class CompareView(Protocol):
    def show_comparison(self, vm: CompareVM) -> None:
        """Show the pinned scenarios: fill the table and update the chart items (created once)."""

    def show_message(self, text: str) -> None:
        """Tell the user something went wrong (pin limit, export failure); "" clears it."""

    def ask_export_path(self, title: str, start_path: str, file_filter: str) -> str | None:
        """Ask where to save; None when cancelled."""

    def export_chart_png(self, path: str, title: str, caption: str) -> None:
        """Render the chart to a PNG (white background, title, legend, caption); raises OSError on failure."""


EstimateFn = Callable[[Scenario], Any]
SolveFn = Callable[[Scenario], int]


def _core_estimate(scenario: Scenario) -> Any:
    from vramgui.core.estimate import estimate

    return estimate(scenario)


def _core_max_micro_batch(scenario: Scenario) -> int:
    from vramgui.core.solve import max_micro_batch

    return max_micro_batch(scenario)


class ComparePresenter(QObject):
    """Holds the pinned scenarios. ``load_requested(Scenario)`` asks the editor to load one back."""

    load_requested = Signal(object)
    pinned_changed = Signal(int)  # number pinned, e.g. to enable a menu entry

    def __init__(self, view: CompareView, unit: str = "GB", estimate_fn: EstimateFn | None = None,
                 max_micro_batch_fn: SolveFn | None = None, export_folder: Callable[[], str] | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._view = view
        self._unit = unit
        self._estimate = estimate_fn or _core_estimate
        self._max_micro_batch = max_micro_batch_fn or _core_max_micro_batch
        self._export_folder = export_folder or (lambda: str(Path.home()))
        self._pinned: list[Pinned] = []
        self._figures: dict[int, Figures] = {}
        self._next_id = 1

    # --- state ----------------------------------------------------------------------------------------
    @property
    def pinned(self) -> tuple[Pinned, ...]:
        return tuple(self._pinned)

    def figures(self, pin_id: int) -> Figures:
        return self._figures[pin_id]

    @property
    def unit(self) -> str:
        return self._unit

    def can_pin(self) -> bool:
        return len(self._pinned) < MAX_PINNED

    # --- commands -------------------------------------------------------------------------------------
    def pin(self, scenario: Scenario, name: str | None = None) -> int | None:
        """Pin ``scenario``; returns its id, or None (limit reached or the scenario is invalid: told to the user)."""
        if not self.can_pin():
            self._view.show_message(self.tr("At most %1 scenarios can be compared; remove one first.")
                                    .replace("%1", str(MAX_PINNED)))
            return None
        try:
            figures = self._compute(scenario)
        except InputError as err:
            self._view.show_message(self.tr("This scenario cannot be pinned: %1").replace("%1", input_error_text(err)))
            return None
        pin_id = self._next_id
        self._next_id += 1
        label = (name or "").strip() or self._default_name(scenario, figures)
        self._pinned.append(Pinned(pin_id, self._unique(label), scenario))
        self._figures[pin_id] = figures
        self._view.show_message("")
        self._changed()
        return pin_id

    def rename(self, pin_id: int, name: str) -> None:
        """Rename a pinned scenario; an empty name keeps the old one (and the view shows it again)."""
        name = name.strip()
        self._pinned = [p if p.id != pin_id or not name else Pinned(p.id, name, p.scenario) for p in self._pinned]
        self.refresh()

    def remove(self, pin_id: int) -> None:
        self._pinned = [p for p in self._pinned if p.id != pin_id]
        self._figures.pop(pin_id, None)
        self._changed()

    def clear(self) -> None:
        self._pinned.clear()
        self._figures.clear()
        self._changed()

    def load(self, pin_id: int) -> None:
        """Ask the editor (the main presenter) to load this pinned scenario back."""
        for p in self._pinned:
            if p.id == pin_id:
                self.load_requested.emit(p.scenario)
                return

    def set_unit(self, unit: str) -> None:
        self._unit = unit
        self.refresh()

    def refresh(self) -> None:
        """Re-push everything (after a unit or language change)."""
        self._view.show_comparison(self.view_model())

    # --- export ---------------------------------------------------------------------------------------
    def export_png(self) -> bool:
        if not self._pinned:
            return False
        path = self._view.ask_export_path(self.tr("Export comparison chart"),
                                          os.path.join(self._export_folder(), "vramgui-comparison.png"),
                                          self.tr("PNG image (*.png)"))
        if not path:
            return False
        if not path.lower().endswith(".png"):
            path += ".png"
        try:
            self._view.export_chart_png(path, self.chart_title(), self.chart_caption())
        except OSError as err:
            self._view.show_message(self.tr("Could not export the chart: %1").replace("%1", str(err)))
            return False
        return True

    def export_csv(self) -> bool:
        if not self._pinned:
            return False
        path = self._view.ask_export_path(self.tr("Export comparison data"),
                                          os.path.join(self._export_folder(), "vramgui-comparison.csv"),
                                          self.tr("CSV file (*.csv)"))
        if not path:
            return False
        if not path.lower().endswith(".csv"):
            path += ".csv"
        try:
            self.write_csv(path)
        except OSError as err:
            self._view.show_message(self.tr("Could not export the data: %1").replace("%1", str(err)))
            return False
        return True

    def chart_title(self) -> str:
        return self.tr("Per-GPU memory by scenario")

    def chart_caption(self) -> str:
        return (self.tr("Stacked per-GPU memory by component (the sum), in %1 (%2). Marks: the step peak, which "
                        "decides the fit, and the usable GPU memory after the reserve. vramgui %3, convention per "
                        "scenario.")
                .replace("%1", self._unit).replace("%2", self.unit_meaning(self._unit))
                .replace("%3", __version__))

    def unit_meaning(self, unit: str) -> str:
        return self.tr("10^9 bytes") if unit == "GB" else self.tr("2^30 bytes")

    def csv_rows(self) -> list[dict[str, object]]:
        """One row per pinned scenario; exact integer bytes (machine-readable English column names)."""
        rows = []
        for p in self._pinned:
            f = self._figures[p.id]
            s = p.scenario
            row: dict[str, object] = {
                "name": p.name, "model": s.model.name, "strategy": f.strategy.label(), "convention": s.convention,
                "num_gpus": s.parallel.num_gpus, "gpu": s.hardware.gpu_name or "",
            }
            for key, value in f.components:
                row[f"{key}_bytes"] = "" if value is None else value
            row["total_bytes"] = f.total
            row[f"total_{self._unit}"] = f"{to_unit(f.total, self._unit):.3f}"
            row["peak_bytes"] = "" if f.peak is None else f.peak  # the step peak per GPU: what decides "fits"
            row[f"peak_{self._unit}"] = "" if f.peak is None else f"{to_unit(f.peak, self._unit):.3f}"
            row["peak_phase"], row["peak_step"] = f.peak_phase, f.peak_step
            row["usable_bytes"] = "" if f.usable is None else f.usable
            row["fits"] = "" if f.fits is None else str(f.fits).lower()
            row["headroom_bytes"] = "" if f.headroom is None else f.headroom
            row["max_micro_batch"] = "" if f.max_micro_batch is None else f.max_micro_batch
            row["accumulation_steps"] = f.accumulation_steps
            rows.append(row)
        return rows

    def write_csv(self, path: str | os.PathLike) -> None:
        rows = self.csv_rows()
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=list(rows[0]) if rows else ["name"], lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        atomic_write_text(path, buffer.getvalue())

    # --- view-model -----------------------------------------------------------------------------------
    def view_model(self) -> CompareVM:
        unit = self._unit
        figures = [self._figures[p.id] for p in self._pinned]
        rows = tuple(self._row(p, self._figures[p.id]) for p in self._pinned)
        series = [CompareSeriesVM(key, self.component_label(key), tuple(to_unit(b, unit) for b in bottoms),
                                  tuple(to_unit(h, unit) for h in heights))
                  for key, bottoms, heights in components.stack([dict(f.components) for f in figures])]
        return CompareVM(
            rows=rows,
            names=tuple(p.name for p in self._pinned),
            series=tuple(series),
            totals=tuple(to_unit(f.total, unit) for f in figures),
            capacities=tuple(None if f.usable is None else to_unit(f.usable, unit) for f in figures),
            unit=unit,
            axis_label=self.tr("Per-GPU memory (%1)").replace("%1", unit),
            can_pin=self.can_pin(),
            empty_hint="" if self._pinned else self.tr(
                "Pin the current scenario to compare it with others (up to %1).").replace("%1", str(MAX_PINNED)),
            **peak_marks([f.peak for f in figures], [f.total for f in figures], [f.fits for f in figures], unit),
        )

    def component_label(self, key: str) -> str:
        """The core's one component table (``vramgui.core.components``), in the user's language."""
        return text(components.label(key)) if key in components.COMPONENT_KEYS else key

    def _row(self, p: Pinned, f: Figures) -> CompareRowVM:
        unit = self._unit
        if f.fits is None:
            fits_text = self.tr("Unknown (no GPU memory given)")
        else:
            fits_text = self.tr("Yes") if f.fits else self.tr("No")
        not_estimated = self.tr("not estimated")
        lines = [f"{self.component_label(k)}: {not_estimated if v is None else format_bytes(v, unit)}"
                 for k, v in f.components]
        lines.append(peak_tooltip(f.peak, moment_of(f.peak_phase, f.peak_step) if f.peak is not None else "",
                                  f.total, unit))
        lines += [text(n) for n in f.notes]
        return CompareRowVM(
            id=p.id, name=p.name,
            total_text=format_bytes(f.total, unit),
            fits=f.fits, fits_text=fits_text,
            headroom_text="—" if f.headroom is None else format_bytes(f.headroom, unit),
            max_micro_batch_text="—" if f.max_micro_batch is None else str(f.max_micro_batch),
            accumulation_text=str(f.accumulation_steps),
            tooltip="\n".join(lines),
            peak_text="—" if f.peak is None else format_bytes(f.peak, unit),
        )

    # --- helpers --------------------------------------------------------------------------------------
    def _compute(self, scenario: Scenario) -> Figures:
        est = self._estimate(scenario)
        by_key = {c.key: c.bytes for c in est.components}
        peak = getattr(est, "peak", None)
        try:
            mmb: int | None = self._max_micro_batch(scenario)
        except (InputError, ValueError, ArithmeticError):
            mmb = None  # not solvable for this scenario (e.g. no GPU memory given)
        return Figures(
            components=tuple((k, by_key.get(k)) for k in STACK_KEYS),
            total=est.per_gpu_total, usable=est.usable, fits=est.fits, headroom=est.headroom,
            max_micro_batch=mmb, accumulation_steps=est.accumulation_steps,
            strategy=Strategy.of(scenario), notes=tuple(getattr(est, "notes", ())),
            peak=None if peak is None else peak.bytes, peak_phase="" if peak is None else peak.phase,
            peak_step="" if peak is None else peak.step,
        )

    def _default_name(self, scenario: Scenario, figures: Figures) -> str:
        gpus = f"{scenario.parallel.num_gpus}× {scenario.hardware.gpu_name or 'GPU'}"
        parts = [scenario.model.name, gpus, figures.strategy.label(qt_translate)]
        return " · ".join(part for part in parts if part)

    def _unique(self, name: str) -> str:
        names = {p.name for p in self._pinned}
        if name not in names:
            return name
        n = 2
        while f"{name} ({n})" in names:
            n += 1
        return f"{name} ({n})"

    def _changed(self) -> None:
        self.refresh()
        self.pinned_changed.emit(len(self._pinned))
