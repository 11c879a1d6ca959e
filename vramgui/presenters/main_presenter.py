"""The main window's presenter: holds the form and the last valid scenario, recomputes on every edit.

Mu-style: it owns a passive ``MainView`` and calls its plain methods; it never touches a widget. The view
reports edits with ``on_field_edited(key, value)``; the presenter answers with ``show_result`` (valid input)
or ``show_field_errors`` + ``show_stale`` (invalid input: the last valid result stays, marked stale).
"""

from __future__ import annotations

import csv
import logging
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal

from vramgui.core.architecture import Architecture
from vramgui.core.errors import InputError
from vramgui.core.specs import ModelSpec, Scenario
from vramgui.core.units import GB, GiB, format_bytes, format_count, parse_bytes
from vramgui.presenters import catalog_access
from vramgui.presenters.form import (
    ARCH_FIELDS,
    CUSTOM,
    IMPORTED,
    arch_form_values,
    build_scenario,
    default_form,
    form_from_scenario,
    memory_text,
)
from vramgui.presenters.messages import input_error_text
from vramgui.presenters.protocols import MainView
from vramgui.presenters.results import SWEEP_COUNTS, Computed, compute, max_model_vm, sweep_vm, sweep_work
from vramgui.presenters.view_models import FieldError, ResultVM

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

log = logging.getLogger(__name__)

CSV_COLUMNS = ("table", "strategy", "num_gpus", "component", "bytes", "params", "formula")


def field_for_error(field: str, keys) -> str:
    """The form key an ``InputError.field`` from the core belongs to ("" when none matches)."""
    keys = list(keys)
    if field in keys:
        return field
    last = field.split(".")[-1]
    for key in keys:
        if key.split(".")[-1] == last:
            return key
    aliases = {"num_gpus": "parallel.tp", "architecture": "model.mode", "gpu_memory": "hardware.gpu_memory",
               "params": "model.params", "zero_stage": "parallel.zero_stage", "reserve": "hardware.reserve"}
    return aliases.get(last, "")


def memory_hint(n: int | None) -> str:
    """The GPU memory in the other unit, next to the field. Vendors' "80GB" cards (A100, H100) hold 80 GiB,
    which is 85.90 GB in the app's default unit: said so, so that figure does not surprise."""
    if n is None:
        return ""
    gb, gib = format_bytes(n, "GB"), format_bytes(n, "GiB")  # e.g. 80GiB -> "= 85.90 GB", 80GB -> "= 74.51 GiB"
    if n % GiB == 0 and n % GB:
        return translate("MainPresenter", "= {gb}: vendors' “{k}GB” is {k} GiB").format(gb=gb, k=n // GiB)
    return translate("MainPresenter", "= {gib}").format(gib=gib)


def _bytes_or_none(text: object) -> int | None:
    try:
        return parse_bytes(str(text).strip())
    except ValueError:
        return None


class MainPresenter(QObject):
    """Form state -> Scenario -> core -> ResultVM -> view."""

    result_changed = Signal(object)  # the new ResultVM, after the view has been updated
    sweeps_done = Signal()  # charts 2 and 3 are complete for the current result
    input_invalid = Signal(list)  # the FieldErrors

    SLICE_SECONDS = 0.008  # background work per event-loop turn: keeps typing smooth (half a 60 Hz frame)

    def __init__(self, view: MainView, unit: str = "GB", parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._view = view
        self._unit = unit
        self._form: dict[str, object] = default_form()
        self._model_base = ModelSpec(name="custom", params=7 * 10**9)
        self._imported: ModelSpec | None = None
        self._scenario: Scenario | None = None
        self._computed: Computed | None = None
        self._errors: list[FieldError] = []
        self._work = None  # the generator filling the sweeps of the current result
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._work_slice)

    # ----- state read by the window, tests and exports
    @property
    def scenario(self) -> Scenario | None:
        """The last valid scenario (the one the shown result belongs to)."""
        return self._scenario

    @property
    def result(self) -> ResultVM | None:
        return None if self._computed is None else self._computed.result

    @property
    def computed(self) -> Computed | None:
        return self._computed

    @property
    def errors(self) -> list[FieldError]:
        return list(self._errors)

    @property
    def is_stale(self) -> bool:
        return bool(self._errors)

    @property
    def unit(self) -> str:
        return self._unit

    def form_value(self, key: str) -> object:
        return self._form.get(key)

    def form_values(self) -> dict[str, object]:
        """Every raw form value (valid or not), e.g. to carry unsaved edits into a rebuilt window."""
        return dict(self._form)

    # ----- start-up
    def start(self, initial: Scenario | None = None) -> None:
        """Fill the choice lists, show the default form (or ``initial``, e.g. the last session's) and compute."""
        self._refresh_model_choices()
        gpus = [(CUSTOM, translate("MainPresenter", "Custom memory"))]
        gpus += [(key, preset.name) for key, preset in catalog_access.gpu_presets().items()]
        self._view.set_choices("hardware.gpu", gpus)
        self._push(self._form)
        if initial is not None:
            self.load_scenario(initial)
        else:
            self.recompute()

    def _refresh_model_choices(self) -> None:
        choices = [("", translate("MainPresenter", "(none: custom model)"))]
        if self._imported is not None:
            choices.append((IMPORTED, translate("MainPresenter", "{0} (imported)").format(self._imported.name)))
        choices += [(key, preset.name) for key, preset in catalog_access.model_presets().items()]
        self._view.set_choices("model.preset", choices)

    # ----- edits
    def on_field_edited(self, key: str, value: object) -> None:
        """A field changed in the view: update the form, apply its side effects, recompute."""
        self._form[key] = value
        pushed: dict[str, object] = {}
        if key == "model.preset":
            pushed.update(self._select_model(str(value)))
        elif key == "model.mode":
            pushed.update(self._switch_mode(str(value)))
        elif key == "hardware.gpu":
            preset = catalog_access.gpu_presets().get(str(value))
            if preset is not None:
                pushed["hardware.gpu_memory"] = memory_text(preset.memory)
        elif key == "hardware.gpu_memory":
            preset = catalog_access.gpu_presets().get(str(self._form.get("hardware.gpu")))
            if preset is not None and _bytes_or_none(value) != preset.memory:
                pushed["hardware.gpu"] = CUSTOM
        if pushed:
            self._form.update(pushed)
            self._push(pushed)
        self.recompute()

    def _current_model(self) -> ModelSpec:
        if self._scenario is not None:
            return self._scenario.model
        return self._model_base

    def _select_model(self, key: str) -> dict[str, object]:
        if key == IMPORTED and self._imported is not None:
            spec = self._imported
        else:
            preset = catalog_access.model_presets().get(key)
            if preset is None:  # "(none)": keep the numbers, edit them by parameter count
                return {"model.mode": "params"}
            spec = preset.spec
        self._model_base = spec
        values: dict[str, object] = {"model.mode": "preset"}
        if spec.architecture is not None:
            values.update(arch_form_values(spec.architecture))
        if spec.params is not None:
            values["model.params"] = str(spec.params)
        return values

    def _switch_mode(self, mode: str) -> dict[str, object]:
        current = self._current_model()
        if mode == "preset":
            if not self._form.get("model.preset"):
                return {"model.mode": "params"}
            arch = self._model_base.architecture  # back to the preset as it is: undo edits shown in the fields
            return arch_form_values(arch) if arch is not None else {}
        if mode == "architecture":
            self._model_base = current if current.architecture is not None else ModelSpec(architecture=Architecture())
            return arch_form_values(self._model_base.architecture)
        if self._computed is not None:
            return {"model.params": str(self._computed.estimate.params)}
        return {}

    def import_model(self, path: str) -> bool:
        """Load a Hugging Face config.json (file or model folder) as the model; inline error on failure."""
        try:
            from vramgui.core.hf_config import load_model_spec

            spec = load_model_spec(path)
        except (OSError, ValueError, KeyError, ImportError) as err:
            message = translate("MainPresenter", "Cannot import {0}: {1}").format(Path(path).name, err)
            self._errors = [FieldError("model.preset", message)]
            self._view.show_field_errors(self._errors)
            self._view.show_stale(message if self._computed is not None else None)
            self.input_invalid.emit(self._errors)
            return False
        self._imported = spec
        self._refresh_model_choices()
        self._form["model.preset"] = IMPORTED
        self._push({"model.preset": IMPORTED})
        self.on_field_edited("model.preset", IMPORTED)
        return True

    def load_scenario(self, scenario: Scenario) -> None:
        """Show an opened scenario file in the form; its model is kept exactly (a preset when it is one)."""
        form = form_from_scenario(scenario)
        model = scenario.model
        self._model_base = model
        preset_key = next((k for k, p in catalog_access.model_presets().items() if p.spec == model), None)
        if model.architecture is None:
            form.update({"model.mode": "params", "model.params": str(model.params), "model.preset": ""})
        else:
            if preset_key is None:  # keep the file's model exactly, as an imported one
                self._imported = model
                self._refresh_model_choices()
                preset_key = IMPORTED
            form.update({"model.mode": "preset", "model.preset": preset_key})
            form.update(arch_form_values(model.architecture))
        gpu = CUSTOM
        for key, preset in catalog_access.gpu_presets().items():
            if preset.name == scenario.hardware.gpu_name and preset.memory == scenario.hardware.gpu_memory:
                gpu = key
        form["hardware.gpu"] = gpu
        self._form.update(form)
        self._push(form)
        self.recompute()

    def set_unit(self, unit: str) -> None:
        self._unit = unit
        self.recompute()

    # ----- computing
    def recompute(self) -> None:
        scenario, errors = build_scenario(self._form, self._model_base, self._gpu_name())
        self._update_enabled()
        if scenario is None:
            self._invalid(errors)
            return
        try:
            computed = compute(scenario, self._unit)
        except InputError as err:
            self._invalid([FieldError(field_for_error(err.field, self._form), input_error_text(err))])
            return
        except Exception as err:  # noqa: BLE001 - a core bug must not take the window down; logged in full
            log.exception("estimate failed for %r", scenario)
            self._invalid([FieldError("", translate(
                "MainPresenter", "Internal error, please report it: {0}").format(err))])
            return
        self._scenario = scenario
        self._computed = computed
        had_errors = bool(self._errors)
        self._errors = []
        if had_errors:
            self._view.show_field_errors([])
            self._view.show_stale(None)
        self._push_model_count(computed)
        self._view.show_result(computed.result)
        self._work = sweep_work(computed)
        self._timer.start()
        self.result_changed.emit(computed.result)

    # ----- the sweeps (charts 2 and 3), a slice at a time in idle time
    @property
    def sweeps_pending(self) -> bool:
        return self._work is not None

    def _work_slice(self, budget: float | None = None) -> None:
        if self._work is None:
            return
        deadline = time.perf_counter() + (self.SLICE_SECONDS if budget is None else budget)
        computed = self._computed
        for stage in self._work:
            if stage == "sweep":
                self._view.show_sweep(sweep_vm(computed, self._unit))
            elif stage == "max_model":
                self._view.show_max_model(max_model_vm(computed))
                self._work = None
                self.sweeps_done.emit()
                return
            if time.perf_counter() > deadline:
                self._timer.start()
                return
        self._work = None

    def finish_sweeps(self) -> None:
        """Complete the pending sweeps now (before an export, and in tests)."""
        self._timer.stop()
        self._work_slice(budget=float("inf"))

    def _push_model_count(self, computed: Computed) -> None:
        est = computed.estimate
        hint = format_count(est.params)
        if getattr(est, "active_params", est.params) not in (None, est.params):
            hint = translate("MainPresenter", "{0}, {1} active").format(hint, format_count(est.active_params))
        values: dict[str, object] = {"model.params_hint": "≈ " + hint,
                                     "hardware.gpu_memory_hint": memory_hint(self._scenario.hardware.gpu_memory)}
        if self._form.get("model.mode") != "params":
            values["model.params"] = str(est.params)
            self._form["model.params"] = str(est.params)
        self._view.set_form_values(values)

    def _invalid(self, errors: list[FieldError]) -> None:
        self._errors = errors
        self._view.show_field_errors(errors)
        reason = "; ".join(e.message for e in errors)
        self._view.show_stale(translate("MainPresenter", "Not updated: {0}").format(reason))
        self.input_invalid.emit(errors)

    def _gpu_name(self) -> str | None:
        preset = catalog_access.gpu_presets().get(str(self._form.get("hardware.gpu")))
        return None if preset is None else preset.name

    def _update_enabled(self) -> None:
        mode = self._form.get("model.mode")
        states = {key: mode == "architecture" for key in ARCH_FIELDS}
        states["model.params"] = mode == "params"
        states["offload.params"] = str(self._form.get("parallel.zero_stage")) == "3"
        try:
            states["parallel.sp"] = int(str(self._form.get("parallel.tp"))) > 1
        except ValueError:
            states["parallel.sp"] = False
        self._view.set_fields_enabled(states)

    def _push(self, values: dict[str, object]) -> None:
        self._view.set_form_values(dict(values))

    # ----- data export
    def csv_rows(self) -> list[dict[str, object]]:
        """The shown result as tidy rows (exact bytes), one table after another."""
        if self._computed is None:
            return []
        self.finish_sweeps()
        c = self._computed
        n = self._scenario.parallel.num_gpus
        rows: list[dict[str, object]] = []
        strategy = c.result.summary.strategy
        for comp in c.estimate.components:
            rows.append({"table": "breakdown", "strategy": strategy, "num_gpus": n, "component": comp.key,
                         "bytes": "" if comp.bytes is None else comp.bytes, "params": "",
                         "formula": comp.derivation or comp.formula})
        rows.append({"table": "breakdown", "strategy": strategy, "num_gpus": n, "component": "total",
                     "bytes": c.estimate.per_gpu_total, "params": "", "formula": ""})
        for label, _, est in c.variants:
            for comp in est.components:
                rows.append({"table": "strategies", "strategy": label, "num_gpus": n, "component": comp.key,
                             "bytes": "" if comp.bytes is None else comp.bytes, "params": "", "formula": ""})
            rows.append({"table": "strategies", "strategy": label, "num_gpus": n, "component": "total",
                         "bytes": est.per_gpu_total, "params": "", "formula": ""})
        counts = SWEEP_COUNTS
        for label, values in c.sweep_bytes.items():
            for count, value in zip(counts, values):
                if value is not None:
                    rows.append({"table": "per_gpu_vs_gpus", "strategy": label, "num_gpus": count, "component": "total",
                                 "bytes": value, "params": "", "formula": ""})
        for label, values in c.max_params.items():
            for count, value in zip(counts, values):
                if value is not None:
                    rows.append({"table": "largest_model_vs_gpus", "strategy": label, "num_gpus": count,
                                 "component": "", "bytes": "", "params": value, "formula": ""})
        return rows

    def write_csv(self, path: str) -> None:
        with open(path, "w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, fieldnames=CSV_COLUMNS)
            writer.writeheader()
            writer.writerows(self.csv_rows())
