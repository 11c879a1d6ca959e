"""The Plans tab's presenter: the fastest-plan search of the shown scenario, off the UI thread, and its chart.

What it holds: the scenario the chart should show (the editor's last valid training scenario, None while the input is
invalid or the scenario plans serving), the search shown and the one running. The rules:

- A search runs only while the tab is visible (``set_visible``): the search estimates hundreds to thousands of plans
  (in the window, seq 8,192, global batch 128: Llama-3-8B on 16 H100s 0.4 s, Llama-3-70B on 64 0.7 s, 1-2 s with a
  cold cache or a busy machine; Mixtral 8x7B on 256 GPUs about 2.5 s), too much to spend
  on every keystroke for a chart nobody looks at. Shown, the tab follows edits by itself, as the other charts do,
  a short ``DELAY_MS`` after the last one (typing "8192" is one search, not four).
- The newest edit wins: each search carries a generation and its scenario; an answer for anything but the current
  scenario is dropped, never shown. While a search runs (or waits) the chart shows the last answer faded.
- Cancel stops the running search and pauses the automatic ones (a slow search is not started again by the next
  keystroke); "Search plans" resumes.
- A click on a point applies that plan to the scenario as one edit (``apply_requested``, the editor's
  ``apply_changes``: each changed field edited as the form would, then one recompute), as the adviser's ways out do.
- The last few answers are kept per scenario: going back to one (an edit undone, the unit changed) costs nothing.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QThreadPool, QTimer, Signal

from vramgui.core.scenario.specs import Scenario
from vramgui.presenters.messages import input_error_text
from vramgui.presenters.plan_models import PlanAnswer, PlanChartVM, PlanPoint, PlanStatusVM, PlanView
from vramgui.presenters.plan_results import chart_vm, empty_vm, plan_edits, progress_status
from vramgui.presenters.plan_worker import PlanJob

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

DELAY_MS = 300  # after the last edit, before a search starts (the tab shown)
KEPT = 4  # answers kept, by scenario


class PlanPresenter(QObject):
    apply_requested = Signal(object)  # ((path, value), ...): the edits that apply the clicked plan
    searched = Signal()  # an answer (or why there is none) is shown for the current scenario

    def __init__(self, view: PlanView, unit: str = "GB", pool: QThreadPool | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._view = view
        self._unit = unit
        self._pool = pool if pool is not None else QThreadPool(self)
        if pool is None:
            self._pool.setMaxThreadCount(1)  # one search at a time: a cancelled one ends before the next starts
        self._closed = threading.Event()
        self.destroyed.connect(self._closed.set)  # before the pool (a child) waits for its job: the job stops
        self._scenario: Scenario | None = None
        self._title = ""
        self._visible = False
        self._paused = False
        self._gen = 0
        self._job: PlanJob | None = None  # the search whose answer is wanted
        self._alive: dict[int, PlanJob] = {}  # every job the pool still runs, cancelled ones too (kept referenced)
        self._started = 0.0
        self.last_seconds: float | None = None  # how long the last search shown took, start to answer (wall clock)
        self._shown: tuple[Scenario, PlanAnswer | None, str] | None = None  # the answer or a failure's text
        self._kept: OrderedDict[Scenario, PlanAnswer] = OrderedDict()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DELAY_MS)
        self._timer.timeout.connect(self._start)

    # ----- state (tests, the window)
    @property
    def current(self) -> bool:
        """Whether the chart shows the current scenario's answer."""
        return self._shown is not None and self._scenario is not None and self._shown[0] == self._scenario

    @property
    def running(self) -> bool:
        return self._job is not None

    @property
    def pending(self) -> bool:
        """A search is running or about to start."""
        return self._job is not None or self._timer.isActive()

    @property
    def answer(self) -> PlanAnswer | None:
        return None if self._shown is None else self._shown[1]

    @property
    def points(self) -> tuple[PlanPoint, ...]:
        answer = self.answer
        return () if answer is None else answer.points

    # ----- what the window tells it
    def follow(self, editor: Any) -> None:
        """Follow ``editor`` (the ``MainPresenter``): its valid training scenario, its unit, its apply."""
        def changed(*_: object) -> None:
            result = editor.result
            self.set_unit(editor.unit)
            valid = not (editor.serving or editor.is_stale)
            self.show_scenario(editor.scenario if valid else None, result.title if result is not None else "")

        editor.result_changed.connect(changed)
        editor.input_invalid.connect(changed)
        self.apply_requested.connect(editor.apply_changes)
        changed()

    def show_scenario(self, scenario: Scenario | None, title: str = "") -> None:
        """The editor's result changed: ``scenario`` is its valid training scenario (None: invalid input, or the
        scenario plans serving)."""
        self._title = title or self._title
        if scenario == self._scenario:
            return
        self._scenario = scenario
        self._stop()
        kept = None if scenario is None else self._kept.get(scenario)
        if scenario is not None and kept is not None:
            self._kept.move_to_end(scenario)
            self._show(scenario, kept)
            return
        if self._visible and not self._paused and scenario is not None:
            self._timer.start()
        self._push_status()

    def set_visible(self, visible: bool) -> None:
        self._visible = visible
        if visible and not self._paused and self._needs_search() and not self.pending:
            self._start()
        elif not visible:
            self._timer.stop()  # a search that runs goes on: its answer is wanted when the tab comes back

    def set_unit(self, unit: str) -> None:
        if unit != self._unit:
            self._unit = unit
            if self._shown is not None:
                self._show(*self._shown[:2], failure=self._shown[2], quiet=True)

    def search_now(self) -> None:
        """"Search plans": resume after a cancel (or search again)."""
        self._paused = False
        if self._needs_search() and self._job is None:
            self._start()

    def cancel(self) -> None:
        self._paused = True
        self._stop()
        self._push_status()

    def apply_point(self, index: int) -> None:
        """A click on point ``index``: apply that plan (only an answer for the current scenario: a faded one's plans
        were searched for another)."""
        if not self.current or self._scenario is None or not 0 <= index < len(self.points):
            return
        edits = plan_edits(self._scenario, self.points[index].scenario)
        if edits:
            self.apply_requested.emit(edits)

    def shutdown(self) -> None:
        """Stop every search and wait for the worker (the application quits, the window closes)."""
        self._closed.set()
        self._stop()
        self._pool.waitForDone(5000)

    # ----- the search
    def _needs_search(self) -> bool:
        return self._scenario is not None and not self.current

    def _stop(self) -> None:
        self._timer.stop()
        if self._job is not None:
            self._job.cancel()
            self._job = None

    def _start(self) -> None:
        scenario = self._scenario
        if scenario is None or self._closed.is_set():
            return
        self._stop()
        self._gen += 1
        job = self._job = self._alive[self._gen] = PlanJob(self._gen, scenario, self._closed)
        job.signals.progressed.connect(self._progressed)
        job.signals.finished.connect(self._finished)
        job.signals.failed.connect(self._failed)
        job.signals.stopped.connect(self._stopped)
        self._started = time.perf_counter()
        self._push_status()
        self._pool.start(job)

    def _progressed(self, gen: int, done: int, total: int, layouts: int) -> None:
        if gen == self._gen and self._job is not None and self._scenario is not None:
            self._view.show_plan_status(progress_status(self._scenario.parallel.num_gpus, done, total, layouts))

    def _finished(self, gen: int, scenario: Scenario, answer: PlanAnswer) -> None:
        self._alive.pop(gen, None)
        if gen != self._gen or scenario != self._scenario:  # an older scenario's answer: dropped, never shown
            return
        self._job = None
        self.last_seconds = time.perf_counter() - self._started
        self._kept[scenario] = answer
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        self._show(scenario, answer)

    def _failed(self, gen: int, scenario: Scenario, err: Exception) -> None:
        self._alive.pop(gen, None)
        if gen != self._gen or scenario != self._scenario:
            return
        self._job = None
        text = input_error_text(err) if hasattr(err, "msg") else translate(
            "Plans", "Internal error, please report it: {0}").format(err)
        self._show(scenario, None, failure=text)

    def _stopped(self, gen: int) -> None:
        self._alive.pop(gen, None)
        if gen == self._gen:
            self._job = None

    # ----- the view
    def _show(self, scenario: Scenario, answer: PlanAnswer | None, failure: str = "", quiet: bool = False) -> None:
        self._shown = (scenario, answer, failure)
        vm: PlanChartVM = (chart_vm(answer, scenario, self._unit, self._title) if answer is not None
                           else empty_vm(scenario, self._unit, self._title, failure))
        self._view.show_plans(vm)
        self._push_status()
        if not quiet:
            self.searched.emit()

    def _push_status(self) -> None:
        self._view.show_plan_status(self.status())

    def status(self) -> PlanStatusVM:
        """What the bar above the chart says now (between progress reports)."""
        if self.current:
            return PlanStatusVM("", busy=False, progress=0, stale=False, can_search=False)
        if self._scenario is None:  # the input is invalid (the summary says why), or the scenario plans serving
            return PlanStatusVM("", busy=False, progress=0, stale=True, can_search=False)
        gpus = f"{self._scenario.parallel.num_gpus:,}"
        if self.pending:
            return PlanStatusVM(translate("Plans", "Searching plans on {0} GPUs…").format(gpus), busy=True,
                                progress=-1, stale=True, can_search=False)
        if self._paused:
            said = (translate("Plans", "Search cancelled: the chart shows the plans of an earlier scenario.")
                    if self._shown is not None else translate("Plans", "Search cancelled."))
            return PlanStatusVM(said, busy=False, progress=0, stale=True, can_search=True)
        return PlanStatusVM(translate("Plans", "The plans are searched when this tab is shown."), busy=False,
                            progress=0, stale=True, can_search=True)
