"""The scenario caption of a result is the exports' own (``scenario_inputs.export_caption``): one function, so the
two can never drift; it counts nodes as the core does (a partial last node is a node)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vramgui.core.estimate import estimate
from vramgui.core.scenario.specs import ModelSpec, ParallelSpec, Scenario
from vramgui.presenters import results
from vramgui.presenters.scenario_inputs import export_caption


@pytest.mark.parametrize(("gpus", "per_node", "shown"), [
    (16, 8, "16 GPUs (2 × 8)"), (12, 8, "12 GPUs (2 × 8)"), (100, 8, "100 GPUs (13 × 8)"), (4, 8, "4 GPUs (1 × 4)"),
])
def test_nodes_in_the_caption_include_a_partial_last_node(qapp, gpus, per_node, shown):
    scenario = Scenario(model=ModelSpec(params=7 * 10**9), parallel=ParallelSpec(num_gpus=gpus, gpus_per_node=per_node))
    assert shown in results.compute(scenario).result.caption.split(" · ")


def test_the_result_caption_is_the_exports_caption(qapp):
    scenario = Scenario(model=ModelSpec(params=7 * 10**9), parallel=ParallelSpec(num_gpus=12, gpus_per_node=8))
    scenario = replace(scenario, training=replace(scenario.training, recompute="full", loss="chunked"))
    caption = results.compute(scenario).result.caption
    assert caption == export_caption(scenario, estimate(scenario))
    assert "full recomputation" in caption.split(" · ") and "chunked loss" in caption.split(" · ")
    assert not hasattr(results, "scenario_caption"), "one caption function, not two"
