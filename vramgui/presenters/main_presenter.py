"""The main window's presenter: holds the Scenario itself and recomputes on every edit.

Mu-style: it owns a passive ``MainView`` and calls its plain methods; it never touches a widget. The view reports
edits with ``on_field_edited(key, value)`` where ``key`` is a field's dotted path in the registry
(``vramgui.core.fields.registry``) or one of the three UI keys (``presenters.form.UI_KEYS``); the held scenario
(the *draft*), the text that does not parse yet and the UI choices are a ``FormDraft`` (``presenters/form/draft.py``).
The presenter answers with ``show_result`` (valid) or ``show_field_errors`` + ``show_stale`` (invalid: the last valid
result stays, marked stale), and disables the inputs the scenario ignores with the reason
(``fields.inactive_reason``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal

from vramgui.core.documents.scenario import PresetRef
from vramgui.core.fields import registry as fields
from vramgui.core.fields.form_rows import GPU_PRESET, MODEL_PRESET
from vramgui.core.scenario.specs import ModelSpec, Scenario
from vramgui.core.text.errors import InputError
from vramgui.presenters import catalog_access, result_csv, serve_results
from vramgui.presenters.form.draft import FORM_KEYS, FormDraft
from vramgui.presenters.form.groups import CUSTOM, IMPORTED, display, first_scenario
from vramgui.presenters.form.model_choice import architecture_count
from vramgui.presenters.form.texts import count_hints, enabled_states
from vramgui.presenters.messages import input_error_text
from vramgui.presenters.protocols import MainView
from vramgui.presenters.results import Computed, compute, max_model_vm, sweep_vm, sweep_work
from vramgui.presenters.serve_results import ServeComputed, compute_serve
from vramgui.presenters.view_models import FieldError, ResultVM

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

log = logging.getLogger(__name__)


class MainPresenter(QObject):
    """The held Scenario -> core -> ResultVM -> view."""

    result_changed = Signal(object)  # the new ResultVM, after the view has been updated
    sweeps_done = Signal()  # charts 2 and 3 are complete for the current result
    input_invalid = Signal(list)  # the FieldErrors

    SLICE_SECONDS = 0.008  # background work per event-loop turn: keeps typing smooth (half a 60 Hz frame)

    def __init__(self, view: MainView, unit: str = "GB", parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._view = view
        self._unit = unit
        self._form = FormDraft(self._count)  # the draft, its pending text, the UI choices, what the view shows
        self._enabled: tuple[dict[str, bool], dict[str, str]] | None = None  # the enabled states last pushed
        self._scenario: Scenario | None = None  # the last valid scenario: the shown result's
        self._shown_key: tuple[Scenario, str] | None = None  # the shown result's scenario and unit
        self._computed: Computed | None = None
        self._served: ServeComputed | None = None  # the Serve mode's result (the draft's serve.active)
        self._errors: list[FieldError] = []
        self._notice: list[FieldError] = []  # a failed import's message (not an error of the scenario)
        self._work: Iterator[str] | None = None  # the generator filling the sweeps of the current result
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._work_slice)

    # ----- state read by the window, the document presenter, tests and exports
    @property
    def scenario(self) -> Scenario | None:
        """The last valid scenario (the one the shown result belongs to)."""
        return self._scenario

    @property
    def draft(self) -> Scenario:
        """The scenario being edited, exactly (what File > Save writes): every edit that parses applied."""
        return self._form.scenario

    @property
    def result(self) -> ResultVM | None:
        return None if self._computed is None else self._computed.result

    @property
    def computed(self) -> Computed | None:
        return self._computed

    @property
    def served(self) -> ServeComputed | None:
        """The Serve mode's shown result; None while the scenario plans training."""
        return self._served

    @property
    def serving(self) -> bool:
        """Whether the shown result is the Serve mode's."""
        return self._served is not None

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
        """What the field ``key`` shows: UI state, the pending text of an edit that does not parse, or the value."""
        return self._form.value(key)

    def pending_edits(self) -> dict[str, object]:
        """Edits that do not parse yet (path -> raw value), e.g. to carry them into a rebuilt window."""
        return self._form.pending_edits()

    def model_choice_state(self) -> tuple[str, str, ModelSpec | None, Any]:
        """How the model is defined (mode, preset key, imported model, architecture shown), to carry into a
        rebuilt window with ``restore_model_choice``."""
        m = self._form.model
        return m.mode, m.preset, m.imported, m.arch_shown

    def restore_model_choice(self, state: tuple[str, str, ModelSpec | None, Any]) -> None:
        """Define the held model as ``state`` says (after ``load_scenario`` of the same scenario)."""
        self._form.restore_model_choice(state)
        self._refresh_model_choices()
        self._sync()
        self.recompute()

    def preset_ref(self) -> PresetRef | None:
        """The catalog entries the scenario started from, recorded in a saved file (informational)."""
        return self._form.preset_ref()

    # ----- start-up and loading
    def start(self, initial: Scenario | None = None) -> None:
        """Fill the preset lists, show the first-run scenario (``groups.first_scenario``: Llama-3-8B on 8 x H100) or
        ``initial`` (the last session's) and compute."""
        self._refresh_model_choices()
        gpus = [(CUSTOM, translate("MainPresenter", "Custom memory"))]
        gpus += [(key, catalog_access.gpu_choice_text(key, preset.name))  # "NVIDIA A100 80GB · 80 GiB"
                 for key, preset in catalog_access.gpu_presets().items()]
        self._view.set_choices(GPU_PRESET, gpus)
        self.load_scenario(first_scenario() if initial is None else initial)

    def load_scenario(self, scenario: Scenario) -> None:
        """Show ``scenario`` exactly (an opened file, a pinned scenario); its model is a preset when it is one, else
        kept as an imported model."""
        if self._form.load(scenario):
            self._refresh_model_choices()
        self._sync()
        self.recompute()

    def import_model(self, path: str) -> bool:
        """Load a Hugging Face config.json (file or model folder) as the model; inline error on failure."""
        try:
            from vramgui.io.hf_config import load_model_spec

            spec = load_model_spec(path)
        except (OSError, ValueError, KeyError, ImportError) as err:
            reason = input_error_text(err) if isinstance(err, InputError) else str(err)
            message = translate("MainPresenter", "Cannot import {0}: {1}").format(Path(path).name, reason)
            self._notice = [FieldError(MODEL_PRESET, message)]  # until the next edit; the scenario is unchanged,
            self._view.show_field_errors(self._errors + self._notice)  # so its result is neither stale nor edited
            return False
        self._form.model.imported = spec
        self._refresh_model_choices()
        self.on_field_edited(MODEL_PRESET, IMPORTED)
        return True

    def _refresh_model_choices(self) -> None:
        choices = [("", translate("MainPresenter", "(none: custom model)"))]
        imported = self._form.model.imported
        if imported is not None:
            choices.append((IMPORTED, translate("MainPresenter", "{0} (imported)").format(imported.name)))
        choices += [(key, preset.name) for key, preset in catalog_access.model_presets().items()]
        self._view.set_choices(MODEL_PRESET, choices)
        self._form.shown.pop(MODEL_PRESET, None)

    # ----- edits
    def on_edit_finished(self, key: str) -> None:
        """The view's editor of ``key`` was left (Return, Tab, focus elsewhere): its next edit starts a new typing."""
        self._form.finish_typing(key)

    def on_field_edited(self, key: str, value: object) -> None:
        """A field changed in the view: update the scenario (or keep the text with its error), recompute."""
        if not self._form.edit(key, value):
            return
        self._sync(skip=key)
        self.recompute()

    def _count(self, model: ModelSpec) -> int | None:
        """Φ of ``model``: the shown estimate's when it is that model's, else counted from its architecture."""
        est: Any = None if self._computed is None else self._computed.estimate
        if est is not None and est.scenario.model == model:
            return int(est.params)
        return architecture_count(model)

    def set_unit(self, unit: str) -> None:
        self._unit = unit
        self.recompute()

    # ----- showing the draft
    def _sync(self, skip: str | None = None) -> None:
        """Push every value that differs from what the view shows; never the field being typed in."""
        values = self._form.changed_values(skip)
        if values:
            self._view.set_form_values(values)

    # ----- computing
    def recompute(self) -> None:
        """Compute the draft and show it. Text that does not parse is not in the draft (its field keeps the value
        from before the typing began), so the draft is computed all the same and shown under the stale banner,
        which names what is wrong. A draft the core refuses as a whole (TP 3 of 8 GPUs) leaves the result of the
        draft from before the typing greyed, never a half-typed value's (issue 23)."""
        errors = self._form.errors()
        if errors and self._shown_key == (self.draft, self._unit):  # the stale result is the draft's already
            self._invalid(errors)
            return
        problem = self._show(self.draft, errors)
        if problem is None:
            return
        errors = [*errors, problem]
        base = self._form.before_typing()
        if base is not None and self._shown_key != (base, self._unit) and self._show(base, errors) is None:
            return
        self._invalid(errors)

    def _show(self, scenario: Scenario, errors: list[FieldError]) -> FieldError | None:
        """Compute ``scenario`` and show its result (stale under ``errors`` when there are any); the error when
        the core refuses it (nothing is shown then)."""
        try:
            if scenario.serve.active:
                self._show_served(scenario, compute_serve(scenario, self._unit), errors)
                return None
            computed = compute(scenario, self._unit)
        except InputError as err:
            return FieldError(err.field if err.field in FORM_KEYS else "", input_error_text(err))
        except Exception as err:
            log.exception("estimate failed for %r", scenario)
            return FieldError("", translate("MainPresenter", "Internal error, please report it: {0}").format(err))
        self._accepted(scenario, errors)
        self._computed, self._served = computed, None
        self._push_counts(computed)
        self._view.show_result(computed.result)
        self._work = sweep_work(computed)
        self._timer.start()
        self._invalid(errors)
        self.result_changed.emit(computed.result)
        return None

    def _accepted(self, scenario: Scenario, errors: list[FieldError]) -> None:
        """``scenario`` computes: it is the shown result's. Without ``errors`` the errors and the stale mark are
        cleared; with them ``_invalid`` marks the result stale after it is shown."""
        self._scenario = scenario
        self._shown_key = (scenario, self._unit)
        if errors:
            return
        had_errors = bool(self._errors or self._notice)
        self._errors, self._notice = [], []
        self._update_enabled()
        if had_errors:
            self._view.show_field_errors([])
            self._view.show_stale(None)

    def _show_served(self, scenario: Scenario, served: ServeComputed, errors: list[FieldError]) -> None:
        """Serve mode: the summary, breakdown and context chart of ``vramgui serve``'s answer; no training sweeps."""
        self._accepted(scenario, errors)
        self._served = served
        self._timer.stop()
        self._work = None
        counted = served.counts()
        if counted is not None:  # the count beside the model, as training shows it
            self._push_counts_of(counted)
        self._view.show_serve_result(served.result)
        self._invalid(errors)
        self.result_changed.emit(served.result)

    def _invalid(self, errors: list[FieldError]) -> None:
        if not errors:
            return
        self._errors = errors
        self._update_enabled()
        self._view.show_field_errors(errors)
        reason = "; ".join(e.message for e in errors)
        self._view.show_stale(translate("MainPresenter", "Not updated: {0}").format(reason))
        self.input_invalid.emit(errors)

    def _update_enabled(self) -> None:
        """Inputs the scenario ignores are disabled, with the reason; one whose value is the problem stays open."""
        states, reasons = enabled_states(self.draft, self._form.model.mode, {e.key for e in self._errors})
        if (states, reasons) != self._enabled:  # most edits change none
            self._enabled = (states, reasons)
            self._view.set_fields_enabled(states, reasons)

    def _push_counts(self, computed: Computed) -> None:
        self._push_counts_of(computed.estimate)

    def _push_counts_of(self, counted: Any) -> None:
        """``counted``: its ``params`` and ``active_params`` (an ``Estimate``, or the Serve mode's count)."""
        values = self._form.changed(count_hints(counted, self.draft.hardware.gpu_memory, self._form.model.mode))
        if values:
            self._view.set_form_values(values)

    # ----- the adviser's ways out (vramgui.core.advise.suggestions), one click each
    def apply_suggestion(self, index: int) -> None:
        """Apply the summary's suggestion ``index`` as the form would: each change is an edit of its field."""
        shown = () if self._computed is None or self._errors else self._computed.suggestions
        if 0 <= index < len(shown):
            self.apply_changes(shown[index].changes)

    def apply_changes(self, changes: Iterable[tuple[str, object]]) -> None:
        """Apply (path, value) pairs (a way out, a plan from the Plans tab) as one edit: each field edited as the
        form would, then one recompute."""
        self._form.finish_typing()
        for path, value in changes:
            self._form.edit_field(path, display(fields.field(path), value))
            self._form.shown.pop(path, None)  # not typed in the view: show the new value
        self._sync()
        self.recompute()

    # ----- the sweeps (charts 2 and 3), a slice at a time in idle time
    @property
    def sweeps_pending(self) -> bool:
        return self._work is not None

    def _work_slice(self, budget: float | None = None) -> None:
        computed = self._computed
        if self._work is None or computed is None:
            return
        deadline = time.perf_counter() + (self.SLICE_SECONDS if budget is None else budget)
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

    # ----- data export
    def csv_rows(self) -> list[dict[str, object]]:
        """The shown result as tidy rows (exact bytes), one table after another."""
        if self._served is not None:
            return serve_results.csv_rows(self._served)
        self.finish_sweeps()
        return result_csv.csv_rows(self._computed, self._scenario)

    def write_csv(self, path: str) -> None:
        """Written atomically: a failed export leaves no half-written file (and an older one as it was)."""
        if self._served is not None:
            result_csv.write_rows(path, serve_results.CSV_COLUMNS, self.csv_rows())
            return
        result_csv.write_csv(path, self.csv_rows())

