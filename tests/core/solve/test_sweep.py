"""The GPU-count sweep (vramgui.core.solve.sweep): what the count does not change computed once, the same numbers."""

from __future__ import annotations

from dataclasses import replace

from vramgui.core.estimate import count_free, estimate, estimate_at_count, peak_at_count, serves
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.specs import HardwareSpec, ModelSpec, ParallelSpec, Scenario, TrainingSpec
from vramgui.core.solve.questions import solve_base
from vramgui.core.solve.sweep import at_count, gpu_sweep, peak_sweep

LLAMA = Scenario(model=ModelSpec(architecture=Architecture()), training=TrainingSpec(micro_batch=2, seq_len=2048,
                                                                                      global_batch=64),
                 parallel=ParallelSpec(num_gpus=8, gpus_per_node=8, zero_stage=3, tp=2, pp=2),
                 hardware=HardwareSpec(gpu_memory=80 * 10**9))


def test_every_point_is_the_estimate_of_that_count_and_refused_counts_have_none() -> None:
    counts = (1, 2, 4, 6, 8, 12, 16, 64)
    points = gpu_sweep(LLAMA, counts)
    base = solve_base(LLAMA, "parallel.num_gpus")  # the global batch dropped, as every solve over the count does
    assert base.training.global_batch is None
    for n, est in points:
        if n % 4:  # tp·pp = 4 does not divide it
            assert est is None
        else:
            assert est is not None
            assert est.to_dict() == estimate(at_count(base, n)).to_dict()
    assert [n for n, _ in points] == list(counts)


def test_the_count_free_part_serves_only_the_same_sections_and_sizes() -> None:
    base = solve_base(LLAMA, "parallel.num_gpus")
    free = count_free(base)
    assert serves(free, at_count(base, 16))
    longer = replace(base, training=replace(base.training, seq_len=4096))
    assert not serves(free, longer)  # another training section: computed afresh
    assert estimate_at_count(longer, free).to_dict() == estimate(longer).to_dict()
    more_tp = replace(base, parallel=replace(base.parallel, tp=4, num_gpus=16))
    assert not serves(free, more_tp)
    assert estimate_at_count(more_tp, free).to_dict() == estimate(more_tp).to_dict()
    batched = replace(base, training=LLAMA.training)  # a pipeline with a global batch: in-flight count varies
    assert not serves(count_free(batched), at_count(batched, 16))


def test_the_peak_sweep_is_the_peaks_of_the_estimate_sweep() -> None:
    """What *By GPU count* draws: each count's step peak, None where the layout refuses the count; for a LoRA run,
    a ZeRO-1 run with a pipeline and an offloading one too (each takes another path through the estimate)."""
    counts = (1, 2, 3, 4, 8, 12, 16, 64, 256)
    lora = replace(LLAMA, finetune=replace(LLAMA.finetune, method="lora"))
    zero1 = replace(LLAMA, parallel=replace(LLAMA.parallel, zero_stage=1))
    offload = replace(LLAMA, offload=replace(LLAMA.offload, optimizer="cpu"))
    for scenario in (LLAMA, lora, zero1, offload):
        expected = [(n, None if est is None else est.peak.bytes) for n, est in gpu_sweep(scenario, counts)]
        assert peak_sweep(scenario, counts) == expected
        assert any(peak is not None for _, peak in expected)
    base = solve_base(LLAMA, "parallel.num_gpus")
    longer = replace(base, training=replace(base.training, seq_len=4096))  # not served: computed afresh
    assert peak_at_count(longer, count_free(base)) == estimate(longer).peak
