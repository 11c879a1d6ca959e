"""``component.*`` messages. The names of the memory components (``vramgui.core.step.components``: the CLI, the
breakdown and the charts).

Part of the one catalogue (``vramgui.core.text.message.CATALOGUE``, translation context "Core").
"""

from __future__ import annotations

from collections.abc import Mapping

from vramgui.core.text.mark import QT_TRANSLATE_NOOP


def entries() -> Mapping[str, str]:
    # QT_TRANSLATE_NOOP is spelled out in every entry: pyside6-lupdate extracts only calls by that name
    return {
        # ----- components (vramgui.core.step.components: one table for the CLI, the breakdown and both charts)
        "component.parameters": QT_TRANSLATE_NOOP("Core", "Parameters"),
        "component.gradients": QT_TRANSLATE_NOOP("Core", "Gradients"),
        "component.optimizer_states": QT_TRANSLATE_NOOP("Core", "Optimizer states"),
        "component.master_weights": QT_TRANSLATE_NOOP("Core", "Master weights (fp32, part of optimizer states)"),
        "component.activations": QT_TRANSLATE_NOOP("Core", "Activations"),
        "component.other": QT_TRANSLATE_NOOP("Core", "Other (fixed terms)"),
        # ----- the training-step peak (vramgui.core.step.peak): live beyond the model states and saved activations
        "component.loss_gradient": QT_TRANSLATE_NOOP("Core", "Loss gradient"),
        "component.backward_transient": QT_TRANSLATE_NOOP("Core", "Backward temporaries"),
        "component.optimizer_temporaries": QT_TRANSLATE_NOOP("Core", "Optimizer-step temporaries"),
        "component.comm_buffers": QT_TRANSLATE_NOOP("Core", "Communication buckets"),
        "component.zero3_working_set": QT_TRANSLATE_NOOP("Core", "ZeRO-3 gathered parameters"),
        "component.root_all_gather": QT_TRANSLATE_NOOP("Core", "FSDP2 root all-gather"),
        "component.tied_gradient_sum": QT_TRANSLATE_NOOP("Core", "Tied-weight gradient sum"),
        "component.root_reduce_scatter": QT_TRANSLATE_NOOP("Core", "FSDP2 root reduce-scatter"),
        "component.cuda_context": QT_TRANSLATE_NOOP("Core", "CUDA context and workspaces"),
    }
