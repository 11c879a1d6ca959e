"""The Plans tab's presenter with a fake view: every searched plan a point, the fastest that fits highlighted, a click
applies the plan through the editor, an answer for an older scenario is dropped, Cancel pauses, a hidden tab does
not search. Jobs are queued in a fake pool and run on this thread, so the order of events is the test's."""

from __future__ import annotations

from dataclasses import replace
from unittest.mock import MagicMock

import pytest

from vramgui.core.documents.catalog import hardware_with_gpu
from vramgui.core.scenario.specs import Scenario
from vramgui.core.solve.fastest import fastest
from vramgui.io.presets import find_gpu, find_model
from vramgui.presenters.main_presenter import MainPresenter
from vramgui.presenters.plan_models import PlanView
from vramgui.presenters.plan_presenter import PlanPresenter
from vramgui.presenters.plan_results import answer_of
from vramgui.presenters.protocols import MainView
from vramgui.presenters.time_results import seconds_text


def _scenario(seq: int = 8192, gpus: int = 2, batch: int = 4, model: str = "llama-3-8b") -> Scenario:
    s = Scenario(model=find_model(model).spec)
    s = replace(s, hardware=hardware_with_gpu(s.hardware, find_gpu("h100-sxm")))
    return replace(s, parallel=replace(s.parallel, num_gpus=gpus),
                   training=replace(s.training, seq_len=seq, global_batch=batch))


A, B = _scenario(8192), _scenario(4096)


class Pool:
    """Holds the jobs started; the test runs them (on this thread: their signals arrive at once)."""

    def __init__(self) -> None:
        self.jobs: list = []

    def start(self, job) -> None:
        self.jobs.append(job)

    def waitForDone(self, _ms: int) -> bool:  # noqa: N802 - QThreadPool's name
        return True


@pytest.fixture
def view():
    return MagicMock(spec=PlanView)


@pytest.fixture
def pool():
    return Pool()


@pytest.fixture
def plans(qapp, view, pool):
    return PlanPresenter(view, pool=pool)


def _shown(view):
    return view.show_plans.call_args.args[0]


def _status(view):
    return view.show_plan_status.call_args.args[0]


def _search_now(plans, pool, scenario):
    """Show ``scenario`` on the visible tab and run its search to the end."""
    plans.set_visible(True)
    plans.show_scenario(scenario, "title")
    plans.search_now()  # not waiting for the edit's delay
    pool.jobs[-1].run()


def test_every_searched_plan_is_a_point_and_the_fitting_ones_are_marked(plans, view, pool):
    _search_now(plans, pool, A)
    vm = _shown(view)
    core = fastest(A, A.parallel.num_gpus)
    points = answer_of(core).points
    assert len(vm.seconds) == len(vm.peaks) == len(vm.tooltips) == len(points) > 50
    assert vm.seconds == tuple(p.seconds for p in points)
    assert vm.fits == tuple(p.fits for p in points) and any(vm.fits) and not all(vm.fits)
    assert vm.legend[0] == f"fits ({sum(vm.fits)})" and vm.legend[1] == f"does not fit ({len(points) - sum(vm.fits)})"
    assert f"{len(points)} plans searched over {core.layouts} layouts, {sum(vm.fits)} fit" in vm.summary
    assert vm.summary.startswith("2 GPUs, global batch 4:")
    assert all(p <= vm.y_top for p in vm.peaks) and vm.capacity == pytest.approx(A.hardware.gpu_memory / 1e9)
    assert not _status(view).stale and not _status(view).busy and plans.current


def test_the_fastest_plan_that_fits_is_highlighted_and_named(plans, view, pool):
    _search_now(plans, pool, A)
    vm = _shown(view)
    best = fastest(A, A.parallel.num_gpus).best
    assert vm.chosen == plans.answer.best >= 0 and plans.points[vm.chosen].plan == best.plan
    assert vm.seconds[vm.chosen] == best.seconds == min(s for s, f in zip(vm.seconds, vm.fits, strict=True) if f)
    assert vm.chosen_label == f"fastest: {seconds_text(best.seconds)}"
    assert vm.tooltips[vm.chosen].startswith("Fastest plan that fits: ")
    assert f"Fastest that fits: {vm.tooltips[vm.chosen].split(': ', 1)[1].splitlines()[0]}" in vm.summary
    assert "Click to apply this plan" in vm.tooltips[vm.chosen] and "peak" in vm.tooltips[vm.chosen]


def test_a_click_applies_the_plan_to_the_scenario_as_one_edit(qapp, pool):
    editor = MainPresenter(MagicMock(spec=MainView))
    editor.start(A)
    plans = PlanPresenter(MagicMock(spec=PlanView), pool=pool)
    plans.follow(editor)
    plans.set_visible(True)
    pool.jobs[-1].run()
    chosen = plans.answer.best
    results = []
    editor.result_changed.connect(results.append)
    plans.apply_point(chosen)
    assert len(results) == 1  # one recompute for every field the plan changes
    assert editor.draft == editor.scenario == plans.points[chosen].scenario
    assert editor.computed.estimate.fits
    assert not plans.current  # the new scenario's plans are searched next (the old ones faded meanwhile)


def test_a_click_on_a_faded_answer_does_nothing(plans, view, pool):
    _search_now(plans, pool, A)
    applied = []
    plans.apply_requested.connect(applied.append)
    plans.show_scenario(B)
    plans.apply_point(0)
    assert applied == [] and not plans.current


def test_an_answer_for_an_older_scenario_is_dropped(plans, view, pool):
    plans.set_visible(True)
    plans.show_scenario(A, "A")
    plans.search_now()
    old = pool.jobs[-1]
    plans.show_scenario(B, "B")  # an edit while A is searched: A's job is cancelled
    assert old.cancelled and _status(view).stale and _status(view).busy
    old.signals.finished.emit(old.generation, A, answer_of(fastest(A, 2)))  # A's answer arrives anyway (done)
    view.show_plans.assert_not_called()
    assert not plans.current
    plans.search_now()
    pool.jobs[-1].run()
    assert plans.current and _shown(view).title == "B" and view.show_plans.call_count == 1
    assert plans.answer.gpus == 2 and plans.points[0].scenario.training.seq_len == 4096


def test_the_chart_is_stale_while_the_new_scenario_is_searched(plans, view, pool):
    _search_now(plans, pool, A)
    plans.show_scenario(B)
    status = _status(view)
    assert status.stale and status.busy and "Searching plans on 2 GPUs" in status.text
    plans.search_now()
    pool.jobs[-1].signals.progressed.emit(pool.jobs[-1].generation, 10, 40, 40)
    assert _status(view).progress == 62 and _status(view).text.endswith("layout 10 of 40")


def test_cancel_stops_the_search_and_pauses_until_asked(plans, view, pool):
    _search_now(plans, pool, A)
    plans.show_scenario(B)
    plans.search_now()
    job = pool.jobs[-1]
    plans.cancel()
    assert job.cancelled and not plans.pending
    status = _status(view)
    assert status.can_search and not status.busy and status.stale
    assert status.text == "Search cancelled: the chart shows the plans of an earlier scenario."
    shown = view.show_plans.call_count
    job.run()  # the worker notices the cancel: nothing is shown
    assert view.show_plans.call_count == shown and not plans.current
    count = len(pool.jobs)
    plans.show_scenario(_scenario(512))  # another edit: still paused
    assert len(pool.jobs) == count and not plans.pending
    plans.search_now()
    assert len(pool.jobs) == count + 1 and plans.pending


def test_a_hidden_tab_searches_nothing_until_it_is_shown(plans, view, pool):
    plans.show_scenario(A)
    assert pool.jobs == [] and _status(view).stale and not _status(view).busy
    plans.set_visible(True)
    assert len(pool.jobs) == 1  # at once, not after the typing delay
    pool.jobs[0].run()
    assert plans.current


def test_going_back_to_a_searched_scenario_shows_its_answer_at_once(plans, view, pool):
    _search_now(plans, pool, A)
    _search_now(plans, pool, B)
    count = len(pool.jobs)
    plans.show_scenario(A, "A again")
    assert len(pool.jobs) == count and plans.current and plans.points[0].scenario.training.seq_len == 8192


def test_the_unit_redraws_without_searching_again(plans, view, pool):
    _search_now(plans, pool, A)
    gb = _shown(view)
    count = len(pool.jobs)
    plans.set_unit("GiB")
    gib = _shown(view)
    assert len(pool.jobs) == count and gib.unit == "GiB" and gib.y_label == "Step peak per GPU (GiB)"
    assert gib.peaks[0] == pytest.approx(gb.peaks[0] * 1e9 / 2**30)


def test_an_invalid_input_fades_the_chart_and_stops_the_search(plans, view, pool):
    _search_now(plans, pool, A)
    plans.show_scenario(B)
    job = pool.jobs[-1] if pool.jobs[-1].scenario == B else None
    plans.show_scenario(None)
    assert (job is None or job.cancelled) and not plans.pending
    assert _status(view).stale and not _status(view).busy and not _status(view).can_search


def test_without_compute_figures_the_chart_says_what_to_enter(plans, view, pool):
    s = replace(A, hardware=replace(A.hardware, tflops_16bit=None, gpu_name=None))
    _search_now(plans, pool, s)
    vm = _shown(view)
    assert vm.seconds == () and vm.note and vm.chosen == -1
    assert "TFLOP" in vm.note or "compute" in vm.note


def test_when_nothing_fits_the_chart_says_why(plans, view, pool):
    s = _scenario(gpus=1)
    s = replace(s, hardware=replace(s.hardware, gpu_memory=4 * 10**9, gpu_name=None))
    _search_now(plans, pool, s)
    vm = _shown(view)
    assert vm.chosen == -1 and vm.note.startswith("Nothing fits on 1 GPUs: even the most frugal plan")
    assert vm.fits and not any(vm.fits)  # the frugal plans tried are still points, none fitting
