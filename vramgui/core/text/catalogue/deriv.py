"""``deriv.*`` messages. Words inside derivations and formulas; the numbers and symbols around them are not translated.

Part of the one catalogue (``vramgui.core.text.message.CATALOGUE``, translation context "Core").
"""

from __future__ import annotations

from collections.abc import Mapping

from vramgui.core.text.mark import QT_TRANSLATE_NOOP, Plural


def entries() -> Mapping[str, str | Plural]:
    # QT_TRANSLATE_NOOP is spelled out in every entry: pyside6-lupdate extracts only calls by that name
    return {
        # ----- words inside derivations and formulas (the numbers and symbols are not translated)
        "deriv.no_architecture": QT_TRANSLATE_NOOP("Core", "no architecture known"),
        "deriv.not_estimable": QT_TRANSLATE_NOOP("Core", "not estimable: {reason}"),
        "deriv.not_available": QT_TRANSLATE_NOOP("Core", "n/a"),
        "deriv.offloaded": QT_TRANSLATE_NOOP("Core", "0 (offloaded)"),
        "deriv.param_partition_offloaded": QT_TRANSLATE_NOOP("Core", "0: parameter partition offloaded to CPU memory"),
        "deriv.gradient_partition_offloaded": QT_TRANSLATE_NOOP(
            "Core", "0: gradient partition offloaded to CPU memory"),
        "deriv.optimizer_states_offloaded": QT_TRANSLATE_NOOP(
            "Core", "0: optimizer states (with master weights) offloaded to CPU memory"),
        "deriv.master_offloaded": QT_TRANSLATE_NOOP("Core", "0: fp32 master weights offloaded to CPU memory"),
        "deriv.no_master_copy": QT_TRANSLATE_NOOP("Core", "0: no master copy"),
        "deriv.gradients_to_host": QT_TRANSLATE_NOOP("Core", "0: gradients go to the host"),
        "deriv.optimizer_on_host": QT_TRANSLATE_NOOP("Core", "0: optimizer states on the host"),
        "deriv.master_on_host": QT_TRANSLATE_NOOP("Core", "0: fp32 master weights on the host"),
        "deriv.gradient_partition_on_host": QT_TRANSLATE_NOOP("Core", "0: gradient partition on the host"),
        "deriv.param_partition_on_host": QT_TRANSLATE_NOOP("Core", "0: parameter partition on the host"),
        "deriv.params": QT_TRANSLATE_NOOP("Core", "params"),
        "deriv.gradients": QT_TRANSLATE_NOOP("Core", "gradients"),
        "deriv.no_fixed_terms": QT_TRANSLATE_NOOP("Core", "0 (no fixed terms given)"),
        "deriv.layers": Plural(QT_TRANSLATE_NOOP("Core", "%n layer(s) × {quantity}", None, 1), n="coefficient",
                               one="%n layer × {quantity}", other="%n layers × {quantity}"),
        "deriv.outside_layers": QT_TRANSLATE_NOOP("Core", "{value} outside the layers (embedding, logits, loss)"),
        "deriv.layers_differ": QT_TRANSLATE_NOOP(
            "Core", "{terms} (largest layer kind; layers differ) → {total} in all"),
        # the quantity of "deriv.layers" in the activations' formula: "32 layers × 1 micro-batch in flight"
        "deriv.in_flight": Plural(QT_TRANSLATE_NOOP("Core", "%n micro-batch(es) in flight", None, 1), n="count",
                                  one="%n micro-batch in flight", other="%n micro-batches in flight"),
        "deriv.activations_korthikanti": QT_TRANSLATE_NOOP(
            "Core", "{core} per layer (Korthikanti et al. 2022) × {held} + embedding/output terms"),
        "deriv.activations_tensors": QT_TRANSLATE_NOOP(
            "Core", "Σ saved tensors per layer × {held} + embedding/output terms (per-tensor, see terms)"),
        "deriv.host_paper": QT_TRANSLATE_NOOP("Core", "({terms}) × GPUs per node"),
        "deriv.host_ds2_offload": QT_TRANSLATE_NOOP("Core", "Φ · max(4·total_gpus, 16) · 1.5"),
        "deriv.host_ds2": QT_TRANSLATE_NOOP(
            "Core", "Φ · 4 · GPUs per node · 1.5 (model initialised in fp32 on the host)"),
        "deriv.host_ds3_offload_init": QT_TRANSLATE_NOOP("Core", "Φ · {k} / nodes · 1.5"),
        "deriv.host_ds3_offload": QT_TRANSLATE_NOOP("Core", "Φ · max(4·GPUs per node, {k} / nodes) · 1.5"),
        "deriv.host_ds3_init": QT_TRANSLATE_NOOP("Core", "L_largest · 4 · GPUs per node · 1.5"),
        "deriv.host_ds3": QT_TRANSLATE_NOOP("Core", "Φ · 4 · GPUs per node · 1.5"),
        # ----- the training-step peak (vramgui.core.step.peak)
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
        # ----- moments set by the root: embedding, final norm, LM head (vramgui.core.step.root)
        "deriv.peak_no_root_moment": QT_TRANSLATE_NOOP("Core", "0: {why}"),
        "deriv.peak_root_not_fsdp2": QT_TRANSLATE_NOOP(
            "Core", "the root is gathered and reduce-scattered on its own only under FSDP2 (ZeRO-3, paper convention)"),
        "deriv.peak_root_frozen": QT_TRANSLATE_NOOP(
            "Core", "a frozen base's root has no gradient; its gathered copy is in the working set"),
        "deriv.peak_root_pipeline": QT_TRANSLATE_NOOP(
            "Core", "the embedding and the LM head sit on different pipeline stages (not modelled)"),
        "deriv.peak_root_untied": QT_TRANSLATE_NOOP("Core", "untied embeddings: the LM head has its own gradient"),
        "deriv.peak_root_all_gather": QT_TRANSLATE_NOOP(
            "Core", "the root and the first layer unsharded, each beside its all-gather output, before any activation"),
        "deriv.peak_root_reduce_scatter": QT_TRANSLATE_NOOP(
            "Core", "the root's gradients copied into the reduce-scatter input, and the embedding's gradient still "
                    "referenced (gloo's own copy of the input is not counted: NCCL writes into the output)"),
        "deriv.peak_tied_sum_two": QT_TRANSLATE_NOOP(
            "Core", "the LM head's gradient and the embedding's, summed out of place into the tied weight's gradient "
                    "(counted under gradients)"),
        "deriv.peak_tied_sum_three": QT_TRANSLATE_NOOP(
            "Core", "the LM head's gradient, the embedding's and their out-of-place sum (the tied weight's gradient "
                    "is held apart: accumulated or sharded)"),
        "deriv.peak_buckets_no_sync": QT_TRANSLATE_NOOP(
            "Core", "with bucket views under no_sync the earlier micro-batches' gradients live beside the buckets "
                    "until the synced backward copies them in"),
        "deriv.cuda_context_default": QT_TRANSLATE_NOOP(
            "Core", "default: 500 MiB CUDA context + 32 MiB cuBLAS workspace (set the CUDA context to change it)"),
        "deriv.cuda_context_given": QT_TRANSLATE_NOOP("Core", "as given"),
        # ----- LoRA / QLoRA fine-tuning (vramgui.core.finetune.adapters)
        "deriv.serve_linear": QT_TRANSLATE_NOOP("Core", "{value} Linear weights ({format}, {bits} bits a weight)"),
        "deriv.serve_embedding": QT_TRANSLATE_NOOP("Core", "{value} token embedding"),
        "deriv.serve_embedding_host": QT_TRANSLATE_NOOP("Core", "{value}: the token embedding stays in host memory"),
        "deriv.serve_head": QT_TRANSLATE_NOOP("Core", "{value} LM head"),
        "deriv.serve_rest": QT_TRANSLATE_NOOP("Core", "{value} norms, routers and the rest"),
        "deriv.serve_forward": QT_TRANSLATE_NOOP("Core", "{value} the largest block's live tensors"),
        "deriv.serve_logits": QT_TRANSLATE_NOOP("Core", "{value} logits"),
        "deriv.serve_mask": QT_TRANSLATE_NOOP("Core", "{value} sliding-window attention mask"),
        "deriv.serve_vllm_needed": QT_TRANSLATE_NOOP("Core", "{value} bytes: {batch} × {blocks} blocks per request"),
        "deriv.serve_vllm_pool": QT_TRANSLATE_NOOP("Core", "{value} bytes: the blocks vLLM allocates"),
        "deriv.serve_cells": QT_TRANSLATE_NOOP("Core", "{value} bytes: {cells} cells × {layers} full layers"),
        "deriv.serve_swa_cells": QT_TRANSLATE_NOOP("Core", "{value} bytes: {cells} cells × {layers} sliding layers"),
        "deriv.serve_dynamic_cache": QT_TRANSLATE_NOOP("Core", "{value}: DynamicCache K and V of every token kept"),
        "deriv.serve_context": QT_TRANSLATE_NOOP("Core", "{value} CUDA context and workspaces"),
        "deriv.serve_extra": QT_TRANSLATE_NOOP("Core", "{value} extra (--extra)"),
        "deriv.frozen_base": QT_TRANSLATE_NOOP("Core", "{value} frozen base ({storage})"),
        "deriv.host_finetune": QT_TRANSLATE_NOOP("Core", "{adapters} + frozen base ({storage})/N_d"),
        "deriv.peak_dequant": QT_TRANSLATE_NOOP(
            "Core", "{value} one quantised weight dequantised to the compute dtype"),
        # ----- FP8 training through TransformerEngine (vramgui.core.model_states.fp8): terms added to the parameters
        "deriv.fp8_weights": QT_TRANSLATE_NOOP(
            "Core", "{value} FP8 weight copies ({recipe}: {elements} Linear weight elements, copy + transpose)"),
        "deriv.fp8_scaling": QT_TRANSLATE_NOOP(
            "Core", "{value} FP8 scaling state ({recipe}: {gemms} FP8 GEMMs)"),
    }
