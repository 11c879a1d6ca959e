"""Files written by the first release (vramgui 0.1.0, scenario format 1) still open and give the same numbers.

tests/fixtures/scenarios_v1/ holds scenarios saved by the first release's own code beside the
`vramgui estimate --scenario FILE --json` output that release printed for each (make_fixtures.py there says
how they were made). Nothing there is regenerated with today's code: the per-GPU numbers, host memory, formulas
and derivations must come out exactly as the first release printed them.

One thing changed on purpose (issue 11): ``fits`` and ``headroom`` are judged by the peak of one training step
(``peak`` in the JSON, vramgui.core.step.peak), no longer by the per-GPU sum. Those two are not compared with the
first release's file; they are computed here, in the test, from today's output (``usable`` - ``peak.bytes``), and
the first release's own headroom is checked to be today's ``usable`` - ``per_gpu.total``, so the old answer can
still be read off. Re-saving a version-1 file writes version 2, where the first release's 0 ("not given") in
``overhead.cuda_context``/``comm_buffers``/``zero3_live_params`` is null (``MIGRATIONS[1]``, docs/scenarios.md).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from vramgui.cli.commands import main
from vramgui.core.documents import scenario as scenario_doc
from vramgui.io.scenario_files import load_document

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "scenarios_v1"
NAMES = sorted(p.name.removesuffix(".estimate.json") for p in FIXTURES.glob("*.estimate.json"))
NUMBERS = ("per_gpu", "per_node_host", "usable", "gpu_memory", "reserve", "data_parallel",
           "num_gpus", "accumulation_steps", "tokens_per_step", "model", "strategy", "convention")
# Keys of the first release's JSON whose value a later change gives a new meaning on purpose: key -> why.
JUDGED_BY_THE_PEAK = {
    "fits": "issue 11: the step peak decides (peak.bytes <= usable), not the per-GPU sum",
    "headroom": "issue 11: usable - peak.bytes, not usable - per_gpu.total",
}
# Keys of the first release's JSON whose text a later change rewords on purpose: key -> why (none so far).
TEXT_CHANGED_SINCE_V1: dict[str, str] = {}
# Wordings a later change made right everywhere (old pattern, new text): issue 20 gave counts their plural forms
# ("32 layer(s) ×" -> "32 layers ×", "1 layer ×"); every other character must still be the first release's.
REWORDED_SINCE_V1 = ((re.compile(r"(?<![\d,])1 layer\(s\)"), "1 layer"), (re.compile(r"layer\(s\)"), "layers"))
# Files whose numbers a formula fix changed on purpose: name -> why. Issue 11 (i): with a preset (an explicit
# count beside the architecture) and pp > 1, the first release counted Φ/(tp·pp) instead of the most loaded
# stage that docs/conventions.md describes (Llama-3-8B at PP 8: 1.00 B where the last stage holds 1.40 B). For
# these the expected numbers are the same scenario's without the explicit count (the architecture's own split,
# unchanged since the first release); the count equals the architecture's, so nothing else differs.
PIPELINE_SPLIT_FIXED = dict.fromkeys(
    ("megatron_moe_distributed_optimizer", "megatron_tp_pp_no_distributed_optimizer", "paper_tp_pp_sp_eager"),
    "issue 11 (i): the most loaded pipeline stage whatever the input")
# The overhead fields version 2 made optional: version 1 wrote 0 for "not given" (MIGRATIONS[1] makes it null).
OPTIONAL_SINCE_V2 = ("cuda_context", "comm_buffers", "zero3_live_params")


def _estimate(capsys: pytest.CaptureFixture[str], name: str) -> dict[str, Any]:
    code = main(["estimate", "--scenario", str(FIXTURES / f"{name}.json"), "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and err == "", err
    return json.loads(out)


def _first_release(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / f"{name}.estimate.json").read_text(encoding="utf-8"))


def _expected(name: str) -> dict[str, Any]:
    """The first release's output, or for PIPELINE_SPLIT_FIXED the architecture's own split (see there)."""
    if name not in PIPELINE_SPLIT_FIXED:
        return _first_release(name)
    from dataclasses import replace

    from vramgui.core.estimate import estimate
    from vramgui.core.scenario.architecture import count_params

    s = load_document(FIXTURES / f"{name}.json").scenario
    assert s.model.architecture is not None and s.model.params == count_params(s.model.architecture)
    assert s.parallel.pp > 1
    out = estimate(replace(s, model=replace(s.model, params=None))).to_dict()
    out["model"]["params"] = s.model.params
    return out


def test_the_pipeline_split_fix_moves_the_first_release_figure_up_to_the_loaded_stage():
    for name in PIPELINE_SPLIT_FIXED:
        then, now = _first_release(name), _expected(name)
        assert now["model"]["params_per_gpu_before_sharding"] > then["model"]["params_per_gpu_before_sharding"]


def test_the_fixtures_cover_what_version_1_could_hold():
    docs = {name: load_document(FIXTURES / f"{name}.json") for name in NAMES}
    scenarios = [d.scenario for d in docs.values()]
    assert all(d.schema_version == 1 for d in docs.values()) and len(NAMES) >= 10
    assert {s.convention for s in scenarios} == {"paper", "deepspeed", "megatron"}
    assert any(s.model.architecture is not None for s in scenarios)  # a preset model
    assert any(s.model.architecture is None and s.model.params for s in scenarios)  # an explicit count
    assert any(s.offload.optimizer == "cpu" for s in scenarios) and any(s.offload.params == "cpu" for s in scenarios)
    assert any(s.parallel.tp > 1 and s.parallel.pp > 1 for s in scenarios)
    assert any(s.overhead.cuda_context and s.overhead.zero3_live_params for s in scenarios)
    assert any(s.parallel.num_gpus % s.parallel.gpus_per_node for s in scenarios)  # a partial last node
    assert any(s.convention == "megatron" and not s.parallel.distributed_optimizer for s in scenarios)
    assert any(s.convention == "deepspeed" and not s.offload.zero_init for s in scenarios)


@pytest.mark.parametrize("name", NAMES)
def test_a_first_release_file_gives_the_first_release_numbers(capsys, name):
    today, then = _estimate(capsys, name), _expected(name)
    for key in NUMBERS:
        assert today[key] == then[key], key


@pytest.mark.parametrize("name", NAMES)
def test_a_first_release_file_is_judged_by_its_step_peak(capsys, name):
    """fits/headroom: computed here from today's peak (JUDGED_BY_THE_PEAK), never copied from today's output."""
    from vramgui.core.estimate import estimate

    today, then = _estimate(capsys, name), _first_release(name)
    peak = estimate(load_document(FIXTURES / f"{name}.json").scenario).peak
    assert peak is not None and today["peak"]["bytes"] == peak.bytes
    assert today["peak"]["bytes"] == sum(today["peak"]["components"].values())
    if then["usable"] is None:
        assert today["fits"] is None and today["headroom"] is None and then["fits"] is None
        return
    assert today["headroom"] == today["usable"] - peak.bytes
    assert today["fits"] is (peak.bytes <= today["usable"])
    # the first release judged by the per-GPU sum, which is unchanged: its answer can still be read off
    if name in PIPELINE_SPLIT_FIXED:  # the fixed split moved the sum: the first release judged by its own sum
        assert then["headroom"] == then["usable"] - then["per_gpu"]["total"]
        return
    assert then["headroom"] == today["usable"] - today["per_gpu"]["total"]
    assert then["fits"] is (today["per_gpu"]["total"] <= today["usable"])


@pytest.mark.parametrize("name", NAMES)
def test_a_first_release_file_gives_the_same_json_where_nothing_was_reworded(capsys, name):
    today, then = _estimate(capsys, name), _expected(name)
    for key in then:  # keys added since (e.g. structured terms, the peak) are additions, not changes
        if key not in TEXT_CHANGED_SINCE_V1 and key not in JUDGED_BY_THE_PEAK:
            assert today.get(key) == _reworded(then[key]), key


def _reworded(value: Any) -> Any:
    if isinstance(value, str):
        for pattern, new in REWORDED_SINCE_V1:
            value = pattern.sub(new, value)
        return value
    if isinstance(value, dict):
        return {k: _reworded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_reworded(v) for v in value]
    return value


def test_the_plural_rewording_changes_only_the_counted_word():
    assert _reworded({"a": ["32 layer(s) × 1 GB", "1 layer(s) × 2 GB", "11 layer(s)"]}) == {
        "a": ["32 layers × 1 GB", "1 layer × 2 GB", "11 layers"]}


def _as_version_2(v1: dict[str, Any]) -> dict[str, Any]:
    """What a version-1 document means in version 2, written out here by hand (docs/scenarios.md, "Version 2"):
    the version number, and 0 ("not given") in the three overhead fields that became optional is null."""
    out = json.loads(json.dumps(v1))
    out["schema_version"] = 2
    for key in OPTIONAL_SINCE_V2:
        if out.get("overhead", {}).get(key) == 0:
            out["overhead"][key] = None
    return out


@pytest.mark.parametrize("name", [n for n in NAMES if not n.startswith("hand_written")])
def test_saving_a_first_release_file_again_keeps_every_value_it_held(name):
    then = _as_version_2(json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8")))
    doc = load_document(FIXTURES / f"{name}.json")
    again = scenario_doc.scenario_to_dict(doc.scenario, name=doc.name, preset=doc.preset)

    def held(old: dict[str, Any], new: dict[str, Any], where: str = "") -> None:
        for key, value in old.items():  # a field added later may be in `new` too; none of `old` may change
            if key == "app_version":
                continue
            if isinstance(value, dict) and isinstance(new.get(key), dict):
                held(value, new[key], f"{where}{key}.")
            else:
                assert new.get(key) == value, where + key

    held(then, again)


def test_a_first_release_zero_overhead_becomes_not_given_and_a_value_stays():
    """The fixtures hold both: the first release's default 0 (now null: the step peak's documented default) and
    explicit values (overheads_zero3: 2 GB of CUDA context, 1 GB of buckets, 1e9 live parameters), kept."""
    zero = load_document(FIXTURES / "count_13b_fp16_zero1.json").scenario.overhead
    assert (zero.cuda_context, zero.comm_buffers, zero.zero3_live_params) == (None, None, None)
    given = load_document(FIXTURES / "overheads_zero3.json").scenario.overhead
    assert (given.cuda_context, given.comm_buffers, given.zero3_live_params) == (2 * 10**9, 10**9, 10**9)
    assert given.extra == 536870912
