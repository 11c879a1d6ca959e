"""The form's side of the main window: the scenario being edited (the *draft*), the text of edits that do not parse yet
with their errors, the two UI choices that are not scenario fields (how the model is defined, the GPU preset) and
what the view shows per key, so that only what changed is pushed.

An edit is ``fields.parse`` + ``fields.with_value`` on the draft, so nothing the form does not show is lost: opening
a file and saving it gives the same scenario back. Text that does not parse stays in the editor as typed, with its
error, and the draft keeps the field's value from before the typing began, never a half-typed one ("1e4" on the way
to "1e400"), so the stale result the window shows is the draft's (issue 23). ``MainPresenter`` owns one
``FormDraft`` and decides when to compute; this module never computes an estimate (the parameter count Φ of a model
comes from the ``count`` the presenter passes in)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from vramgui.core.documents.catalog import GPU_FIGURE_PATHS, hardware_with_gpu
from vramgui.core.documents.scenario import PresetRef
from vramgui.core.fields import paths
from vramgui.core.fields import registry as fields
from vramgui.core.fields.form_rows import GPU_PRESET, MODEL_MODE, MODEL_PRESET, NODES_HINT
from vramgui.core.scenario.specs import ModelSpec, Scenario
from vramgui.core.text.errors import InputError
from vramgui.presenters import catalog_access
from vramgui.presenters.form import summaries
from vramgui.presenters.form.groups import (
    ARCH,
    CUSTOM,
    FORM_PATHS,
    IMPORTED,
    default_scenario,
    display,
    editor_kind,
    parse_input,
)
from vramgui.presenters.form.model_choice import ModelChoice
from vramgui.presenters.form.texts import FormDisplay, nodes_text, percent_error_text, shown_value
from vramgui.presenters.messages import input_error_text
from vramgui.presenters.view_models import FieldError

log = logging.getLogger(__name__)

FORM_KEYS = frozenset(FORM_PATHS)
_UNSET = object()

Count = Callable[[ModelSpec], "int | None"]  # Φ of a model (the shown estimate's, else counted)


class FormDraft:
    """The held Scenario as the form edits it, and what the form shows for it."""

    def __init__(self, count: Count) -> None:
        self._count = count
        self.scenario: Scenario = default_scenario()  # every parsed edit applied (may fail cross-field checks)
        self.raw: dict[str, tuple[object, FieldError]] = {}  # path -> (text that does not parse yet, its error)
        self.model = ModelChoice(catalog_access.model_presets)  # UI state: how the model is defined
        self.gpu = CUSTOM  # UI state: the GPU preset
        self.shown: dict[str, object] = {}  # what the view shows per key (hints too), to push only what changed
        self._form = FormDisplay()  # what each editor shows for the draft
        # the field being typed in, and the draft, GPU choice and architecture shown before the typing began
        self._typing: tuple[str, Scenario, str, Any] | None = None

    # ----- what the form shows
    def value(self, key: str) -> object:
        """What the field ``key`` shows: UI state, the pending text of an edit that does not parse, or the value."""
        ui = {MODEL_MODE: self.model.mode, MODEL_PRESET: self.model.shown_preset, GPU_PRESET: self.gpu}
        if key in ui:
            return ui[key]
        if key in self.raw:
            return self.raw[key][0]
        return shown_value(self.scenario, key, self.model.arch_shown) if key in FORM_KEYS else None

    def pending_edits(self) -> dict[str, object]:
        """Edits that do not parse yet (path -> raw value)."""
        return {key: raw for key, (raw, _) in self.raw.items()}

    def errors(self) -> list[FieldError]:
        """The errors of the edits that do not parse yet."""
        return [error for _, error in self.raw.values()]

    def changed_values(self, skip: str | None = None) -> dict[str, object]:
        """Every value that differs from what the view shows (now recorded as shown); never the field ``skip``
        being typed in."""
        mode = self.model.mode
        wanted: dict[str, object] = {MODEL_MODE: mode, MODEL_PRESET: self.model.shown_preset, GPU_PRESET: self.gpu}
        shown = self._form.values(self.scenario, self.model.arch_shown)
        for path in FORM_PATHS:
            if path != skip and path not in self.raw and not (path == paths.PARAMS and mode != "params"):
                wanted[path] = shown[path]
        wanted[NODES_HINT] = nodes_text(self.scenario.parallel)
        wanted.update(summaries.summaries(self.scenario, self.reference()))  # what each folded group holds
        return self.changed(wanted)

    def reference(self) -> Scenario:
        """What the folded groups' summaries compare the draft with: the first screen's scenario with the model and
        the GPU the Essentials' presets give (``summaries.reference``)."""
        return summaries.reference(self.model.preset_spec(), catalog_access.gpu_presets().get(self.gpu))

    def changed(self, wanted: dict[str, object]) -> dict[str, object]:
        """The entries of ``wanted`` the view does not show yet (now recorded as shown)."""
        values = {key: value for key, value in wanted.items() if self.shown.get(key, _UNSET) != value}
        self.shown.update(values)
        return values

    def preset_ref(self) -> PresetRef | None:
        """The catalog entries the scenario started from, recorded in a saved file (informational)."""
        choice = self.model
        model = None
        named = choice.mode == "preset" and choice.preset not in ("", IMPORTED)
        if named and self.scenario.model == choice.preset_spec():
            model = choice.preset
        gpu = self.gpu if self.gpu != CUSTOM else None
        return PresetRef(model=model, gpu=gpu) if model or gpu else None

    # ----- loading
    def load(self, scenario: Scenario) -> bool:
        """Hold ``scenario`` exactly; its model is a preset when it is one, else kept as an imported model.
        True when the model choices changed (the imported model is a new one)."""
        self.raw.clear()
        self._typing = None
        self.scenario = scenario
        refreshed = self.model.adopt(scenario.model)
        hw = scenario.hardware
        self.gpu = next((k for k, p in catalog_access.gpu_presets().items()
                         if p.name == hw.gpu_name and p.memory == hw.gpu_memory), CUSTOM)
        self.shown.clear()  # show every field again
        return refreshed

    # ----- edits
    def edit(self, key: str, value: object) -> bool:
        """Apply the view's edit of ``key``; False (nothing done) for a key the form does not have."""
        if key not in FORM_KEYS:
            self._typing = None  # a choice ends the typing in a field
        if key == MODEL_PRESET:
            self._set_model(self.model.select(str(value), self.scenario.model, self._count))
        elif key == MODEL_MODE:
            self._set_model(self.model.switch(str(value), self.scenario.model, self._count))
        elif key == GPU_PRESET:
            self._select_gpu(str(value))
        elif key in FORM_KEYS:
            self.edit_field(key, value)
        else:
            log.warning("edit of an unknown field %r ignored", key)
            return False
        return True

    def edit_field(self, path: str, raw: object) -> None:
        """A scenario field's edit: parsed and set on the draft, or kept as text with its error."""
        f = fields.field(path)
        if path == paths.PARAMS and self.model.mode != "params":
            self._set_model(self.model.to_params(self.scenario.model, self._count))  # typing Φ defines the model
        elif path.startswith(ARCH) and self.model.mode != "architecture":
            self._set_model(self.model.switch("architecture", self.scenario.model, self._count))
        if self._typing is None or self._typing[0] != path:
            self._typing = (path, self.scenario, self.gpu, self.model.arch_shown)
        try:
            value = parse_input(f, raw)
        except InputError as err:  # the CLI's words, or the percentage box's own
            message = percent_error_text(path, str(raw)) if editor_kind(f) == "percent" else input_error_text(err)
            self.raw[path] = (raw, FieldError(path, message))
            # the draft keeps no half-typed value ("1e4" on the way to "1e400"): the field's value from before
            _, self.scenario, self.gpu, self.model.arch_shown = self._typing
            return
        self.raw.pop(path, None)
        self.shown[path] = display(f, value)  # the editor shows what was typed: not rewritten under the cursor
        before = self.scenario
        draft = fields.with_value(before, path, value)
        if path.startswith(ARCH) or path == paths.PARAMS:
            draft = replace(draft, model=self.model.edited(before.model, draft.model, path))
        elif path in (paths.GPU_MEMORY, paths.GPU_NAME):
            preset = catalog_access.gpu_presets().get(self.gpu)
            hw = draft.hardware
            if preset is not None and (hw.gpu_memory, hw.gpu_name) != (preset.memory, preset.name):
                self.gpu = CUSTOM  # no longer the catalog's card
                if path == paths.GPU_MEMORY:
                    draft = replace(draft, hardware=replace(hw, gpu_name=None))
        self.scenario = draft

    def before_typing(self) -> Scenario | None:
        """The draft from before the typing in progress began (None when no field is being typed in)."""
        return None if self._typing is None else self._typing[1]

    def finish_typing(self, path: str | None = None) -> None:
        """The typing in ``path`` (None: any field) is over (Return, Tab, focus elsewhere, a value applied): the next
        edit of it starts from the draft as it is then."""
        if self._typing is not None and path in (None, self._typing[0]):
            self._typing = None

    def restore_model_choice(self, state: tuple[str, str, ModelSpec | None, Any]) -> None:
        m = self.model
        m.mode, m.preset, m.imported, m.arch_shown = state
        self.shown.clear()

    def _drop_pending(self, *paths: str, prefix: str = "") -> None:
        """Forget edits that did not parse (a new model or GPU replaces them); their editors are shown again."""
        for key in [k for k in self.raw if k in paths or (prefix and k.startswith(prefix))]:
            del self.raw[key]
            self.shown.pop(key, None)

    def _set_model(self, spec: ModelSpec | None) -> None:
        if spec is None:
            return
        self._drop_pending(paths.PARAMS, paths.LARGEST_LAYER, prefix=ARCH)
        self.scenario = replace(self.scenario, model=spec)

    def _select_gpu(self, key: str) -> None:
        preset = catalog_access.gpu_presets().get(key)
        hw = self.scenario.hardware
        if preset is None:
            self.gpu = CUSTOM
            self.scenario = replace(self.scenario, hardware=replace(hw, gpu_name=None))
            return
        self.gpu = key
        self._drop_pending(paths.GPU_MEMORY, paths.GPU_NAME, *GPU_FIGURE_PATHS)
        self.scenario = replace(self.scenario, hardware=hardware_with_gpu(hw, preset))
