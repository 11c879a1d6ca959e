"""The presenter pushes only what changed (issue 11): an edit that changes no enabled state and no hint sends
neither again, and what it does send still leaves a view that applies every push showing exactly the draft; the
GPU list arrives formatted ("NVIDIA A100 80GB · 80 GiB"), the view shows it as given."""

from __future__ import annotations

from dataclasses import replace
from unittest.mock import MagicMock

import pytest

from vramgui.presenters import catalog_access
from vramgui.presenters.form.groups import ARCH, CUSTOM, FORM_PATHS, default_scenario
from vramgui.presenters.form.texts import FormDisplay, enabled_states, shown_value
from vramgui.presenters.main_presenter import MainPresenter
from vramgui.presenters.protocols import MainView


class MirrorView:
    """A fake view that keeps what it was told: the values and the enabled states as a window would show them."""

    def __init__(self) -> None:
        self.mock = MagicMock(spec=MainView)
        self.values: dict[str, object] = {}
        self.states: dict[str, bool] = {}
        self.reasons: dict[str, str] = {}
        self.mock.set_form_values.side_effect = self.values.update
        self.mock.set_fields_enabled.side_effect = self._enabled

    def _enabled(self, states, reasons) -> None:
        self.states.update(states)
        self.reasons = {k: r for k, r in {**self.reasons, **reasons}.items() if not self.states.get(k, True)}


@pytest.fixture
def mirror():
    return MirrorView()


@pytest.fixture
def presenter(qapp, mirror):
    p = MainPresenter(mirror.mock)
    p.start(default_scenario())  # the seed's example: a model given by its count (the first screen's is a preset)
    yield p
    p.finish_sweeps()


def edit(presenter, mirror, key: str, value: object) -> None:
    """An edit as the view makes it: its editor shows the value typed, then the presenter answers."""
    mirror.values[key] = value
    presenter.on_field_edited(key, value)


def assert_view_shows_the_draft(presenter, mirror) -> None:
    mode = presenter.model_choice_state()[0]
    for path in FORM_PATHS:
        if path == "model.params" and mode != "params":
            continue  # shows the counted Φ (a hint of the result)
        assert mirror.values[path] == presenter.form_value(path), path
    states, reasons = enabled_states(presenter.draft, mode, {e.key for e in presenter.errors})
    assert mirror.states == states
    assert mirror.reasons == reasons


def test_an_edit_that_changes_no_enabled_state_pushes_none(presenter, mirror):
    edit(presenter, mirror, "model.preset", "llama-3-8b")
    calls = mirror.mock.set_fields_enabled.call_count
    for seq_len in (4096, 4104, 8192):
        edit(presenter, mirror, "training.seq_len", seq_len)
    assert mirror.mock.set_fields_enabled.call_count == calls
    edit(presenter, mirror, "parallel.zero_stage", "3")
    assert mirror.mock.set_fields_enabled.call_count == calls + 1 and mirror.states["offload.params"]
    edit(presenter, mirror, "parallel.zero_stage", "2")
    assert mirror.mock.set_fields_enabled.call_count == calls + 2 and not mirror.states["offload.params"]
    assert mirror.reasons["offload.params"]
    assert_view_shows_the_draft(presenter, mirror)


def test_unchanged_hints_are_not_pushed_again(presenter, mirror):
    edit(presenter, mirror, "model.preset", "llama-3-8b")
    mirror.mock.set_form_values.reset_mock()
    edit(presenter, mirror, "training.seq_len", 4096)  # the same model, the same GPU memory
    pushed = [key for call in mirror.mock.set_form_values.call_args_list for key in call.args[0]]
    assert "model.params_hint" not in pushed and "hardware.gpu_memory_hint" not in pushed
    assert "model.params" not in pushed
    edit(presenter, mirror, "hardware.gpu_memory", "40GB")
    assert mirror.values["hardware.gpu_memory_hint"] == "= 37.25 GiB"
    edit(presenter, mirror, "model.preset", "mixtral-8x7b")
    assert "active" in str(mirror.values["model.params_hint"])  # MoE: the hint names the active count
    assert_view_shows_the_draft(presenter, mirror)


def test_a_view_applying_every_push_shows_the_draft_after_edits_that_change_and_restore_it(presenter, mirror):
    assert_view_shows_the_draft(presenter, mirror)
    steps = [("model.preset", "llama-3-8b"), ("parallel.zero_stage", "3"), ("offload.params", True),
             ("offload.params", False), ("parallel.zero_stage", "2"), ("convention", "megatron"),
             ("convention", "paper"),
             ("model.mode", "architecture"), (ARCH + "num_layers", 16), ("model.mode", "preset"),
             ("model.preset", "mixtral-8x7b"), ("hardware.gpu", "a100-80gb"), ("training.seq_len", 8192),
             ("overhead.cuda_context", "lots"), ("overhead.cuda_context", ""), ("model.mode", "params"),
             ("model.params", "7000000000"), ("hardware.gpu", CUSTOM)]
    for key, value in steps:
        edit(presenter, mirror, key, value)
        if key != "overhead.cuda_context" or value == "":
            assert not presenter.is_stale, key
            assert_view_shows_the_draft(presenter, mirror)
    presenter.load_scenario(replace(presenter.draft, training=replace(presenter.draft.training, seq_len=1024)))
    assert_view_shows_the_draft(presenter, mirror)


def test_the_form_display_works_out_again_only_the_parts_an_edit_replaced(presenter):
    draft, arch = presenter.draft, presenter.model_choice_state()[3]
    form = FormDisplay()
    first = form.values(draft, arch)
    assert first == {path: shown_value(draft, path, arch) for path in FORM_PATHS}
    edited = replace(draft, training=replace(draft.training, seq_len=draft.training.seq_len + 8))
    second = form.values(edited, arch)
    assert second["training.seq_len"] == draft.training.seq_len + 8
    assert {k: v for k, v in second.items() if k != "training.seq_len"} == {
        k: v for k, v in first.items() if k != "training.seq_len"}
    assert second == {path: shown_value(edited, path, arch) for path in FORM_PATHS}
    assert edited.model.architecture is None  # the seed's model is a count: its architecture fields show arch_shown
    other = replace(arch, num_layers=arch.num_layers + 3)
    assert form.values(edited, other)[ARCH + "num_layers"] == arch.num_layers + 3  # the same draft, another one


def test_the_gpu_list_arrives_with_each_cards_memory(presenter, mirror):
    gpus = dict(next(call.args[1] for call in mirror.mock.set_choices.call_args_list
                     if call.args[0] == "hardware.gpu"))
    presets = catalog_access.gpu_presets()
    assert set(presets) <= set(gpus) and CUSTOM in gpus
    for key, preset in presets.items():
        assert gpus[key] == catalog_access.gpu_choice_text(key, preset.name) == f"{preset.name} · {preset.memory_label}"
    assert gpus["a100-80gb"] == "NVIDIA A100 80GB · 80 GiB"
