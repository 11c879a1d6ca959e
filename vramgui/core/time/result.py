"""The answer of the time model: ``StepTime`` (the estimate's ``time``), its keyed components and their parts.

A ``TimePart`` is a ``Part`` for seconds: the value, its ``Derivation`` (terms in nanoseconds, ``measure="seconds"``,
so ``vramgui.core.terms`` renders it "… = 1.23 s") and its source. ``StepTime`` holds exactly what
``estimate --json`` writes under ``time``: its attributes have the JSON's names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from vramgui.core.terms import Derivation, ExplainedRow, render_derivation, render_formula
from vramgui.core.text.message import Msg, english, render
from vramgui.core.time import components


@dataclass(frozen=True)
class TimePart:
    """Seconds on the slowest GPU with how they come about (``deriv``) and where the figures come from."""

    seconds: float
    deriv: Derivation
    source: str
    key: str = ""

    @property
    def formula(self) -> str:
        """The symbolic formula in English: ``m·F_mb/(R·η)``."""
        return render_formula(self.deriv, english)

    @property
    def derivation(self) -> str:
        """The derivation in English: ``64 × 2.86e12 FLOP / (312 TFLOP/s × 0.93) = 0.63 s``."""
        return render_derivation(self.deriv, "GB", english)

    @staticmethod
    def later(seconds: float, build: Callable[[str], Derivation], source: str, key: str) -> TimePart:
        """A part whose derivation ``build(key)`` writes when it is first read (``Part.later`` for seconds): a search
        ranks thousands of plans by their seconds and shows the words of a few. ``seconds`` must be what the
        derivation totals. Equal to, hashed and shown as the part built at once."""
        part = object.__new__(TimePart)
        part.__dict__.update(seconds=seconds, source=source, key=key, _build=build)  # frozen: no __setattr__
        return part

    def __getattr__(self, name: str) -> Any:  # only for a name not found: ``deriv`` of a ``later`` part, unread
        build = self.__dict__.get("_build") if name == "deriv" else None
        if build is None:
            raise AttributeError(name)
        built = build(self.key)
        object.__setattr__(self, "deriv", built)
        self.__dict__.pop("_build", None)  # pop: two threads may have built it at once (the same derivation)
        return built


@dataclass(frozen=True)
class TimeComponent(ExplainedRow):
    """One of ``components.TIME_KEYS``: its exposed seconds per optimizer step and the part that explains them."""

    key: str
    seconds: float
    part: TimePart

    @property
    def label_msg(self) -> Msg:
        return components.label(self.key)


@dataclass(frozen=True)
class StepTime:
    """One optimizer step over the whole global batch, and the run it makes up.

    ``step_seconds`` is the sum of ``components`` (exposed time, in ``components.TIME_KEYS`` order);
    ``model_flops_per_step`` counts the forward and backward of every token once, ``hardware_flops_per_step`` also
    what recomputation repeats (Korthikanti et al. 2022 App. A); ``mfu``/``hfu`` divide them by the time and the
    GPUs' dense peak for the GEMMs' dtype. ``train_seconds``/``gpu_hours`` need the run's tokens, ``cost`` also a
    price per GPU-hour (else None)."""

    step_seconds: float
    tokens_per_second: float
    tokens_per_second_per_gpu: float
    model_flops_per_step: int
    hardware_flops_per_step: int
    model_tflops_per_gpu: float
    mfu: float
    hfu: float
    components: tuple[TimeComponent, ...]
    train_seconds: float | None = None
    gpu_hours: float | None = None
    cost: float | None = None
    peak_tflops: float = 0.0  # the dense peak per GPU MFU and HFU are relative to
    peak_name: str = ""  # its dtype: "bf16/fp16", "fp8", ...
    notes: tuple[Msg, ...] = field(default=())

    def component(self, key: str) -> TimeComponent:
        for c in self.components:
            if c.key == key:
                return c
        raise KeyError(key)

    def seconds_of(self, key: str) -> float:
        return self.component(key).seconds

    @property
    def formulas(self) -> dict[str, str]:
        return {c.key: c.formula for c in self.components}

    @property
    def derivations(self) -> dict[str, str]:
        return {c.key: c.derivation for c in self.components}

    @property
    def sources(self) -> dict[str, str]:
        return {c.key: c.source for c in self.components}

    @property
    def train_days(self) -> float | None:
        return None if self.train_seconds is None else self.train_seconds / 86400

    def to_dict(self) -> dict[str, Any]:
        """The ``time`` of ``estimate --json``."""
        return {
            "step_seconds": self.step_seconds,
            "tokens_per_second": self.tokens_per_second,
            "tokens_per_second_per_gpu": self.tokens_per_second_per_gpu,
            "model_flops_per_step": self.model_flops_per_step,
            "hardware_flops_per_step": self.hardware_flops_per_step,
            "model_tflops_per_gpu": self.model_tflops_per_gpu,
            "mfu": self.mfu,
            "hfu": self.hfu,
            "peak_tflops": self.peak_tflops,
            "peak_dtype": self.peak_name,
            "components": {c.key: c.seconds for c in self.components},
            "formulas": self.formulas,
            "derivations": self.derivations,
            "sources": self.sources,
            "train_seconds": self.train_seconds,
            "gpu_hours": self.gpu_hours,
            "cost": self.cost,
            "notes": [render(n, english) for n in self.notes],
        }
