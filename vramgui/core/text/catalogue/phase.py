"""``phase.*``, ``step.*``, ``peak.*`` messages. The moments of one training step (``phase.*``) and the words that
place the peak among them (``step.*``, ``peak.at``).

Part of the one catalogue (``vramgui.core.text.message.CATALOGUE``, translation context "Core").
"""

from __future__ import annotations

from collections.abc import Mapping

from vramgui.core.text.mark import QT_TRANSLATE_NOOP


def entries() -> Mapping[str, str]:
    # QT_TRANSLATE_NOOP is spelled out in every entry: pyside6-lupdate extracts only calls by that name
    return {
        # ----- the training-step peak (vramgui.core.step.peak): the moments of one training step
        "phase.forward": QT_TRANSLATE_NOOP("Core", "end of forward"),
        "phase.loss_backward": QT_TRANSLATE_NOOP("Core", "start of backward (loss gradient)"),
        "phase.backward": QT_TRANSLATE_NOOP("Core", "end of backward"),
        "phase.forward_accum": QT_TRANSLATE_NOOP("Core", "end of forward, later micro-batch"),
        "phase.loss_backward_accum": QT_TRANSLATE_NOOP("Core", "start of backward, later micro-batch"),
        "phase.optimizer_step": QT_TRANSLATE_NOOP("Core", "optimizer step"),
        "phase.root_all_gather": QT_TRANSLATE_NOOP("Core", "root all-gather, start of forward"),
        "phase.tied_gradient_sum": QT_TRANSLATE_NOOP("Core", "tied-weight gradient sum, end of backward"),
        "phase.root_reduce_scatter": QT_TRANSLATE_NOOP("Core", "root reduce-scatter, end of backward"),
        "phase.short.forward": QT_TRANSLATE_NOOP("Core", "forward"),
        "phase.short.loss_backward": QT_TRANSLATE_NOOP("Core", "loss grad."),
        "phase.short.backward": QT_TRANSLATE_NOOP("Core", "backward"),
        "phase.short.forward_accum": QT_TRANSLATE_NOOP("Core", "forward (accum.)"),
        "phase.short.loss_backward_accum": QT_TRANSLATE_NOOP("Core", "loss grad. (accum.)"),
        "phase.short.optimizer_step": QT_TRANSLATE_NOOP("Core", "opt. step"),
        "phase.short.root_all_gather": QT_TRANSLATE_NOOP("Core", "root gather"),
        "phase.short.tied_gradient_sum": QT_TRANSLATE_NOOP("Core", "tied sum"),
        "phase.short.root_reduce_scatter": QT_TRANSLATE_NOOP("Core", "root RS"),
        "step.first": QT_TRANSLATE_NOOP("Core", "first step"),
        "step.steady": QT_TRANSLATE_NOOP("Core", "steady state"),
        "peak.at": QT_TRANSLATE_NOOP("Core", "peak at the {phase}, {step}"),
    }
