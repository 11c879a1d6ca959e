"""The GPU counts a layout accepts (vramgui.core.parallel.world): exactly the counts validation lets through, the
multiples of lcm(tp·cp·pp, etp·ep·pp)."""

from __future__ import annotations

import pytest

from vramgui.core.fields.validate import validate_scenario
from vramgui.core.parallel import world
from vramgui.core.scenario.specs import ParallelSpec, Scenario, TrainingSpec
from vramgui.core.text.errors import InputError
from vramgui.io.presets import find_model

MIXTRAL = find_model("mixtral-8x7b").spec  # 8 experts, 32 layers
LLAMA = find_model("llama-3-8b").spec

# (model, layout, world group)
LAYOUTS = [
    (LLAMA, {}, 1),
    (LLAMA, {"tp": 2, "pp": 2}, 4),
    (LLAMA, {"tp": 2, "cp": 2}, 4),
    (LLAMA, {"tp": 2, "cp": 3, "pp": 2}, 12),
    (MIXTRAL, {"ep": 8}, 8),
    (MIXTRAL, {"tp": 2, "ep": 4, "etp": 1}, 4),
    (MIXTRAL, {"tp": 4, "ep": 2, "etp": 1}, 4),
    (MIXTRAL, {"tp": 2, "cp": 3, "ep": 4, "etp": 1}, 12),
    (MIXTRAL, {"tp": 2, "ep": 2, "pp": 2}, 8),  # etp follows tp: the expert grid is 2·2·2
]


def scenario(model, gpus: int, **par: int) -> Scenario:
    return Scenario(model=model, training=TrainingSpec(seq_len=6144),  # 6,144 splits into 2·cp chunks for cp 2, 3
                    parallel=ParallelSpec(num_gpus=gpus, **par))


def valid(s: Scenario) -> bool:
    """Whether validation lets ``s`` through (the layouts are valid on one group: only the count can fail)."""
    try:
        validate_scenario(s)
    except InputError:
        return False
    return True


@pytest.mark.parametrize(("model", "par", "group"), LAYOUTS)
def test_the_accepted_counts_are_exactly_those_validation_lets_through(model, par, group):
    s = scenario(model, group, **par)
    assert world.group_size(s) == group
    for n in range(1, 4 * group + 2):
        assert world.accepts(s, n) == valid(scenario(model, n, **par)), n


@pytest.mark.parametrize(("model", "par", "group"), LAYOUTS)
def test_the_counts_up_to_a_bound_and_the_next_at_or_above_are_whole_groups(model, par, group):
    s = scenario(model, group, **par)
    assert list(world.accepted_counts(s, 5 * group - 1)) == [group * k for k in range(1, 5)]
    assert world.at_or_above(s, group + 1) == 2 * group
    assert world.at_or_above(s, 2 * group) == 2 * group
    assert world.at_or_above(s, 0) == group


def test_context_parallelism_widens_the_group_beyond_tp_times_pp():
    s = scenario(LLAMA, 4, tp=2, cp=2)
    assert world.model_grid(s.parallel) == 2 and world.context_grid(s.parallel) == 4
    assert not world.accepts(s, 2) and world.accepts(s, 4)


def test_a_dense_model_has_no_expert_grid():
    s = scenario(LLAMA, 4, tp=2)
    assert not world.has_experts(s) and world.group_size(s) == 2


def test_no_count_below_one_group_is_accepted():
    s = scenario(MIXTRAL, 8, ep=8)
    assert world.accepted_counts(s, 7) == range(8, 8)
    assert not world.accepts(s, 0)


@pytest.mark.parametrize(("model", "par", "terms"), [
    (LLAMA, {"tp": 2, "pp": 2}, "tp × pp"),
    (LLAMA, {"tp": 2, "cp": 2}, "tp × cp × pp"),
    (MIXTRAL, {"ep": 8}, "etp × ep × pp"),
    (MIXTRAL, {"tp": 4, "ep": 2, "etp": 1}, "tp × pp"),  # the expert grid (2) divides tp·pp (4)
    (MIXTRAL, {"tp": 2, "cp": 3, "ep": 4, "etp": 1}, "lcm(tp × cp × pp, etp × ep × pp)"),
])
def test_the_group_is_named_by_the_grids_that_set_it(model, par, terms):
    assert world.group_terms(scenario(model, 96, **par)) == terms
