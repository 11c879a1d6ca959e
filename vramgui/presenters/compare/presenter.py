"""Compare pinned scenarios side by side: per-GPU totals by component and the headline figures.

Each pinned scenario is estimated once, when pinned (scenarios are frozen), by the core
(``vramgui.core.estimate.estimate`` and ``vramgui.core.solve.questions.max_micro_batch``); a unit or language change
only re-formats. A pin the user did not name is named by what differs from the other pins ("ZeRO-3, seq 8k, 16 GPUs",
``vramgui.presenters.scenario_inputs``), so its name follows the pinned set. The set is kept with the session
(``Settings.pinned_scenarios``) and can be saved to and opened from a comparison file (``vramgui.io.comparison_files``).
The view is passive (``CompareView``); tests drive this presenter with ``MagicMock(spec=CompareView)``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from vramgui.core.scenario.specs import Scenario
from vramgui.core.scenario.strategy import Strategy
from vramgui.core.step import components
from vramgui.core.step.components import STACK_KEYS
from vramgui.core.text.errors import InputError
from vramgui.core.text.units import to_unit
from vramgui.presenters import scenario_inputs
from vramgui.presenters.compare import export as compare_export
from vramgui.presenters.compare import files as compare_files
from vramgui.presenters.compare import serving as compare_serving
from vramgui.presenters.compare.files import ComparisonEntry, ComparisonError
from vramgui.presenters.compare.models import (
    CompareRowVM,
    CompareSeriesVM,
    CompareView,
    CompareVM,
    Figures,
    Pinned,
)
from vramgui.presenters.messages import input_error_text
from vramgui.presenters.result_csv import write_rows
from vramgui.presenters.step_results import peak_marks

if TYPE_CHECKING:
    from vramgui.settings import Settings

MAX_PINNED = 6
DEFAULT_EXPORT_WIDTH = 1600  # px, when no export width is given (the window's File > PNG export width)
__all__ = ["MAX_PINNED", "STACK_KEYS", "ComparePresenter", "CompareRowVM", "CompareSeriesVM", "CompareVM",
           "CompareView", "Figures", "Pinned"]  # STACK_KEYS: the core's stacking order


@dataclass(frozen=True)
class _Pin:
    id: int
    scenario: Scenario
    given: str | None  # the user's own name; None: named by what differs from the other pins


EstimateFn = Callable[[Scenario], Any]
SolveFn = Callable[[Scenario], int]


def _core_estimate(scenario: Scenario) -> Any:
    from vramgui.core.estimate import estimate

    return estimate(scenario)


def _core_max_micro_batch(scenario: Scenario) -> int:
    from vramgui.core.solve.questions import max_micro_batch

    return max_micro_batch(scenario)


class ComparePresenter(QObject):
    """Holds the pinned scenarios. ``load_requested(Scenario)`` asks the editor to load one back."""

    load_requested = Signal(object)
    pinned_changed = Signal(int)  # number pinned, e.g. to enable a menu entry

    def __init__(self, view: CompareView, unit: str = "GB", estimate_fn: EstimateFn | None = None,
                 max_micro_batch_fn: SolveFn | None = None, export_folder: Callable[[], str] | None = None,
                 parent: QObject | None = None, *, settings: Settings | None = None,
                 export_width: Callable[[], int] | None = None) -> None:
        super().__init__(parent)
        self._view = view
        self._unit = unit
        self._estimate = estimate_fn or _core_estimate
        self._max_micro_batch = max_micro_batch_fn or _core_max_micro_batch
        self._settings = settings  # the session keeps the pins; the folders of the file dialogs
        self._export_folder = export_folder or (
            (lambda: settings.last_folder("export")) if settings is not None else (lambda: str(Path.home())))
        self._export_width = export_width or (lambda: DEFAULT_EXPORT_WIDTH)
        self._pins: list[_Pin] = []
        self._figures: dict[int, Figures] = {}
        self._next_id = 1

    # --- state ----------------------------------------------------------------------------------------
    @property
    def pinned(self) -> tuple[Pinned, ...]:
        """The pins with the names shown."""
        return tuple(Pinned(p.id, name, p.scenario, p.given is not None) for p, name in zip(self._pins, self._names(),
                                                                                           strict=True))

    def entries(self) -> tuple[ComparisonEntry, ...]:
        """The pinned set as a comparison file and the session hold it: each scenario with the user's own name."""
        return tuple(ComparisonEntry(p.scenario, p.given) for p in self._pins)

    def figures(self, pin_id: int) -> Figures:
        return self._figures[pin_id]

    @property
    def unit(self) -> str:
        return self._unit

    def can_pin(self) -> bool:
        return len(self._pins) < MAX_PINNED

    # --- commands -------------------------------------------------------------------------------------
    def pin(self, scenario: Scenario, name: str | None = None) -> int | None:
        """Pin ``scenario``; returns its id, or None (limit reached or the scenario is invalid: told to the user).
        ``name``: the user's own (kept as given, made unique); without one the pin is named by what differs."""
        if not self.can_pin():
            self._view.show_message(self.tr("At most %1 scenarios can be compared; remove one first.")
                                    .replace("%1", str(MAX_PINNED)))
            return None
        try:
            figures = self._compute(scenario)
        except InputError as err:
            self._view.show_message(self.tr("This scenario cannot be pinned: %1").replace("%1", input_error_text(err)))
            return None
        pin_id = self._add(scenario, figures, (name or "").strip() or None)
        self._view.show_message("")
        self._changed()
        return pin_id

    def restore(self, entries: Sequence[ComparisonEntry]) -> int:
        """Replace the pinned set by ``entries`` (the last session's, an opened file's); a scenario the core refuses
        is left out and said so. Returns how many were pinned."""
        self._pins.clear()
        self._figures.clear()
        refused = []
        for entry in list(entries)[:MAX_PINNED]:
            try:
                figures = self._compute(entry.scenario)
            except InputError as err:
                refused.append(input_error_text(err))
                continue
            self._add(entry.scenario, figures, entry.name)
        self._view.show_message(self.tr("Not pinned again (the scenario is no longer valid): %1")
                                .replace("%1", "; ".join(refused)) if refused else "")
        self._changed()
        return len(self._pins)

    def rename(self, pin_id: int, name: str) -> None:
        """Rename a pinned scenario; an empty name keeps the old one (and the view shows it again)."""
        name = name.strip()
        self._pins = [p if p.id != pin_id or not name else _Pin(p.id, p.scenario, name) for p in self._pins]
        self._keep()
        self.refresh()

    def remove(self, pin_id: int) -> None:
        self._pins = [p for p in self._pins if p.id != pin_id]
        self._figures.pop(pin_id, None)
        self._changed()

    def clear(self) -> None:
        self._pins.clear()
        self._figures.clear()
        self._changed()

    def load(self, pin_id: int) -> None:
        """Ask the editor (the main presenter) to load this pinned scenario back."""
        for p in self._pins:
            if p.id == pin_id:
                self.load_requested.emit(p.scenario)
                return

    def set_unit(self, unit: str) -> None:
        self._unit = unit
        self.refresh()

    def refresh(self) -> None:
        """Re-push everything (after a unit or language change)."""
        self._view.show_comparison(self.view_model())

    # --- comparison files -----------------------------------------------------------------------------
    def save_comparison(self) -> bool:
        """File > Save comparison: every pin, as full scenarios, in one file (written atomically)."""
        if not self._pins:
            return False
        folder = self._settings.last_folder("save") if self._settings is not None else self._export_folder()
        path = self._view.ask_export_path(self.tr("Save comparison"), os.path.join(folder, "comparison.json"),
                                          compare_files.file_filter())
        if not path:
            return False
        if not path.lower().endswith(".json"):
            path += ".json"
        if self._settings is not None:
            self._settings.set_last_folder("save", Path(path).parent)
        try:
            compare_files.save_comparison(path, self.entries())
        except OSError as err:
            self._view.show_error(self.tr("Cannot save comparison"),
                                  self.tr("%1 was not saved: %2\nThe file on disk is unchanged.")
                                  .replace("%1", path).replace("%2", err.strerror or str(err)))
            return False
        self._view.show_status(self.tr("Comparison saved to %1").replace("%1", path))
        return True

    def open_comparison(self) -> bool:
        """File > Open comparison: a file from the dialog replaces the pinned set (asked first when pins would go)."""
        folder = self._settings.last_folder("open") if self._settings is not None else self._export_folder()
        path = self._view.ask_open_path(self.tr("Open comparison"), folder, compare_files.file_filter())
        if not path:
            return False
        if self._settings is not None:
            self._settings.set_last_folder("open", Path(path).parent)
        return self.open_path(path)

    def open_path(self, path: str) -> bool:
        """Read the whole file first: any problem is shown and changes nothing."""
        try:
            entries = compare_files.load_comparison(path, max_entries=MAX_PINNED)
        except ComparisonError as err:
            self._view.show_error(self.tr("Cannot open comparison"), compare_files.error_text(err))
            return False
        if self._pins and tuple(entries) != self.entries() and not self._view.ask_replace(
                self.tr("Replace pinned scenarios"),
                self.tr("Replace the %1 pinned scenarios with the %2 in %3?")
                .replace("%1", str(len(self._pins))).replace("%2", str(len(entries))).replace("%3", path)):
            return False
        self.restore(entries)
        self._view.show_status(self.tr("Opened comparison %1").replace("%1", path))
        return True

    # --- export ---------------------------------------------------------------------------------------
    def export_png(self) -> bool:
        if not self._pins:
            return False
        path = self._view.ask_export_path(self.tr("Export comparison chart"),
                                          os.path.join(self._export_folder(), "vramgui-comparison.png"),
                                          self.tr("PNG image (*.png)"))
        if not path:
            return False
        if not path.lower().endswith(".png"):
            path += ".png"
        try:
            self._view.export_chart_png(path, self.chart_title(), self.chart_caption(), int(self._export_width()))
        except OSError as err:
            self._view.show_message(self.tr("Could not export the chart: %1").replace("%1", str(err)))
            return False
        return True

    def export_csv(self) -> bool:
        if not self._pins:
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
        """The unit, the marks, and every input that changes the results: shared, then each pin's own."""
        pinned = self.pinned
        return compare_export.caption(pinned, self._unit, self.unit_meaning(self._unit),
                                      [self._figures[p.id] for p in pinned])

    def unit_meaning(self, unit: str) -> str:
        return self.tr("10^9 bytes") if unit == "GB" else self.tr("2^30 bytes")

    def csv_rows(self) -> list[dict[str, object]]:
        """One row per pinned scenario: every input, exact integer bytes (machine-readable English column names)."""
        return compare_export.csv_rows(self.pinned, self._figures, self._unit)

    def write_csv(self, path: str | os.PathLike) -> None:
        """UTF-8 with a BOM (Excel), written atomically."""
        rows = self.csv_rows()  # a serving pin adds its parts' columns: every row's keys, in order
        write_rows(path, list(dict.fromkeys(k for r in rows for k in r)) if rows else ["name"], rows)

    # --- view-model -----------------------------------------------------------------------------------
    def view_model(self) -> CompareVM:
        unit = self._unit
        pinned = self.pinned
        figures = [self._figures[p.id] for p in pinned]
        rows = tuple(compare_export.row_vm(p, self._figures[p.id], unit) for p in pinned)
        series = [CompareSeriesVM(key, self.component_label(key), tuple(to_unit(b, unit) for b in bottoms),
                                  tuple(to_unit(h, unit) for h in heights))
                  for key, bottoms, heights in components.stack([dict(f.components) for f in figures],
                                                                compare_serving.stack_keys(figures))]
        return CompareVM(
            rows=rows,
            names=tuple(p.name for p in pinned),
            series=tuple(series),
            totals=tuple(to_unit(f.total, unit) for f in figures),
            capacities=tuple(None if f.usable is None else to_unit(f.usable, unit) for f in figures),
            unit=unit,
            axis_label=self.tr("Per-GPU memory (%1)").replace("%1", unit),
            can_pin=self.can_pin(),
            empty_hint="" if pinned else self.tr(
                "Pin the current scenario to compare it with others (up to %1).").replace("%1", str(MAX_PINNED)),
            **peak_marks([f.peak for f in figures], [f.total for f in figures], [f.fits for f in figures], unit),
            common_text=(self.tr("Every scenario: %1").replace("%1", common)
                         if (common := compare_export.common_text(pinned)) else ""),
            time_texts=tuple(compare_export.bar_time_text(f) for f in figures),
        )

    def component_label(self, key: str) -> str:
        """The core's one component table (``vramgui.core.step.components``), in the user's language."""
        return compare_export.component_label(key)

    # --- helpers --------------------------------------------------------------------------------------
    def _compute(self, scenario: Scenario) -> Figures:
        if scenario.serve.active:  # the Serve mode's scenario: serving's parts and fit
            return compare_serving.serve_figures(scenario)
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
            peak_step="" if peak is None else peak.step, time=getattr(est, "time", None),
        )

    def _add(self, scenario: Scenario, figures: Figures, given: str | None) -> int:
        pin_id = self._next_id
        self._next_id += 1
        if given is not None:
            given = scenario_inputs.unique(given, set(self._names()))
        self._pins.append(_Pin(pin_id, scenario, given))
        self._figures[pin_id] = figures
        return pin_id

    def _names(self) -> list[str]:
        return scenario_inputs.pin_names([p.scenario for p in self._pins], [p.given for p in self._pins])

    def _keep(self) -> None:
        """The session keeps the pinned set (restored at the next start; written with the other settings)."""
        if self._settings is not None:
            self._settings.set_pinned_scenarios(self.entries())

    def _changed(self) -> None:
        self._keep()
        self.refresh()
        self.pinned_changed.emit(len(self._pins))
