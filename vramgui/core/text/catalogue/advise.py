"""``advise.*`` messages. The adviser's headings and suggestions (``vramgui.core.advise.suggestions``): the ways to
make a scenario fit.

Part of the one catalogue (``vramgui.core.text.message.CATALOGUE``, translation context "Core").
"""

from __future__ import annotations

from collections.abc import Mapping

from vramgui.core.text.mark import QT_TRANSLATE_NOOP


def entries() -> Mapping[str, str]:
    # QT_TRANSLATE_NOOP is spelled out in every entry: pyside6-lupdate extracts only calls by that name
    return {
        # ----- the adviser (vramgui.core.advise.suggestions): headings above the list
        "advise.heading_fit": QT_TRANSLATE_NOOP("Core", "Ways to make it fit:"),
        "advise.heading_headroom": QT_TRANSLATE_NOOP(
            "Core", "Little headroom; ways to keep at least {share} % of usable memory free:"),
        # ----- the adviser (vramgui.core.advise.suggestions): one suggestion: the change, then what it leads to
        "advise.outcome": QT_TRANSLATE_NOOP("Core", "{change}: peak {peak}, {free} free"),
        "advise.outcome_time": QT_TRANSLATE_NOOP("Core", "{change}: peak {peak}, {free} free, step {step}"),
        "advise.outcome_cost": QT_TRANSLATE_NOOP("Core", "{change}: peak {peak}, {free} free, step {step}, run cost "
                                                         "{cost}"),
        "advise.gpus": QT_TRANSLATE_NOOP("Core", "use {n} GPUs instead of {was}"),
        "advise.gpus_strategy": QT_TRANSLATE_NOOP("Core", "{strategy} on {n} GPUs instead of {was}"),
        "advise.micro_batch": QT_TRANSLATE_NOOP("Core", "micro-batch {n} instead of {was}"),
        "advise.micro_batch_accum": QT_TRANSLATE_NOOP(
            "Core", "micro-batch {n} instead of {was}, {steps} accumulation steps (same global batch)"),
        "advise.seq_len": QT_TRANSLATE_NOOP("Core", "sequence length {n} instead of {was}"),
        "advise.strategy": QT_TRANSLATE_NOOP("Core", "{strategy} instead of {was}"),
        "advise.recompute_selective": QT_TRANSLATE_NOOP("Core", "selective activation recompute"),
        "advise.recompute_full": QT_TRANSLATE_NOOP("Core", "full activation recompute"),
        "advise.loss_chunked": QT_TRANSLATE_NOOP(
            "Core", "a chunked cross-entropy loss (no full fp32 logits) instead of the HF loss"),
        "advise.and_recompute": QT_TRANSLATE_NOOP("Core", "full activation recompute and {change}"),
        "advise.tp": QT_TRANSLATE_NOOP("Core", "tensor parallel {tp} on {n} GPUs instead of {was_tp} on {was}"),
        "advise.tp_same": QT_TRANSLATE_NOOP("Core", "tensor parallel {tp} instead of {was_tp}"),
        "advise.pp": QT_TRANSLATE_NOOP("Core", "{pp} pipeline stages on {n} GPUs instead of {was_pp} on {was}"),
        "advise.pp_same": QT_TRANSLATE_NOOP("Core", "{pp} pipeline stages instead of {was_pp}"),
        "advise.cp": QT_TRANSLATE_NOOP("Core", "context parallel {cp} on {n} GPUs instead of {was_cp} on {was}"),
        "advise.cp_same": QT_TRANSLATE_NOOP("Core", "context parallel {cp} instead of {was_cp}"),
        "advise.ep": QT_TRANSLATE_NOOP("Core", "expert parallel {ep} on {n} GPUs instead of {was_ep} on {was}"),
        "advise.ep_same": QT_TRANSLATE_NOOP("Core", "expert parallel {ep} instead of {was_ep}"),
        # a layout that lowers dp keeps the samples of a step (no global batch given) through accumulation
        "advise.samples_kept": QT_TRANSLATE_NOOP(
            "Core", "{change}, {steps} accumulation steps (the same {samples} samples per step)"),
        "advise.with_strategy": QT_TRANSLATE_NOOP("Core", "{change}, with {strategy} instead of {was}"),
        "advise.lora": QT_TRANSLATE_NOOP("Core", "LoRA fine-tuning (rank {rank}) instead of full training"),
        "advise.qlora": QT_TRANSLATE_NOOP(
            "Core", "QLoRA fine-tuning (4-bit base, rank {rank}) instead of full training"),
        "advise.none": QT_TRANSLATE_NOOP(
            "Core", "No single change found that fits (tried GPUs, micro-batch, sequence, strategy, offload, "
                    "recompute, TP, PP, CP, EP)."),
    }
