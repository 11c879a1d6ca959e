"""``time.*`` messages. The names of the step-time components (``vramgui.core.time.components``) and the words
inside their derivations; the numbers and symbols around them are not translated.

Part of the one catalogue (``vramgui.core.text.message.CATALOGUE``, translation context "Core").
"""

from __future__ import annotations

from collections.abc import Mapping

from vramgui.core.text.mark import QT_TRANSLATE_NOOP, Plural


def entries() -> Mapping[str, str | Plural]:
    # QT_TRANSLATE_NOOP is spelled out in every entry: pyside6-lupdate extracts only calls by that name
    return {
        # ----- components (vramgui.core.time.components)
        "time.compute": QT_TRANSLATE_NOOP("Core", "Compute"),
        "time.recompute": QT_TRANSLATE_NOOP("Core", "Recomputation"),
        "time.tp_comm": QT_TRANSLATE_NOOP("Core", "Tensor-parallel communication"),
        "time.cp_comm": QT_TRANSLATE_NOOP("Core", "Context-parallel communication"),
        "time.ep_comm": QT_TRANSLATE_NOOP("Core", "Expert-parallel all-to-all"),
        "time.dp_comm": QT_TRANSLATE_NOOP("Core", "Data-parallel communication"),
        "time.pp_bubble": QT_TRANSLATE_NOOP("Core", "Pipeline bubble"),
        "time.pp_comm": QT_TRANSLATE_NOOP("Core", "Pipeline sends"),
        "time.optimizer": QT_TRANSLATE_NOOP("Core", "Optimizer step"),
        "time.offload": QT_TRANSLATE_NOOP("Core", "Offload (PCIe and CPU)"),
        # ----- words inside the time derivations
        "time.none": QT_TRANSLATE_NOOP("Core", "0 (none in this layout)"),
        "time.single": QT_TRANSLATE_NOOP("Core", "{terms}"),
        "time.link_intra": QT_TRANSLATE_NOOP("Core", "the node's GPU link"),
        "time.link_inter": QT_TRANSLATE_NOOP("Core", "the network"),
        "time.d_forward": Plural(QT_TRANSLATE_NOOP(
            "Core", "%n micro-batch(es) × forward ({flops} FLOP at {rate} TFLOP/s, {size} memory-bound): {value}",
            None, 1), n="mb",
            one="%n micro-batch × forward ({flops} FLOP at {rate} TFLOP/s, {size} memory-bound): {value}",
            other="%n micro-batches × forward ({flops} FLOP at {rate} TFLOP/s, {size} memory-bound): {value}"),
        "time.d_backward": QT_TRANSLATE_NOOP("Core", "backward {mb} × {each}: {value}"),
        "time.d_recompute_full": QT_TRANSLATE_NOOP(
            "Core", "full: {mb} × the blocks' forward again ({flops} FLOP): {value}"),
        "time.d_recompute_selective": QT_TRANSLATE_NOOP(
            "Core", "selective: {mb} × QKᵀ, softmax and PV again ({flops} FLOP): {value}"),
        "time.d_collective": QT_TRANSLATE_NOOP(
            "Core", "{count} × {kind} of {size} over {ranks} GPUs on {link} at {rate}: {value}"),
        "time.d_ring": QT_TRANSLATE_NOOP(
            "Core", "{mb} × {layers} blocks × ring of {size} over {ranks} GPUs on {link}, less {hidden} hidden "
            "behind attention: {value}"),
        "time.d_bubble": QT_TRANSLATE_NOOP("Core", "(p − 1)/v = {stages}/{v} micro-batch times of {each}: {value}"),
        "time.d_p2p": QT_TRANSLATE_NOOP("Core", "{count} sends of {size} on {link} at {rate}: {value}"),
        "time.d_overlap": QT_TRANSLATE_NOOP("Core", "hidden behind the backward: {value}"),
        "time.d_prefetch": QT_TRANSLATE_NOOP(
            "Core", "hidden behind the compute ({share} of the gathers prefetched; the rest waited for): {value}"),
        "time.d_optimizer": QT_TRANSLATE_NOOP("Core", "{size} read and written at {rate}: {value}"),
        "time.d_pcie": QT_TRANSLATE_NOOP("Core", "{size} over PCIe at {rate}: {value}"),
        "time.d_cpu_adam": QT_TRANSLATE_NOOP("Core", "CPU optimizer: {size} of host memory at {rate}: {value}"),
        "time.d_achieved": QT_TRANSLATE_NOOP(
            "Core", "{flops} FLOP / ({gpus} GPUs × {rate} TFLOP/s achieved): {value}"),
        # ----- notes
        "time.note_achieved": QT_TRANSLATE_NOOP(
            "Core", "step time from the achieved TFLOP/s given: the whole step counted as compute"),
        "time.note_no_figures": QT_TRANSLATE_NOOP(
            "Core", "no step time: the GPU's compute figures are not known (choose a GPU preset, or give "
            "--peak-tflops and --memory-bandwidth)"),
        "time.note_hf_kernels": QT_TRANSLATE_NOOP(
            "Core", "compute at the efficiency of Megatron-LM's fused kernels (validated on A100 runs): Hugging Face's "
            "eager modules add unfused elementwise and launch time, so read this step time as a lower bound and MFU "
            "as an upper one"),
        "time.note_params_only": QT_TRANSLATE_NOOP(
            "Core", "step time from the parameter count alone (6Φ FLOPs per token): no architecture, so no attention, "
            "tensor-, context-, expert- or pipeline-parallel messages to size"),
    }
