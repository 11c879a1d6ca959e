"""Pipeline stages without per-layer tuples: block sums by arithmetic, and the layer limit named."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vramgui.core.estimate import estimate
from vramgui.core.fields.registry import MAX_LAYERS
from vramgui.core.parallel.layout import blocks_params
from vramgui.core.scenario import architecture as am
from vramgui.core.scenario.specs import ModelSpec, ParallelSpec, Scenario
from vramgui.core.text.errors import InputError
from vramgui.io.presets import find_model

PRESETS = ("gpt2", "llama-3-8b", "mixtral-8x7b", "deepseek-v3", "qwen1.5-moe-a2.7b", "gemma-2-2b")


def _arch(key: str) -> am.Architecture:
    return find_model(key).spec.architecture


@pytest.mark.parametrize("key", PRESETS)
def test_block_sums_equal_slices_of_the_per_layer_counts(key):
    arch = _arch(key)
    layers = am.layer_params(arch)
    n = arch.num_layers
    for start, stop in [(0, n), (0, 1), (n - 1, n), (0, n // 3), (n // 3, n), (2, 7), (5, 5), (3, 2)]:
        assert blocks_params(arch, start, stop) == sum(layers[start:stop]), (start, stop)


@settings(max_examples=60, deadline=None)
@given(layers=st.integers(1, 40), dense=st.integers(0, 45), step=st.integers(1, 5), experts=st.integers(0, 3),
       start=st.integers(-3, 45), stop=st.integers(-3, 45))
def test_moe_layout_counts_match_a_walk(layers, dense, step, experts, start, stop):
    arch = am.Architecture(num_layers=layers, hidden_size=8, num_heads=2, ffn_size=16, vocab_size=32,
                           num_experts=experts, experts_per_token=min(experts, 1), moe_ffn_size=4,
                           dense_layers=dense, moe_layer_step=step)
    walk = [i for i in range(max(start, 0), min(stop, layers)) if am.is_moe_layer(arch, i)]
    assert am.moe_blocks_between(arch, start, stop) == len(walk)
    per_layer = am.layer_params(arch)
    assert blocks_params(arch, start, stop) == sum(per_layer[max(start, 0):max(stop, 0)])


@pytest.mark.parametrize(("key", "pp"), [("deepseek-v3", 2), ("deepseek-v3", 7), ("llama-3-8b", 3), ("gpt2", 2)])
def test_deepest_allowed_model_with_pipeline_stages_completes_and_is_exact(key, pp):
    arch = dataclasses.replace(_arch(key), num_layers=MAX_LAYERS)
    est = estimate(Scenario(model=ModelSpec(architecture=arch), parallel=ParallelSpec(num_gpus=pp, pp=pp)))
    layers = am.layer_params(arch)  # the slow, obvious way, as the reference: every stage weighed
    base, extra = divmod(MAX_LAYERS, pp)
    sizes = [base + (1 if i < extra else 0) for i in range(pp)]
    starts = [sum(sizes[:i]) for i in range(pp)]
    held = [sum(layers[starts[i]:starts[i] + sizes[i]]) for i in range(pp)]
    held[0] += am.embedding_params(arch)
    held[-1] += am.head_params(arch, include_tied=True)
    assert est.params == am.count_params(arch)
    assert est.stage_params == max(held)
    assert est.bytes_of("activations") > 0


def test_one_layer_more_than_the_limit_names_the_limit():
    arch = dataclasses.replace(_arch("llama-3-8b"), num_layers=MAX_LAYERS + 1)
    with pytest.raises(InputError) as err:
        estimate(Scenario(model=ModelSpec(architecture=arch), parallel=ParallelSpec(num_gpus=2, pp=2)))
    assert err.value.field == "model.architecture.num_layers"
    assert f"{MAX_LAYERS:,}" in str(err.value) and "MAX_LAYERS" in str(err.value)
