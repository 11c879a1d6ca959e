"""The shown result as tidy CSV rows (exact bytes and seconds), one table after another: File > Export data as CSV;
and the one CSV writer of the window's exports (this and the comparison's, ``vramgui.presenters.compare.export``)."""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Sequence
from typing import Any

from vramgui.core.scenario.specs import Scenario
from vramgui.io.files import atomic_write_text
from vramgui.presenters.results import SWEEP_COUNTS, Computed

BOM = "\ufeff"
CSV_COLUMNS = ("table", "strategy", "num_gpus", "component", "bytes", "params", "formula", "seconds")


def csv_rows(computed: Computed | None, scenario: Scenario | None) -> list[dict[str, object]]:
    """Rows of the breakdown, the strategy variants and both sweeps of ``computed`` (complete its sweeps first)."""
    if computed is None or scenario is None:
        return []
    c = computed
    estimate: Any = c.estimate
    n = scenario.parallel.num_gpus
    rows: list[dict[str, object]] = []
    strategy = c.result.summary.strategy
    for comp in estimate.components:
        rows.append({"table": "breakdown", "strategy": strategy, "num_gpus": n, "component": comp.key,
                     "bytes": "" if comp.bytes is None else comp.bytes, "params": "",
                     "formula": comp.derivation or comp.formula})
    rows.append({"table": "breakdown", "strategy": strategy, "num_gpus": n, "component": "total",
                 "bytes": estimate.per_gpu_total, "params": "", "formula": ""})
    for label, _, variant in c.variants:
        est: Any = variant
        for comp in est.components:
            rows.append({"table": "strategies", "strategy": label, "num_gpus": n, "component": comp.key,
                         "bytes": "" if comp.bytes is None else comp.bytes, "params": "", "formula": ""})
        rows.append({"table": "strategies", "strategy": label, "num_gpus": n, "component": "total",
                     "bytes": est.per_gpu_total, "params": "", "formula": ""})
    for label, _, variant in c.variants:  # the step's time per strategy (vramgui.core.time), exact seconds
        time: Any = getattr(variant, "time", None)
        if time is None:
            continue
        for part in time.components:
            rows.append({"table": "step_time", "strategy": label, "num_gpus": n, "component": part.key, "bytes": "",
                         "params": "", "formula": part.part.derivation, "seconds": repr(part.seconds)})
        rows.append({"table": "step_time", "strategy": label, "num_gpus": n, "component": "step", "bytes": "",
                     "params": "", "formula": "", "seconds": repr(time.step_seconds)})
    for label, values in c.sweep_bytes.items():
        for count, value in zip(SWEEP_COUNTS, values, strict=False):
            if value is not None:
                rows.append({"table": "per_gpu_vs_gpus", "strategy": label, "num_gpus": count, "component": "total",
                             "bytes": value, "params": "", "formula": ""})
    for label, values in c.max_params.items():
        for count, value in zip(SWEEP_COUNTS, values, strict=False):
            if value is not None:
                rows.append({"table": "largest_model_vs_gpus", "strategy": label, "num_gpus": count,
                             "component": "", "bytes": "", "params": value, "formula": ""})
    return rows


def write_csv(path: str | os.PathLike[str], rows: list[dict[str, object]]) -> None:
    """Written atomically: a failed export leaves no half-written file (and an older one as it was)."""
    write_rows(path, CSV_COLUMNS, rows)


def write_rows(path: str | os.PathLike[str], columns: Sequence[str], rows: list[dict[str, object]]) -> None:
    """CSV as UTF-8 with a byte-order mark, written atomically (``vramgui.io.files.atomic_write_text``). The BOM is
    how Excel on Windows knows the file is UTF-8: without it "·", "×" and Chinese names are garbled (Python reads it
    with ``encoding="utf-8-sig"``, pandas and LibreOffice skip it)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(columns), lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(rows)
    atomic_write_text(path, BOM + buffer.getvalue())
