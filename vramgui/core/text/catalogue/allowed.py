"""``allowed.*`` messages. The allowed range or choices shown after an error ("(allowed: ...)").

Part of the one catalogue (``vramgui.core.text.message.CATALOGUE``, translation context "Core").
"""

from __future__ import annotations

from collections.abc import Mapping

from vramgui.core.text.mark import QT_TRANSLATE_NOOP


def entries() -> Mapping[str, str]:
    # QT_TRANSLATE_NOOP is spelled out in every entry: pyside6-lupdate extracts only calls by that name
    return {
        # ----- allowed ranges
        "allowed.range": QT_TRANSLATE_NOOP("Core", "{low} to {high}"),
        "allowed.serve_model": QT_TRANSLATE_NOOP("Core", "--preset, --config or a scenario with an architecture"),
        "allowed.serve_vllm_pool": QT_TRANSLATE_NOOP("Core", "--gpu, --gpu-memory or --kv-cache-memory-bytes"),
        "allowed.fraction": QT_TRANSLATE_NOOP("Core", "0 <= value < 1"),
        "allowed.layer_types": QT_TRANSLATE_NOOP(
            "Core", "s and f, at most {layers} letters, repeated over the layers (s needs a sliding window)"),
        "allowed.choices": QT_TRANSLATE_NOOP("Core", "{choices}"),
        "allowed.multiple_of_group": QT_TRANSLATE_NOOP("Core", "a multiple of tp × pp: {nearest}"),
        "allowed.multiple_nearest": QT_TRANSLATE_NOOP("Core", "a multiple of {step}, nearest: {nearest}"),
        "allowed.none": QT_TRANSLATE_NOOP("Core", "none"),
        "allowed.none_below_stage3": QT_TRANSLATE_NOOP("Core", "none below stage 3"),
        "allowed.none_at_stage0": QT_TRANSLATE_NOOP("Core", "none at stage 0"),
        "allowed.none_unless_optimizer_offload": QT_TRANSLATE_NOOP("Core", "none unless offload.optimizer is cpu"),
        "allowed.size_units": QT_TRANSLATE_NOOP("Core", "a number with B, KB, MB, GB, TB, KiB, MiB, GiB or TiB"),
        "allowed.unit_names": QT_TRANSLATE_NOOP("Core", "B, KB, MB, GB, TB, KiB, MiB, GiB, TiB"),
        "allowed.count_suffixes": QT_TRANSLATE_NOOP("Core", "a number with optional K, M, B (or G), T"),
        "allowed.suffix_names": QT_TRANSLATE_NOOP("Core", "K, M, B (or G), T"),
        "allowed.at_least_zero": QT_TRANSLATE_NOOP("Core", ">= 0"),
        "allowed.count_example": QT_TRANSLATE_NOOP("Core", "a parameter count such as 7B"),
        "allowed.true_false": QT_TRANSLATE_NOOP("Core", "true or false"),
        "allowed.rate_units": QT_TRANSLATE_NOOP(
            "Core", "a number with B/s, KB/s, MB/s, GB/s, TB/s (bytes), Kb/s, Mb/s, Gb/s, Tb/s (bits) or GiB/s"),
        # ----- more input errors (activations, solves, seed functions, presets, CLI)
        "allowed.at_least_one": QT_TRANSLATE_NOOP("Core", ">= 1"),
        "allowed.positive": QT_TRANSLATE_NOOP("Core", "> 0"),
        "allowed.span": QT_TRANSLATE_NOOP("Core", "{low}..{high}"),
        "allowed.divisor": QT_TRANSLATE_NOOP("Core", "a divisor of {n}"),
        "allowed.multiple_of": QT_TRANSLATE_NOOP("Core", "a multiple of {n}"),
        "allowed.group_to": QT_TRANSLATE_NOOP("Core", "tp × pp = {group} to {high}"),
        "allowed.multiple_nearest_batches": QT_TRANSLATE_NOOP(
            "Core", "a multiple of {step}; nearest valid global batches: {nearest}"),
        "allowed.either": QT_TRANSLATE_NOOP("Core", "{first} or {second}"),
        "allowed.seed_stages": QT_TRANSLATE_NOOP("Core", "'ddp' or 0, 1, 2, 3"),
        "allowed.overhead_ratio": QT_TRANSLATE_NOOP("Core", "0 <= overhead_ratio < 1"),
        "allowed.size_or_preset": QT_TRANSLATE_NOOP("Core", "a size such as 80GB or 80GiB, or a GPU preset"),
        "allowed.preset_or_config": QT_TRANSLATE_NOOP("Core", "a preset or a config.json"),
        "allowed.close_matches": QT_TRANSLATE_NOOP("Core", "close matches: {names}"),
        "allowed.known_presets": QT_TRANSLATE_NOOP("Core", "known: {names}, ..."),
        # ----- LoRA / QLoRA fine-tuning (vramgui.core.finetune.adapters)
        "allowed.lora_targets": QT_TRANSLATE_NOOP("Core", "attention, all-linear, or names among: {names}"),
        "allowed.lora_target_syntax": QT_TRANSLATE_NOOP(
            "Core", "attention, all-linear, or module names separated by commas (q_proj,v_proj)"),
        # ----- expert, context and uneven pipeline parallelism (vramgui.core.fields.validate): world-size and
        # layout errors; the allowed text names the valid sizes
        "allowed.gpu_counts": QT_TRANSLATE_NOOP("Core", "a multiple of {group}, nearest: {nearest}"),
        "allowed.sizes": QT_TRANSLATE_NOOP("Core", "one of {sizes}"),
        "allowed.model_sources": QT_TRANSLATE_NOOP("Core", "give --preset NAME, --config PATH or --params COUNT"),
        "allowed.training_config_formats": QT_TRANSLATE_NOOP(
            "Core", "a DeepSpeed JSON, an accelerate, axolotl, LLaMA-Factory or torchtune YAML, or a TrainingArguments "
                    "JSON (trainer.args.to_json_string())"),
        # ----- the fastest and cheapest plans (vramgui.core.solve.fastest)
        "allowed.gpu_figures": QT_TRANSLATE_NOOP("Core", "a GPU preset or its peak TFLOP/s"),
        "allowed.tokens_example": QT_TRANSLATE_NOOP("Core", "a token count such as 300B"),
        "allowed.price_example": QT_TRANSLATE_NOOP("Core", "a price such as 2.5"),
    }
