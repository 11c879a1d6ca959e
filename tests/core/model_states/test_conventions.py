"""Each accounting convention reproduces its own source's published numbers."""

from __future__ import annotations

import pytest

from vramgui.core.estimate import estimate
from vramgui.core.model_states.deepspeed import estimate_zero2, estimate_zero3
from vramgui.core.scenario.specs import ModelSpec, OffloadSpec, ParallelSpec, PrecisionSpec, Scenario
from vramgui.core.text.errors import InputError
from vramgui.core.text.units import GiB

# DeepSpeed docs, "Memory Requirements", estimate_zero3_model_states_mem_needs_all_cold(total_params=2851e6,
# largest_layer_params=32e6, num_gpus_per_node=8, num_nodes=1): per CPU | per GPU | options (GB = 2**30)
DS_ZERO3_PUBLISHED = [
    (True, True, True, 71.69, 0.12),
    (True, True, False, 127.45, 0.12),
    (True, False, True, 63.72, 0.78),
    (True, False, False, 127.45, 0.78),
    (False, False, True, 1.43, 6.09),
    (False, False, False, 127.45, 6.09),
]


@pytest.mark.parametrize(("offload", "offload_params", "zero_init", "cpu_gb", "gpu_gb"), DS_ZERO3_PUBLISHED)
def test_deepspeed_zero3_function_reproduces_the_published_table(offload, offload_params, zero_init, cpu_gb, gpu_gb):
    cpu, gpu, _ = estimate_zero3(2851 * 10**6, 32 * 10**6, 8, 1, offload, offload_params, zero_init)
    assert round(cpu / GiB, 2) == cpu_gb
    assert round(gpu / GiB, 2) == gpu_gb


@pytest.mark.parametrize(("offload", "offload_params", "zero_init", "cpu_gb", "gpu_gb"), DS_ZERO3_PUBLISHED)
def test_deepspeed_convention_estimate_matches_deepspeed_per_gpu_and_per_node(offload, offload_params, zero_init,
                                                                             cpu_gb, gpu_gb):
    s = Scenario(model=ModelSpec(params=2851 * 10**6, largest_layer=32 * 10**6), convention="deepspeed",
                 parallel=ParallelSpec(num_gpus=8, gpus_per_node=8, zero_stage=3),
                 offload=OffloadSpec(optimizer="cpu" if offload else "none",
                                     params="cpu" if offload_params else "none", zero_init=zero_init))
    est = estimate(s)
    cpu, gpu, _ = estimate_zero3(2851 * 10**6, 32 * 10**6, 8, 1, offload, offload_params, zero_init)
    assert est.per_gpu_total == gpu
    assert est.host_per_node == cpu
    assert round(est.per_gpu_total / GiB, 2) == gpu_gb
    assert est.component("other").bytes == 4 * 32 * 10**6


def test_deepspeed_zero2_offload_and_host_match_the_published_example():
    cpu, gpu = estimate_zero2(2851 * 10**6, 8, 1, cpu_offload=True)
    assert (round(cpu / GiB, 2), round(gpu / GiB, 2)) == (127.45, 5.31)
    cpu, _ = estimate_zero2(2851 * 10**6, 8, 1, cpu_offload=False)
    assert round(cpu / GiB, 2) == 127.45


def test_deepspeed_zero2_without_offload_follows_the_current_code_not_the_older_docs_figure():
    # Code: 2Φ + int(18Φ/N) -> 11.28 GB; the docs page still prints 15.93 GB from the older 4Φ + 16Φ/N.
    _, gpu = estimate_zero2(2851 * 10**6, 8, 1, cpu_offload=False)
    assert round(gpu / GiB, 2) == 11.28
    assert round((4 * 2851e6 + 16 * 2851e6 / 8) / GiB, 2) == 15.93


def test_deepspeed_convention_zero2_estimate_sums_to_deepspeed_gpu_bytes():
    s = Scenario(model=ModelSpec(params=2851 * 10**6), convention="deepspeed",
                 parallel=ParallelSpec(num_gpus=8, gpus_per_node=8, zero_stage=2))
    est = estimate(s)
    cpu, gpu = estimate_zero2(2851 * 10**6, 8, 1, cpu_offload=False)
    assert est.per_gpu_total == gpu and est.host_per_node == cpu
    assert est.bytes_of("parameters") == 2 * 2851 * 10**6


def test_deepspeed_convention_always_reports_host_memory():
    s = Scenario(model=ModelSpec(params=10**9), convention="deepspeed", parallel=ParallelSpec(num_gpus=1, zero_stage=0))
    assert estimate(s).host_per_node == int(10**9 * 4 * 1 * 1.5)


def test_deepspeed_zero3_without_largest_layer_says_so():
    s = Scenario(model=ModelSpec(params=10**9), convention="deepspeed", parallel=ParallelSpec(num_gpus=8, zero_stage=3))
    assert any("largest layer" in n for n in map(str, estimate(s).notes))


# Megatron-LM docs, Distributed Optimizer: bytes per parameter (d = data-parallel size)
@pytest.mark.parametrize(("dtype", "plain", "distributed"), [
    ("fp16", 20, lambda d: 4 + 16 / d), ("bf16", 18, lambda d: 6 + 12 / d), ("fp32", 16, lambda d: 8 + 8 / d),
])
@pytest.mark.parametrize("d", [1, 2, 8, 64])
def test_megatron_table_bytes_per_parameter(dtype, plain, distributed, d):
    phi = 2**40  # divisible by every d so the table's fractions are exact
    for flag, per_param in ((False, plain), (True, distributed(d))):
        s = Scenario(model=ModelSpec(params=phi), precision=PrecisionSpec(dtype=dtype), convention="megatron",
                     parallel=ParallelSpec(num_gpus=d, distributed_optimizer=flag))
        assert estimate(s).per_gpu_total == int(per_param * phi)


def test_megatron_has_no_offload():
    s = Scenario(model=ModelSpec(params=10**9), convention="megatron", parallel=ParallelSpec(num_gpus=8, zero_stage=2),
                 offload=OffloadSpec(optimizer="cpu"))
    with pytest.raises(InputError, match=r"offload\.optimizer"):
        estimate(s)


def test_each_convention_is_an_object_chosen_once_by_the_scenario() -> None:
    from vramgui.core.scenario.convention import DEEPSPEED, MEGATRON, PAPER, convention_of
    from vramgui.core.scenario.specs import Scenario

    assert [convention_of(Scenario(convention=c)) for c in ("paper", "deepspeed", "megatron")] == [  # type: ignore[arg-type]
        PAPER, DEEPSPEED, MEGATRON]
    assert not MEGATRON.uses_zero_stage and not MEGATRON.models_offload and MEGATRON.main_grad_buffers
    assert DEEPSPEED.host_memory and DEEPSPEED.refuses_param_offload_alone and DEEPSPEED.uses_zero_stage
    assert PAPER.fsdp_zero3 and PAPER.publishes_finetune and not PAPER.fused_optimizer
