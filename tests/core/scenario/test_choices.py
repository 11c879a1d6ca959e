"""Choices are StrEnum members: the values files and JSON carry stay the same strings, and a scenario read from
the CLI, the form or a file holds members."""

from __future__ import annotations

import dataclasses
import json

import pytest

from vramgui.core.fields import registry
from vramgui.core.scenario import choices, specs
from vramgui.core.scenario.choices import Convention, DType, LoraTargetSet, Offload, OptimizerImpl


def test_a_member_serialises_as_its_value() -> None:
    assert json.dumps({"dtype": DType.BF16}) == '{"dtype": "bf16"}'
    assert str(OptimizerImpl.FOR_LOOP) == "for-loop" and f"{Convention.MEGATRON}" == "megatron"


def test_the_spec_tuples_list_the_enum_values_in_their_order() -> None:
    assert specs.DTYPES == ("fp32", "fp16", "bf16")
    assert specs.OPTIMIZERS == ("adam", "adamw", "adam8bit", "sgd", "sgd_momentum", "adafactor", "lion")
    assert specs.BASE_DTYPES == ("auto", "fp32", "bf16", "fp16", "int8", "nf4")
    assert specs.LORA_TARGET_SETS == ("attention", "all-linear")


def test_every_default_choice_is_a_member() -> None:
    for f in registry.fields():
        if f.kind == "choice" and not f.path.startswith("model.architecture."):  # family, norm: still text
            assert isinstance(f.default, int) or type(f.default) in vars(choices).values(), f.path


@pytest.mark.parametrize("path", [f.path for f in registry.fields()
                                  if f.kind == "choice" and f.choices and isinstance(f.choices[0], choices.StrEnum)])
def test_a_parsed_or_checked_choice_is_a_member(path: str) -> None:
    f = registry.field(path)
    for value in f.choices:
        assert type(registry.parse(f, str(value))) is type(value)
        assert type(registry.check(f, str(value))) is type(value)


def test_an_unknown_choice_is_refused_with_its_text() -> None:
    f = registry.field("offload.optimizer")
    with pytest.raises(ValueError, match="'gpu'"):
        registry.check(f, "gpu")
    assert registry.check(f, "cpu") is Offload.CPU


def test_a_comma_list_of_lora_targets_stays_text_and_a_named_set_is_a_member() -> None:
    f = registry.field("finetune.lora_targets")
    assert registry.parse(f, " all-linear ") is LoraTargetSet.ALL_LINEAR
    assert registry.parse(f, "q_proj, v_proj") == "q_proj,v_proj"


def test_a_scenario_of_members_equals_one_of_strings() -> None:
    as_text = specs.Scenario(convention="megatron", precision=specs.PrecisionSpec(dtype="fp16"))  # type: ignore[arg-type]
    assert as_text == dataclasses.replace(specs.Scenario(convention=Convention.MEGATRON),
                                          precision=specs.PrecisionSpec(dtype=DType.FP16))


def test_a_scenario_read_from_a_file_holds_members() -> None:
    from vramgui.core.documents import scenario as doc

    text = doc.dumps(specs.Scenario()).replace('"paper"', '"megatron"').replace('"foreach"', '"for-loop"')
    s = doc.loads(text)
    assert s.convention is Convention.MEGATRON and s.precision.optimizer_impl is OptimizerImpl.FOR_LOOP
    assert s.precision.dtype is DType.BF16
