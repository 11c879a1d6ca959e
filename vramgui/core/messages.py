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

CONTEXT = "Core"

Translator = Callable[[str, str], str]


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - the name lupdate looks for
    """Mark ``text`` for extraction into the translation catalogue; returns it unchanged."""
    return text


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
    except (KeyError, IndexError, ValueError):  # a broken translation must not hide the message
        return CATALOGUE[msg.code].format(**values)


def is_known(code: str) -> bool:
    return code in CATALOGUE


def _catalogue() -> Mapping[str, str]:
    t = QT_TRANSLATE_NOOP
    return {
        # ----- input errors: "{field}: {message} (allowed: {allowed})"
        "error.whole_number": t("Core", "expected a whole number, got {value}"),
        "error.number": t("Core", "expected a number, got {value}"),
        "error.out_of_range": t("Core", "{value} is out of range"),
        "error.unknown_value": t("Core", "unknown value {value}"),
        "error.true_false": t("Core", "expected true or false, got {value}"),
        "error.text": t("Core", "expected text, got {value}"),
        "error.params_or_architecture": t("Core", "give a parameter count or an architecture"),
        "error.gpus_not_divisible": t("Core", "{gpus} GPUs do not divide into tp × pp = {group}"),
        "error.pp_over_layers": t("Core", "{pp} pipeline stages for {layers} layers"),
        "error.global_batch_multiple": t(
            "Core", "{global_batch} is not a multiple of micro_batch × N_d = {micro} × {n_d} = {step}"),
        "error.megatron_no_offload": t("Core", "the megatron convention models no CPU offload"),
        "error.param_offload_stage3": t("Core", "parameter offload needs ZeRO stage 3"),
        "error.optimizer_offload_stage": t("Core", "optimizer offload needs ZeRO stage 1, 2 or 3"),
        "error.deepspeed_param_offload": t(
            "Core", "DeepSpeed's estimator has no case for parameter offload without optimizer offload"),
        "error.layers_over_limit": t("Core", "{layers} layers is more than vramgui's limit of {limit}"),
        "error.gpus_per_node_over_gpus": t("Core", "{per_node} GPUs per node is more than the {gpus} GPUs in all"),
        "error.size_syntax": t("Core", "cannot read {text} as a size"),
        "error.size_unit": t("Core", "unknown unit {unit} in {text}"),
        "error.size_needs_unit": t("Core", "{text} has no unit: add GB or GiB"),
        "error.count_syntax": t("Core", "cannot read {text} as a count"),
        "error.count_suffix": t("Core", "unknown suffix {suffix} in {text}"),
        "error.negative": t("Core", "{text} is negative"),
        "error.not_finite": t("Core", "{text} is not a finite, non-negative number"),
        "error.size_expected": t("Core", "expected a size such as 80GB or 80GiB"),
        "error.count_expected": t("Core", "expected a count such as 7B or 124M"),
        "error.not_whole_count": t("Core", "{text} is not a whole number of parameters"),
        "error.unknown_field": t("Core", "unknown field ({hint})"),
        "error.did_you_mean": t("Core", "did you mean {name}?"),
        "error.known_fields": t("Core", "known fields here: {names}"),
        # ----- allowed ranges
        "allowed.range": t("Core", "{low} to {high}"),
        "allowed.fraction": t("Core", "0 <= value < 1"),
        "allowed.choices": t("Core", "{choices}"),
        "allowed.multiple_of_group": t("Core", "a multiple of tp × pp: {nearest}"),
        "allowed.multiple_nearest": t("Core", "a multiple of {step}, nearest: {nearest}"),
        "allowed.none": t("Core", "none"),
        "allowed.none_below_stage3": t("Core", "none below stage 3"),
        "allowed.none_at_stage0": t("Core", "none at stage 0"),
        "allowed.none_unless_optimizer_offload": t("Core", "none unless offload.optimizer is cpu"),
        "allowed.size_units": t("Core", "a number with B, KB, MB, GB, TB, KiB, MiB, GiB or TiB"),
        "allowed.unit_names": t("Core", "B, KB, MB, GB, TB, KiB, MiB, GiB, TiB"),
        "allowed.count_suffixes": t("Core", "a number with optional K, M, B (or G), T"),
        "allowed.suffix_names": t("Core", "K, M, B (or G), T"),
        "allowed.at_least_zero": t("Core", ">= 0"),
        "allowed.count_example": t("Core", "a parameter count such as 7B"),
        "allowed.true_false": t("Core", "true or false"),
        # ----- why an input has no effect (tooltips of disabled inputs)
        "inactive.stage_megatron": t(
            "Core", "The megatron convention ignores the ZeRO stage: the distributed optimizer decides the sharding"),
        "inactive.megatron_only": t("Core", "Used by the megatron convention only"),
        "inactive.deepspeed_only": t("Core", "Used by the deepspeed convention only (host memory per node)"),
        "inactive.deepspeed_precision": t(
            "Core", "DeepSpeed's estimator assumes 16-bit mixed precision with Adam: not used by this convention"),
        "inactive.megatron_recipe": t(
            "Core", "The megatron convention always keeps fp32 main parameters for 16-bit training"),
        "inactive.megatron_offload": t("Core", "The megatron convention models no CPU offload"),
        "inactive.stage3_only": t("Core", "Applies at ZeRO stage 3 only"),
        "inactive.largest_layer": t("Core", "DeepSpeed's ZeRO-3 term: used by the deepspeed convention at stage 3"),
        "inactive.sp_needs_tp": t("Core", "Sequence parallelism needs tensor parallelism (TP > 1)"),
    }


CATALOGUE: dict[str, str] = dict(_catalogue())

