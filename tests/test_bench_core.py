"""bench/bench_core.py's GPU-count sweep: one estimate per count the layout accepts, the global batch dropped."""

from __future__ import annotations

from bench.bench_core import LLAMA_7B, gpu_sweep
from vramgui.core.estimate import estimate
from vramgui.core.scenario.specs import ParallelSpec, TrainingSpec
from vramgui.core.solve.questions import with_value


def test_the_sweep_has_one_estimate_per_accepted_count_and_drops_the_global_batch():
    s = with_value(with_value(LLAMA_7B, "training", TrainingSpec(global_batch=64)), "parallel",
                   ParallelSpec(num_gpus=8, tp=2, cp=2, zero_stage=3))
    rows = gpu_sweep(s, 17)
    assert [n for n, _ in rows] == [4, 8, 12, 16]  # multiples of tp·cp·pp; 12 does not divide the batch of 64
    assert all(est.scenario.training.global_batch is None for _, est in rows)
    plain = with_value(s, "training", TrainingSpec())
    assert rows[1][1].peak == estimate(with_value(plain, "parallel.num_gpus", 8)).peak


def test_the_benchmarked_sweep_covers_every_count_up_to_1024():
    assert [n for n, _ in gpu_sweep(LLAMA_7B, 16)] == list(range(1, 17))  # tp = cp = pp = 1


def test_the_benchmarked_peak_sweep_is_the_estimate_sweeps_peaks():
    from bench.bench_core import peak_sweep

    assert peak_sweep(LLAMA_7B, 16) == [(n, est.peak.bytes) for n, est in gpu_sweep(LLAMA_7B, 16)]
