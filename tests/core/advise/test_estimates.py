"""The adviser's memory of estimates (vramgui.core.advise.estimates) answers what ``estimate`` answers: the same
figures for a scenario asked again, for a copy with another reserve or compute peak (refitted, not re-estimated),
the same ``InputError``; and ``solve.min_gpus(at_least=)`` is max(min_gpus, at_least) with fewer estimates."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vramgui.core.advise import ask as advise_ask
from vramgui.core.advise import estimates as memo
from vramgui.core.advise.estimates import Estimates
from vramgui.core.documents.catalog import hardware_with_gpu
from vramgui.core.estimate import estimate
from vramgui.core.fields import registry as fields
from vramgui.core.scenario.specs import HardwareSpec, ParallelSpec, Scenario, TrainingSpec
from vramgui.core.solve import questions as solve
from vramgui.core.text.errors import InputError
from vramgui.io.presets import find_gpu, find_model

LLAMA = replace(Scenario(model=find_model("llama-3-8b").spec, training=TrainingSpec(seq_len=8192, micro_batch=2),
                         parallel=ParallelSpec(num_gpus=8, zero_stage=3)),
                hardware=hardware_with_gpu(HardwareSpec(), find_gpu("h100-sxm")))


def _same(a, b) -> None:
    assert a.to_dict() == b.to_dict()
    assert (a.time is None) == (b.time is None)
    if a.time is not None:
        assert a.time.to_dict() == b.time.to_dict()


@pytest.mark.parametrize("copy", [
    lambda s: s,
    advise_ask.strict,  # the reserve raised by the margin, untimed
    advise_ask.untimed,
    lambda s: fields.with_value(s, "hardware.reserve", 0.3),
])
def test_a_copy_is_what_estimate_answers(copy, monkeypatch) -> None:
    estimates = Estimates()
    estimates.of(LLAMA)  # the scenario first: the copy is refitted from it
    calls = []
    monkeypatch.setattr(memo, "estimate", lambda s: calls.append(s) or estimate(s))
    _same(estimates.of(copy(LLAMA)), estimate(copy(LLAMA)))
    assert calls == []  # not estimated again: the bytes do not depend on the reserve or the compute peak


def test_the_other_way_round_and_a_changed_scenario_is_estimated() -> None:
    estimates = Estimates()
    strict = advise_ask.strict(LLAMA)
    _same(estimates.of(strict), estimate(strict))
    _same(estimates.of(LLAMA), estimate(LLAMA))  # timed again from the untimed one
    changed = fields.with_value(LLAMA, "parallel.num_gpus", 16)
    _same(estimates.of(changed), estimate(changed))


def test_an_invalid_scenario_raises_every_time() -> None:
    estimates = Estimates()
    bad = fields.with_value(LLAMA, "parallel.num_gpus", 7)  # tp·pp·cp tiles it, but not dp of 7 GPUs at tp 2
    bad = fields.with_value(bad, "parallel.tp", 2)
    for _ in range(2):
        with pytest.raises(InputError):
            estimates.of(bad)


@pytest.mark.parametrize("at_least", [1, 3, 8, 9, 16, 64, 4096])
@pytest.mark.parametrize("seq", [8192, 65536])
def test_min_gpus_at_least(at_least: int, seq: int) -> None:
    s = advise_ask.strict(fields.with_value(LLAMA, "training.seq_len", seq))
    least = solve.min_gpus(s, 4096)
    got = solve.min_gpus(s, 4096, at_least=at_least)
    assert got == (None if least is None else max(least, at_least))
