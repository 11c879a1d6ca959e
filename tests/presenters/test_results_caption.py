"""The scenario caption under an exported chart counts nodes as the core does (a partial last node is a node)."""

from __future__ import annotations

import pytest

from vramgui.core.estimate import estimate
from vramgui.core.specs import ModelSpec, ParallelSpec, Scenario
from vramgui.presenters.results import scenario_caption


@pytest.mark.parametrize(("gpus", "per_node", "shown"), [
    (16, 8, "16 GPUs (2 × 8)"), (12, 8, "12 GPUs (2 × 8)"), (100, 8, "100 GPUs (13 × 8)"), (4, 8, "4 GPUs (1 × 4)"),
])
def test_nodes_in_the_caption_include_a_partial_last_node(gpus, per_node, shown):
    scenario = Scenario(model=ModelSpec(params=7 * 10**9), parallel=ParallelSpec(num_gpus=gpus, gpus_per_node=per_node))
    assert shown in scenario_caption(scenario, estimate(scenario), "ZeRO-2").split(" · ")
