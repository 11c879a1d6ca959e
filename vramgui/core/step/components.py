"""The per-GPU components of an estimate: their keys, their names (one table) and how they stack in a bar.

Every client names a component through :func:`label` (a ``Msg``: English in the CLI, translated in the window)
and stacks bars with :func:`stack` - the main window's strategy chart and the comparison tab alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from vramgui.core.text.message import Msg

COMPONENT_KEYS = ("parameters", "gradients", "optimizer_states", "master_weights", "activations", "other")
# master_weights is a part of optimizer_states (shown on its own, never added again): the rest add up to the total
STACK_KEYS = ("parameters", "gradients", "optimizer_states", "activations", "other")

# the step peak's own components (vramgui.core.step.peak.PEAK_KEYS) are named from the same table
STEP_KEYS = ("loss_gradient", "backward_transient", "optimizer_temporaries", "comm_buffers", "zero3_working_set",
             "cuda_context")
_LABELS = {key: f"component.{key}" for key in COMPONENT_KEYS + STEP_KEYS}


def label(key: str) -> Msg:
    """The name of component ``key`` (``component.parameters`` ...)."""
    return Msg.of(_LABELS[key])


def stack(bars: Sequence[Mapping[str, int | None]]) -> tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...]:
    """(key, bottoms, heights) in bytes for each of ``STACK_KEYS``, one value per bar; a component that is not
    estimated (None) or absent stacks as 0. The tops of the last segment are the per-GPU totals."""
    bottoms = [0] * len(bars)
    out = []
    for key in STACK_KEYS:
        heights = tuple(bar.get(key) or 0 for bar in bars)
        out.append((key, tuple(bottoms), heights))
        bottoms = [b + h for b, h in zip(bottoms, heights, strict=True)]
    return tuple(out)
