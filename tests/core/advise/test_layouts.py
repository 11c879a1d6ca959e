"""The adviser's layout ways out (vramgui.core.advise.layouts): expert parallelism for MoE models and context
parallelism for long sequences, on the user's own GPUs first (through the world-group rule), then on more whole nodes
when faster; each with its step time and peak, never one that does not fit. No test pins a step time: the rules
(fit, order, batch, GPU counts) are what is checked."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vramgui.core.advise import suggestions as adv
from vramgui.core.documents.catalog import hardware_with_gpu
from vramgui.core.estimate import estimate
from vramgui.core.fields import registry as fields
from vramgui.core.parallel import world
from vramgui.core.parallel.layout import batch_parallel_size
from vramgui.core.scenario.specs import HardwareSpec, ParallelSpec, Scenario, TrainingSpec
from vramgui.core.text.message import render
from vramgui.io.presets import find_gpu, find_model


def on(preset: str, gpu: str, gpus: int, seq: int, **training) -> Scenario:
    s = Scenario(model=find_model(preset).spec, training=TrainingSpec(seq_len=seq, **training),
                 parallel=ParallelSpec(num_gpus=gpus))
    return replace(s, hardware=hardware_with_gpu(HardwareSpec(), find_gpu(gpu)))


MIXTRAL = on("mixtral-8x7b", "a100-80gb", 8, 8192)  # issue 22's example
QWEN3_MOE = on("qwen3-30b-a3b", "h100-sxm", 8, 8192)
LONG = on("llama-3-8b", "h100-sxm", 8, 65536)  # a long sequence: no plan fits without splitting it
LONGER = on("llama-3-8b", "h100-sxm", 8, 131072)


def really_fits(s: Scenario, x: adv.Suggestion) -> None:
    changed = s
    for path, value in x.changes:
        assert fields.get(s, path) != value, path
        changed = fields.with_value(changed, path, value)
    est = estimate(changed)
    assert est.fits and est.peak is not None and est.peak.bytes == x.peak and est.scenario == x.scenario
    assert world.accepts(est.scenario, est.scenario.parallel.num_gpus)  # the one world-group rule
    assert x.seconds is not None and x.seconds > 0 and est.time is not None


@pytest.mark.parametrize("s", [MIXTRAL, QWEN3_MOE, LONG, LONGER], ids=["mixtral", "qwen3-moe", "64k", "128k"])
def test_every_way_out_fits_has_its_time_and_they_come_fastest_first(s):
    assert not estimate(s).fits
    ways = adv.advise(s)
    assert ways
    for x in ways:
        really_fits(s, x)
        n = x.scenario.parallel.num_gpus
        assert n == 8 or n % 8 == 0  # the user's own GPUs, or whole nodes
    assert [x.seconds for x in ways] == sorted(x.seconds for x in ways)
    for x in ways:  # none is dominated: another with as few GPUs and changes and no longer a step
        assert not any(adv._dominates(y, x) for y in ways)


@pytest.mark.parametrize("s", [MIXTRAL, QWEN3_MOE], ids=["mixtral", "qwen3-moe"])
def test_moe_models_get_expert_parallelism_on_their_own_gpus(s):
    ep = [x for x in adv.advise(s) if x.kind == "ep"]
    own = [x for x in ep if x.scenario.parallel.num_gpus == 8]
    assert own, [render(x.msg()) for x in adv.advise(s)]
    p = own[0].scenario.parallel
    arch = s.model.architecture
    assert p.ep > 1 and arch is not None and arch.num_experts % p.ep == 0 and 8 % world.expert_grid(p) == 0
    assert render(own[0].msg()).count("expert parallel") == 1 and "step " in render(own[0].msg())
    assert own[0].scenario.training.global_batch is None  # ep leaves dp (and so the samples per step) as it was


def test_mixtral_ways_out_include_offload_on_8_gpus_beside_faster_whole_nodes():
    """Issue 22: the offload plan on the user's 8 GPUs, with its time, beside faster plans on more whole nodes."""
    ways = adv.advise(MIXTRAL)
    offload = [x for x in ways if x.scenario.parallel.num_gpus == 8 and x.scenario.offload.optimizer == "cpu"]
    assert offload
    slowest_offload = max(x.seconds for x in offload)  # type: ignore[type-var]
    more = [x for x in ways if x.scenario.parallel.num_gpus > 8]
    assert more and all(x.scenario.parallel.num_gpus % 8 == 0 for x in more)
    assert min(x.seconds for x in more) < slowest_offload  # type: ignore[type-var]
    assert any(x.kind == "ep" and x.scenario.parallel.num_gpus > 8 for x in ways)  # experts split on more nodes too


@pytest.mark.parametrize("s", [LONG, LONGER], ids=["64k", "128k"])
def test_long_sequences_get_context_parallelism_on_their_own_gpus_with_the_same_samples(s):
    cp = [x for x in adv.advise(s) if x.kind == "cp"]
    own = [x for x in cp if x.scenario.parallel.num_gpus == 8]
    assert own, [render(x.msg()) for x in adv.advise(s)]
    x = own[0]
    p, t = x.scenario.parallel, x.scenario.training
    assert p.cp > 1 and p.tp * p.cp <= p.gpus_per_node and t.seq_len % (2 * p.cp) == 0
    # no global batch was given: the suggestion keeps the scenario's 8 samples per step through accumulation
    before = s.training.micro_batch * batch_parallel_size(s.parallel)
    assert t.global_batch == before
    assert x.estimate.accumulation_steps * t.micro_batch * batch_parallel_size(p) == before
    assert f"the same {before} samples per step" in render(x.msg())


def test_a_given_global_batch_is_kept_by_every_layout_way_out():
    s = replace(LONG, training=replace(LONG.training, global_batch=16))
    ways = [x for x in adv.advise(s) if x.kind in ("tp", "pp", "cp", "ep")]
    assert ways
    for x in ways:
        really_fits(s, x)
        t = x.scenario.training
        assert t.global_batch == 16
        assert x.estimate.accumulation_steps * t.micro_batch * batch_parallel_size(x.scenario.parallel) == 16


def test_a_dense_model_gets_no_expert_parallelism():
    dense = on("llama-3-8b", "a100-80gb", 8, 8192)
    ways = adv.advise(dense)
    assert ways and not any(x.kind == "ep" or x.scenario.parallel.ep > 1 for x in ways)
