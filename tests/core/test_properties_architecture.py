"""Any architecture and training shape either estimates to finite, non-negative bytes or raises InputError."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from vramgui.core.estimate import estimate
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.specs import (
    ATTENTION,
    CONVENTIONS,
    IMPLEMENTATIONS,
    RECOMPUTE,
    ModelSpec,
    ParallelSpec,
    PrecisionSpec,
    Scenario,
    TrainingSpec,
)
from vramgui.core.text.errors import InputError

arch_st = st.builds(
    Architecture,
    family=st.sampled_from(("gpt", "llama")),
    num_layers=st.integers(1, 16), hidden_size=st.integers(1, 512), num_heads=st.integers(1, 16),
    num_kv_heads=st.one_of(st.none(), st.integers(1, 16)), ffn_size=st.integers(1, 2048),
    vocab_size=st.integers(1, 5000), tied_embeddings=st.booleans(),
    num_experts=st.sampled_from((0, 0, 4)), experts_per_token=st.sampled_from((0, 1, 2)),
)


@given(arch=arch_st, mb=st.integers(1, 8), seq=st.integers(1, 4096), tp=st.sampled_from((1, 2)),
       pp=st.sampled_from((1, 2)), stage=st.sampled_from((0, 1, 2, 3)), convention=st.sampled_from(CONVENTIONS),
       recompute=st.sampled_from(RECOMPUTE), attention=st.sampled_from(ATTENTION),
       implementation=st.sampled_from(IMPLEMENTATIONS), sp=st.booleans(),
       recipe=st.sampled_from(("mixed", "pure")))
@settings(max_examples=150, deadline=None)
def test_estimate_is_finite_or_a_named_input_error(arch, mb, seq, tp, pp, stage, convention, recompute, attention,
                                                    implementation, sp, recipe):
    s = Scenario(model=ModelSpec(architecture=arch), precision=PrecisionSpec(recipe=recipe),
                 training=TrainingSpec(micro_batch=mb, seq_len=seq, recompute=recompute, attention=attention,
                                       implementation=implementation),
                 parallel=ParallelSpec(num_gpus=4 * tp * pp, tp=tp, pp=pp, sp=sp, zero_stage=stage),
                 convention=convention)
    try:
        est = estimate(s)
    except InputError as err:  # any input may be refused, but always with the field it is about
        assert err.field  # noqa: PT017
        return
    assert est.per_gpu_total >= 0
    assert all(c.bytes is None or c.bytes >= 0 for c in est.components)
    assert est.bytes_of("activations") is not None
