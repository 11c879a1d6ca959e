"""Measured training-step peaks (tests/fixtures/measured_peaks.json) against vramgui's step-peak model.

``python -m bench.validate.peak_compare [FIXTURE]`` prints one row per case: the measured peak, vramgui's
``estimate(scenario).peak.bytes``, their ratio, and the phase/step of each peak. The Scenario is built from the
fixture's scenario block with vramgui's own import of the config (``compare.vramgui_spec``); CUDA-only fixed
terms are zero (a CPU has no CUDA context). A vramgui that does not have the step-peak model yet, or raises on a
case, is reported as n/a rather than stopping the run. Needs no torch unless the spec import does.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "measured_peaks.json"
GOAL_SINGLE = 0.03  # |predicted / measured - 1| per single-process case
GOAL_DISTRIBUTED = 0.05  # DDP / FSDP2
STEP_NAMES = {1: "first", 2: "steady"}


@dataclass(frozen=True)
class PeakRow:
    key: str
    num_gpus: int
    measured: int
    measured_phase: str  # in vramgui's phase names (see measured_phase)
    measured_step: str  # first | steady
    predicted: int | None = None
    predicted_phase: str = ""
    predicted_step: str = ""
    note: str = ""
    breakdown: tuple[tuple[str, int], ...] = ()
    raw: int | None = None  # distributed: the peak with gloo's own buffers (made inside Work.wait()) counted

    @property
    def ratio(self) -> float | None:
        return None if self.predicted is None else self.predicted / self.measured

    @property
    def goal(self) -> float:
        return GOAL_DISTRIBUTED if self.num_gpus > 1 else GOAL_SINGLE

    @property
    def ok(self) -> bool | None:
        return None if self.ratio is None else abs(self.ratio - 1) <= self.goal


def measured_phase(measured: dict[str, Any]) -> str:
    """The measured peak's moment in vramgui.core.step.peak's PHASES: backward while the loss/logits gradient lives is
    ``loss_backward``; a micro-batch after the first is ``*_accum``."""
    phase = measured["phase"]
    if phase == "optimizer":
        return "optimizer_step"
    accum = "_accum" if (measured.get("micro_batch") or 0) > 0 else ""
    if phase == "backward":
        return ("loss_backward" + accum) if measured.get("where") == "early" else "backward"
    return phase + accum


def _build(cls: Any, dropped: list[str], **kwargs: Any) -> Any:
    """cls(**kwargs) without the fields this vramgui does not have yet (named in ``dropped``)."""
    names = {f.name for f in dataclasses.fields(cls)}
    dropped += [f"{cls.__name__}.{k}" for k in kwargs if k not in names]
    return cls(**{k: v for k, v in kwargs.items() if k in names})


def scenario_for(entry: dict[str, Any]) -> tuple[Any, list[str]]:
    from bench.validate.compare import vramgui_spec
    from vramgui.core.scenario.specs import OverheadSpec, ParallelSpec, PrecisionSpec, Scenario, TrainingSpec

    sc = entry["scenario"]
    dropped: list[str] = []
    global_batch = (sc["micro_batch"] * sc["accumulation"] * sc["num_gpus"]) if sc["accumulation"] > 1 else None
    config = SimpleNamespace(to_dict=lambda: entry["config"])
    scenario = Scenario(
        model=vramgui_spec(config),
        precision=_build(PrecisionSpec, dropped, dtype=sc["dtype"], recipe=sc["recipe"], optimizer=sc["optimizer"],
                         optimizer_impl=sc["optimizer_impl"]),
        training=_build(TrainingSpec, dropped, micro_batch=sc["micro_batch"], seq_len=sc["seq_len"],
                        global_batch=global_batch, recompute=sc["recompute"], attention=sc["attention"],
                        implementation="hf", loss="hf"),
        parallel=_build(ParallelSpec, dropped, num_gpus=sc["num_gpus"], zero_stage=sc["zero_stage"],
                        ddp_bucket_view=sc["ddp_bucket_view"]),
        overhead=_build(OverheadSpec, dropped, cuda_context=0),
    )
    return scenario, dropped


def compare_entry(entry: dict[str, Any]) -> PeakRow:
    m = entry["measured"]
    parts = tuple((k, v) for k, v in m["breakdown"].items() if isinstance(v, int))
    row = PeakRow(entry["key"], entry["scenario"]["num_gpus"], m["peak"], measured_phase(m),
                  STEP_NAMES.get(m["step"], str(m["step"])), breakdown=parts, raw=m.get("raw_peak"))
    try:
        from vramgui.core.estimate import estimate

        scenario, dropped = scenario_for(entry)
        peak = estimate(scenario).peak
        if peak is None:
            return dataclasses.replace(row, note="vramgui: no step peak")
        note = ("without " + ", ".join(dropped)) if dropped else ""
        return dataclasses.replace(row, predicted=int(peak.bytes), predicted_phase=str(peak.phase),
                                   predicted_step=str(peak.step), note=note)
    except Exception as err:  # noqa: BLE001 - a model in progress: report n/a, keep going
        return dataclasses.replace(row, note=f"n/a: {type(err).__name__}: {str(err)[:100]}")


def load(path: Path = FIXTURE) -> list[dict[str, Any]]:
    return list(json.loads(path.read_text(encoding="utf-8"))["cases"])


def compare(entries: list[dict[str, Any]]) -> list[PeakRow]:
    return [compare_entry(e) for e in entries]


def table(rows: list[PeakRow]) -> str:
    head = f"{'case':68} {'measured':>16} {'predicted':>16} {'ratio':>7}  measured at / predicted at"
    lines = [head, "-" * len(head)]
    for r in rows:
        pred = "n/a" if r.predicted is None else f"{r.predicted:,}"
        ratio = "n/a" if r.ratio is None else f"{r.ratio:.4f}"
        where = f"{r.measured_phase}/{r.measured_step}"
        if r.predicted is not None:
            where += f" vs {r.predicted_phase}/{r.predicted_step}"
        lines.append(f"{r.key:68} {r.measured:>16,} {pred:>16} {ratio:>7}  {where}  {r.note}".rstrip())
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    rows = compare(load(Path(args[0]) if args else FIXTURE))
    print(table(rows))
    missed = [r for r in rows if r.ok is False]
    print(f"{len(rows)} cases, {sum(r.ok is True for r in rows)} within the goal, {len(missed)} outside, "
          f"{sum(r.ok is None for r in rows)} n/a")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
