"""``error.*`` messages. What is wrong with an input, a file or a document: ``InputError`` messages ("{field}:
{message} (allowed: {allowed})"), scenario and config.json problems by path, safetensors problems by file.

Part of the one catalogue (``vramgui.core.text.message.CATALOGUE``, translation context "Core").
"""

from __future__ import annotations

from collections.abc import Mapping

from vramgui.core.text.mark import QT_TRANSLATE_NOOP, Plural


def entries() -> Mapping[str, str | Plural]:
    # QT_TRANSLATE_NOOP is spelled out in every entry: pyside6-lupdate extracts only calls by that name
    return {
        # ----- input errors: "{field}: {message} (allowed: {allowed})"
        "error.whole_number": QT_TRANSLATE_NOOP("Core", "expected a whole number, got {value}"),
        "error.number": QT_TRANSLATE_NOOP("Core", "expected a number, got {value}"),
        "error.out_of_range": QT_TRANSLATE_NOOP("Core", "{value} is out of range"),
        "error.unknown_value": QT_TRANSLATE_NOOP("Core", "unknown value {value}"),
        "error.true_false": QT_TRANSLATE_NOOP("Core", "expected true or false, got {value}"),
        "error.text": QT_TRANSLATE_NOOP("Core", "expected text, got {value}"),
        "error.params_or_architecture": QT_TRANSLATE_NOOP("Core", "give a parameter count or an architecture"),
        "error.gpus_not_divisible": Plural(
            QT_TRANSLATE_NOOP("Core", "%n GPU(s) do not divide into tp × pp = {group}", None, 1), n="gpus",
            one="%n GPU does not divide into tp × pp = {group}", other="%n GPUs do not divide into tp × pp = {group}"),
        "error.pp_over_layers": QT_TRANSLATE_NOOP("Core", "{pp} pipeline stages for {layers} layers"),
        "error.global_batch_multiple": QT_TRANSLATE_NOOP(
            "Core", "{global_batch} is not a multiple of micro_batch × N_d = {micro} × {n_d} = {step}"),
        "error.megatron_no_offload": QT_TRANSLATE_NOOP("Core", "the megatron convention models no CPU offload"),
        "error.param_offload_stage3": QT_TRANSLATE_NOOP("Core", "parameter offload needs ZeRO stage 3"),
        "error.optimizer_offload_stage": QT_TRANSLATE_NOOP("Core", "optimizer offload needs ZeRO stage 1, 2 or 3"),
        "error.deepspeed_param_offload": QT_TRANSLATE_NOOP(
            "Core", "DeepSpeed's estimator has no case for parameter offload without optimizer offload"),
        "error.layers_over_limit": QT_TRANSLATE_NOOP("Core", "{layers} layers is more than vramgui's limit of {limit}"),
        "error.size_syntax": QT_TRANSLATE_NOOP("Core", "cannot read {text} as a size"),
        "error.size_unit": QT_TRANSLATE_NOOP("Core", "unknown unit {unit} in {text}"),
        "error.count_syntax": QT_TRANSLATE_NOOP("Core", "cannot read {text} as a count"),
        "error.count_suffix": QT_TRANSLATE_NOOP("Core", "unknown suffix {suffix} in {text}"),
        "error.negative": QT_TRANSLATE_NOOP("Core", "{text} is negative"),
        "error.size_expected": QT_TRANSLATE_NOOP("Core", "expected a size such as 80GB or 80GiB"),
        "error.rate_syntax": QT_TRANSLATE_NOOP("Core", "cannot read {text} as a bandwidth such as 300GB/s or 200Gb/s"),
        "error.rate_unit": QT_TRANSLATE_NOOP("Core", "unknown unit {unit} in {text}"),
        "error.size_needs_unit": QT_TRANSLATE_NOOP(
            "Core", "{text} has no unit: write {number}GB or {number}GiB ({number}B for bytes)"),
        "error.size_needs_unit_not_bytes": QT_TRANSLATE_NOOP(
            "Core", "{text} has no unit: write {number}GB or {number}GiB"),
        "error.size_needs_unit_range": QT_TRANSLATE_NOOP(
            "Core", "{text} has no unit, and in GB or GiB it is out of range"),
        "error.count_expected": QT_TRANSLATE_NOOP("Core", "expected a count such as 7B or 124M"),
        "error.not_whole_count": QT_TRANSLATE_NOOP("Core", "{text} is not a whole number of parameters"),
        "error.unknown_field": QT_TRANSLATE_NOOP("Core", "unknown field ({hint})"),
        "error.did_you_mean": QT_TRANSLATE_NOOP("Core", "did you mean {name}?"),
        "error.known_fields": QT_TRANSLATE_NOOP("Core", "known fields here: {names}"),
        # ----- scenario documents (vramgui.core.documents.scenario, vramgui.io.scenario_files): problems by field path
        "error.with_allowed": QT_TRANSLATE_NOOP("Core", "{message} (allowed: {allowed})"),
        "error.unsupported_type": QT_TRANSLATE_NOOP("Core", "unsupported field type {type}"),
        "error.must_be_object": QT_TRANSLATE_NOOP("Core", "must be an object {{...}}, not {kind}"),
        "error.must_be_integer": QT_TRANSLATE_NOOP("Core", "must be an integer, not {kind}"),
        "error.must_be_number": QT_TRANSLATE_NOOP("Core", "must be a number, not {kind}"),
        "error.must_be_string": QT_TRANSLATE_NOOP("Core", "must be a string, not {kind}"),
        "error.must_be_true_false": QT_TRANSLATE_NOOP("Core", "must be true or false, not {kind}"),
        "error.must_be_at_least_one": QT_TRANSLATE_NOOP("Core", "must be at least 1, not {value}"),
        "error.scenario_not_object": QT_TRANSLATE_NOOP(
            "Core", "a scenario must be a JSON object {{...}}, not {kind}"),
        "error.scenario_is_hf_config": QT_TRANSLATE_NOOP(
            "Core", "this is a Hugging Face model config.json, not a vramgui scenario; import it as a model instead"),
        "error.scenario_is_estimate": QT_TRANSLATE_NOOP(
            "Core", "this is a vramgui estimate (what `vramgui estimate --json` and the self-test write): results, not "
                    "inputs; open the scenario it was computed from"),
        "error.scenario_unrecognised": QT_TRANSLATE_NOOP(
            "Core", "this JSON object has none of a scenario's sections ({sections}): it is not a vramgui scenario"),
        "error.more_problems": Plural(QT_TRANSLATE_NOOP("Core", "… and %n more problem(s)", None, 1), n="count",
                                      one="… and %n more problem", other="… and %n more problems"),
        "error.scenario_schema": QT_TRANSLATE_NOOP("Core", "{schema} is not a vramgui scenario (expected {expected})"),
        "error.scenario_newer": QT_TRANSLATE_NOOP(
            "Core", "this file was written in scenario format {version}; this vramgui ({app_version}) reads format "
                    "{supported} and older - please update"),
        "error.scenario_newer_by": QT_TRANSLATE_NOOP(
            "Core", "this file was written by vramgui {writer} in scenario format {version}; this vramgui "
                    "({app_version}) reads format {supported} and older - please update"),
        "error.scenario_too_large": QT_TRANSLATE_NOOP("Core", "the file is larger than {limit} bytes: not a scenario"),
        "error.scenario_not_utf8": QT_TRANSLATE_NOOP("Core", "the file is not UTF-8 text: not a scenario"),
        "error.cannot_read_file": QT_TRANSLATE_NOOP("Core", "cannot read the file: {reason}"),
        "error.json_syntax": QT_TRANSLATE_NOOP("Core", "not valid JSON: {detail} at line {line}, column {column}"),
        "error.json_constant": QT_TRANSLATE_NOOP("Core", "{name} is not allowed (numbers must be finite)"),
        "error.json_duplicate_key": QT_TRANSLATE_NOOP("Core", "the field {key} appears twice"),
        "error.json_too_deep": QT_TRANSLATE_NOOP("Core", "is nested more than {depth} levels deep"),
        "error.json_nested_too_deeply": QT_TRANSLATE_NOOP("Core", "is nested too deeply"),
        "error.json_too_many_items": QT_TRANSLATE_NOOP("Core", "holds more than {limit} elements"),
        "error.json_value_unreadable": QT_TRANSLATE_NOOP("Core", "a value cannot be read: {detail}"),
        "error.json_not_utf8": QT_TRANSLATE_NOOP("Core", "not UTF-8 text"),
        "error.json_text_over_cap": QT_TRANSLATE_NOOP(
            "Core", "{size} characters, more than the {limit} bytes read at most"),
        "error.json_bytes_over_cap": QT_TRANSLATE_NOOP(
            "Core", "{size} bytes, more than the {limit} bytes read at most"),
        # ----- comparison files (vramgui.io.comparison_files): the file's problem; a bad pinned scenario is named by
        # its position and its problems as a scenario file's
        "error.comparison_too_large": QT_TRANSLATE_NOOP(
            "Core", "the file is larger than {limit} bytes: not a comparison"),
        "error.comparison_not_utf8": QT_TRANSLATE_NOOP("Core", "the file is not UTF-8 text: not a comparison"),
        "error.comparison_not_json": QT_TRANSLATE_NOOP("Core", "not valid JSON: {reason}"),
        "error.comparison_not_object": QT_TRANSLATE_NOOP("Core", "a comparison must be a JSON object"),
        "error.comparison_is_scenario": QT_TRANSLATE_NOOP(
            "Core", "this is a scenario file, not a comparison: open it with File > Open scenario"),
        "error.comparison_schema": QT_TRANSLATE_NOOP("Core", "the schema is {found}, not {expected}"),
        "error.comparison_newer": QT_TRANSLATE_NOOP(
            "Core", "written by a newer vramgui (comparison version {version}; this version reads up to {supported})"),
        "error.comparison_bad_version": QT_TRANSLATE_NOOP(
            "Core", "schema_version must be a whole number of at least 1"),
        "error.comparison_unknown_keys": QT_TRANSLATE_NOOP(
            "Core", "unknown field {names} (known fields here: {known})"),
        "error.comparison_no_list": QT_TRANSLATE_NOOP("Core", "\"pinned\" must be a list of scenarios"),
        "error.comparison_too_many": QT_TRANSLATE_NOOP(
            "Core", "it holds {count} scenarios; at most {limit} can be compared"),
        "error.comparison_entries": QT_TRANSLATE_NOOP("Core", "{count} of its scenarios cannot be used"),
        # ----- Hugging Face config.json (core.documents.hf_config, io.hf_config): problems by config key
        "error.config_key": QT_TRANSLATE_NOOP("Core", "{problem} (model_type {model_type})"),
        "error.config_whole_number": QT_TRANSLATE_NOOP("Core", "must be a whole number, got {value}"),
        "error.config_true_false": QT_TRANSLATE_NOOP("Core", "must be true or false, got {value}"),
        "error.config_missing": QT_TRANSLATE_NOOP("Core", "is missing from config.json"),
        "error.config_list": QT_TRANSLATE_NOOP("Core", "non-empty lists are not supported by vramgui's counter"),
        "error.gguf_header": QT_TRANSLATE_NOOP("Core", "{path}: {reason}"),
        "error.gguf_architecture": QT_TRANSLATE_NOOP("Core", "GGUF architecture {arch} is not one vramgui reads"),
        "error.serve_needs_architecture": QT_TRANSLATE_NOOP(
            "Core", "serving needs the model's architecture (its KV cache and weight layout), not only a count"),
        "error.serve_kv_dtype": QT_TRANSLATE_NOOP("Core", "{engine} has no {dtype} KV cache"),
        "error.serve_weights": QT_TRANSLATE_NOOP("Core", "{engine} does not serve {weights} weights"),
        "error.serve_gpus_tp": QT_TRANSLATE_NOOP("Core", "{gpus} GPUs do not divide into replicas of tp = {tp}"),
        "error.serve_llama_cpp_tp": QT_TRANSLATE_NOOP(
            "Core", "llama.cpp splits layers, not tensors: vramgui sizes it on one GPU"),
        "error.serve_heads_tp": QT_TRANSLATE_NOOP("Core", "{heads} attention heads do not split over tp = {tp}"),
        "error.serve_vllm_pool": QT_TRANSLATE_NOOP(
            "Core", "vLLM sizes its KV pool from the GPU's memory: none is given"),
        "error.serve_solve_memory": QT_TRANSLATE_NOOP("Core", "a serving solve needs the GPU's memory"),
        "error.serve_kv_row": QT_TRANSLATE_NOOP(
            "Core", "a {dtype} KV row needs whole blocks of 32 elements; this model's rows are not"),
        "error.config_layer_type": QT_TRANSLATE_NOOP(
            "Core", "layer type {value} is not one vramgui reads (sliding_attention, full_attention)"),
        "error.config_layer_types_length": QT_TRANSLATE_NOOP(
            "Core", "lists {count} layer types for {layers} layers"),
        "error.layer_types": QT_TRANSLATE_NOOP("Core", "{value} is not a pattern of s (sliding) and f (full) layers"),
        "error.layer_types_no_window": QT_TRANSLATE_NOOP(
            "Core", "{value} names sliding layers but no sliding window is set"),
        "error.config_names_disagree": QT_TRANSLATE_NOOP(
            "Core", "is {value} but {other}, another name of the same setting, is {other_value}"),
        "error.config_value_unsupported": QT_TRANSLATE_NOOP(
            "Core", "{value} builds modules vramgui's counter does not model"),
        "error.config_not_object": QT_TRANSLATE_NOOP("Core", "config.json must hold a JSON object"),
        "error.config_file_not_object": QT_TRANSLATE_NOOP("Core", "{path} must hold a JSON object, not {kind}"),
        "error.config_no_model_type": QT_TRANSLATE_NOOP(
            "Core", "missing or not a string: this does not look like a Hugging Face config.json"),
        "error.model_type_unsupported": QT_TRANSLATE_NOOP("Core", "{model_type} is not supported"),
        "error.model_type_remote_code": QT_TRANSLATE_NOOP(
            "Core", "{model_type} is not supported (it needs trust_remote_code; vramgui never runs model code)"),
        # ----- safetensors weights (vramgui.io.safetensors): "{file}: {problem}" on the field "weights"
        "error.in_file": QT_TRANSLATE_NOOP("Core", "{file}: {problem}"),
        "error.st_shorter_than_length": QT_TRANSLATE_NOOP(
            "Core", "is truncated: {size} bytes, shorter than the 8-byte header length"),
        "error.st_header_over_cap": QT_TRANSLATE_NOOP(
            "Core", "declares a {size}-byte header; more than the {cap} bytes read at most"),
        "error.st_header_past_end": QT_TRANSLATE_NOOP(
            "Core", "is truncated: its header needs {need} bytes, the file has {size}"),
        "error.st_cannot_read": QT_TRANSLATE_NOOP("Core", "cannot be read: {reason}"),
        "error.st_truncated_header": QT_TRANSLATE_NOOP("Core", "is truncated inside its header"),
        "error.st_header_not_object": QT_TRANSLATE_NOOP("Core", "header is not a JSON object"),
        "error.st_entry_not_object": QT_TRANSLATE_NOOP("Core", "entry {name} is not an object"),
        "error.st_no_dtype": QT_TRANSLATE_NOOP("Core", "tensor {name} has no dtype"),
        "error.st_bad_shape": QT_TRANSLATE_NOOP("Core", "tensor {name} has an invalid shape"),
        "error.st_bad_offsets": QT_TRANSLATE_NOOP("Core", "tensor {name} has invalid data_offsets"),
        "error.st_tensor_past_end": QT_TRANSLATE_NOOP(
            "Core", "is truncated: tensor {name} ends at byte {end} of a {size}-byte data buffer"),
        "error.st_unknown_dtype": QT_TRANSLATE_NOOP("Core", "tensor {name} has unknown dtype {dtype} (known: {known})"),
        "error.st_size_mismatch": QT_TRANSLATE_NOOP(
            "Core", "tensor {name}: {dtype} {shape} needs {need} bytes, its offsets span {span}"),
        "error.st_bad_shard_name": QT_TRANSLATE_NOOP(
            "Core", "{index}: shard name {name} is not a file in the model folder"),
        "error.st_too_many_shards": QT_TRANSLATE_NOOP("Core", "{index} names {count} shards (at most {limit})"),
        "error.st_too_many_files": QT_TRANSLATE_NOOP("Core", "more than {limit} safetensors files in {folder}"),
        "error.st_headers_over_cap": QT_TRANSLATE_NOOP(
            "Core", "the safetensors headers in {folder} exceed {limit} bytes together"),
        "error.st_no_weight_map": QT_TRANSLATE_NOOP("Core", "{index} has no weight_map object"),
        "error.st_weight_map_over_cap": QT_TRANSLATE_NOOP("Core", "{index} maps {count} tensors (at most {limit})"),
        "error.st_no_total_size": QT_TRANSLATE_NOOP("Core", "{missing}, and {index} has no usable metadata.total_size"),
        "error.st_no_dtype_for_size": QT_TRANSLATE_NOOP(
            "Core", "{missing}; total_size is {size} bytes but config.json names no dtype to turn bytes into "
                    "parameters"),
        # ----- more input errors (activations, solves, seed functions, presets, CLI)
        "error.unknown_dtype": QT_TRANSLATE_NOOP("Core", "unknown dtype {value}"),
        "error.unknown_optimizer": QT_TRANSLATE_NOOP("Core", "unknown optimizer {value}"),
        "error.unknown_stage": QT_TRANSLATE_NOOP("Core", "unknown stage {value}"),
        "error.unknown_preset": QT_TRANSLATE_NOOP("Core", "unknown preset {name}"),
        "error.positive_integer": QT_TRANSLATE_NOOP("Core", "must be a positive integer, got {value}"),
        "error.not_positive": QT_TRANSLATE_NOOP("Core", "{value} is not a positive number"),
        "error.not_gpu_count": QT_TRANSLATE_NOOP("Core", "{value} is not a whole number of GPUs"),
        # {heads}: "error.attention_heads"; {kv_heads} is 2 or more here (1 divides every count)
        "error.kv_heads_divide": QT_TRANSLATE_NOOP("Core", "{kv_heads} key/value heads do not divide {heads}"),
        "error.tp_divides_heads": QT_TRANSLATE_NOOP("Core", "tensor-parallel size {tp} does not divide {heads}"),
        "error.attention_heads": Plural(QT_TRANSLATE_NOOP("Core", "%n attention head(s)", None, 1), n="heads",
                                        one="%n attention head", other="%n attention heads"),
        "error.sp_splits_sequence": QT_TRANSLATE_NOOP("Core", "sequence parallelism splits the sequence over tp={tp}"),
        "error.experts_per_token": QT_TRANSLATE_NOOP("Core", "{per_token} experts per token with {experts} experts"),
        "error.global_batch_gpus": QT_TRANSLATE_NOOP(
            "Core", "{global_batch} is not a multiple of micro_batch × GPUs = {micro} × {gpus} = {step}"),
        "error.needs_gpu_memory": QT_TRANSLATE_NOOP("Core", "a GPU memory size is needed to solve for what fits"),
        "error.micro_batch_needs_architecture": QT_TRANSLATE_NOOP(
            "Core", "the micro-batch only changes activations, which need an architecture"),
        "error.seq_len_needs_architecture": QT_TRANSLATE_NOOP(
            "Core", "the sequence length only changes activations, which need an architecture"),
        # ----- the fastest and cheapest plans (vramgui.core.solve.fastest)
        "error.plan_needs_time": QT_TRANSLATE_NOOP(
            "Core", "plans are ranked by their step time, which needs the GPU's compute figures"),
        "error.cheapest_needs": QT_TRANSLATE_NOOP("Core", "the cheapest plan is ranked by the cost of the whole run, "
                                                          "which needs this"),
        # ----- vramgui.io.safetensors: the cost of reading a folder is capped, not only the bytes
        "error.st_duplicate_shard": QT_TRANSLATE_NOOP(
            "Core", "{index} names {first} and {second}, which are the same file: a checkpoint keeps each shard "
                    "in a file of its own"),
        "error.st_headers_too_many_items": QT_TRANSLATE_NOOP(
            "Core", "the safetensors headers in {folder} hold more than {limit} JSON elements in all, more than "
                    "vramgui reads"),
        # ----- LoRA / QLoRA fine-tuning (vramgui.core.finetune.adapters)
        "error.lora_targets": QT_TRANSLATE_NOOP(
            "Core", "{value} is not attention, all-linear or a comma list of module names"),
        "error.lora_target_unknown": QT_TRANSLATE_NOOP("Core", "this model has no Linear layer named {name}"),
        "error.lora_no_targets": QT_TRANSLATE_NOOP("Core", "the LoRA targets match no Linear layer of this model"),
        "error.finetune_needs_architecture": QT_TRANSLATE_NOOP(
            "Core", "LoRA and QLoRA count their adapters from the architecture: choose a preset or a config.json"),
        # ----- expert, context and uneven pipeline parallelism (vramgui.core.fields.validate): world-size and
        # layout errors; the allowed text names the valid sizes
        "error.gpus_not_divisible_cp": Plural(
            QT_TRANSLATE_NOOP("Core", "%n GPU(s) do not divide into tp × cp × pp = {group}", None, 1),
            n="gpus", one="%n GPU does not divide into tp × cp × pp = {group}",
            other="%n GPUs do not divide into tp × cp × pp = {group}"),
        "error.expert_gpus_not_divisible": Plural(
            QT_TRANSLATE_NOOP("Core", "%n GPU(s) do not divide into etp × ep × pp = {group} (the experts' grid)", None,
                              1), n="gpus",
            one="%n GPU does not divide into etp × ep × pp = {group} (the experts' grid)",
            other="%n GPUs do not divide into etp × ep × pp = {group} (the experts' grid)"),
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
        "error.middle_layers_uneven": Plural(
            QT_TRANSLATE_NOOP("Core", "the %n layer(s) left for the {stages} other stages do not split evenly", None,
                              1), n="rest",
            one="the %n layer left for the {stages} other stages does not split evenly",
            other="the %n layers left for the {stages} other stages do not split evenly"),
        "error.middle_layers_left": Plural(
            QT_TRANSLATE_NOOP("Core", "%n layer(s) left over, and no other pipeline stage takes them", None, 1),
            n="rest", one="%n layer is left over, and no other pipeline stage takes it",
            other="%n layers are left over, and no other pipeline stage takes them"),
        "error.vpp_layers": QT_TRANSLATE_NOOP(
            "Core", "{layers} layers on pipeline stage {stage} do not split into {vpp} virtual stages"),
        # ----- training configs (vramgui.core.documents.training, vramgui.io.training_configs)
        "error.training_config_format": QT_TRANSLATE_NOOP(
            "Core", "{file}: not a DeepSpeed, accelerate, axolotl, LLaMA-Factory, torchtune or TrainingArguments "
                    "config"),
        "error.training_config_value": QT_TRANSLATE_NOOP("Core", "{key} in {file}: {problem}"),
        "error.training_config_not_deepspeed": QT_TRANSLATE_NOOP(
            "Core", "{file} (named by {key}) is not a DeepSpeed config"),
        "error.training_config_batch": QT_TRANSLATE_NOOP(
            "Core", "{keys}: a train batch of {total} does not split over {dp} data-parallel ranks × {steps} "
                    "accumulation steps"),
        "error.training_config_model": QT_TRANSLATE_NOOP(
            "Core", "the training config's {key} names {name}: no preset or local model folder of that name"),
        "error.training_config_not_mapping": QT_TRANSLATE_NOOP(
            "Core", "holds {kind}, not a mapping of settings"),
        "error.yaml_syntax": QT_TRANSLATE_NOOP("Core", "not valid YAML at line {line}, column {column}: {problem}"),
        "error.yaml_aliases": QT_TRANSLATE_NOOP(
            "Core", "its YAML aliases expand to more than {limit} elements"),
        "error.yaml_not_safe": QT_TRANSLATE_NOOP(
            "Core", "line {line}: the tag {tag} is not plain YAML data (only mappings, lists, text and numbers are "
                    "read)"),
        "error.launch_line": QT_TRANSLATE_NOOP("Core", "the torchrun line cannot be split as a shell would: {problem}"),
        "error.yaml_several": QT_TRANSLATE_NOOP("Core", "holds more than one YAML document"),
        "error.yaml_key": QT_TRANSLATE_NOOP("Core", "line {line}: a key that is not text or a number"),
    }
