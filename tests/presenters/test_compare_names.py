"""Pins are named by what differs from the other pins ("ZeRO-3, seq 8k, 16 GPUs"), from the field registry, in the
user's language; a name the user gave stays theirs."""

from __future__ import annotations

from dataclasses import replace
from unittest.mock import MagicMock

import pytest

from tests.presenters.marking_translator import english_words, marking  # noqa: F401 - a fixture
from tests.presenters.test_compare_presenter import fake_estimate, fake_max_micro_batch
from tests.strategies import LLAMA_8B
from vramgui.core.fields import registry as fields
from vramgui.core.scenario.specs import ModelSpec, OffloadSpec, Scenario
from vramgui.presenters import scenario_inputs
from vramgui.presenters.compare.presenter import ComparePresenter, CompareView

BASE = replace(LLAMA_8B, offload=OffloadSpec(), parallel=replace(LLAMA_8B.parallel, zero_stage=2))


def edited(s: Scenario, **paths) -> Scenario:
    for path, value in paths.items():
        s = fields.with_value(s, path.replace("__", "."), value)
    return s


@pytest.fixture
def view():
    return MagicMock(spec=CompareView)


@pytest.fixture
def presenter(view):
    return ComparePresenter(view, estimate_fn=fake_estimate, max_micro_batch_fn=fake_max_micro_batch)


def names(view) -> tuple[str, ...]:
    return view.show_comparison.call_args.args[0].names


def test_six_pins_of_one_model_are_named_by_what_sets_each_apart(presenter, view):
    presenter.pin(BASE)
    presenter.pin(edited(BASE, parallel__zero_stage=3))
    presenter.pin(edited(BASE, parallel__zero_stage=3, training__seq_len=8192))
    presenter.pin(edited(BASE, parallel__zero_stage=3, training__seq_len=8192, parallel__num_gpus=32))
    assert names(view) == ("ZeRO-2, seq 4k, 16 GPUs", "ZeRO-3, seq 4k, 16 GPUs", "ZeRO-3, seq 8k, 16 GPUs",
                           "ZeRO-3, seq 8k, 32 GPUs")
    presenter.pin(edited(BASE, training__recompute="full"))
    presenter.pin(edited(BASE, precision__dtype="fp16"))
    shown = names(view)
    assert len(set(shown)) == 6 and not any("(2)" in n for n in shown)
    assert shown[4] == "ZeRO-2, bf16, seq 4k, full recomputation, 16 GPUs"  # the last pin is fp16
    assert shown[5].startswith("ZeRO-2, fp16, seq 4k")


def test_a_name_follows_the_pins_and_comes_back_when_the_difference_goes(presenter, view):
    a = presenter.pin(BASE)
    presenter.pin(edited(BASE, parallel__zero_stage=3))
    assert names(view) == ("ZeRO-2", "ZeRO-3")
    presenter.remove(a)
    assert names(view) == ("Llama-3-8B · 16× A100 80GB · ZeRO-3",)  # alone: model · GPUs · strategy


def test_a_field_that_another_difference_makes_moot_is_not_a_difference(presenter, view):
    presenter.pin(replace(BASE, parallel=replace(BASE.parallel, zero_stage=3)))
    presenter.pin(BASE)  # ZeRO-2: the ZeRO-3 live parameters, largest layer and prefetch no longer apply
    assert names(view) == ("ZeRO-3", "ZeRO-2")


def test_a_model_name_stands_for_its_model(presenter, view):
    presenter.pin(Scenario(model=ModelSpec(name="Llama-3-8B", params=8 * 10**9)))
    presenter.pin(Scenario(model=ModelSpec(name="Llama-3-70B", params=70 * 10**9)))
    presenter.pin(Scenario(model=ModelSpec(name="custom", params=13 * 10**9)))
    assert names(view) == ("Llama-3-8B", "Llama-3-70B", "custom model")
    presenter.clear()
    presenter.pin(Scenario(model=ModelSpec(name="m", params=7 * 10**9)))
    presenter.pin(Scenario(model=ModelSpec(name="m", params=13 * 10**9)))  # same name, another model: its count
    assert names(view) == ("7B parameters", "13B parameters")


def test_the_users_names_stay_and_automatic_ones_never_repeat_them(presenter, view):
    presenter.pin(BASE, name="ZeRO-2")
    presenter.pin(edited(BASE, parallel__zero_stage=2, training__seq_len=4096))  # the same scenario
    presenter.pin(edited(BASE, parallel__zero_stage=3), name="  my run  ")
    assert names(view) == ("ZeRO-2", "ZeRO-2 (2)", "my run")
    assert [p.named for p in presenter.pinned] == [True, False, True]
    assert [e.name for e in presenter.entries()] == ["ZeRO-2", None, "my run"]


def test_every_registry_field_that_changes_the_result_can_name_a_pin():
    """A field added to the registry names pins the day it is added: each differing field gives a text."""
    for f in fields.fields():
        if f.kind == "text" or f.path in scenario_inputs.STRATEGY_PATHS:
            continue
        base = LLAMA_8B if not f.path.startswith("finetune.") or f.path == "finetune.method" else edited(
            LLAMA_8B, finetune__method="lora")
        other = _another_value(f, fields.get(base, f.path))
        changed = fields.with_value(base, f.path, other)
        if scenario_inputs.value(changed, f.path) is scenario_inputs.INACTIVE:
            continue
        parts = scenario_inputs.differing_parts([base, changed])
        assert parts[0] != parts[1], f.path


def _another_value(f: fields.Field, current):
    if f.kind == "choice":
        return next(c for c in f.choices if c not in (current, "auto"))
    if f.kind == "bool":
        return not current
    if f.kind == "fraction":
        return 0.25 if current != 0.25 else 0.5
    if f.kind == "bytes":
        return 3 * 10**9 if current != 3 * 10**9 else 4 * 10**9
    low = max(int(f.low or 1), 2)
    return low + 1 if current != low + 1 else low + 2


@pytest.mark.usefixtures("marking")
def test_names_are_said_in_the_users_language(presenter, view):
    presenter.pin(BASE)
    presenter.pin(edited(BASE, parallel__zero_stage=3, training__seq_len=8192, training__recompute="full",
                         training__attention="eager", precision__fp8="delayed"))
    for name in names(view):
        assert english_words(name) == [], name  # every word went through the translator
    assert "译 4k" in names(view)[0]  # "seq 4k", its words translated, its value kept
