"""Activations under autocast (recipe "amp": fp32 weights, torch.autocast computing in bf16), pinned to measurement.

Measured with ``.venv-validate/bin/python -m bench.validate.amp_check --only amp`` (torch 2.13.0+cpu, transformers
5.24.0): the harness's families built in fp32, ``model.forward`` wrapped in ``torch.autocast("cpu",
dtype=torch.bfloat16)`` as accelerate does for HF Trainer's bf16=True, the ops that CUDA's autocast runs in fp32
(``torch.pow``...) upcast as CUDA does; saved tensors counted by ``measure.saved_activations``. No torch needed
here.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.core.activations.harness_configs import CONFIGS
from vramgui.core.activations.estimate import estimate_activations
from vramgui.core.documents.hf_config import architecture_from_config
from vramgui.core.scenario.specs import ParallelSpec, TrainingSpec

TOLERANCE = 0.03

# (config, attention, recompute, micro-batch, sequence, measured bytes at 2 layers, measured one layer)
MEASURED_AMP = [
    ("llama-mha", "eager", "none", 1, 256, 10_597_388, 3_788_800),
    ("llama-mha", "eager", "full", 2, 128, 3_381_252, 131_072),
    ("llama-mha", "sdpa", "none", 4, 64, 7_410_692, 2_220_032),
    ("llama-mha", "sdpa", "full", 1, 256, 3_283_980, 131_072),
    ("llama-gqa", "eager", "none", 2, 128, 10_494_980, 3_762_176),
    ("llama-gqa", "eager", "full", 4, 64, 3_290_628, 131_072),
    ("llama-gqa", "sdpa", "none", 1, 256, 7_185_420, 2_099_200),
    ("llama-gqa", "sdpa", "full", 2, 128, 3_233_796, 131_072),
    ("qwen2", "eager", "none", 4, 64, 8_203_780, 2_148_352),
    ("qwen2", "eager", "full", 1, 256, 4_392_460, 98_304),
    ("qwen2", "sdpa", "none", 2, 128, 6_913_540, 1_499_136),
    ("qwen2", "sdpa", "full", 4, 64, 4_104_196, 98_304),
    ("mistral", "eager", "none", 1, 256, 8_231_180, 3_053_568),
    ("mistral", "eager", "full", 2, 128, 2_428_164, 98_304),
    ("mistral", "sdpa", "none", 4, 64, 4_958_468, 1_435_648),
    ("mistral", "sdpa", "full", 1, 256, 2_322_700, 98_304),
    ("mixtral", "eager", "none", 2, 128, 6_713_380, 2_674_192),
    ("mixtral", "eager", "full", 4, 64, 1_553_924, 65_536),
    ("mixtral", "sdpa", "none", 1, 256, 5_099_564, 1_859_088),
    ("mixtral", "sdpa", "full", 2, 128, 1_497_092, 65_536),
    ("gpt2", "eager", "none", 4, 64, 10_205_700, 3_674_112),
    ("gpt2", "eager", "full", 1, 256, 3_383_308, 131_072),
    ("gpt2", "sdpa", "none", 2, 128, 9_559_044, 3_350_528),
    ("gpt2", "sdpa", "full", 4, 64, 3_119_620, 131_072),
]


def _arch(key: str, layers: int = 2):
    config = dict(CONFIGS[key])
    config["n_layer" if key == "gpt2" else "num_hidden_layers"] = layers
    return architecture_from_config(config)


def _training(attention: str, recompute: str, b: int, s: int, **kw: Any) -> TrainingSpec:
    return TrainingSpec(micro_batch=b, seq_len=s, recompute=recompute,
                        attention="eager" if attention == "eager" else "flash", **kw)


def _id(row: tuple) -> str:
    return "-".join(str(x) for x in row[:5])


@pytest.mark.parametrize("row", MEASURED_AMP, ids=_id)
def test_amp_estimate_matches_the_measured_bytes_total_and_per_layer(row: tuple) -> None:
    key, attention, recompute, b, s, total, layer = row
    training = _training(attention, recompute, b, s)
    est = estimate_activations(_arch(key), training, ParallelSpec(), "bf16", amp=True)
    deeper = estimate_activations(_arch(key, 3), training, ParallelSpec(), "bf16", amp=True)
    assert abs(est.total - total) <= TOLERANCE * total
    assert abs((deeper.total - est.total) - layer) <= TOLERANCE * layer
    assert est.total == total  # the tiny families come out to the byte (CUDA-like autocast measured on the CPU)


@pytest.mark.parametrize("row", MEASURED_AMP, ids=_id)
def test_amp_keeps_more_than_pure_bf16(row: tuple) -> None:
    key, attention, recompute, b, s, _, _ = row
    training = _training(attention, recompute, b, s)
    amp = estimate_activations(_arch(key), training, ParallelSpec(), "bf16", amp=True).total
    pure = estimate_activations(_arch(key), training, ParallelSpec(), "bf16").total
    assert amp > pure


def test_amp_terms_name_the_weight_cache_and_the_fp32_stream() -> None:
    arch = _arch("llama-gqa")
    est = estimate_activations(arch, _training("sdpa", "none", 2, 64), ParallelSpec(), "bf16", amp=True)
    by_key = {t.key: t.bytes for t in est.terms}
    h, a, kv, d, f, v = 128, 8, 2, 16, 352, 2048
    per_block = 2 * (h * (a * d + 2 * kv * d) + a * d * h + 3 * h * f)  # q, k, v, o, gate, up, down in bf16
    assert by_key["layers.linear_weight_casts"] == 2 * per_block
    assert by_key["output.lm_head_weight_cast"] == 2 * v * h
    # q, k, v and gate, up each cast the fp32 norm output: 5 casts per block
    assert by_key["layers.block_norm_output_casts"] == 2 * 5 * 2 * 2 * 64 * h
    assert by_key["layers.block_rmsnorm_normalised_fp32"] == 2 * 2 * 4 * 2 * 64 * h


def test_amp_under_full_recompute_keeps_fp32_layer_inputs_and_only_the_lm_head_copy() -> None:
    est = estimate_activations(_arch("llama-mha"), _training("sdpa", "full", 2, 64), ParallelSpec(), "bf16",
                               amp=True)
    by_key = {t.key: t.bytes for t in est.terms}
    assert by_key["layers.checkpoint_input"] == 2 * 4 * 2 * 64 * 128
    assert "output.lm_head_weight_cast" in by_key
    assert "layers.linear_weight_casts" not in by_key


def test_tied_head_weight_copy_is_counted_once_on_the_output_side() -> None:
    est = estimate_activations(_arch("qwen2"), _training("sdpa", "none", 2, 64), ParallelSpec(), "bf16", amp=True)
    by_key = {t.key: t.bytes for t in est.terms}
    assert by_key["output.lm_head_weight_cast"] == 2 * 3000 * 96


@pytest.mark.parametrize("key", sorted(CONFIGS))
@pytest.mark.parametrize("attention", ["eager", "sdpa"])
def test_amp_changes_nothing_in_fp32_or_in_the_fused_profile(key: str, attention: str) -> None:
    arch = _arch(key)
    for dtype, implementation in (("fp32", "hf"), ("bf16", "fused"), ("fp32", "fused")):
        training = _training(attention, "none", 2, 64, implementation=implementation)
        with_amp = estimate_activations(arch, training, ParallelSpec(), dtype, amp=True)
        without = estimate_activations(arch, training, ParallelSpec(), dtype)
        assert with_amp == without


def test_weight_copies_split_with_tensor_parallelism() -> None:
    arch = replace(_arch("llama-mha"), num_layers=2)
    training = _training("sdpa", "none", 2, 64)
    one = estimate_activations(arch, training, ParallelSpec(), "bf16", amp=True)
    two = estimate_activations(arch, training, ParallelSpec(tp=2, num_gpus=2), "bf16", amp=True)
    key = "layers.linear_weight_casts"
    assert {t.key: t.bytes for t in two.terms}[key] * 2 == {t.key: t.bytes for t in one.terms}[key]
