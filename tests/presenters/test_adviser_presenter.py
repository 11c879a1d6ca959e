"""The adviser in the main presenter (fake view): a scenario that does not fit gets the core's suggestions in its
summary, and applying one edits the fields as the form would, so the result fits and the document is modified."""

from __future__ import annotations

from unittest.mock import MagicMock

import pytest
from PySide6.QtCore import QSettings

from vramgui.core.advise.suggestions import advise
from vramgui.core.estimate import estimate
from vramgui.core.scenario.specs import HardwareSpec, Scenario
from vramgui.core.text.message import render
from vramgui.io.presets import find_gpu, find_model
from vramgui.presenters.advice import MAX_SHOWN
from vramgui.presenters.document_presenter import DocumentPresenter
from vramgui.presenters.main_presenter import MainPresenter
from vramgui.presenters.protocols import MainView
from vramgui.settings import Settings

CARD = find_gpu("rtx-4090")
ONE_CARD = Scenario(model=find_model("llama-3-8b").spec,
                    hardware=HardwareSpec(gpu_name=CARD.name, gpu_memory=CARD.memory, reserve=0.0))


@pytest.fixture
def view():
    return MagicMock(spec=MainView)


@pytest.fixture
def presenter(qapp, view):
    p = MainPresenter(view)
    p.start()
    yield p
    p.finish_sweeps()


def summary(view):
    return view.show_result.call_args.args[0].summary


def test_a_scenario_that_does_not_fit_shows_the_cores_first_suggestions(presenter, view):
    presenter.load_scenario(ONE_CARD)
    core = advise(ONE_CARD)
    vm = summary(view)
    assert vm.fits is False and vm.advice_title == "Ways to make it fit:" and vm.advice_empty == ""
    assert [s.text for s in vm.suggestions] == [render(s.msg()) for s in core[:MAX_SHOWN]]
    assert presenter.computed.suggestions == core  # all of them, as `vramgui estimate` lists them
    assert vm.suggestions[0].tip.startswith("Click to apply: ")


def test_the_seed_example_fits_comfortably_and_has_no_advice(presenter, view):
    vm = summary(view)
    assert vm.fits and vm.advice_title == "" and vm.suggestions == () and presenter.computed.suggestions == ()


@pytest.mark.parametrize("index", range(MAX_SHOWN))
def test_applying_a_suggestion_edits_its_fields_and_the_result_fits(presenter, view, index):
    presenter.load_scenario(ONE_CARD)
    suggestion = presenter.computed.suggestions[index]
    view.set_form_values.reset_mock()
    presenter.apply_suggestion(index)
    assert presenter.draft == presenter.scenario == suggestion.scenario
    assert not presenter.is_stale
    est = estimate(presenter.scenario)
    assert est.fits and summary(view).fits is True and summary(view).peak_bytes == suggestion.peak
    pushed = {k: v for call in view.set_form_values.call_args_list for k, v in call.args[0].items()}
    for path, _ in suggestion.changes:  # the form shows the new values (the view did not type them)
        assert presenter.form_value(path) == pushed[path]


def test_a_suggestion_is_applied_through_the_edits_so_the_document_is_modified(qapp, tmp_path):
    settings = Settings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    editor = MainPresenter(MagicMock(spec=MainView))
    files = MagicMock()
    document = DocumentPresenter(files, editor, settings)
    editor.start(ONE_CARD)
    document.mark_clean()
    assert not document.is_modified()
    editor.apply_suggestion(0)
    assert document.is_modified()
    assert files.show_document.call_args.args[2] is True  # the title shows the unsaved change
    editor.finish_sweeps()


def test_nothing_is_applied_out_of_range_or_while_the_input_is_invalid(presenter, view):
    presenter.load_scenario(ONE_CARD)
    before = presenter.draft
    presenter.apply_suggestion(99)
    presenter.apply_suggestion(-1)
    assert presenter.draft == before
    presenter.on_field_edited("parallel.num_gpus", "abc")  # invalid: the shown result is stale
    assert presenter.is_stale
    presenter.apply_suggestion(0)
    assert presenter.draft == before and presenter.is_stale
