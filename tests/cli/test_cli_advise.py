"""`vramgui estimate` lists the adviser's ways out when a run does not fit (vramgui.core.advise.suggestions): each with
the flags to add, which, added to the same command, give a run that fits with the peak printed; `--json` has them under
"suggestions" (always a list: empty when it fits comfortably)."""

from __future__ import annotations

import json

import pytest

from vramgui.cli.commands import build_parser, main
from vramgui.cli.options import scenario_from_args
from vramgui.core.advise.suggestions import advise
from vramgui.core.text.units import format_bytes

ONE_CARD = ("--preset", "llama-3-8b", "--gpu", "rtx-4090", "--dtype", "bf16", "--precision", "mixed",
            "--optimizer", "adam")  # the example: Llama-3-8B on 1 x 24 GiB, bf16 mixed Adam
ROOMY = ("--preset", "llama-3-8b", "--gpu", "h100-sxm", "--gpus", "8", "--stage", "3")
ACCUMULATING = ("--preset", "llama-3-8b", "--gpu-memory", "80GB", "--gpus", "8", "--stage", "3", "--micro-batch", "8",
                "--global-batch", "128")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(["estimate", *argv])
    out, err = capsys.readouterr()
    assert code == 0 and err == "", err
    return out


def suggestions(capsys, *argv: str) -> list[dict]:
    return json.loads(run(capsys, *argv, "--json"))["suggestions"]


def test_a_run_that_does_not_fit_prints_the_ways_out_each_with_its_flags(capsys):
    out = run(capsys, *ONE_CARD)
    assert "does NOT fit" in out
    ways = out.split("Ways to make it fit:\n", 1)[1].splitlines()
    data = suggestions(capsys, *ONE_CARD)
    assert data and len(ways) == 2 * len(data)
    for i, item in enumerate(data):
        assert ways[2 * i] == f"  {i + 1}. {item['text']}"
        assert ways[2 * i + 1] == "     " + " ".join(item["flags"])
    assert any(item["kind"] == "offload" for item in data)


@pytest.mark.parametrize("argv", [ONE_CARD, ACCUMULATING], ids=["one card", "accumulation"])
def test_adding_a_suggestions_flags_gives_a_run_that_fits_with_the_peak_it_said(capsys, argv):
    for item in suggestions(capsys, *argv):
        fixed = json.loads(run(capsys, *argv, *item["flags"], "--json"))
        assert fixed["fits"] is True, item
        assert fixed["peak"]["bytes"] == item["peak"] and fixed["headroom"] == item["headroom"]
        assert format_bytes(item["peak"]) in item["text"]


def test_the_json_suggestions_are_the_cores_with_integer_bytes(capsys):
    data = suggestions(capsys, *ONE_CARD)
    assert set(data[0]) == {"kind", "changes", "flags", "peak", "headroom", "step_seconds", "cost", "text"}
    for item in data:
        assert isinstance(item["peak"], int) and isinstance(item["headroom"], int) and item["headroom"] >= 0
        assert all("." in path for path in item["changes"])
    scenario = scenario_from_args(build_parser().parse_args(["estimate", *ONE_CARD]))
    assert data == [s.to_dict() for s in advise(scenario)]


def test_gib_output_shows_the_suggestions_in_gib(capsys):
    assert all("GiB" in item["text"] for item in suggestions(capsys, *ONE_CARD, "--unit", "GiB"))


def test_a_run_that_fits_comfortably_prints_no_advice_and_an_empty_list(capsys):
    out = run(capsys, *ROOMY)
    assert "fits" in out and "Ways to" not in out
    assert suggestions(capsys, *ROOMY) == []
    assert suggestions(capsys, "--params", "7B") == []  # no GPU memory: the fit is not judged


def test_little_headroom_says_so_and_each_way_keeps_five_percent_free(capsys):
    tight = ("--preset", "llama-3-8b", "--gpu-memory", "80GB", "--gpus", "8", "--stage", "3", "--micro-batch", "4",
             "--seq-len", "1935", "--reserve", "0")  # `vramgui solve max-seq-len` of the same run: the boundary
    data = json.loads(run(capsys, *tight, "--json"))
    assert data["fits"] and data["headroom"] < 0.05 * data["usable"]
    assert "Little headroom; ways to keep at least 5 % of usable memory free:" in run(capsys, *tight)
    assert data["suggestions"]
    assert all(item["headroom"] >= 0.05 * data["usable"] - 1 for item in data["suggestions"])


def test_mixtral_on_8_a100s_gets_offload_on_its_own_gpus_and_faster_whole_nodes_each_with_its_time(capsys):
    """Issue 22's example, end to end: each way out's flags, added to the command, give a run that fits."""
    mixtral = ("--preset", "mixtral-8x7b", "--seq-len", "8192", "--gpu", "a100-80gb", "--gpus", "8")
    data = suggestions(capsys, *mixtral)
    assert data and all(item["step_seconds"] > 0 and "step " in item["text"] for item in data)
    assert [item["step_seconds"] for item in data] == sorted(item["step_seconds"] for item in data)
    gpus = [item["changes"].get("parallel.num_gpus", 8) for item in data]
    own_offload = [item for item, n in zip(data, gpus, strict=True)
                   if n == 8 and item["changes"].get("offload.optimizer") == "cpu"]
    assert own_offload and any(n > 8 and n % 8 == 0 for n in gpus)
    assert any(item["kind"] == "ep" for item in data)  # the experts split over the GPUs
    for item in data:
        fixed = json.loads(run(capsys, *mixtral, *item["flags"], "--json"))
        assert fixed["fits"] is True and fixed["time"]["step_seconds"] == item["step_seconds"]
