"""The adviser (vramgui.core.advise.suggestions): when a scenario does not fit, each kind of way out is found by the
solvers, and every suggestion really fits: its changes, applied to the scenario as the form or the flags would, give an
estimate whose step peak is within the usable memory (with the margin when the scenario fitted with little headroom)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vramgui.core.advise import suggestions as adv
from vramgui.core.estimate import estimate
from vramgui.core.fields import registry as fields
from vramgui.core.scenario.specs import HardwareSpec, ModelSpec, ParallelSpec, Scenario, TrainingSpec
from vramgui.core.solve import questions as solve
from vramgui.core.text.message import render
from vramgui.io.presets import find_model

GB = 10**9
LLAMA = find_model("llama-3-8b").spec


def scenario(model: ModelSpec = LLAMA, memory: int | None = 80 * GB, **kw) -> Scenario:
    training = {k: v for k, v in kw.items() if k in TrainingSpec.__dataclass_fields__}
    parallel = {k: v for k, v in kw.items() if k in ParallelSpec.__dataclass_fields__}
    return Scenario(model=model, training=TrainingSpec(**training), parallel=ParallelSpec(**parallel),
                    hardware=HardwareSpec(gpu_memory=memory))


ACTIVATIONS = scenario(micro_batch=4, seq_len=4096, num_gpus=8, zero_stage=3)  # activations dominate
ACCUMULATING = scenario(micro_batch=8, seq_len=2048, num_gpus=8, zero_stage=3, global_batch=128)
DDP = scenario(micro_batch=1, seq_len=2048, num_gpus=8, zero_stage=0)  # model states, not sharded
LONG = scenario(micro_batch=1, seq_len=32768, num_gpus=8, zero_stage=3, recompute="full", memory=76 * GB)  # logits
ONE_CARD = scenario(num_gpus=1, memory=24 * 2**30)  # Llama-3-8B, bf16 mixed Adam on one 24 GiB card
COUNT_ONLY = scenario(model=ModelSpec(params=70 * GB), num_gpus=8, zero_stage=0)  # no architecture

CASES = {  # kind -> a scenario that does not fit (or with little headroom) and has a way out of that kind
    "recompute": ACTIVATIONS, "micro_batch": ACTIVATIONS, "tp": ACTIVATIONS, "seq_len": ACTIVATIONS,
    "strategy": DDP, "pp": DDP, "finetune": DDP, "loss": LONG, "gpus": LONG, "offload": ONE_CARD,
}


def kinds(s: Scenario) -> list[str]:
    return [x.kind for x in adv.advise(s)]


def really_fits(s: Scenario, suggestion: adv.Suggestion) -> None:
    """The changes applied with the registry's with_value give the suggestion's estimate, and it fits."""
    changed = s
    for path, value in suggestion.changes:
        assert fields.get(s, path) != value, path  # only what changes is listed
        changed = fields.with_value(changed, path, value)
    est = estimate(changed)
    assert est.fits and est.peak.bytes == suggestion.peak and est.headroom == suggestion.headroom >= 0
    assert est.scenario == suggestion.scenario


@pytest.mark.parametrize("kind", sorted(CASES))
def test_each_kind_is_found_for_a_scenario_it_helps_and_its_changes_fit(kind):
    s = CASES[kind]
    assert adv.needs_advice(estimate(s))
    found = {x.kind: x for x in adv.advise(s)}
    assert kind in found, found.keys()
    really_fits(s, found[kind])


def test_every_suggestion_of_the_crafted_scenarios_fits_and_they_come_least_change_first():
    for s in {*CASES.values(), ACCUMULATING, COUNT_ONLY}:
        suggestions = adv.advise(s)
        assert suggestions
        for x in suggestions:
            really_fits(s, x)
        order = [adv.KINDS.index(x.kind) for x in suggestions]
        assert order == sorted(order) and len(set(order)) == len(order)  # one of each kind at most


def test_a_scenario_that_fits_comfortably_or_is_not_judged_gets_no_advice():
    comfortable = scenario(num_gpus=8, zero_stage=3)
    est = estimate(comfortable)
    assert est.fits and est.headroom >= adv.LOW_HEADROOM * est.usable
    assert adv.advise(comfortable) == ()
    assert adv.advise(scenario(memory=None)) == ()  # no GPU memory: the fit is not judged


def test_the_largest_micro_batch_is_the_solvers_answer_and_accumulation_keeps_the_global_batch():
    plain = next(x for x in adv.advise(ACTIVATIONS) if x.kind == "micro_batch")
    assert plain.changes == (("training.micro_batch", solve.max_micro_batch(ACTIVATIONS)),)
    kept = next(x for x in adv.advise(ACCUMULATING) if x.kind == "micro_batch")
    est = kept.estimate
    assert est.scenario.training.global_batch == 128
    assert est.accumulation_steps * est.scenario.training.micro_batch * est.data_parallel == 128
    assert "accumulation steps" in render(kept.msg())


def test_more_gpus_under_zero3_when_the_strategy_does_not_shard():
    gpus = next(x for x in adv.advise(COUNT_ONLY) if x.kind == "gpus")
    changes = dict(gpus.changes)
    assert changes["parallel.zero_stage"] == 3 and changes["parallel.num_gpus"] > 8
    node = gpus.scenario.parallel.gpus_per_node  # more than a node: whole nodes, the fewest that keep the margin
    assert changes["parallel.num_gpus"] % node == 0
    fewer = estimate(fields.with_value(gpus.scenario, "parallel.num_gpus", changes["parallel.num_gpus"] - node))
    assert not fewer.fits or fewer.headroom < adv.LOW_HEADROOM * fewer.usable


def test_little_headroom_gets_ways_that_keep_the_margin_free():
    longest = solve.max_seq_len(ACTIVATIONS)  # the boundary: fits with almost nothing free
    tight = replace(ACTIVATIONS, training=replace(ACTIVATIONS.training, seq_len=longest))
    est = estimate(tight)
    assert est.fits and est.headroom < adv.LOW_HEADROOM * est.usable
    assert adv.needs_advice(est) and render(adv.heading(est)).startswith("Little headroom")
    suggestions = adv.advise(tight)
    assert suggestions
    for x in suggestions:
        really_fits(tight, x)
        assert x.headroom >= adv.LOW_HEADROOM * est.usable - 1


def test_the_text_and_the_json_shape():
    x = next(x for x in adv.advise(DDP) if x.kind == "strategy")
    assert render(x.msg()) == f"ZeRO-1 instead of DDP: peak {x.peak / GB:,.2f} GB, {x.headroom / GB:,.2f} GB free"
    assert x.to_dict() == {"kind": "strategy", "changes": {"parallel.zero_stage": 1}, "flags": ["--stage", "1"],
                           "peak": x.peak, "headroom": x.headroom, "step_seconds": None, "cost": None,
                           "text": render(x.msg())}
    assert "GiB" in render(x.msg("GiB"))
    assert adv.flags((("parallel.sp", True), ("offload.optimizer", "cpu"), ("parallel.distributed_optimizer", False))
                     ) == ["--sp", "--offload-optimizer", "cpu", "--no-distributed-optimizer"]


_PRESETS = ("gpt2-xl", "llama-2-7b", "llama-3-8b", "mistral-7b-v0.1", "mixtral-8x7b", "qwen1.5-moe-a2.7b")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_PRESETS), st.sampled_from((1, 2, 8, 16)), st.sampled_from((0, 1, 2, 3)),
       st.sampled_from((1, 2, 8)), st.sampled_from((512, 2048, 8192, 32768)), st.sampled_from(("none", "full")),
       st.sampled_from((16, 24, 40, 80)), st.sampled_from((None, 64)))
def test_never_a_suggestion_that_does_not_fit(preset, gpus, stage, micro, seq, recompute, memory, global_batch):
    model = find_model(preset).spec
    batch = None if global_batch is None or global_batch % (micro * gpus) else global_batch
    s = scenario(model=model, memory=memory * 2**30, num_gpus=gpus, zero_stage=stage, micro_batch=micro,
                 seq_len=seq, recompute=recompute, global_batch=batch)
    est = estimate(s)
    suggestions = adv.advise(s)
    assert bool(suggestions) <= adv.needs_advice(est)
    for x in suggestions:
        really_fits(s, x)
        if est.fits:  # little headroom: the suggestions keep the margin
            assert x.headroom >= adv.LOW_HEADROOM * est.usable - 1


def test_megatron_is_advised_its_distributed_optimizer():
    plain = replace(scenario(), convention="megatron", parallel=ParallelSpec(num_gpus=8, distributed_optimizer=False),
                    hardware=HardwareSpec(gpu_memory=80 * GB, reserve=0.0))
    assert not estimate(plain).fits
    strategy = next(x for x in adv.advise(plain) if x.kind == "strategy")
    assert strategy.changes == (("parallel.distributed_optimizer", True),)
    assert strategy.flags == ["--distributed-optimizer"]
    really_fits(plain, strategy)


def test_when_no_micro_batch_fits_alone_full_recompute_comes_with_it():
    heavy = scenario(micro_batch=8, seq_len=8192, num_gpus=8, zero_stage=3)  # neither recompute nor b = 1 alone
    found = next(x for x in adv.advise(heavy) if x.kind == "micro_batch")
    assert dict(found.changes)["training.recompute"] == "full" and 1 <= dict(found.changes)["training.micro_batch"] < 8
    assert render(found.msg()).startswith("full activation recompute and micro-batch")
    really_fits(heavy, found)


def test_a_shorter_sequence_is_one_the_scenario_accepts_under_sequence_and_context_parallelism():
    # tp 2 with SP and cp 3: a length must be a multiple of lcm(2·cp, cp·tp) = 6 (and of 64, the adviser's
    # rounding): 192, 384, ...; rounding to 64 alone proposed lengths the scenario refuses
    s = scenario(micro_batch=1, seq_len=3 * 20480, num_gpus=12, tp=2, sp=True, cp=3, zero_stage=3, memory=40 * GB)
    found = {x.kind: x for x in adv.advise(s)}
    assert "seq_len" in found
    n = dict(found["seq_len"].changes)["training.seq_len"]
    assert n % solve.seq_len_step(s.parallel) == 0 and n % adv.SEQ_STEP == 0
    really_fits(s, found["seq_len"])


@pytest.mark.parametrize("par", [{"pp": 2, "cp": 2}, {"tp": 2, "cp": 2, "sp": True}])
def test_more_gpus_with_context_parallelism_are_counts_the_layout_and_the_batch_accept(par):
    # 16 GPUs = dp 4 x cp 2 x pp 2 keeps the global batch 8 = micro-batch 2 x dp 4; stepping by tp x pp missed it
    s = Scenario(model=find_model("llama-2-70b").spec, training=TrainingSpec(micro_batch=2, global_batch=8),
                 parallel=ParallelSpec(num_gpus=8, zero_stage=3, **par), hardware=HardwareSpec(gpu_memory=180 * GB))
    more = [x for x in adv.advise(s) if x.kind == "gpus"]
    assert more, [render(x.change_msg) for x in adv.advise(s)]
    n = more[0].scenario.parallel.num_gpus
    assert n > 8 and n % (2 * par.get("tp", 1) * par.get("pp", 1)) == 0
    assert estimate(more[0].scenario).fits


def test_mixtral_gets_the_offload_plan_on_its_own_8_gpus_beside_more_whole_nodes_fastest_first():
    """Issue 22's example: Mixtral 8x7B at 8,192 tokens on 8 x A100 80GB; every way out carries its step time."""
    from vramgui.core.documents.catalog import hardware_with_gpu
    from vramgui.io.presets import find_gpu

    s = scenario(model=find_model("mixtral-8x7b").spec, num_gpus=8, seq_len=8192)
    s = replace(s, hardware=hardware_with_gpu(HardwareSpec(), find_gpu("a100-80gb")))
    assert not estimate(s).fits
    ways = adv.advise(s)
    own = [x for x in ways if x.scenario.parallel.num_gpus == 8]
    assert any(x.kind == "offload" and x.scenario.offload.optimizer == "cpu" for x in own)
    assert all(x.seconds is not None and x.seconds > 0 for x in ways)
    assert [x.seconds for x in ways] == sorted(x.seconds for x in ways)  # fastest first
    more = [x.scenario.parallel.num_gpus for x in ways if x.scenario.parallel.num_gpus > 8]
    assert more and all(n % 8 == 0 for n in more)  # whole nodes
    assert "step " in render(ways[0].msg())
