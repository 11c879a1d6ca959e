"""Hypothesis strategies derived from the field registry (``vramgui.core.fields.registry``): any value a field allows on
its own, and any scenario made of such values. Cross-field rules (tp × pp divides the GPUs...) are not applied:
files and flags hold such scenarios too, and the estimate is what refuses them."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from vramgui.core.fields import registry as fields
from vramgui.core.fields.registry import Field
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.specs import (
    HardwareSpec,
    ModelSpec,
    OffloadSpec,
    OverheadSpec,
    ParallelSpec,
    PrecisionSpec,
    Scenario,
    TrainingSpec,
)


def values(f: Field) -> st.SearchStrategy[Any]:
    """Every value ``fields.check(f, value)`` accepts (bounds included; None where the field is optional)."""
    strategy: st.SearchStrategy[Any]
    if f.kind == "bool":
        strategy = st.booleans()
    elif f.kind == "choice":
        strategy = st.sampled_from(f.choices)
    elif f.kind == "text":
        strategy = st.text(max_size=30)
    elif f.kind in ("fraction", "number"):
        strategy = st.floats(min_value=f.low, max_value=f.high, exclude_max=f.high_open, allow_nan=False)
    else:
        assert isinstance(f.low, int) and isinstance(f.high, int)
        strategy = st.integers(f.low, f.high)
    return st.none() | strategy if f.optional else strategy


def architectures() -> st.SearchStrategy[Architecture]:
    arch = [f for f in fields.fields() if f.group == "architecture"]
    return st.fixed_dictionaries({f.name: values(f) for f in arch}).map(lambda kw: Architecture(**kw))


def scenarios(architecture: st.SearchStrategy[Architecture | None] | None = None) -> st.SearchStrategy[Scenario]:
    """A scenario with every field drawn from its registry range, with or without an architecture."""
    leaves = {f.path: values(f) for f in fields.fields() if f.group != "architecture"}
    arch = st.none() | architectures() if architecture is None else architecture

    def build(drawn: dict[str, Any], model_arch: Architecture | None) -> Scenario:
        s = Scenario()
        for path, value in drawn.items():
            s = fields.with_value(s, path, value)
        return fields.with_value(s, "model.architecture", model_arch)

    return st.builds(build, st.fixed_dictionaries(leaves), arch)


# A scenario with every section away from its defaults (the readers and writers round-trip it).
LLAMA_8B = Scenario(
    model=ModelSpec(
        name="Llama-3-8B",
        params=8_030_261_248,
        architecture=Architecture(num_layers=32, hidden_size=4096, num_heads=32, num_kv_heads=8, ffn_size=14336,
                                  vocab_size=128256, max_position_embeddings=8192),
    ),
    precision=PrecisionSpec(dtype="bf16", recipe="mixed", optimizer="adamw"),
    training=TrainingSpec(micro_batch=2, seq_len=4096, global_batch=512, recompute="selective"),
    parallel=ParallelSpec(num_gpus=16, gpus_per_node=8, zero_stage=3, tp=2, pp=1, sp=True),
    offload=OffloadSpec(optimizer="cpu", params="cpu", zero_init=False),
    hardware=HardwareSpec(gpu_name="A100 80GB", gpu_memory=80 * 10**9, reserve=0.05),
    overhead=OverheadSpec(cuda_context=1 << 30, comm_buffers=500_000_000, zero3_live_params=10**9, extra=7),
    convention="deepspeed",
)
