"""The step time's words are written when first read (``TimePart.later``): a search ranks thousands of plans by
their seconds alone. The words, read later, total exactly the seconds computed at once and are the same whatever
is read first."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.core.time.test_step import scenario, time_of
from vramgui.core.scenario.choices import Offload, Recompute
from vramgui.core.scenario.specs import OffloadSpec, ParallelSpec, TrainingSpec
from vramgui.core.terms import NS
from vramgui.core.time import words
from vramgui.core.time.components import TIME_KEYS

PLANS = (
    scenario(num_gpus=64, tp=2, pp=2, zero_stage=1),
    scenario(num_gpus=16, tp=2, cp=2, sp=True, zero_stage=3),
    scenario(num_gpus=8, zero_stage=2),
    replace(scenario(num_gpus=8, zero_stage=3), offload=OffloadSpec(optimizer=Offload.CPU, params=Offload.CPU),
            training=TrainingSpec(micro_batch=2, seq_len=2048, recompute=Recompute.FULL, global_batch=64)),
)


def test_an_unread_step_time_writes_no_words(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_words(self: object) -> object:
        raise AssertionError("a term's words were written before anyone read them")

    monkeypatch.setattr(words.Later, "term", no_words)
    t = time_of(replace(PLANS[0], parallel=ParallelSpec(num_gpus=32, tp=2, pp=2, zero_stage=1)))
    assert t.step_seconds > 0 and t.seconds_of("tp_comm") > 0
    with pytest.raises(AssertionError, match="before anyone read"):
        t.to_dict()


@pytest.mark.parametrize("s", PLANS)
def test_the_words_total_the_seconds_computed_at_once(s) -> None:
    t = time_of(s)
    for c in t.components:
        d = c.part.deriv
        assert d.total == round(c.seconds * NS) and d.total / NS == c.seconds, c.key
        assert bool(d.terms) == (c.seconds != 0 or d.note is None), c.key


@pytest.mark.parametrize("s", PLANS)
def test_the_words_do_not_depend_on_what_is_read_first(s) -> None:
    first, second = time_of(s), time_of(s)
    for key in reversed(TIME_KEYS):
        assert second.component(key).derivation  # read in the other order, one at a time
    assert first.to_dict() == second.to_dict()
    assert first == second and hash(first.components) == hash(second.components)
