"""The components memory is made of, in one table: their keys, names, and where each one shows and stacks.

A component is a key the core computes bytes for. Its row says what it is called (a ``Msg``: English in the CLI,
translated in the window), whether it is one of the conventions' per-GPU sum (the estimate's rows), whether the
strategy and Compare bars stack it, and where it sits in the step peak's order (bars, the step chart, the
table). Everything else is derived from the rows: ``COMPONENT_KEYS``, ``STACK_KEYS``, ``STEP_KEYS``, the step
peak's ``PEAK_KEYS`` and every client's label. A new component is one row here, its message, and its arithmetic;
a view may give it a colour (``views/theme.py``), else it takes one from the series palette.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from vramgui.core.memo import dict_init
from vramgui.core.terms import Derivation, ExplainedRow, Part
from vramgui.core.text.message import Msg


@dataclass(frozen=True)
class Kind:
    key: str
    in_sum: bool  # a row of the estimate's per-GPU sum (the conventions' P + G + O + A + other)
    stacks: bool  # a segment of the strategy and Compare bars (master_weights is inside optimizer_states)
    in_peak: bool  # live at some moment of the step peak (PEAK_KEYS)

    @property
    def label(self) -> Msg:
        return Msg.of(f"component.{self.key}")


# the rows in the order they stack, the step peak's own terms between activations and other
KINDS: tuple[Kind, ...] = (
    Kind("parameters", in_sum=True, stacks=True, in_peak=True),
    Kind("gradients", in_sum=True, stacks=True, in_peak=True),
    Kind("optimizer_states", in_sum=True, stacks=True, in_peak=True),
    Kind("master_weights", in_sum=True, stacks=False, in_peak=False),  # part of optimizer_states, never added again
    Kind("activations", in_sum=True, stacks=True, in_peak=True),
    Kind("loss_gradient", in_sum=False, stacks=False, in_peak=True),
    Kind("backward_transient", in_sum=False, stacks=False, in_peak=True),
    Kind("optimizer_temporaries", in_sum=False, stacks=False, in_peak=True),
    Kind("comm_buffers", in_sum=False, stacks=False, in_peak=True),
    Kind("zero3_working_set", in_sum=False, stacks=False, in_peak=True),
    Kind("root_all_gather", in_sum=False, stacks=False, in_peak=True),
    Kind("tied_gradient_sum", in_sum=False, stacks=False, in_peak=True),
    Kind("root_reduce_scatter", in_sum=False, stacks=False, in_peak=True),
    Kind("cuda_context", in_sum=False, stacks=False, in_peak=True),
    Kind("other", in_sum=True, stacks=True, in_peak=True),
)
_BY_KEY = {k.key: k for k in KINDS}

COMPONENT_KEYS = tuple(k.key for k in KINDS if k.in_sum)  # the estimate's rows
STACK_KEYS = tuple(k.key for k in KINDS if k.stacks)  # these add up to the per-GPU sum
STEP_KEYS = tuple(k.key for k in KINDS if k.in_peak and not k.in_sum)  # the step peak's own terms
PEAK_KEYS = tuple(k.key for k in KINDS if k.in_peak)  # the order the step's components stack in


def label(key: str) -> Msg:
    """The name of component ``key`` (``component.parameters`` ...); KeyError for a key with no row."""
    return _BY_KEY[key].label


def label_of(key: str) -> Msg | None:
    """The name of ``key`` if it is a component, else None (a client then shows its own text)."""
    kind = _BY_KEY.get(key)
    return kind.label if kind is not None else None


def stack(bars: Sequence[Mapping[str, int | None]], keys: Sequence[str] = STACK_KEYS,
          ) -> tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...]:
    """(key, bottoms, heights) in bytes for each of ``keys`` (``STACK_KEYS``; the comparison adds serving's parts
    where a serving scenario is pinned), one value per bar; a component that is not estimated (None) or absent
    stacks as 0. The tops of the last segment are the per-GPU totals."""
    bottoms = [0] * len(bars)
    out = []
    for key in keys:
        heights = tuple(bar.get(key) or 0 for bar in bars)
        out.append((key, tuple(bottoms), heights))
        bottoms = [b + h for b, h in zip(bottoms, heights, strict=True)]
    return tuple(out)


@dict_init
@dataclass(frozen=True)
class Component(ExplainedRow):
    """One row of an estimate: a keyed ``Part`` (``part.key`` one of ``COMPONENT_KEYS``) and its place in the
    bars (``components.label``, ``components.stack``). ``estimated`` is False only for activations that cannot
    be estimated: their ``bytes`` is None, not 0."""

    part: Part
    estimated: bool = True

    @property
    def key(self) -> str:
        return self.part.key

    @property
    def bytes(self) -> int | None:
        return self.part.bytes if self.estimated else None

    @property
    def deriv(self) -> Derivation:
        return self.part.deriv

    @property
    def label_msg(self) -> Msg:
        return label(self.key)
