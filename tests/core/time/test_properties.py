"""Invariants of the step time for every scenario the estimate accepts (hypothesis): finite, non-negative terms that
add up, throughput consistent with them, never a traceback or a NaN."""

from __future__ import annotations

import math
from dataclasses import replace

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.strategies import architectures, scenarios
from vramgui.core.estimate import estimate
from vramgui.core.scenario.choices import (
    Attention,
    Convention,
    DType,
    FinetuneMethod,
    Implementation,
    Offload,
    Recipe,
    Recompute,
)
from vramgui.core.scenario.specs import (
    HardwareSpec,
    ModelSpec,
    OffloadSpec,
    ParallelSpec,
    PrecisionSpec,
    Scenario,
    TrainingSpec,
)
from vramgui.core.text.errors import InputError
from vramgui.core.time.components import TIME_KEYS

FIGURES = st.builds(
    HardwareSpec, tflops_16bit=st.sampled_from((65.0, 312.0, 989.4)), tflops_fp8=st.none() | st.just(1978.9),
    tflops_tf32=st.none() | st.just(156.0), tflops_fp32=st.none() | st.just(19.5),
    memory_bandwidth=st.sampled_from((320 * 10**9, 2039 * 10**9)), link_bandwidth=st.none() | st.just(300 * 10**9),
    pcie_bandwidth=st.none() | st.just(31_500_000_000), inter_node_bandwidth=st.none() | st.just(10**9),
    achieved_tflops=st.none() | st.just(140.0), gpu_hour_price=st.none() | st.just(2.0))


@st.composite
def layouts(draw: st.DrawFn) -> Scenario:
    """Preset models on layouts the validation mostly accepts, every strategy, precision and fine-tuning choice."""
    from vramgui.io.presets import find_model

    spec = find_model(draw(st.sampled_from(("gpt2", "llama-3-8b", "mixtral-8x7b", "deepseek-v2-lite",
                                            "qwen2.5-7b")))).spec
    if draw(st.booleans()):
        spec = ModelSpec(params=spec.params)
    tp, pp, cp, ep, dp = (draw(st.sampled_from(v)) for v in ((1, 2, 4), (1, 2), (1, 2), (1, 2), (1, 2, 8)))
    micro = draw(st.sampled_from((1, 2)))
    acc = draw(st.sampled_from((None, 1, 4)))
    stage = draw(st.sampled_from((0, 1, 2, 3)))
    offload = draw(st.sampled_from((Offload.NONE, Offload.CPU))) if stage else Offload.NONE
    return Scenario(
        model=spec, precision=PrecisionSpec(dtype=draw(st.sampled_from(tuple(DType))),
                                            recipe=draw(st.sampled_from((Recipe.MIXED, Recipe.PURE)))),
        training=TrainingSpec(micro_batch=micro, seq_len=draw(st.sampled_from((128, 2048, 8192))),
                              global_batch=None if acc is None else micro * dp * acc,
                              recompute=draw(st.sampled_from(tuple(Recompute))),
                              attention=draw(st.sampled_from(tuple(Attention))),
                              implementation=draw(st.sampled_from(tuple(Implementation)))),
        parallel=ParallelSpec(num_gpus=tp * pp * cp * dp, gpus_per_node=draw(st.sampled_from((4, 8))), zero_stage=stage,
                              tp=tp, pp=pp, cp=cp, ep=ep, sp=tp > 1 and draw(st.booleans()),
                              vpp=draw(st.sampled_from((1, 2)))),
        offload=OffloadSpec(optimizer=offload),
        convention=draw(st.sampled_from((Convention.PAPER, Convention.MEGATRON))) if offload == Offload.NONE
        else Convention.PAPER,
        finetune=replace(Scenario().finetune, method=draw(st.sampled_from(tuple(FinetuneMethod)))))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(layouts() | scenarios(st.none() | architectures()), FIGURES, st.none() | st.integers(1, 10**15))
def test_every_accepted_scenario_has_a_finite_step_time_whose_terms_add_up(s: Scenario, hw, tokens):
    s = replace(s, hardware=replace(hw, gpu_memory=s.hardware.gpu_memory, reserve=s.hardware.reserve),
                training=replace(s.training, train_tokens=tokens))
    try:
        est = estimate(s)
    except InputError:
        assume(False)
        return
    t = est.time
    assert t is not None and tuple(c.key for c in t.components) == TIME_KEYS
    for c in t.components:
        assert math.isfinite(c.seconds) and c.seconds >= 0, (c.key, c.derivation)
        assert c.derivation and c.formula and c.source
    assert math.isclose(sum(c.seconds for c in t.components), t.step_seconds, rel_tol=1e-9, abs_tol=1e-9)
    assert t.step_seconds >= 0 and math.isfinite(t.tokens_per_second) and t.mfu >= 0 and t.hfu >= t.mfu * 0.999
    assert t.step_seconds > 0 or t.tokens_per_second == 0  # a toy model's step may round to 0 ns: no infinite rate
    assert t.hardware_flops_per_step >= t.model_flops_per_step > 0
    if tokens is not None:
        assert (t.train_seconds is None) == (t.step_seconds == 0)
        assert t.gpu_hours is None or math.isfinite(t.gpu_hours)
        assert t.cost is None or (s.hardware.gpu_hour_price is not None and math.isfinite(t.cost))
    est.to_dict()  # serialises
