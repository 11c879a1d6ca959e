"""The message templates of the training-step peak (``vramgui.core.step.peak``): phases, live components, notes.

Part of the one catalogue (``vramgui.core.text.message.CATALOGUE``), in the same "Core" translation context; kept in
a module of its own so that each file stays readable.
"""

from __future__ import annotations

from collections.abc import Mapping

from vramgui.core.text.mark import QT_TRANSLATE_NOOP


def step_catalogue() -> Mapping[str, str]:
    # QT_TRANSLATE_NOOP is spelled out in every entry: pyside6-lupdate extracts only calls by that name
    return {
        # ----- the moments of one training step
        "phase.forward": QT_TRANSLATE_NOOP("Core", "end of forward"),
        "phase.loss_backward": QT_TRANSLATE_NOOP("Core", "start of backward (loss gradient)"),
        "phase.backward": QT_TRANSLATE_NOOP("Core", "end of backward"),
        "phase.forward_accum": QT_TRANSLATE_NOOP("Core", "end of forward, later micro-batch"),
        "phase.loss_backward_accum": QT_TRANSLATE_NOOP("Core", "start of backward, later micro-batch"),
        "phase.optimizer_step": QT_TRANSLATE_NOOP("Core", "optimizer step"),
        "phase.short.forward": QT_TRANSLATE_NOOP("Core", "forward"),
        "phase.short.loss_backward": QT_TRANSLATE_NOOP("Core", "loss grad."),
        "phase.short.backward": QT_TRANSLATE_NOOP("Core", "backward"),
        "phase.short.forward_accum": QT_TRANSLATE_NOOP("Core", "forward (accum.)"),
        "phase.short.loss_backward_accum": QT_TRANSLATE_NOOP("Core", "loss grad. (accum.)"),
        "phase.short.optimizer_step": QT_TRANSLATE_NOOP("Core", "opt. step"),
        "step.first": QT_TRANSLATE_NOOP("Core", "first step"),
        "step.steady": QT_TRANSLATE_NOOP("Core", "steady state"),
        "peak.at": QT_TRANSLATE_NOOP("Core", "peak at the {phase}, {step}"),
        # ----- what is live at a moment beyond the model states and saved activations
        "component.loss_gradient": QT_TRANSLATE_NOOP("Core", "Loss gradient"),
        "component.backward_transient": QT_TRANSLATE_NOOP("Core", "Backward temporaries"),
        "component.optimizer_temporaries": QT_TRANSLATE_NOOP("Core", "Optimizer-step temporaries"),
        "component.comm_buffers": QT_TRANSLATE_NOOP("Core", "Communication buckets"),
        "component.zero3_working_set": QT_TRANSLATE_NOOP("Core", "ZeRO-3 gathered parameters"),
        "component.cuda_context": QT_TRANSLATE_NOOP("Core", "CUDA context and workspaces"),
        # ----- derivation words
        "deriv.peak_loss_hf": QT_TRANSLATE_NOOP(
            "Core", "two fp32 (b·s, v) gradients beside the saved log-softmax (HF ForCausalLMLoss)"),
        "deriv.peak_loss_chunked": QT_TRANSLATE_NOOP("Core", "0: a chunked cross-entropy keeps no full logits"),
        "deriv.peak_loss_not_here": QT_TRANSLATE_NOOP("Core", "0: the loss is on another pipeline stage"),
        "deriv.peak_recompute_layer": QT_TRANSLATE_NOOP(
            "Core", "one layer replayed ({layer} bytes saved by one layer) with its largest gradient temporaries"),
        "deriv.peak_backward_grads": QT_TRANSLATE_NOOP("Core", "gradients flowing through the first layer"),
        "deriv.peak_no_temporaries": QT_TRANSLATE_NOOP("Core", "0: {why}"),
        "deriv.peak_fused_optimizer": QT_TRANSLATE_NOOP("Core", "a fused optimizer allocates no temporaries"),
        "deriv.peak_no_state": QT_TRANSLATE_NOOP(
            "Core", "the optimizer's update needs no state-sized temporary (no state, or 8-bit blockwise kernels)"),
        "deriv.peak_optimizer_on_host": QT_TRANSLATE_NOOP("Core", "the optimizer steps on the host"),
        "deriv.peak_no_buckets": QT_TRANSLATE_NOOP("Core", "no communication buckets on one GPU"),
        "deriv.peak_megatron_buffers": QT_TRANSLATE_NOOP(
            "Core", "0: Megatron's gradient buffer is the gradients themselves"),
        "deriv.peak_no_working_set": QT_TRANSLATE_NOOP("Core", "0: parameters are not sharded (ZeRO-3 only)"),
        "deriv.peak_working_set_unknown": QT_TRANSLATE_NOOP(
            "Core", "0: the layer size is unknown without an architecture or a largest layer"),
        "deriv.cuda_context_default": QT_TRANSLATE_NOOP(
            "Core", "default: 500 MiB CUDA context + 32 MiB cuBLAS workspace (set the CUDA context to change it)"),
        "deriv.cuda_context_given": QT_TRANSLATE_NOOP("Core", "as given"),
        # ----- inputs a choice makes moot (the window disables them with this reason)
        "inactive.ddp_only": QT_TRANSLATE_NOOP("Core", "Only for DDP (ZeRO stage 0) outside the megatron convention"),
        "inactive.optimizer_on_host": QT_TRANSLATE_NOOP(
            "Core", "The optimizer steps on the host (optimizer offload): no temporaries on the GPU"),
        "inactive.fused_optimizer_convention": QT_TRANSLATE_NOOP(
            "Core", "DeepSpeed and Megatron-LM step with their own fused Adam: no temporaries"),
        "inactive.zero_only": QT_TRANSLATE_NOOP("Core", "Only for ZeRO stages 1-3 outside the megatron convention"),
        "inactive.prefetch_deepspeed": QT_TRANSLATE_NOOP(
            "Core", "DeepSpeed's knob: used under the deepspeed convention or with ZeRO-3 live parameters given"),
        # ----- notes
        "note.peak_without_activations": QT_TRANSLATE_NOOP(
            "Core", "the step peak leaves out activations and the loss gradient (no architecture)"),
        "note.peak_pipeline": QT_TRANSLATE_NOOP(
            "Core", "with pipeline stages the peak is computed on the stage that holds the most activations"),
    }
