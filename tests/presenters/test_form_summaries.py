"""What each folded group of the form says after its title: the values it holds that the first screen does not, in the
words of pin names and captions, in English and Chinese; nothing for a group at the first screen's values; nothing
for a field a rule says does nothing. Driven through the presenter against a fake view (MagicMock(spec=MainView))."""

from __future__ import annotations

from unittest.mock import MagicMock

import pytest

from vramgui.core.fields import paths
from vramgui.core.fields import registry as fields
from vramgui.core.fields.form_rows import GPU_PRESET
from vramgui.core.scenario.choices import Offload, Recompute
from vramgui.presenters.form.groups import FOLDING, GROUPS, first_scenario
from vramgui.presenters.form.summaries import KEYS
from vramgui.presenters.main_presenter import MainPresenter
from vramgui.presenters.protocols import MainView
from vramgui.presenters.view_models import GroupSummary


def _flag(group: str, flag: str) -> str:
    """The path of the row of ``group`` with the CLI flag ``flag`` (no path written here)."""
    return next(p for p in GROUPS[group] if fields.field(p).flag == flag)


OFFLOAD_OPT, OFFLOAD_PARAMS = _flag("strategy", "--offload-optimizer"), _flag("strategy", "--offload-params")
LAYERS = paths.ARCH_PREFIX + "num_layers"


def _training_and_zero3_offload():
    """The first screen with a global batch of 128, full recomputation and ZeRO-3 offloading to the CPU."""
    s = first_scenario()
    s = fields.with_value(s, paths.GLOBAL_BATCH, 128)
    s = fields.with_value(s, paths.RECOMPUTE, Recompute.FULL)
    s = fields.with_value(s, paths.ZERO_STAGE, 3)
    s = fields.with_value(s, OFFLOAD_OPT, Offload.CPU)
    return fields.with_value(s, OFFLOAD_PARAMS, Offload.CPU)


@pytest.fixture
def view():
    return MagicMock(spec=MainView)


@pytest.fixture
def presenter(qapp, view):
    p = MainPresenter(view)
    p.start()  # the first screen
    yield p
    p.finish_sweeps()


def shown(view) -> dict[str, GroupSummary]:
    """Each group's summary as the view was last told (the pushes merged in order)."""
    out: dict[str, GroupSummary] = {}
    for call in view.set_form_values.call_args_list:
        out.update({group: v for group, key in KEYS.items() if isinstance(v := call.args[0].get(key), GroupSummary)})
    return out


def texts(view) -> dict[str, str]:
    """The groups that say something, and what."""
    return {group: s.text for group, s in shown(view).items() if s.text}


def test_the_first_screen_says_nothing_after_any_title(presenter, view):
    summaries = shown(view)
    assert set(summaries) == set(FOLDING) and set(FOLDING) == set(GROUPS) - {"essentials"}
    assert texts(view) == {}


def test_an_opened_scenario_says_its_training_and_strategy_in_the_words_of_captions(presenter, view):
    presenter.load_scenario(_training_and_zero3_offload())
    assert texts(view) == {
        "training": "global batch 128, full recomputation",
        "strategy": "ZeRO-3 + CPU optimizer and parameter offload",  # the strategy's one name, not its 3 fields
    }
    training = shown(view)["training"]
    assert training.short == "2 set"
    assert training.tooltip == "global batch 128\nfull recomputation"


def test_the_summaries_are_chinese_in_chinese(chinese, presenter, view):
    presenter.load_scenario(_training_and_zero3_offload())
    assert texts(view) == {"training": "全局批次 128，完全重计算", "strategy": "ZeRO-3 + 优化器和参数 CPU 卸载"}
    assert shown(view)["training"].short == "已设 2 项"


def test_a_field_that_does_nothing_is_not_listed(presenter, view):
    below_zero3 = fields.with_value(first_scenario(), OFFLOAD_PARAMS, Offload.CPU)  # ZeRO-2: parameters stay
    assert fields.inactive_reason(below_zero3, OFFLOAD_PARAMS) is not None
    presenter.load_scenario(below_zero3)
    assert texts(view) == {}
    presenter.load_scenario(fields.with_value(_training_and_zero3_offload(), paths.SERVE_MODE, True))
    said = texts(view)  # serving reads neither the global batch, the recomputation nor the strategy
    assert "training" not in said and "strategy" not in said
    assert list(said) == ["serve"]


def test_an_edit_back_to_the_first_screens_value_clears_the_summary(presenter, view):
    presenter.on_field_edited(paths.GLOBAL_BATCH, "64")
    assert texts(view) == {"training": "global batch 64"}
    presenter.on_field_edited(paths.GLOBAL_BATCH, "")
    assert texts(view) == {}


def test_the_model_and_hardware_groups_compare_with_the_presets_chosen_in_essentials(presenter, view):
    presenter.on_field_edited(GPU_PRESET, "a100-80gb")  # another card: its own figures are no setting
    assert texts(view) == {}
    presenter.on_field_edited(paths.PEAK_TFLOPS, "250")  # a figure typed over the preset's is one
    assert list(texts(view)) == ["hardware"] and "250" in texts(view)["hardware"]
    presenter.on_field_edited(LAYERS, "40")  # Llama-3-8B with 40 layers: its count follows
    assert texts(view)["model"] == "Layers: 40"

