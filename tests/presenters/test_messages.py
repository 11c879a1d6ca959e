"""Core errors in the user's language: the pattern table matches what the core really says."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vramgui.core.architecture import Architecture
from vramgui.core.errors import InputError
from vramgui.core.estimate import estimate
from vramgui.core.scenario_io import ScenarioError
from vramgui.core.specs import HardwareSpec, ModelSpec, OffloadSpec, ParallelSpec, Scenario, TrainingSpec
from vramgui.presenters import messages

BASE = Scenario(model=ModelSpec(params=7 * 10**9), parallel=ParallelSpec(num_gpus=8, zero_stage=2),
                hardware=HardwareSpec(gpu_memory=80 * 10**9, reserve=0.2))
ARCH = ModelSpec(architecture=Architecture(num_layers=4, hidden_size=512, num_heads=8, ffn_size=1376,
                                           vocab_size=32000))

BAD = {
    "gpus not divisible": replace(BASE, parallel=replace(BASE.parallel, tp=3)),
    "global batch": replace(BASE, training=TrainingSpec(global_batch=7)),
    "micro-batch range": replace(BASE, training=TrainingSpec(micro_batch=0)),
    "reserve range": replace(BASE, hardware=HardwareSpec(gpu_memory=10**9, reserve=1.5)),
    "param offload stage": replace(BASE, offload=OffloadSpec(params="cpu")),
    "optimizer offload stage 0": replace(BASE, parallel=replace(BASE.parallel, zero_stage=0),
                                         offload=OffloadSpec(optimizer="cpu")),
    "unknown dtype": replace(BASE, precision=replace(BASE.precision, dtype="fp8")),
    "pipeline stages": replace(BASE, model=ARCH, parallel=replace(BASE.parallel, pp=8)),
    "tp divides heads": replace(BASE, model=replace(ARCH, architecture=replace(ARCH.architecture, num_heads=6,
                                                                                 hidden_size=516)),
                                parallel=replace(BASE.parallel, num_gpus=16, tp=16)),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_every_common_core_error_is_in_the_table(case):
    with pytest.raises(InputError) as info:
        estimate(BAD[case])
    err = info.value
    assert messages.is_known(err.message), err.message
    assert not err.allowed or messages.is_known(err.allowed, allowed=True), err.allowed


def test_error_text_names_the_field_by_its_label_and_keeps_the_range():
    err = InputError("parallel.num_gpus", "8 GPUs do not divide into tp × pp = 3", "a multiple of tp × pp: 6, 9")
    assert messages.input_error_text(err) == \
        "Number of GPUs: 8 GPUs do not divide into TP × PP = 3 (allowed: a multiple of TP × PP: 6, 9)"


def test_an_unknown_message_is_kept_after_the_label():
    err = InputError("model.architecture.num_heads", "something new", None)
    assert messages.input_error_text(err) == "Attention heads: something new"
    assert messages.field_label("overhead.unknown_field") == "overhead.unknown_field"


def test_scenario_problems_keep_their_field_paths():
    err = ScenarioError([("precision.dtype", "'fp8' is not one of fp32, fp16, bf16"),
                         ("training.micro_batch", "must be at least 1, not 0")], "plan.json")
    text = messages.scenario_error_text(err)
    assert text.splitlines()[0] == "plan.json: 2 problems in the scenario:"
    assert "  precision.dtype: 'fp8' is not one of fp32, fp16, bf16" in text
    assert text.endswith("Nothing was changed.")


NOTED = {
    "params only": BASE,
    "deepspeed stage 0": replace(BASE, convention="deepspeed", parallel=replace(BASE.parallel, zero_stage=0)),
    "deepspeed stage 3": replace(BASE, convention="deepspeed", parallel=replace(BASE.parallel, zero_stage=3)),
    "deepspeed sgd": replace(BASE, convention="deepspeed", precision=replace(BASE.precision, optimizer="sgd")),
    "megatron sgd pure": replace(BASE, convention="megatron", parallel=replace(BASE.parallel, zero_stage=0),
                                 precision=replace(BASE.precision, optimizer="sgd", recipe="pure")),
    "pipeline": replace(BASE, model=ARCH, parallel=replace(BASE.parallel, pp=2)),
    "parameter offload": replace(BASE, parallel=replace(BASE.parallel, zero_stage=3),
                                 offload=OffloadSpec(optimizer="cpu", params="cpu")),
}


@pytest.mark.parametrize("case", sorted(NOTED))
def test_the_cores_notes_are_in_the_table(case):
    notes = estimate(NOTED[case]).notes
    assert notes, "the scenario was meant to produce a note"
    for note in notes:
        assert messages.is_known(note), note


def test_every_word_of_the_cores_derivations_is_in_the_phrase_table():
    """Derivations hold numbers, units, symbols - and a few phrases, all of which the table must know."""
    import itertools
    import re

    from vramgui.core.catalog import find_model

    known = {"GB", "GiB", "MB", "int", "fp32", "logits"}  # units, a function name, a tensor name
    leftovers = set()
    for model, conv, stage, opt, par in itertools.product(
            (BASE.model, find_model("llama-3-8b").spec), ("paper", "deepspeed", "megatron"), (0, 1, 2, 3),
            ("none", "cpu"), ("none", "cpu")):
        scenario = replace(BASE, model=model, convention=conv, parallel=replace(BASE.parallel, zero_stage=stage),
                           offload=OffloadSpec(optimizer=opt, params=par))
        try:
            est = estimate(scenario)
        except InputError:
            continue
        for component in est.components:
            text = component.derivation or component.formula
            for english, _ in messages._derivation_phrases():
                text = text.replace(english, " ")
            leftovers |= {w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in known}
    assert leftovers == set()
