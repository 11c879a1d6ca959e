"""One fastest-plan search (``vramgui.core.solve.fastest``) on a worker thread of a ``QThreadPool``.

The core stays pure: it asks ``progress(done, in_all)`` between steps and stops when told to (``False``); here that
answer is the job's cancel flag, and the progress is passed on as a queued signal, at most every ``EVERY`` seconds so
the UI thread is not flooded. Each job carries the generation and the scenario it was started for, so its presenter
can drop an answer that no longer belongs to what the user sees (the newest edit wins). The answer is cut down to
what the window keeps (``plan_results.answer_of``) here, off the UI thread.

The cyclic garbage collector is paused while a search runs (``fastest.collector_paused``, which says why), and the
worker sleeps a moment now and then so that the UI thread gets the interpreter lock (``YIELD_EVERY``).
"""

from __future__ import annotations

import logging
import threading
import time

from PySide6.QtCore import QObject, QRunnable, Signal

from vramgui.core.scenario.specs import Scenario
from vramgui.core.solve.fastest import collector_paused, fastest
from vramgui.core.text.errors import InputError
from vramgui.presenters.plan_results import answer_of

log = logging.getLogger(__name__)

EVERY = 0.1  # seconds between progress signals (each wakes the UI thread)
# The worker sleeps YIELD_FOR after every YIELD_EVERY seconds of searching, so the UI thread gets the interpreter lock
# at once: CPython hands the lock over only every sys.getswitchinterval() (5 ms) of bytecode, and one repaint of a
# pyqtgraph chart asks for it hundreds of times (in Python slots), so without this a search left the UI thread's
# 10 ms timer without a tick for 0.5-0.8 s (measured with Mixtral 8x7B on 256 GPUs, the Plans tab shown).
YIELD_EVERY, YIELD_FOR = 0.02, 0.002


class JobSignals(QObject):
    """Created on the UI thread; emitted from the worker, so delivered (queued) on the UI thread."""

    progressed = Signal(int, int, int, int)  # generation, done, in all, layouts
    finished = Signal(int, object, object)  # generation, the scenario searched, its PlanAnswer
    failed = Signal(int, object, object)  # generation, the scenario, the InputError (or another exception)
    stopped = Signal(int)  # generation: cancelled, nothing to show


class PlanJob(QRunnable):
    """Search ``scenario`` on its own number of GPUs; ``closed``: set when the owner goes away (stops every job)."""

    def __init__(self, generation: int, scenario: Scenario, closed: threading.Event) -> None:
        super().__init__()
        self.generation = generation
        self.scenario = scenario
        self.signals = JobSignals()
        self._cancel = threading.Event()
        self._closed = closed
        self._layouts = 0
        self._last = 0.0
        self._yielded = 0.0

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set() or self._closed.is_set()

    def _progress(self, done: int, total: int) -> bool:
        if self.cancelled:
            return False
        if not self._layouts:
            self._layouts = total  # the first total is the survey's: every layout
        now = time.monotonic()
        if now - self._yielded >= YIELD_EVERY:
            time.sleep(YIELD_FOR)  # the lock released: the UI thread takes it (see YIELD_EVERY)
            self._yielded = now = time.monotonic()
        if now - self._last >= EVERY:
            self._last = now
            self.signals.progressed.emit(self.generation, done, total, self._layouts)
        return True

    def run(self) -> None:
        try:
            with collector_paused():
                search = None if self.cancelled else fastest(self.scenario, self.scenario.parallel.num_gpus,
                                                             progress=self._progress)
                answer = None if search is None or self.cancelled else answer_of(search)
                del search  # its estimates are freed here, on the worker
        except InputError as err:
            self.signals.failed.emit(self.generation, self.scenario, err)
            return
        except Exception as err:  # never fatal: the chart says it, the log keeps the traceback
            log.exception("plan search failed for %r", self.scenario)
            self.signals.failed.emit(self.generation, self.scenario, err)
            return
        if answer is None or self.cancelled:
            self.signals.stopped.emit(self.generation)
            return
        self.signals.finished.emit(self.generation, self.scenario, answer)
