"""One way out of the adviser (vramgui.core.advise.suggestions) as a value: its changes, the estimate they give, its
step time and cost, its words, its flags and its JSON."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vramgui.core.estimate import Estimate
from vramgui.core.fields import registry as fields
from vramgui.core.scenario.specs import Scenario
from vramgui.core.text.message import Msg, render
from vramgui.core.text.units import format_bytes, format_seconds

KIND_ORDER = ("recompute", "loss", "micro_batch", "strategy", "gpus", "tp", "pp", "cp", "ep", "offload", "seq_len",
              "finetune")

Changes = tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class Suggestion:
    """One way out: ``changes`` (field path, value) applied with ``fields.with_value`` give ``estimate``."""

    kind: str  # one of KINDS
    changes: Changes
    change_msg: Msg  # "use 16 GPUs instead of 8"
    estimate: Estimate  # the changed scenario's estimate: it fits (with LOW_HEADROOM free where it can)

    @property
    def scenario(self) -> Scenario:
        return self.estimate.scenario

    @property
    def peak(self) -> int:
        assert self.estimate.peak is not None  # estimate() always computes it
        return self.estimate.peak.bytes

    @property
    def headroom(self) -> int:
        assert self.estimate.headroom is not None  # advise() needs the GPU memory
        return self.estimate.headroom

    @property
    def seconds(self) -> float | None:
        """The changed run's step time (None: the GPU's compute figures are not known)."""
        return None if self.estimate.time is None else self.estimate.time.step_seconds

    @property
    def cost(self) -> float | None:
        """The changed run's cost (None without --train-tokens and --gpu-hour-price)."""
        return None if self.estimate.time is None else self.estimate.time.cost

    def msg(self, unit: str = "GB") -> Msg:
        """"use 16 GPUs instead of 8: peak 61.20 GB, 12.80 GB free" (sizes in ``unit``), with ", step 3.2 s" (and
        ", run cost 1,234") when the time is known."""
        peak, free = format_bytes(self.peak, unit), format_bytes(self.headroom, unit)
        if self.seconds is None:
            return Msg.of("advise.outcome", change=self.change_msg, peak=peak, free=free)
        if self.cost is None:
            return Msg.of("advise.outcome_time", change=self.change_msg, peak=peak, free=free,
                          step=format_seconds(self.seconds))
        return Msg.of("advise.outcome_cost", change=self.change_msg, peak=peak, free=free,
                      step=format_seconds(self.seconds), cost=f"{self.cost:,.0f}")

    @property
    def flags(self) -> list[str]:
        """The command-line arguments that make the change: ``["--gpus", "16", "--stage", "3"]``."""
        return flags(self.changes)

    def to_dict(self, unit: str = "GB") -> dict[str, Any]:
        """The shape of ``vramgui estimate --json``'s "suggestions" (text in English)."""
        return {"kind": self.kind, "changes": dict(self.changes), "flags": self.flags, "peak": self.peak,
                "headroom": self.headroom, "step_seconds": self.seconds, "cost": self.cost,
                "text": render(self.msg(unit))}


def flags(changes: Changes) -> list[str]:
    """The registry's flag of each changed field with its value (``--sp`` / ``--no-sp`` for a true/false field)."""
    out: list[str] = []
    for path, value in changes:
        f = fields.field(path)
        if f.flag is None:  # pragma: no cover - every path the adviser changes has a flag
            continue
        if f.kind == "bool":
            out.append(f.flag if value else "--no-" + f.flag.removeprefix("--"))
        else:
            out += [f.flag, fields.format_value(f, value)]
    return out



def order(x: Suggestion) -> tuple[int, float, int]:
    """Fastest first where the step time is known; the rest after, the least change first."""
    return (0, x.seconds, KIND_ORDER.index(x.kind)) if x.seconds is not None else (1, 0.0, KIND_ORDER.index(x.kind))
