"""``note.*`` messages. Notes attached to an estimate, a solve or a model read from disk: what was assumed or left out.

Part of the one catalogue (``vramgui.core.text.message.CATALOGUE``, translation context "Core").
"""

from __future__ import annotations

from collections.abc import Mapping

from vramgui.core.text.mark import QT_TRANSLATE_NOOP, Plural


def entries() -> Mapping[str, str | Plural]:
    # QT_TRANSLATE_NOOP is spelled out in every entry: pyside6-lupdate extracts only calls by that name
    return {
        # ----- Hugging Face config.json (core.documents.hf_config, io.hf_config): problems by config key
        "note.model_type_read_as": QT_TRANSLATE_NOOP("Core", "read model_type {found} as {used}"),
        "note.serve_vllm_non_torch": QT_TRANSLATE_NOOP(
            "Core", "vLLM also subtracts the non-torch memory its profile run measures (NCCL, cuBLAS workspaces); "
                    "give it with --extra"),
        "note.gguf_bytes": QT_TRANSLATE_NOOP(
            "Core",
            "the GGUF file's tensors weigh {file} bytes; vramgui's {weights} layout of this model: {ours} ({diff})"),
        "note.serve_vllm_mla_block": QT_TRANSLATE_NOOP(
            "Core", "vLLM's MLA kernels (FlashMLA, CUTLASS MLA) need a block size of 64 or 128, not {block}: "
                    "pass --block-size"),
        "note.serve_llama_cpp_no_swa": QT_TRANSLATE_NOOP(
            "Core", "llama.cpp keeps no separate sliding-window cache for {model_type}: every layer holds n_ctx cells"),
        "note.config_default": QT_TRANSLATE_NOOP(
            "Core", "config.json has no {key}: {model_type}'s default {value} applies ({source})"),
        "note.model_type_read_as_text": QT_TRANSLATE_NOOP(
            "Core", "read model_type {found} as {used} (language model only)"),
        "note.config_defaults": QT_TRANSLATE_NOOP(
            "Core", "not set in config.json, read as the transformers configuration class's defaults: {pairs}"),
        # ----- safetensors weights (vramgui.io.safetensors): "{file}: {problem}" on the field "weights"
        "note.shards_missing": Plural(
            QT_TRANSLATE_NOOP("Core", "%n shard file(s) missing ({first}{more})", None, 1), n="count",
            one="%n shard file missing ({first}{more})", other="%n shard files missing ({first}{more})"),
        "note.more_files": QT_TRANSLATE_NOOP("Core", ", ..."),  # after the first of several missing files
        "note.quantized_checkpoint": QT_TRANSLATE_NOOP(
            "Core", "quantized checkpoint: packed integer weights hold several parameters per element"),
        "note.estimated_from_size": QT_TRANSLATE_NOOP(
            "Core", "estimated: tensors stored in another dtype or buffers make this approximate"),
        # ----- notes the core attaches to an estimate (and the CLI to a solve)
        "note.step_counter_unknown": QT_TRANSLATE_NOOP(
            "Core", "PyTorch's 4-byte step counter per parameter tensor is not counted: no architecture known"),
        "note.deepspeed_precision": QT_TRANSLATE_NOOP(
            "Core", "DeepSpeed's estimator assumes 16-bit mixed precision with Adam; dtype, recipe and optimizer "
                    "are not used under this convention"),
        "note.deepspeed_stage0": QT_TRANSLATE_NOOP(
            "Core", "DeepSpeed publishes no stage-0 estimator: its stage-1/2 bytes, nothing partitioned"),
        "note.deepspeed_stage1": QT_TRANSLATE_NOOP(
            "Core", "DeepSpeed's stage_1_and_2 estimator serves stages 1 and 2 alike"),
        "note.largest_layer_unknown": QT_TRANSLATE_NOOP(
            "Core", "largest layer unknown (no architecture and no --largest-layer): DeepSpeed's 4 × largest-layer "
                    "term counted as 0"),
        "note.megatron_optimizer": QT_TRANSLATE_NOOP(
            "Core", "Megatron's table is for Adam; {optimizer} states taken as {bytes} bytes per parameter"),
        "note.megatron_recipe": QT_TRANSLATE_NOOP(
            "Core", "the megatron convention always keeps fp32 main parameters for 16-bit training; recipe ignored"),
        "note.pipeline_first_stage": QT_TRANSLATE_NOOP(
            "Core", "most loaded pipeline stage is the first stage: embedding + ⌈L/pp⌉ layers ({params} parameters "
                    "before /tp)"),
        "note.pipeline_last_stage": QT_TRANSLATE_NOOP(
            "Core", "most loaded pipeline stage is the last stage: ⌊L/pp⌋ layers + final norm + output layer "
                    "({params} parameters before /tp)"),
        "note.activations_not_estimated": QT_TRANSLATE_NOOP("Core", "activations not estimated: {reason}"),
        "note.offloaded_params_gathered": QT_TRANSLATE_NOOP(
            "Core", "parameters are offloaded: the GPU still gathers each layer's parameters while it runs; set the "
                    "ZeRO-3 live parameters (--live-params, DeepSpeed's stage3_max_live_parameters, default 1e9) to "
                    "count them under Other"),
        "note.solved_for_ignored": QT_TRANSLATE_NOOP("Core", "{flag} {value} is ignored: it is what is solved for"),
        "note.offload_flags_ignored": QT_TRANSLATE_NOOP(
            "Core", "--offload-optimizer/--offload-params are ignored: every strategy is tried"),
        # ----- vramgui export (vramgui.core.documents.training.export)
        "note.export_not_written": QT_TRANSLATE_NOOP(
            "Core", "not written ({tool} has no setting for it; the training script decides): {flags}"),
        "note.global_batch_dropped": QT_TRANSLATE_NOOP(
            "Core", "the global batch is not held fixed while solving (it is dropped, as it need not divide)"),
        # ----- the training-step peak (vramgui.core.step.peak)
        "note.peak_without_activations": QT_TRANSLATE_NOOP(
            "Core", "the step peak leaves out activations and the loss gradient (no architecture)"),
        "note.peak_pipeline": QT_TRANSLATE_NOOP(
            "Core", "with pipeline stages the peak is computed on the stage that holds the most activations"),
        # ----- vramgui.core.model_states.deepspeed
        "note.deepspeed_zero3_costs_more": QT_TRANSLATE_NOOP(
            "Core", "ZeRO-3 needs more model-state memory per GPU here than ZeRO-2 ({stage3} vs {stage2} bytes): "
                    "DeepSpeed's fixed term for the gathered largest layer (4 × {layer} parameters) is more than "
                    "what sharding the 16-bit parameters saves"),
        # ----- LoRA / QLoRA fine-tuning (vramgui.core.finetune.adapters)
        "note.finetune_convention": QT_TRANSLATE_NOOP(
            "Core", "fine-tuning: the {convention} convention publishes no LoRA figures; the adapters' states are "
            "counted as the ZeRO paper counts parameters"),
        "note.finetune_scaled": QT_TRANSLATE_NOOP(
            "Core", "the adapters and the frozen base are scaled from the architecture to the parameter count given"),
        "note.finetune_kbit_modules": QT_TRANSLATE_NOOP(
            "Core", "the modules bitsandbytes leaves unquantised (embeddings, LM head, norms, routers) are counted "
            "in the model's dtype; peft's prepare_model_for_kbit_training casts them to fp32 (not counted)"),
        "note.finetune_moe_experts": QT_TRANSLATE_NOOP(
            "Core", "routed experts (transformers 5's fused 3-D parameters) are no nn.Linear: bitsandbytes leaves "
            "them in the model's dtype and LoRA gives them no adapter"),
        "note.finetune_paged_optimizer": QT_TRANSLATE_NOOP(
            "Core", "8-bit optimizer states of the adapters are counted on the GPU; bitsandbytes' paged optimizers "
            "can page them to host memory under pressure (not modelled)"),
        "note.finetune_activations": QT_TRANSLATE_NOOP(
            "Core", "LoRA activations are measured for Llama-style blocks; for this block style the frozen layers "
            "are counted as in full training (an upper bound)"),
        # ----- expert, context and interleaved/uneven pipeline parallelism (vramgui.core.parallel.layout,
        # vramgui.core.fields.validate, vramgui.core.activations.moe)
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
        # ----- FP8 training through TransformerEngine (vramgui.core.model_states.fp8)
        "note.fp8_not_measured": QT_TRANSLATE_NOOP(
            "Core", "FP8 ({recipe}): FP8 weight copies, scaling state and FP8 Linear inputs follow "
                    "TransformerEngine's code; not measured here"),
    }
