"""`make bench` must run to the end unattended: its GUI part edits a window and closes it (a modal
unsaved-changes prompt once hung it). Timings are not asserted here - they belong to `make bench`."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH_GUI = Path(__file__).resolve().parents[1] / "bench" / "bench_gui.py"


def test_gui_bench_edits_and_closes_the_window_without_blocking(qapp):
    spec = importlib.util.spec_from_file_location("bench_gui_smoke", BENCH_GUI)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    redraw, complete = module._edit_times(edits=2)
    assert len(redraw) == len(complete) == 2
    assert all(0 < r <= c for r, c in zip(redraw, complete, strict=True))
