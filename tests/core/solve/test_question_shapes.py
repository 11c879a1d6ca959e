"""Largest micro-batch and sequence length, and the explicit fixed terms under Other."""

from __future__ import annotations

import pytest

from vramgui.core.estimate import estimate
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.specs import HardwareSpec, ModelSpec, OverheadSpec, ParallelSpec, PrecisionSpec, Scenario
from vramgui.core.solve.questions import max_micro_batch, max_params, max_seq_len, seq_len_step, with_value
from vramgui.core.text.errors import InputError
from vramgui.core.text.units import GB

LLAMA = Scenario(model=ModelSpec(architecture=Architecture()), parallel=ParallelSpec(num_gpus=8, zero_stage=3),
                 hardware=HardwareSpec(gpu_memory=80 * GB, reserve=0.1))


def peak_fits(s: Scenario) -> bool:
    """The solvers' judge since issue 11: the step peak against the usable memory (and ``fits`` says the same)."""
    est = estimate(s)
    assert est.usable is not None and est.peak is not None and est.fits is (est.peak.bytes <= est.usable)
    return est.peak.bytes <= est.usable


def test_max_micro_batch_is_the_exact_boundary():
    b = max_micro_batch(LLAMA)
    assert b >= 1
    assert peak_fits(with_value(LLAMA, "training.micro_batch", b))
    assert not peak_fits(with_value(LLAMA, "training.micro_batch", b + 1))


def test_max_seq_len_is_the_exact_boundary():
    n = max_seq_len(LLAMA)
    assert n >= 1
    assert peak_fits(with_value(LLAMA, "training.seq_len", n))
    assert not peak_fits(with_value(LLAMA, "training.seq_len", n + 1))


@pytest.mark.parametrize(("par", "step"), [(dict(tp=2, sp=True), 2), (dict(tp=4, sp=True, cp=2), 8),
                                           (dict(tp=2, cp=2), 4)])
def test_max_seq_len_tries_only_lengths_the_scenario_accepts(par, step):
    # under SP a length must be a multiple of tp (and of 2·cp and cp·tp with context parallelism): the solver used
    # to try n + 1 and raise the validation error instead of answering
    s = with_value(LLAMA, "parallel", ParallelSpec(num_gpus=16, zero_stage=3, **par))  # type: ignore[arg-type]
    assert seq_len_step(s.parallel) == step
    n = max_seq_len(s)
    assert n > 0 and n % step == 0
    assert peak_fits(with_value(s, "training.seq_len", n))
    assert not peak_fits(with_value(s, "training.seq_len", n + step))
    with pytest.raises(InputError, match=r"training\.seq_len"):
        estimate(with_value(s, "training.seq_len", n + 1))


def test_zero_when_even_one_does_not_fit():
    tiny = with_value(LLAMA, "hardware.gpu_memory", 10**9)
    assert max_micro_batch(tiny) == 0 and max_seq_len(tiny) == 0


def test_shape_solves_need_an_architecture():
    s = with_value(LLAMA, "model", ModelSpec(params=7 * 10**9))
    with pytest.raises(InputError, match=r"model\.architecture"):
        max_micro_batch(s)


def test_other_adds_each_explicit_term_and_live_params_only_at_stage_three():
    ov = OverheadSpec(cuda_context=10**9, comm_buffers=5 * 10**8, zero3_live_params=10**8, extra=1)
    base = Scenario(model=ModelSpec(params=10**9), precision=PrecisionSpec(dtype="bf16"), overhead=ov,
                    parallel=ParallelSpec(num_gpus=8, zero_stage=3))
    other = estimate(base).component("other")
    assert other.bytes == 10**9 + 5 * 10**8 + 2 * 10**8 + 1
    assert "cuda_context" in other.formula and "live_params" in other.formula
    assert estimate(with_value(base, "parallel.zero_stage", 2)).bytes_of("other") == 10**9 + 5 * 10**8 + 1


def test_sequence_and_size_solves_keep_the_global_batch_and_its_accumulated_gradients():
    # 8 GPUs x micro-batch 1 with a global batch of 32: 4 micro-batches per step, the later ones holding the
    # accumulated gradients; the answer is judged on that scenario, not on one without accumulation
    s = with_value(with_value(LLAMA, "training.global_batch", 32), "parallel.zero_stage", 1)
    n = max_seq_len(s)
    assert peak_fits(with_value(s, "training.seq_len", n))
    assert not peak_fits(with_value(s, "training.seq_len", n + 1))
    assert n < max_seq_len(with_value(s, "training.global_batch", None))  # accumulation costs memory here
    params = max_params(s)
    assert params == max_params(s) and params < max_params(with_value(s, "training.global_batch", None))
