"""How the model is defined in the form: a catalog preset (or an imported config), a parameter count Φ, or the
architecture fields; and what choosing or editing each does to the held ``ModelSpec``.

UI state only (the mode, the preset key, the imported model, the architecture shown while the model is a count);
the ``ModelSpec`` itself lives in the presenter's scenario. Each method returns the new ``ModelSpec``, or None when
the model does not change. Qt-free.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from vramgui.core.fields import paths
from vramgui.core.scenario.architecture import Architecture, count_params
from vramgui.core.scenario.specs import ModelSpec
from vramgui.presenters.form.groups import IMPORTED, MODEL_MODES

Count = Callable[[ModelSpec], "int | None"]  # the parameter count of a model defined by its architecture


def architecture_count(model: ModelSpec) -> int | None:
    """Φ of ``model`` counted from its architecture (None when it cannot be counted)."""
    if model.params is not None or model.architecture is None:
        return model.params
    try:
        return count_params(model.architecture)
    except (ArithmeticError, ValueError, TypeError):
        return None


class ModelChoice:
    def __init__(self, presets: Callable[[], Mapping[str, Any]]) -> None:
        self._presets = presets  # key -> preset with ``.spec`` (the catalog's models)
        self.mode = "params"  # one of MODEL_MODES
        self.preset = ""  # the preset key chosen ("" none, IMPORTED the imported model)
        self.imported: ModelSpec | None = None
        self.arch_shown = Architecture()  # shown (disabled) while the model is a parameter count only

    @property
    def shown_preset(self) -> str:
        """What the Preset box shows: the preset while it defines the model, else "(none)" (choosing the preset
        again then brings it back; the key is kept for "Defined by: the preset or import")."""
        return self.preset if self.mode == "preset" else ""

    def preset_spec(self) -> ModelSpec | None:
        if self.preset == IMPORTED:
            return self.imported
        preset = self._presets().get(self.preset)
        return None if preset is None else preset.spec

    def adopt(self, model: ModelSpec) -> bool:
        """The state that shows ``model`` as it is (a loaded file): a preset when it is one, else the imported
        model. True when the imported model changed (the preset list needs refreshing)."""
        if model.architecture is None:
            self.mode, self.preset = "params", ""
            return False
        self.arch_shown = model.architecture
        found = next((k for k, p in self._presets().items() if p.spec == model), None)
        if found is None:
            self.imported = model
        self.mode, self.preset = "preset", IMPORTED if found is None else found
        return found is None

    def select(self, key: str, current: ModelSpec, count: Count) -> ModelSpec | None:
        """A preset was chosen; "(none)" keeps the numbers as a parameter count."""
        if key == IMPORTED and self.imported is not None:
            spec = self.imported
        else:
            preset = self._presets().get(key)
            if preset is None:
                self.preset = ""  # "(none: custom model)": a preset's own name would now mislabel the count
                return self.to_params(current, count, "custom" if self._is_catalog_name(current.name) else None)
            spec = preset.spec
        self.preset, self.mode = key, "preset"
        return self._shown(spec)

    def switch(self, mode: str, current: ModelSpec, count: Count) -> ModelSpec | None:
        if mode not in MODEL_MODES or mode == self.mode:
            return None
        if mode == "preset":
            spec = self.preset_spec()
            if spec is None:
                return self.to_params(current, count)
            self.mode = "preset"
            return self._shown(spec)  # back to the preset as it is: edits shown in the fields are undone
        if mode == "architecture":
            self.mode = "architecture"
            return self._shown(ModelSpec(name=current.name, architecture=current.architecture or self.arch_shown,
                                         largest_layer=current.largest_layer))
        return self.to_params(current, count)

    def to_params(self, current: ModelSpec, count: Count, name: str | None = None) -> ModelSpec | None:
        """The model as a parameter count only: Φ of the current one, under its name (or ``name``)."""
        self.mode = "params"
        if current.architecture is None:
            return None
        return ModelSpec(name=current.name if name is None else name, params=count(current),
                         largest_layer=current.largest_layer)

    def _is_catalog_name(self, name: str) -> bool:
        """A name the catalog or the import gave the model (not one the user typed)."""
        names = {p.spec.name for p in self._presets().values()}
        return name in names or (self.imported is not None and name == self.imported.name)

    def _edited_name(self, name: str) -> str:
        """A preset's or an imported model's name marked edited once its numbers change; the user's own kept."""
        return f"{name} (edited)" if self._is_catalog_name(name) else name

    def edited(self, before: ModelSpec, after: ModelSpec, path: str) -> ModelSpec:
        """Keep an edited model coherent: a new block style brings its norm; a head size that was just hidden ÷
        heads keeps following them; a catalog or imported model whose Φ or architecture changes is marked edited."""
        if path == paths.PARAMS:
            return replace(after, name=self._edited_name(after.name)) if after.params != before.params else after
        old = before.architecture or self.arch_shown
        arch = after.architecture
        assert arch is not None
        if path == paths.ARCH_FAMILY and arch.family != old.family:
            arch = replace(arch, norm="layernorm" if arch.family == "gpt" else "rmsnorm")
        if path in (paths.ARCH_HIDDEN, paths.ARCH_HEADS) and old.head_dim is not None \
                and old.head_dim * old.num_heads == old.hidden_size:
            arch = replace(arch, head_dim=None)
        name = self._edited_name(after.name) if arch != old else after.name
        return self._shown(replace(after, name=name, architecture=arch))

    def _shown(self, spec: ModelSpec) -> ModelSpec:
        if spec.architecture is not None:
            self.arch_shown = spec.architecture
        return spec
