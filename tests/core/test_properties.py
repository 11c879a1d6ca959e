"""Invariants that hold for every input (hypothesis)."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from vramgui.core import max_trainable_params
from vramgui.core.estimate import estimate
from vramgui.core.scenario.specs import (
    CONVENTIONS,
    DTYPES,
    OPTIMIZERS,
    RECIPES,
    HardwareSpec,
    ModelSpec,
    OffloadSpec,
    OverheadSpec,
    ParallelSpec,
    PrecisionSpec,
    Scenario,
)
from vramgui.core.text.units import GB

params_st = st.integers(min_value=1, max_value=10**13)
gpus_st = st.integers(min_value=1, max_value=4096)
precision_st = st.builds(PrecisionSpec, dtype=st.sampled_from(DTYPES), recipe=st.sampled_from(RECIPES),
                         optimizer=st.sampled_from(OPTIMIZERS))


def model_state_bytes(s: Scenario) -> int:
    return estimate(s).model_states


@given(params=params_st, gpus=gpus_st, precision=precision_st, convention=st.sampled_from(("paper", "deepspeed")),
       largest=st.integers(min_value=0, max_value=10**9))
@settings(max_examples=150, deadline=None)
def test_higher_zero_stage_never_needs_more_model_state_memory(params, gpus, precision, convention, largest):
    model = ModelSpec(params=params, largest_layer=min(largest, params))
    totals = []
    for stage in (0, 1, 2, 3):
        s = Scenario(model=model, precision=precision, parallel=ParallelSpec(num_gpus=gpus, zero_stage=stage),
                     convention=convention)
        totals.append(model_state_bytes(s))  # DeepSpeed's 4 x largest-layer term is under "other"
    assert totals == sorted(totals, reverse=True)


@given(params=params_st, gpus=gpus_st, extra=st.integers(min_value=1, max_value=64), precision=precision_st,
       convention=st.sampled_from(("paper", "deepspeed")), offload=st.sampled_from(("none", "opt", "both")))
@settings(max_examples=150, deadline=None)
def test_more_gpus_never_raise_zero3_per_gpu_memory(params, gpus, extra, precision, convention, offload):
    off = OffloadSpec(optimizer="none" if offload == "none" else "cpu", params="cpu" if offload == "both" else "none")
    def total(n: int) -> int:
        return estimate(Scenario(model=ModelSpec(params=params, largest_layer=0), precision=precision,
                                 parallel=ParallelSpec(num_gpus=n, zero_stage=3), offload=off,
                                 convention=convention)).per_gpu_total
    assert total(gpus + extra) <= total(gpus)


@given(params=params_st, gpus=st.integers(min_value=1, max_value=512), precision=precision_st,
       stage=st.sampled_from((0, 1, 2, 3)), convention=st.sampled_from(CONVENTIONS),
       tp=st.sampled_from((1, 2, 4)), pp=st.sampled_from((1, 2)),
       memory=st.one_of(st.none(), st.integers(min_value=1, max_value=10**12)),
       reserve=st.floats(min_value=0, max_value=0.99), cuda=st.integers(min_value=0, max_value=10**10))
@settings(max_examples=200, deadline=None)
def test_every_output_is_finite_and_non_negative(params, gpus, precision, stage, convention, tp, pp, memory, reserve,
                                                  cuda):
    s = Scenario(model=ModelSpec(params=params), precision=precision, convention=convention,
                 parallel=ParallelSpec(num_gpus=gpus * tp * pp, tp=tp, pp=pp, zero_stage=stage),
                 hardware=HardwareSpec(gpu_memory=memory, reserve=reserve), overhead=OverheadSpec(cuda_context=cuda))
    est = estimate(s)
    for c in est.components:
        assert c.bytes is None or (isinstance(c.bytes, int) and c.bytes >= 0)
    assert isinstance(est.per_gpu_total, int) and est.per_gpu_total >= 0
    assert est.host_per_node is None or est.host_per_node >= 0
    for value in (est.usable, est.headroom):
        assert value is None or (isinstance(value, int) and math.isfinite(value))
    assert est.usable is None or est.usable >= 0


@given(gpu_gb=st.integers(min_value=8, max_value=200), gpus=st.integers(min_value=1, max_value=1024),
       stage=st.sampled_from(("ddp", 1, 2, 3)), reserve=st.sampled_from((0.0, 0.1, 0.2, 0.3)),
       optimizer=st.sampled_from(("adam", "sgd")), dtype=st.sampled_from(("fp16", "bf16")))
@settings(max_examples=150, deadline=None)
def test_max_trainable_params_round_trips_through_estimate(gpu_gb, gpus, stage, reserve, optimizer, dtype):
    """The seed's answer is the boundary of the per-GPU sum (the seed's arithmetic), which the estimate keeps;
    ``fits`` is judged by the step peak since issue 11 and is not what the seed computes."""
    billions = max_trainable_params(gpu_gb, gpus, stage, reserve, dtype, optimizer)
    n = int(billions * 1e9)
    def est(p: int):
        return estimate(Scenario(model=ModelSpec(params=p), precision=PrecisionSpec(dtype=dtype, optimizer=optimizer),
                                 parallel=ParallelSpec(num_gpus=gpus, zero_stage=0 if stage == "ddp" else stage),
                                 hardware=HardwareSpec(gpu_memory=gpu_gb * GB, reserve=reserve)))
    def sum_fits(p: int) -> bool:
        e = est(p)
        return e.per_gpu_total <= e.usable
    margin = max(2, int(n * 1e-9))  # float rounding in the seed's GB arithmetic
    assert sum_fits(max(1, n - margin))
    assert not sum_fits(n + margin + gpus)


@given(gpu_gb=st.integers(min_value=1, max_value=200), gpus=st.integers(min_value=1, max_value=512),
       stage=st.sampled_from((0, 1, 2, 3)), precision=precision_st, convention=st.sampled_from(CONVENTIONS),
       reserve=st.sampled_from((0.0, 0.1, 0.2)), cuda=st.integers(min_value=0, max_value=3 * 10**9),
       largest=st.one_of(st.none(), st.integers(min_value=0, max_value=10**9)))
@settings(max_examples=100, deadline=None)
def test_max_params_is_an_exact_boundary_under_every_convention(gpu_gb, gpus, stage, precision, convention, reserve,
                                                                cuda, largest):
    from vramgui.core.solve.questions import max_params, with_value

    s = Scenario(model=ModelSpec(params=1, largest_layer=largest), precision=precision, convention=convention,
                 parallel=ParallelSpec(num_gpus=gpus, zero_stage=stage),
                 hardware=HardwareSpec(gpu_memory=gpu_gb * GB, reserve=reserve),
                 overhead=OverheadSpec(cuda_context=cuda))
    s = with_value(s, "model.largest_layer", None) if largest is None else s
    n = max_params(s)
    def fits(p: int) -> bool:  # the step peak decides (issue 11), and ``fits`` says so
        e = estimate(with_value(s, "model", ModelSpec(params=p, largest_layer=None if largest is None
                                                      else min(largest, p))))
        assert e.usable is not None and e.peak is not None and e.fits is (e.peak.bytes <= e.usable)
        return e.peak.bytes <= e.usable
    if n == 0:
        assert not fits(1)
    else:
        assert fits(n) and (n == 10**15 or not fits(n + 1))
