"""Counts against what real transformers builds (measured by tests/fixtures/hf_configs/measure_with_transformers.py
with transformers 5.24.0 and torch 2.13.0 on the meta device): every preset, every fixture and small variants
that exercise each flag and each configuration-class default."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vramgui.core.documents.hf_config import architecture_from_config
from vramgui.core.scenario.architecture import count_param_tensors, count_params, largest_layer_params
from vramgui.io.presets import model_presets

MEASURED = json.loads((Path(__file__).resolve().parents[2] / "fixtures" / "hf_configs" /
                       "transformers_measured.json").read_text())
CASES = MEASURED["cases"]


def test_measurements_cover_every_preset_and_model_type():
    assert {f"preset:{k}" for k in model_presets()} <= set(CASES)
    from vramgui.core.documents.hf_config import SUPPORTED_MODEL_TYPES

    measured_types = {case["config"]["model_type"] for case in CASES.values()}
    assert set(SUPPORTED_MODEL_TYPES) <= measured_types


@pytest.mark.parametrize("name", sorted(CASES))
def test_count_equals_sum_of_numel_transformers_builds(name):
    case = CASES[name]
    arch = architecture_from_config(case["config"])
    assert count_params(arch) == case["numel"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_tensor_count_equals_len_of_model_parameters(name):
    case = CASES[name]
    assert count_param_tensors(architecture_from_config(case["config"])) == case["tensors"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_largest_layer_equals_deepspeed_rule_on_the_built_model(name):
    case = CASES[name]
    assert largest_layer_params(architecture_from_config(case["config"])) == case["largest_layer"]
