"""Caches by identity (vramgui.core.memo): a hit costs a lookup, a changed copy is asked about again, never wrong."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vramgui.core.estimate import clear_caches, estimate
from vramgui.core.fields import validate
from vramgui.core.memo import ByIdentity, Seen
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.model_facts import model_facts
from vramgui.core.scenario.specs import ModelSpec, ParallelSpec, Scenario, TrainingSpec
from vramgui.core.text.errors import InputError


def test_seen_lists_the_object_itself_not_an_equal_copy() -> None:
    seen = Seen(limit=2)
    a, b = ParallelSpec(num_gpus=8), ParallelSpec(num_gpus=8)
    seen.add(a)
    assert a in seen and b not in seen  # equal but another object: asked about again
    seen.add(b)
    seen.add(ParallelSpec(num_gpus=16))  # full: cleared, then the new one listed
    assert a not in seen and b not in seen


def test_by_identity_answers_once_per_value_and_again_after_clearing() -> None:
    calls: list[Architecture] = []

    def layers(arch: Architecture) -> int:
        calls.append(arch)
        return arch.num_layers

    cached = ByIdentity(layers, limit=4)
    a = Architecture(num_layers=12)
    assert cached(a) == cached(a) == 12 and len(calls) == 1
    assert cached(Architecture(num_layers=12)) == 12 and len(calls) == 1  # an equal value: the value cache
    assert cached(Architecture(num_layers=24)) == 24 and len(calls) == 2
    cached.cache_clear()
    assert cached(a) == 12 and len(calls) == 3


def test_model_facts_are_the_architectures_own_counts() -> None:
    from vramgui.core.scenario import architecture as am

    arch = Architecture(num_layers=4, hidden_size=256, num_heads=4, ffn_size=1024, vocab_size=1000)
    facts = model_facts(arch)
    assert (facts.params, facts.tensors, facts.largest_layer) == (
        am.count_params(arch), am.count_param_tensors(arch), am.largest_layer_params(arch))
    assert facts.active_params is None  # a dense model


def test_a_scenario_found_valid_once_is_not_checked_again_but_a_bad_copy_still_raises(
        monkeypatch: pytest.MonkeyPatch) -> None:
    s = Scenario(model=ModelSpec(params=7 * 10**9), parallel=ParallelSpec(num_gpus=8))
    estimate(s)
    calls: list[Scenario] = []
    monkeypatch.setattr(validate, "check_fields", calls.append)
    estimate(s)
    assert calls == []  # the same object: one lookup
    bad = replace(s, parallel=replace(s.parallel, num_gpus=7, tp=2))  # a copy that breaks a cross-field rule
    monkeypatch.undo()
    with pytest.raises(InputError) as err:
        estimate(bad)
    assert err.value.field == "parallel.num_gpus"


def test_a_section_built_in_code_with_a_wrong_type_is_refused_even_after_an_equal_valid_one() -> None:
    good = Scenario(model=ModelSpec(params=10**9), training=TrainingSpec(micro_batch=2))
    estimate(good)
    typed_wrong = replace(good, training=replace(good.training, micro_batch=2.0))  # 2.0 == 2 and hashes alike
    with pytest.raises(InputError) as err:
        estimate(typed_wrong)
    assert err.value.field == "training.micro_batch"


def test_every_cache_cleared_gives_the_same_numbers() -> None:
    s = Scenario(model=ModelSpec(architecture=Architecture()), training=TrainingSpec(micro_batch=2, seq_len=1024),
                 parallel=ParallelSpec(num_gpus=8, zero_stage=3))
    warm = estimate(s).to_dict()
    clear_caches()
    assert estimate(s).to_dict() == warm


def test_dict_init_values_are_dataclasses_built_replaced_and_refused_as_before() -> None:
    """``dict_init`` writes a frozen dataclass's fields in one dict: the same fields, defaults (factories too),
    equality, hashing and frozenness; ``replaced`` is ``dataclasses.replace`` for them."""
    import dataclasses

    import pytest

    from vramgui.core.memo import dict_init, replaced
    from vramgui.core.scenario.specs import ParallelSpec, Scenario

    p = ParallelSpec(num_gpus=8, tp=2)
    assert p == dataclasses.replace(ParallelSpec(), num_gpus=8, tp=2) and hash(p) == hash(ParallelSpec(8, tp=2))
    assert Scenario().model == Scenario().model and Scenario().model is not Scenario().model  # factory per call
    assert replaced(p, num_gpus=16) == dataclasses.replace(p, num_gpus=16) and p.num_gpus == 8
    with pytest.raises(TypeError):
        replaced(p, gpus=16)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.tp = 4  # type: ignore[misc]

    @dataclasses.dataclass(frozen=True)
    class Later:
        n: int
        total: int = dataclasses.field(init=False, default=0)

    with pytest.raises(TypeError):  # a field __init__ does not take: refused at import, not silently mis-built
        dict_init(Later)
