"""The message templates of expert, context and interleaved/uneven pipeline parallelism
(``vramgui.core.parallel.layout``,
``vramgui.core.fields.validate``, ``vramgui.core.activations.moe``): errors naming the valid sizes, notes, derivation
words.

Part of the one catalogue (``vramgui.core.text.message.CATALOGUE``), in the same "Core" translation context; kept in
a module of its own so that each file stays readable.
"""

from __future__ import annotations

from collections.abc import Mapping

from vramgui.core.text.mark import QT_TRANSLATE_NOOP


def parallel_catalogue() -> Mapping[str, str]:
    # QT_TRANSLATE_NOOP is spelled out in every entry: pyside6-lupdate extracts only calls by that name
    return {
        # ----- world-size and layout errors (validate.py); the allowed text names the valid sizes
        "error.gpus_not_divisible_cp": QT_TRANSLATE_NOOP(
            "Core", "{gpus} GPUs do not divide into tp × cp × pp = {group}"),
        "error.expert_gpus_not_divisible": QT_TRANSLATE_NOOP(
            "Core", "{gpus} GPUs do not divide into etp × ep × pp = {group} (the experts' grid)"),
        "allowed.gpu_counts": QT_TRANSLATE_NOOP("Core", "a multiple of {group}, nearest: {nearest}"),
        "allowed.sizes": QT_TRANSLATE_NOOP("Core", "one of {sizes}"),
        "error.ep_needs_moe": QT_TRANSLATE_NOOP(
            "Core", "expert parallelism needs a mixture-of-experts architecture (routed experts)"),
        "error.experts_over_ep": QT_TRANSLATE_NOOP(
            "Core", "{experts} routed experts do not split evenly over ep = {ep} ranks"),
        "error.cp_splits_sequence": QT_TRANSLATE_NOOP(
            "Core", "context parallelism over {cp} ranks cuts each sequence into 2 × cp = {chunks} chunks "
                    "(causal load balancing)"),
        "error.cp_needs_flash": QT_TRANSLATE_NOOP(
            "Core", "context parallelism runs the attention as ring attention over flash kernels "
                    "(TransformerEngine); eager attention is not modelled with it"),
        "error.needs_pipeline": QT_TRANSLATE_NOOP("Core", "needs pipeline parallelism (pp > 1)"),
        "error.stage_layers_over": QT_TRANSLATE_NOOP(
            "Core", "first and last stages hold {layers} layers of the model's {total}"),
        "error.middle_layers_uneven": QT_TRANSLATE_NOOP(
            "Core", "the {rest} layers left for the {stages} other stage(s) do not split evenly"),
        "error.middle_layers_left": QT_TRANSLATE_NOOP(
            "Core", "{rest} layer(s) are left over, and no other pipeline stage takes them"),
        "error.vpp_layers": QT_TRANSLATE_NOOP(
            "Core", "{layers} layers on pipeline stage {stage} do not split into {vpp} virtual stages"),
        # ----- notes
        "note.pipeline_stage": QT_TRANSLATE_NOOP(
            "Core", "most loaded pipeline stage is stage {stage} of {pp} ({layers} layers): {params} parameters per "
                    "GPU before data-parallel sharding"),
        "note.expert_shard": QT_TRANSLATE_NOOP(
            "Core", "routed experts: {experts} parameters per GPU (/ep·etp = /{group}); their gradients and optimizer "
                    "states shard over the expert data-parallel size N_e = GPUs/(etp·ep·pp) = {edp}, the rest over "
                    "N_d = {n_d}"),
        "note.context_parallel": QT_TRANSLATE_NOOP(
            "Core", "context parallelism: each GPU keeps the activations of s/cp = {tokens} tokens; weights are "
                    "replicated over cp and the states shard over N_d = dp·cp = {n_d}"),
        "note.interleaved_pipeline": QT_TRANSLATE_NOOP(
            "Core", "interleaved 1F1B with {vpp} model chunks per rank: the first stage holds {chunks} chunk "
                    "forwards in flight ({layers} layers' activations)"),
        # ----- inputs a choice makes moot
        "inactive.needs_moe": QT_TRANSLATE_NOOP("Core", "Only for mixture-of-experts architectures"),
        "inactive.imbalance_needs_ep": QT_TRANSLATE_NOOP("Core", "Only with expert parallelism (ep > 1)"),
        "inactive.needs_pp": QT_TRANSLATE_NOOP("Core", "Only with pipeline parallelism (pp > 1)"),
        "inactive.stages_need_architecture": QT_TRANSLATE_NOOP(
            "Core", "Needs an architecture: a parameter count alone has no layers to place"),
    }
