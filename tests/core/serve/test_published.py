"""vramgui's serving arithmetic against what vLLM and llama.cpp printed (tests/fixtures/serving_published.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.validate.serve_table import llama_cpp_row, measured_row, vllm_row

PUBLISHED = json.loads((Path(__file__).parents[2] / "fixtures" / "serving_published.json").read_text())


@pytest.mark.parametrize("case", PUBLISHED["vllm"], ids=lambda c: f"{c['preset']}-{c['available_gib']}")
def test_vllm_blocks_and_concurrency_within_the_logs_rounding(case):
    row = vllm_row(case)
    assert row.ok, row


@pytest.mark.parametrize("case", PUBLISHED["llama_cpp"], ids=lambda c: f"{c['kv_dtype']}-{c['batch']}")
def test_llama_cpp_kv_cache_and_model_buffer_as_logged(case):
    row = llama_cpp_row(case)
    assert row.ok, row


MEASURED = json.loads((Path(__file__).parents[2] / "fixtures" / "measured_serving.json").read_text())["rows"]


@pytest.mark.parametrize("case", [c for c in MEASURED if c["config"]["model_type"] != "gemma2"],
                         ids=lambda c: f"{c['case']}-b{c['batch']}-s{c['seq']}")
def test_transformers_prefill_within_5_percent_of_the_measurement(case):
    row = measured_row(case)
    assert row.ok, row
