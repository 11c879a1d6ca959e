"""Typing quickly into several fields (issue 26): every number shown as current is the newest valid input's.

The visible chart is redrawn with each edit; the two sweeps follow in idle time and stay faded until their own
numbers arrive (``chart_freshness``), and a newer edit drops the work of an older one. A heartbeat timer samples
the window between keystrokes, as a user would see it: whatever a chart shows unfaded must be the estimate of the
scenario the presenter holds at that moment.
"""

from __future__ import annotations

import math
import time

from PySide6.QtCore import Qt, QTimer

from tests.views.helpers import choose
from vramgui.core.estimate import estimate
from vramgui.core.fields import registry as fields
from vramgui.core.solve import questions as solve
from vramgui.views.main_window import STEP_TAB, SWEEP_TAB

KEY_INTERVAL_MS = 15  # about 65 characters a second: faster than anyone types
SAMPLED_COUNTS = ((3, 8), (6, 64))  # (index in the sweep's counts 1, 2, 4, ... 1024, GPU count)


def _type_quickly(qtbot, editor, text: str) -> None:
    editor.setFocus()
    editor.selectAll()
    for ch in text:
        qtbot.keyClick(editor, ch)
        qtbot.wait(KEY_INTERVAL_MS)


def _sweep_shown(window) -> tuple[float, ...] | None:
    curve = window.sweep_chart.curves.get("zero3")
    if curve is None:
        return None
    _xs, ys = curve.getData()
    return tuple(float(ys[i]) for i, _n in SAMPLED_COUNTS)


def _sweep_expected(scenario) -> tuple[float, ...]:
    out = []
    for _i, n in SAMPLED_COUNTS:
        zero3 = next(sc for st, sc in solve.strategy_variants(fields.with_value(scenario, "parallel.num_gpus", n))
                     if st.key == "zero3")
        out.append(estimate(zero3).peak.bytes / 1e9)
    return tuple(out)


def test_typing_quickly_never_shows_an_earlier_result_as_current_and_the_newest_edit_wins(qtbot, window):
    editors = window.inputs.editors
    choose(editors["model.preset"], "llama-3-8b")
    choose(editors["hardware.gpu"], "h100-sxm")
    window.chart_tabs.setCurrentIndex(SWEEP_TAB)
    window.presenter.finish_sweeps()
    qtbot.wait(10)
    assert _sweep_shown(window) is not None

    sweeps: list[tuple[object, tuple[float, ...] | None]] = []  # (scenario, what By GPU count shows unfaded)
    peaks: list[tuple[object, int]] = []  # (scenario, the step's peak the breakdown shows while current)
    beats: list[float] = []

    def sample() -> None:
        beats.append(time.perf_counter())
        scenario = window.presenter.scenario
        if window.chart_is_current(SWEEP_TAB):
            sweeps.append((scenario, _sweep_shown(window)))
        if window.chart_is_current(STEP_TAB):
            peaks.append((scenario, window.breakdown.rows[-1].bytes))

    heartbeat = QTimer(window)
    heartbeat.setTimerType(Qt.TimerType.PreciseTimer)
    heartbeat.setInterval(2)
    heartbeat.timeout.connect(sample)
    heartbeat.start()
    _type_quickly(qtbot, editors["training.seq_len"], "3072")
    window.chart_tabs.setCurrentIndex(STEP_TAB)
    _type_quickly(qtbot, editors["training.micro_batch"], "2")
    window.chart_tabs.setCurrentIndex(SWEEP_TAB)
    _type_quickly(qtbot, editors["parallel.num_gpus"], "16")
    qtbot.waitUntil(lambda: not window.presenter.sweeps_pending, timeout=20_000)  # the idle-time work finishes
    heartbeat.stop()
    sample()  # and the window as it is left

    final = window.presenter.scenario
    assert (final.training.seq_len, final.training.micro_batch, final.parallel.num_gpus) == (3072, 2, 16)
    assert window.chart_is_current(SWEEP_TAB) and window.chart_is_current(STEP_TAB)
    assert len(beats) > 5 and sweeps and peaks
    expected: dict[int, tuple[float, ...]] = {}
    for scenario, shown in sweeps:  # each distinct scenario's sweep computed once
        want = expected.setdefault(id(scenario), _sweep_expected(scenario))
        assert shown is not None and all(math.isclose(a, b, rel_tol=1e-9) for a, b in zip(shown, want, strict=True))
    for scenario, peak in peaks:
        assert peak == estimate(scenario).peak.bytes
    assert sweeps[-1][0] is final and _sweep_shown(window) == expected.get(id(final), _sweep_expected(final))
