"""The core's error messages (English, from ``vramgui.core``) shown in the user's language.

The core stays Qt-free and English (the CLI prints it as is). Here an ``InputError`` becomes
"{field label}: {message} (allowed: {range})" with the label and the standard phrases translated: each
template produced by the core (``vramgui/core/validate.py``, ``activations.py``, ``units.py``, ``solve.py``)
is matched by a pattern whose numbers/values are carried into the translated text. A message no pattern knows
is shown in English, still after the translated label, so nothing is ever lost.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

VALUE_LIST = r"[\w.\-]+(, [\w.\-]+)+"  # allowed values such as "fp32, fp16, bf16": names, not words


def field_label(field: str) -> str:
    """The translated name of a core field path (``parallel.tp``, ``model.architecture.num_heads``...);
    the path itself when it has no name here."""
    last = field.split(".")[-1]
    labels = {
        "params": translate("Fields", "Parameters"),
        "architecture": translate("Fields", "Architecture"),
        "num_layers": translate("Fields", "Layers"),
        "hidden_size": translate("Fields", "Hidden size"),
        "num_heads": translate("Fields", "Attention heads"),
        "num_kv_heads": translate("Fields", "KV heads"),
        "head_dim": translate("Fields", "Head dimension"),
        "ffn_size": translate("Fields", "FFN size"),
        "vocab_size": translate("Fields", "Vocabulary"),
        "num_experts": translate("Fields", "Experts"),
        "experts_per_token": translate("Fields", "Experts per token"),
        "largest_layer": translate("Fields", "Largest layer"),
        "dtype": translate("Fields", "Dtype"),
        "recipe": translate("Fields", "Recipe"),
        "optimizer": translate("Fields", "Optimizer"),
        "micro_batch": translate("Fields", "Micro-batch"),
        "seq_len": translate("Fields", "Sequence length"),
        "global_batch": translate("Fields", "Global batch"),
        "recompute": translate("Fields", "Recompute"),
        "attention": translate("Fields", "Attention"),
        "implementation": translate("Fields", "Implementation"),
        "num_gpus": translate("Fields", "Number of GPUs"),
        "gpus_per_node": translate("Fields", "GPUs per node"),
        "zero_stage": translate("Fields", "ZeRO stage"),
        "tp": translate("Fields", "Tensor parallel"),
        "pp": translate("Fields", "Pipeline parallel"),
        "sp": translate("Fields", "Sequence parallel"),
        "gpu_memory": translate("Fields", "Memory per GPU"),
        "reserve": translate("Fields", "Reserve"),
        "convention": translate("Fields", "Convention"),
        "cuda_context": translate("Fields", "CUDA context"),
        "comm_buffers": translate("Fields", "Communication buffers"),
        "zero3_live_params": translate("Fields", "ZeRO-3 live parameters"),
        "extra": translate("Fields", "Extra memory"),
    }
    if field.startswith("offload."):
        return {"optimizer": translate("Fields", "Optimizer offload"),
                "params": translate("Fields", "Parameter offload")}.get(last, field)
    return labels.get(last, field)


def _message_patterns() -> list[tuple[str, str]]:
    """(regex over the core's English message, translated template with {0}, {1}... for the groups)."""
    return [
        (r"expected a whole number, got (.+)", translate("Fields", "expected a whole number, got {0}")),
        (r"expected a number, got (.+)", translate("Fields", "expected a number, got {0}")),
        (r"(.+) is out of range", translate("Fields", "{0} is out of range")),
        (r"unknown value (.+)", translate("Fields", "unknown value {0}")),
        (r"must be a positive integer, got (.+)", translate("Fields", "must be a positive integer, got {0}")),
        (r"give a parameter count or an architecture",
         translate("Fields", "give a parameter count or an architecture")),
        (r"(\d+) GPUs do not divide into tp × pp = (\d+)",
         translate("Fields", "{0} GPUs do not divide into TP × PP = {1}")),
        (r"(\d+) pipeline stages for (\d+) layers", translate("Fields", "{0} pipeline stages for {1} layers")),
        (r"(\d+) is not a multiple of micro_batch × N_d = (\d+) × (\d+) = (\d+)",
         translate("Fields", "{0} is not a multiple of micro-batch × N_d = {1} × {2} = {3}")),
        (r"the megatron convention models no CPU offload",
         translate("Fields", "the Megatron convention models no CPU offload")),
        (r"parameter offload needs ZeRO stage 3", translate("Fields", "parameter offload needs ZeRO stage 3")),
        (r"optimizer offload needs ZeRO stage 1, 2 or 3",
         translate("Fields", "optimizer offload needs ZeRO stage 1, 2 or 3")),
        (r"DeepSpeed's estimator has no case for parameter offload without optimizer offload",
         translate("Fields", "DeepSpeed's estimator has no case for parameter offload without optimizer offload")),
        (r"(\d+) key/value heads do not divide (\d+) attention heads",
         translate("Fields", "{0} key/value heads do not divide {1} attention heads")),
        (r"tensor-parallel size (\d+) does not divide (\d+) attention heads",
         translate("Fields", "tensor-parallel size {0} does not divide {1} attention heads")),
        (r"sequence parallelism splits the sequence over tp=(\d+)",
         translate("Fields", "sequence parallelism splits the sequence over TP = {0}")),
        (r"(\d+) experts per token with (\d+) experts", translate("Fields", "{0} experts per token with {1} experts")),
        (r"a GPU memory size is needed to solve for what fits",
         translate("Fields", "a GPU memory size is needed to solve for what fits")),
        (r"expected a size such as 80GB or 80GiB", translate("Fields", "expected a size such as 80GB or 80GiB")),
        (r"expected a count such as 7B or 124M", translate("Fields", "expected a count such as 7B or 124M")),
    ]


def _note_patterns() -> list[tuple[str, str]]:
    """Notes the core attaches to an estimate (``Estimate.notes``), shown under the summary."""
    return [
        (r"activations not estimated: (.+)", translate("Fields", "activations not estimated: {0}")),
        (r"no architecture known", translate("Fields", "no architecture known")),
        (r"activation model not available", translate("Fields", "activation model not available")),
        (r"DeepSpeed's estimator assumes 16-bit mixed precision with Adam; dtype, recipe and optimizer are not used "
         r"under this convention",
         translate("Fields", "DeepSpeed's estimator assumes 16-bit mixed precision with Adam; dtype, recipe and "
                             "optimizer are not used under this convention")),
        (r"DeepSpeed publishes no stage-0 estimator: its stage-1/2 bytes, nothing partitioned",
         translate("Fields", "DeepSpeed publishes no stage-0 estimator: its stage-1/2 bytes, nothing partitioned")),
        (r"DeepSpeed's stage_1_and_2 estimator serves stages 1 and 2 alike",
         translate("Fields", "DeepSpeed's stage_1_and_2 estimator serves stages 1 and 2 alike")),
        (r"largest layer unknown \(no architecture and no --largest-layer\): DeepSpeed's 4 × largest-layer term "
         r"counted as 0",
         translate("Fields", "largest layer unknown (no architecture given): DeepSpeed's 4 × largest-layer term "
                             "counted as 0")),
        (r"Megatron's table is for Adam; (.+) states taken as (\d+) bytes per parameter",
         translate("Fields", "Megatron's table is for Adam; {0} states taken as {1} bytes per parameter")),
        (r"the megatron convention always keeps fp32 main parameters for 16-bit training; recipe ignored",
         translate("Fields", "the Megatron convention always keeps fp32 main parameters for 16-bit training; "
                             "recipe ignored")),
        (r"PyTorch's 4-byte step counter per parameter tensor is not counted: no architecture known",
         translate("Fields", "PyTorch's 4-byte step counter per parameter tensor is not counted: no architecture "
                             "known")),
        (r"parameters are offloaded: the GPU still gathers each layer's parameters while it runs; set the ZeRO-3 "
         r"live parameters \(--live-params, DeepSpeed's stage3_max_live_parameters, default 1e9\) to count them "
         r"under Other",
         translate("Fields", "parameters are offloaded: the GPU still gathers each layer's parameters while it runs; "
                             "set the ZeRO-3 live parameters (--live-params, DeepSpeed's "
                             "stage3_max_live_parameters, default 1e9) to count them under Other")),
        (r"most loaded pipeline stage is the first stage: embedding \+ ⌈L/pp⌉ layers "
         r"\(([\d,]+) parameters before /tp\)",
         translate("Fields", "most loaded pipeline stage is the first: embedding + ⌈L/PP⌉ layers ({0} parameters "
                             "before /TP)")),
        (r"most loaded pipeline stage is the last stage: ⌊L/pp⌋ layers \+ final norm \+ output layer "
         r"\(([\d,]+) parameters before /tp\)",
         translate("Fields", "most loaded pipeline stage is the last: ⌊L/PP⌋ layers + final norm + output layer "
                             "({0} parameters before /TP)")),
    ]


def translate_note(note: str) -> str:
    """A note of the core's estimate in the user's language (nested reasons too); unknown notes stay English."""
    for pattern, template in _note_patterns():
        match = re.fullmatch(pattern, note)
        if match:
            return template.format(*(translate_note(g) for g in match.groups()))
    return note


def _derivation_phrases() -> list[tuple[str, str]]:
    """Words inside the core's derivations ("2 × 8.03e9 / 8 = 2.01 GB" needs none; these do)."""
    return [
        (" layer(s) × ", translate("Derivations", " layer(s) × ")),
        (" outside the layers (embedding, logits, loss)",
         translate("Derivations", " outside the layers (embedding, logits, loss)")),
        (" (no fixed terms given)", translate("Derivations", " (no fixed terms given)")),
        (": gradient partition offloaded to CPU memory",
         translate("Derivations", ": gradient partition offloaded to CPU memory")),
        (": optimizer states (with master weights) offloaded to CPU memory",
         translate("Derivations", ": optimizer states (with master weights) offloaded to CPU memory")),
        (": fp32 master weights offloaded to CPU memory",
         translate("Derivations", ": fp32 master weights offloaded to CPU memory")),
        (": parameter partition offloaded to CPU memory",
         translate("Derivations", ": parameter partition offloaded to CPU memory")),
        (": gradients go to the host", translate("Derivations", ": gradients go to the host")),
        (": optimizer states on the host", translate("Derivations", ": optimizer states on the host")),
        (": fp32 master weights on the host", translate("Derivations", ": fp32 master weights on the host")),
        (": gradient partition on the host", translate("Derivations", ": gradient partition on the host")),
        (": parameter partition on the host", translate("Derivations", ": parameter partition on the host")),
        (" − params", translate("Derivations", " − params")),
        (" − gradients", translate("Derivations", " − gradients")),
        ("not estimable: ", translate("Derivations", "not estimable: ")),
        ("no architecture known", translate("Fields", "no architecture known")),
    ]


def translate_derivation(text: str) -> str:
    """A derivation with its numbers, its words in the user's language (the numbers are untouched)."""
    for english, shown in _derivation_phrases():
        text = text.replace(english, shown)
    return text


def _allowed_patterns() -> list[tuple[str, str]]:
    return [
        (r"([\d,]+) to ([\d,]+)", translate("Fields", "{0} to {1}")),
        (r"(\d+)\.\.(\d+)", translate("Fields", "{0} to {1}")),
        (r"0 <= value < 1", translate("Fields", "from 0 up to (not including) 1")),
        (r"a multiple of tp × pp: (.+)", translate("Fields", "a multiple of TP × PP: {0}")),
        (r"a multiple of (\d+), nearest: (.+)", translate("Fields", "a multiple of {0}, nearest: {1}")),
        (r"a multiple of (\d+)", translate("Fields", "a multiple of {0}")),
        (r"a divisor of (\d+)", translate("Fields", "a divisor of {0}")),
        (r">= 1", translate("Fields", "at least 1")),
        (r"none", translate("Fields", "none")),
        (r"none below stage 3", translate("Fields", "none below stage 3")),
        (r"none at stage 0", translate("Fields", "none at stage 0")),
        (r"none unless offload.optimizer is cpu", translate("Fields", "none unless the optimizer is offloaded")),
        (r"e\.g\. 80GB", translate("Fields", "e.g. 80GB")),
    ]


def _translated(text: str, patterns: list[tuple[str, str]]) -> str:
    for pattern, template in patterns:
        match = re.fullmatch(pattern, text)
        if match:
            return template.format(*match.groups())
    return text


def is_known(message: str, allowed: bool = False) -> bool:
    """Whether a pattern here matches ``message`` (tests keep the table in step with the core's wording)."""
    patterns = _allowed_patterns() if allowed else _message_patterns() + _note_patterns()
    if allowed and re.fullmatch(VALUE_LIST, message):
        return True
    return any(re.fullmatch(pattern, message) for pattern, _ in patterns)


def translate_message(message: str) -> str:
    return _translated(message, _message_patterns())


def translate_allowed(allowed: str) -> str:
    """The allowed range in the user's language; a list of values (``fp32, fp16, bf16``) stays as it is."""
    return _translated(allowed, _allowed_patterns())


def input_error_text(err) -> str:
    """``InputError`` as the user reads it: "{label}: {message} (allowed: {range})", translated."""
    text = translate("Fields", "{0}: {1}").format(field_label(err.field), translate_message(err.message))
    if err.allowed:
        text += translate("Fields", " (allowed: {0})").format(translate_allowed(err.allowed))
    return text


def scenario_error_text(err) -> str:
    """A ``ScenarioError`` (opening a scenario file) for a dialog: every problem with its field path."""
    problems = list(getattr(err, "problems", ()))
    source = getattr(err, "source", None) or ""
    if not problems:
        return str(err)
    if len(problems) == 1:
        head = translate("Fields", "{0} cannot be opened:").format(source) if source else ""
    else:
        head = translate("Fields", "{0}: {1} problems in the scenario:").format(source, len(problems))
    lines = [head] if head else []
    document = translate("Fields", "(document)")
    lines += [f"  {path or document}: {message}" for path, message in problems]
    lines.append(translate("Fields", "Nothing was changed."))
    return "\n".join(lines)
