"""The core's user-visible sentences: one Qt-free catalogue of message ids with named parameters.

The core never returns prose that a client must parse. A note, an error or a word inside a derivation is a
``Msg``: a code plus parameters. Each client renders it once, in the reader's language:

* the CLI and ``--json`` with :func:`render` (English, the catalogue's own text);
* the GUI with ``render(msg, tr)`` where ``tr(context, text)`` is ``QCoreApplication.translate``.

The templates are marked with ``QT_TRANSLATE_NOOP`` so that ``pyside6-lupdate`` extracts them into the ``.ts``
files (a function of that name that returns its text; lupdate reads the source, not the call). This is
napari's ``trans`` idea (``napari/utils/translations.py``) in its simplest form.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Union

# re-exported: the field tables mark their labels with it
from vramgui.core.text.mark import QT_TRANSLATE_NOOP as QT_TRANSLATE_NOOP

CONTEXT = "Core"

Translator = Callable[[str, str], str]


def english(context: str, text: str) -> str:
    """The identity translator: the catalogue's English text."""
    return text


Param = Union[str, int, float, "Msg", None]


@dataclass(frozen=True)
class Msg:
    """A message id and its parameters. ``str(msg)`` is the English text."""

    code: str
    params: tuple[tuple[str, Param], ...] = ()

    @classmethod
    def of(cls, code: str, **params: Param) -> Msg:
        if code not in CATALOGUE:
            raise KeyError(f"unknown message code {code!r}")
        return cls(code, tuple(params.items()))

    @property
    def kwargs(self) -> dict[str, Param]:
        return dict(self.params)

    def render(self, tr: Translator = english) -> str:
        return render(self, tr)

    def __str__(self) -> str:
        return render(self)


def render(msg: Msg | str | None, tr: Translator = english) -> str:
    """The text of ``msg`` through ``tr``; nested ``Msg`` parameters are rendered the same way. A plain
    string (user data, a file name, a value) is shown as it is."""
    if msg is None:
        return ""
    if isinstance(msg, str):
        return msg
    template = tr(CONTEXT, CATALOGUE[msg.code])
    values = {k: render(v, tr) if isinstance(v, Msg) else v for k, v in msg.params}
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError, AttributeError):  # a broken translation must not hide the message
        pass
    try:
        return CATALOGUE[msg.code].format(**values)
    except (KeyError, IndexError, ValueError, AttributeError):  # a parameter left out: show the rest
        return CATALOGUE[msg.code].format_map(_Shown(values))


class _Shown(dict[str, Param]):
    """The parameters of a message, a missing one shown as its placeholder ("{value} is out of range")."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _catalogue() -> Mapping[str, str]:
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
        "error.gpus_not_divisible": QT_TRANSLATE_NOOP("Core", "{gpus} GPUs do not divide into tp × pp = {group}"),
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
        "error.size_needs_unit": QT_TRANSLATE_NOOP(
            "Core", "{text} has no unit: write {number}GB or {number}GiB ({number}B for bytes)"),
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
        "kind.number": QT_TRANSLATE_NOOP("Core", "the number {text}"),
        "kind.string": QT_TRANSLATE_NOOP("Core", "the string {text}"),
        "kind.long_string": QT_TRANSLATE_NOOP("Core", "a string"),
        "kind.list": QT_TRANSLATE_NOOP("Core", "a list"),
        "kind.object": QT_TRANSLATE_NOOP("Core", "an object"),
        # ----- Hugging Face config.json (vramgui.core.documents.hf_config, vramgui.io.hf_config): problems by config
        # key
        "error.config_key": QT_TRANSLATE_NOOP("Core", "{problem} (model_type {model_type})"),
        "error.config_whole_number": QT_TRANSLATE_NOOP("Core", "must be a whole number, got {value}"),
        "error.config_true_false": QT_TRANSLATE_NOOP("Core", "must be true or false, got {value}"),
        "error.config_missing": QT_TRANSLATE_NOOP("Core", "is missing from config.json"),
        "error.config_list": QT_TRANSLATE_NOOP("Core", "non-empty lists are not supported by vramgui's counter"),
        "error.config_not_object": QT_TRANSLATE_NOOP("Core", "config.json must hold a JSON object"),
        "error.config_file_not_object": QT_TRANSLATE_NOOP("Core", "{path} must hold a JSON object, not {kind}"),
        "error.config_no_model_type": QT_TRANSLATE_NOOP(
            "Core", "missing or not a string: this does not look like a Hugging Face config.json"),
        "error.model_type_unsupported": QT_TRANSLATE_NOOP("Core", "{model_type} is not supported"),
        "error.model_type_remote_code": QT_TRANSLATE_NOOP(
            "Core", "{model_type} is not supported (it needs trust_remote_code; vramgui never runs model code)"),
        "note.model_type_read_as": QT_TRANSLATE_NOOP("Core", "read model_type {found} as {used}"),
        "note.model_type_read_as_text": QT_TRANSLATE_NOOP(
            "Core", "read model_type {found} as {used} (language model only)"),
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
        "note.shard_missing": QT_TRANSLATE_NOOP("Core", "{count} shard file missing ({first})"),
        "note.shards_missing": QT_TRANSLATE_NOOP("Core", "{count} shard files missing ({first}, ...)"),
        "note.quantized_checkpoint": QT_TRANSLATE_NOOP(
            "Core", "quantized checkpoint: packed integer weights hold several parameters per element"),
        "note.estimated_from_size": QT_TRANSLATE_NOOP(
            "Core", "estimated: tensors stored in another dtype or buffers make this approximate"),
        # ----- allowed ranges
        "allowed.range": QT_TRANSLATE_NOOP("Core", "{low} to {high}"),
        "allowed.fraction": QT_TRANSLATE_NOOP("Core", "0 <= value < 1"),
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
        # ----- why an input has no effect (tooltips of disabled inputs)
        "inactive.stage_megatron": QT_TRANSLATE_NOOP(
            "Core", "The megatron convention ignores the ZeRO stage: the distributed optimizer decides the sharding"),
        "inactive.megatron_only": QT_TRANSLATE_NOOP("Core", "Used by the megatron convention only"),
        "inactive.deepspeed_only": QT_TRANSLATE_NOOP(
            "Core", "Used by the deepspeed convention only (host memory per node)"),
        "inactive.deepspeed_precision": QT_TRANSLATE_NOOP(
            "Core", "DeepSpeed's estimator assumes 16-bit mixed precision with Adam: not used by this convention"),
        "inactive.megatron_recipe": QT_TRANSLATE_NOOP(
            "Core", "The megatron convention always keeps fp32 main parameters for 16-bit training"),
        "inactive.megatron_offload": QT_TRANSLATE_NOOP("Core", "The megatron convention models no CPU offload"),
        "inactive.stage3_only": QT_TRANSLATE_NOOP("Core", "Applies at ZeRO stage 3 only"),
        "inactive.largest_layer": QT_TRANSLATE_NOOP(
            "Core", "DeepSpeed's ZeRO-3 term: used by the deepspeed convention at stage 3"),
        "inactive.sp_needs_tp": QT_TRANSLATE_NOOP("Core", "Sequence parallelism needs tensor parallelism (TP > 1)"),
        # ----- more input errors (activations, solves, seed functions, presets, CLI)
        "error.unknown_dtype": QT_TRANSLATE_NOOP("Core", "unknown dtype {value}"),
        "error.unknown_optimizer": QT_TRANSLATE_NOOP("Core", "unknown optimizer {value}"),
        "error.unknown_stage": QT_TRANSLATE_NOOP("Core", "unknown stage {value}"),
        "error.unknown_preset": QT_TRANSLATE_NOOP("Core", "unknown preset {name}"),
        "error.positive_integer": QT_TRANSLATE_NOOP("Core", "must be a positive integer, got {value}"),
        "error.not_positive": QT_TRANSLATE_NOOP("Core", "{value} is not a positive number"),
        "error.not_gpu_count": QT_TRANSLATE_NOOP("Core", "{value} is not a whole number of GPUs"),
        "error.kv_heads_divide": QT_TRANSLATE_NOOP(
            "Core", "{kv_heads} key/value heads do not divide {heads} attention heads"),
        "error.tp_divides_heads": QT_TRANSLATE_NOOP(
            "Core", "tensor-parallel size {tp} does not divide {heads} attention heads"),
        "error.sp_splits_sequence": QT_TRANSLATE_NOOP("Core", "sequence parallelism splits the sequence over tp={tp}"),
        "error.experts_per_token": QT_TRANSLATE_NOOP("Core", "{per_token} experts per token with {experts} experts"),
        "error.global_batch_gpus": QT_TRANSLATE_NOOP(
            "Core", "{global_batch} is not a multiple of micro_batch × GPUs = {micro} × {gpus} = {step}"),
        "error.needs_gpu_memory": QT_TRANSLATE_NOOP("Core", "a GPU memory size is needed to solve for what fits"),
        "error.micro_batch_needs_architecture": QT_TRANSLATE_NOOP(
            "Core", "the micro-batch only changes activations, which need an architecture"),
        "error.seq_len_needs_architecture": QT_TRANSLATE_NOOP(
            "Core", "the sequence length only changes activations, which need an architecture"),
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
        "note.global_batch_dropped": QT_TRANSLATE_NOOP(
            "Core", "the global batch is not held fixed while solving (it is dropped, as it need not divide)"),
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
        "deriv.layers": QT_TRANSLATE_NOOP("Core", "{coefficient} layer(s) × {quantity}"),
        "deriv.outside_layers": QT_TRANSLATE_NOOP("Core", "{value} outside the layers (embedding, logits, loss)"),
        "deriv.layers_differ": QT_TRANSLATE_NOOP(
            "Core", "{terms} (largest layer kind; layers differ) → {total} in all"),
        "deriv.in_flight_one": QT_TRANSLATE_NOOP("Core", "{layers} layers × {count} micro-batch in flight"),
        "deriv.in_flight_many": QT_TRANSLATE_NOOP("Core", "{layers} layers × {count} micro-batches in flight"),
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
        # ----- strategies (vramgui.core.scenario.strategy: the one labelling function; *_short: two lines on a chart
        # axis)
        "strategy.ddp": QT_TRANSLATE_NOOP("Core", "DDP"),
        "strategy.zero": QT_TRANSLATE_NOOP("Core", "ZeRO-{stage}"),
        "strategy.offload_optimizer": QT_TRANSLATE_NOOP("Core", "{base} + CPU optimizer offload"),
        "strategy.offload_all": QT_TRANSLATE_NOOP("Core", "{base} + CPU optimizer and parameter offload"),
        "strategy.offload_params": QT_TRANSLATE_NOOP("Core", "{base} + CPU parameter offload"),
        "strategy.offload_optimizer_short": QT_TRANSLATE_NOOP("Core", "{base}\n+ offload (opt.)"),
        "strategy.offload_all_short": QT_TRANSLATE_NOOP("Core", "{base}\n+ offload (all)"),
        "strategy.offload_params_short": QT_TRANSLATE_NOOP("Core", "{base}\n+ offload (params)"),
        "strategy.megatron_distributed": QT_TRANSLATE_NOOP("Core", "Megatron distributed optimizer"),
        "strategy.megatron_plain": QT_TRANSLATE_NOOP("Core", "Megatron (no distributed optimizer)"),
        "strategy.megatron_distributed_short": QT_TRANSLATE_NOOP("Core", "Megatron\ndistributed optimizer"),
        "strategy.megatron_plain_short": QT_TRANSLATE_NOOP("Core", "Megatron\nno distributed optimizer"),
        # ----- components (vramgui.core.step.components: one table for the CLI, the breakdown and both charts)
        "component.parameters": QT_TRANSLATE_NOOP("Core", "Parameters"),
        "component.gradients": QT_TRANSLATE_NOOP("Core", "Gradients"),
        "component.optimizer_states": QT_TRANSLATE_NOOP("Core", "Optimizer states"),
        "component.master_weights": QT_TRANSLATE_NOOP("Core", "Master weights (fp32, part of optimizer states)"),
        "component.activations": QT_TRANSLATE_NOOP("Core", "Activations"),
        "component.other": QT_TRANSLATE_NOOP("Core", "Other (fixed terms)"),
    }


def _all() -> dict[str, str]:
    from vramgui.core.text.advise import advise_catalogue
    from vramgui.core.text.finetune import finetune_catalogue
    from vramgui.core.text.fp8 import fp8_catalogue
    from vramgui.core.text.limits import fuzz_catalogue
    from vramgui.core.text.parallel import parallel_catalogue
    from vramgui.core.text.step import step_catalogue

    return {**_catalogue(), **step_catalogue(), **fuzz_catalogue(), **finetune_catalogue(), **advise_catalogue(),
            **parallel_catalogue(), **fp8_catalogue()}


CATALOGUE: dict[str, str] = _all()

