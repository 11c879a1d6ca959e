"""The fastest-plan search: its answer fits, keeps the global batch, and no plan of the searched space that fits is
faster (a brute-force search of small spaces, hypothesis); the cheapest plan over GPU counts; nothing fits."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vramgui.cli.options import scenario_from_args
from vramgui.cli.parser import build_parser
from vramgui.core.estimate import estimate
from vramgui.core.parallel.layout import batch_parallel_size
from vramgui.core.scenario.specs import Scenario
from vramgui.core.solve.fastest import Point, cheapest, fastest, lower_bound
from vramgui.core.solve.plans import Plan, layouts, recompute_levels, target_batch
from vramgui.core.solve.questions import strategy_variants
from vramgui.core.text.errors import InputError


def scenario(*argv: str) -> Scenario:
    return scenario_from_args(build_parser("estimate").parse_args(["estimate", *argv]))


def brute_force(s: Scenario, gpus: int) -> list[Point]:
    """Every plan of the searched space, estimated."""
    batch = target_batch(s)
    out = []
    for lay in layouts(s, gpus, batch):
        for level in recompute_levels(s):
            for strategy, _ in strategy_variants(s):
                try:
                    out.append(Point(Plan(gpus, lay, level, strategy), estimate(Plan(gpus, lay, level, strategy)
                                                                                .apply(s, batch))))
                except InputError:
                    continue
    return out


def assert_keeps_the_batch(pt: Point, batch: int) -> None:
    """micro-batch × accumulation steps × data-parallel size = the global batch asked for."""
    est = pt.estimate
    t = est.scenario.training
    assert t.global_batch == batch
    assert t.micro_batch * est.accumulation_steps * batch_parallel_size(est.scenario.parallel) == batch


SMALL = st.fixed_dictionaries({
    "gpus": st.sampled_from([1, 2, 4]),
    "batch": st.sampled_from([2, 4]),
    "seq": st.sampled_from(["1024", "4096"]),
    "memory": st.sampled_from(["16GB", "24GB", "40GB", "80GB"]),
    "convention": st.sampled_from(["paper", "megatron"]),
})


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SMALL)
def test_no_fitting_plan_of_the_space_is_faster_than_the_answer(case: dict[str, object]) -> None:
    s = scenario("--preset", "llama-3.2-1b", "--gpu", "h100-sxm", "--gpu-memory", str(case["memory"]),
                 "--gpus", str(case["gpus"]), "--global-batch", str(case["batch"]), "--seq-len", str(case["seq"]),
                 "--convention", str(case["convention"]))
    found = fastest(s, int(str(case["gpus"])))
    every = brute_force(s, int(str(case["gpus"])))
    fitting = sorted((p for p in every if p.fits), key=lambda p: p.rank)
    if not fitting:
        assert found.best is None and found.nothing is not None
        return
    assert found.best is not None
    assert found.best.fits
    assert found.best.seconds == pytest.approx(fitting[0].seconds, rel=1e-12)
    assert [p.seconds for p in found.alternatives] == pytest.approx([p.seconds for p in fitting[1:6]], rel=1e-12)
    assert_keeps_the_batch(found.best, int(str(case["batch"])))
    for p in every:  # the bound the search prunes with is below every plan of its layout
        frugal = [q for q in every if q.plan.layout == p.plan.layout and q.plan.recompute == "full"]
        assert all(lower_bound(q) <= p.seconds * (1 + 1e-9) for q in frugal)


def test_llama_3_8b_on_16_h100s_answers_a_plan_that_fits_with_its_time() -> None:
    s = scenario("--preset", "llama-3-8b", "--gpu", "h100-sxm", "--gpus", "16", "--seq-len", "8192",
                 "--global-batch", "128")
    found = fastest(s, 16)
    assert found.best is not None and found.best.fits
    best = found.best.estimate
    assert best.scenario.training.global_batch == 128 and best.scenario.parallel.num_gpus == 16
    assert best.time is not None and all(a.seconds >= found.best.seconds for a in found.alternatives)
    # compute-bound: the bounds keep most layouts from being estimated beyond their frugal plan
    assert found.estimated * 4 < found.layouts
    # the scenario as given (DDP, no recompute, tp 1) does not fit: the answer is a different plan
    assert not estimate(s).fits


def test_nothing_fits_says_why() -> None:
    s = scenario("--preset", "llama-3-70b", "--gpu", "h100-sxm", "--gpu-memory", "8GB", "--gpus", "1",
                 "--seq-len", "8192")
    found = fastest(s, 1)
    assert found.best is None and found.nothing is not None and found.nothing.reason == "memory"
    assert found.nothing.least is not None and not found.nothing.least.fits
    odd = scenario("--preset", "llama-3.2-1b", "--gpu", "h100-sxm", "--gpus", "3", "--global-batch", "2")
    assert fastest(odd, 3).nothing.reason == "no_layout"  # type: ignore[union-attr]


def test_the_plan_needs_compute_figures_and_memory() -> None:
    with pytest.raises(InputError) as err:
        fastest(scenario("--preset", "llama-3.2-1b", "--gpu-memory", "80GB"), 1)
    assert err.value.field == "hardware.tflops_16bit"
    with pytest.raises(InputError) as err:
        fastest(scenario("--preset", "llama-3.2-1b"), 1)
    assert err.value.field == "hardware.gpu_memory"


def test_cheapest_is_the_lowest_cost_of_the_counts_searched() -> None:
    s = scenario("--preset", "llama-3.2-1b", "--gpu", "h100-sxm", "--gpus-per-node", "2", "--global-batch", "8",
                 "--train-tokens", "1B", "--gpu-hour-price", "2")
    found = cheapest(s, 4)
    assert found.best is not None and found.counts == (2, 4)
    each = [fastest(s, n, keep=0).best for n in (2, 4)]
    costs = sorted(p.cost for p in each if p is not None)  # type: ignore[misc]
    assert found.best.cost == pytest.approx(costs[0])
    with pytest.raises(InputError) as err:
        cheapest(scenario("--preset", "llama-3.2-1b", "--gpu", "h100-sxm"), 4)
    assert err.value.field == "training.train_tokens"
    with pytest.raises(InputError) as err:
        cheapest(scenario("--preset", "llama-3.2-1b", "--gpu", "h100-sxm", "--train-tokens", "1B",
                          "--gpu-hour-price", "2"), 4)
    assert err.value.field == "training.global_batch"


MOE = ("--preset", "qwen1.5-moe-a2.7b", "--gpu", "a100-80gb", "--gpu-memory", "40GB", "--gpus", "4",
       "--global-batch", "4", "--seq-len", "1024")  # experts: ep searched with the expert grid
LONG = ("--preset", "llama-3.2-1b", "--gpu", "h100-sxm", "--gpu-memory", "24GB", "--gpus", "4", "--global-batch", "2",
        "--seq-len", "32768")  # a long sequence: cp searched (tp × cp within a node)


@pytest.mark.parametrize(("argv", "axis"), [
    (MOE, "ep"), (LONG, "cp"),
    (("--preset", "llama-3.2-1b", "--gpu", "h100-sxm", "--gpu-memory", "24GB", "--gpus", "4", "--global-batch", "8",
      "--seq-len", "4096", "--convention", "megatron"), "vpp"),  # interleaving searched
], ids=["experts", "long-sequence", "interleaving"])
def test_the_answer_is_the_brute_force_best_with_experts_context_and_interleaving(argv, axis) -> None:
    s = scenario(*argv)
    found = fastest(s, 4)
    fitting = sorted((p for p in brute_force(s, 4) if p.fits), key=lambda p: p.rank)
    assert fitting and found.best is not None
    assert any(getattr(p.plan.layout, axis) > 1 for p in fitting)  # the space searched holds such plans that fit
    assert found.best.rank == fitting[0].rank
    assert [p.rank for p in found.alternatives] == [p.rank for p in fitting[1:len(found.alternatives) + 1]]
    assert_keeps_the_batch(found.best, target_batch(s))
    for p in found.alternatives:
        assert p.fits
        assert_keeps_the_batch(p, target_batch(s))


LONG_SMALL = st.fixed_dictionaries({
    "seq": st.sampled_from(["8192", "16384", "32768"]),
    "memory": st.sampled_from(["16GB", "24GB", "40GB"]),
    "batch": st.sampled_from([1, 2, 4]),
})


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LONG_SMALL)
def test_long_sequences_no_fitting_plan_with_context_parallelism_is_faster(case: dict[str, object]) -> None:
    s = scenario("--preset", "llama-3.2-1b", "--gpu", "h100-sxm", "--gpu-memory", str(case["memory"]), "--gpus", "4",
                 "--global-batch", str(case["batch"]), "--seq-len", str(case["seq"]))
    found = fastest(s, 4)
    fitting = sorted((p for p in brute_force(s, 4) if p.fits), key=lambda p: p.rank)
    if not fitting:
        assert found.best is None and found.nothing is not None
        return
    assert found.best is not None and found.best.fits
    assert found.best.rank == fitting[0].rank
    assert_keeps_the_batch(found.best, int(str(case["batch"])))
