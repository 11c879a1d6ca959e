"""Files written by the first release (vramgui 0.1.0, scenario format 1) still open and give the same numbers.

tests/fixtures/scenarios_v1/ holds scenarios saved by the first release's own code beside the
`vramgui estimate --scenario FILE --json` output that release printed for each (make_fixtures.py there says
how they were made). Nothing here is regenerated with today's code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from vramgui.cli import main
from vramgui.core import scenario_doc
from vramgui.io.scenario_files import load_document

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "scenarios_v1"
NAMES = sorted(p.name.removesuffix(".estimate.json") for p in FIXTURES.glob("*.estimate.json"))
NUMBERS = ("per_gpu", "per_node_host", "fits", "headroom", "usable", "gpu_memory", "reserve", "data_parallel",
           "num_gpus", "accumulation_steps", "tokens_per_step", "model", "strategy", "convention")
# Keys of the first release's JSON whose text a later change rewords on purpose: key -> why (none so far).
TEXT_CHANGED_SINCE_V1: dict[str, str] = {}


def _estimate(capsys: pytest.CaptureFixture[str], name: str) -> dict[str, Any]:
    code = main(["estimate", "--scenario", str(FIXTURES / f"{name}.json"), "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and err == "", err
    return json.loads(out)


def _first_release(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / f"{name}.estimate.json").read_text(encoding="utf-8"))


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
    today, then = _estimate(capsys, name), _first_release(name)
    for key in NUMBERS:
        assert today[key] == then[key], key


@pytest.mark.parametrize("name", NAMES)
def test_a_first_release_file_gives_the_same_json_where_nothing_was_reworded(capsys, name):
    today, then = _estimate(capsys, name), _first_release(name)
    for key in then:  # keys added since (e.g. structured terms) are additions, not changes
        if key not in TEXT_CHANGED_SINCE_V1:
            assert today.get(key) == then[key], key


@pytest.mark.parametrize("name", [n for n in NAMES if not n.startswith("hand_written")])
def test_saving_a_first_release_file_again_keeps_every_value_it_held(name):
    then = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
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
