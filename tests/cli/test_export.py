"""``vramgui export``: a plan written as a DeepSpeed JSON, an accelerate YAML or a torchrun + Megatron-LM command
and opened again with ``--training-config`` gives the same estimate (a hypothesis property over the plans each
format can hold, with the settings a config does not carry, the model and the sequence, given beside it as a user
would); the torchrun line says the plan's layout; files are written atomically; what a target cannot hold is named
on stderr."""

from __future__ import annotations

import itertools
import json
import shlex
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.cli_checks import run_cli
from tests.fuzz.profile import fuzz_settings
from vramgui.cli.commands import main

PRESETS = ("gpt2", "llama-3.2-1b", "qwen3-0.6b")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@st.composite
def deepspeed_plans(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """(flags the DeepSpeed file carries, flags it leaves to the script)."""
    gpus = draw(st.sampled_from([1, 2, 4, 8, 16]))
    stage = draw(st.integers(0, 3))
    micro, steps = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    carried = ["--stage", str(stage), "--micro-batch", str(micro),
               "--dtype", draw(st.sampled_from(["bf16", "fp16", "fp32"])),
               *draw(st.sampled_from([["--optimizer", "adam"], ["--optimizer", "adamw"], ["--optimizer", "lion"]])),
               "--optimizer-impl", draw(st.sampled_from(["foreach", "fused"]))]
    if "lion" in carried:  # DeepSpeed runs Lion as its FusedLion
        carried[-1] = "fused"
    if steps > 1:
        carried += ["--global-batch", str(micro * steps * gpus)]
    if stage >= 1 and draw(st.booleans()):
        carried += ["--offload-optimizer", "cpu"]
        if stage == 3 and draw(st.booleans()):
            carried += ["--offload-params", "cpu"]
    if draw(st.booleans()):
        carried += ["--reduce-bucket", str(draw(st.integers(1, 10**9)))]
    if stage == 3 and draw(st.booleans()):
        carried += ["--live-params", str(draw(st.integers(0, 10**9))), "--prefetch-bucket",
                    str(draw(st.integers(0, 10**9)))]
    script = ["--preset", draw(st.sampled_from(PRESETS)), "--seq-len", str(draw(st.sampled_from([512, 2048]))),
              "--recompute", draw(st.sampled_from(["none", "full"])), "--gpus", str(gpus)]  # the launcher's
    return carried, script


@st.composite
def accelerate_plans(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    nodes, per_node = draw(st.sampled_from([1, 2])), draw(st.sampled_from([2, 4, 8]))
    gpus = nodes * per_node
    stage = draw(st.integers(0, 3))
    carried = ["--gpus", str(gpus), "--gpus-per-node", str(per_node), "--stage", str(stage),
               "--dtype", draw(st.sampled_from(["bf16", "fp16", "fp32"]))]
    offload = draw(st.sampled_from(["none", "optimizer", "both"])) if stage >= 1 else "none"
    if offload != "none":
        carried += ["--offload-optimizer", "cpu"]
    if offload == "both" and stage == 3:
        carried += ["--offload-params", "cpu"]
    recompute = draw(st.sampled_from(["none", "full", "selective"]))
    micro = draw(st.integers(1, 4))
    script = ["--preset", draw(st.sampled_from(PRESETS)), "--micro-batch", str(micro), "--seq-len", "1024"]
    fsdp = stage in (2, 3) and (offload == "none" or (offload == "both" and stage == 3))  # else DeepSpeed's section
    if fsdp and recompute in ("none", "full"):
        carried += ["--recompute", recompute]  # fsdp_activation_checkpointing
    else:
        script += ["--recompute", recompute]
    return carried, script


@st.composite
def torchrun_plans(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    nodes, tp, pp, cp = draw(st.integers(1, 2)), *(draw(st.sampled_from(v)) for v in ([1, 2, 4], [1, 2], [1, 2]))
    gpus = 8 * nodes * (2 if tp * pp * cp > 8 else 1)
    dp = gpus // (tp * pp * cp)
    micro = draw(st.integers(1, 3))
    carried = ["--convention", "megatron", "--gpus", str(gpus), "--gpus-per-node", "8", "--tp", str(tp), "--pp",
               str(pp), "--cp", str(cp), "--micro-batch", str(micro), "--global-batch",
               str(micro * dp * draw(st.integers(1, 4))), "--seq-len", str(draw(st.sampled_from([1024, 4096]))),
               "--dtype", draw(st.sampled_from(["bf16", "fp16", "fp32"])),
               "--recompute", draw(st.sampled_from(["none", "selective", "full"])),
               draw(st.sampled_from(["--distributed-optimizer", "--no-distributed-optimizer"]))]
    if tp > 1 and draw(st.booleans()):
        carried.append("--sp")
    return carried, ["--preset", draw(st.sampled_from(("llama-3.2-1b", "qwen3-0.6b")))]


def _estimate(*argv: str) -> dict:
    code, out, err, _ = run_cli(["estimate", *argv, "--json"])
    assert code == 0, err
    data = json.loads(out)
    data.pop("imported", None)
    return data


def _round_trip(target: str, carried: list[str], script: list[str], suffix: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / f"plan{suffix}")
        code, out, err, _ = run_cli(["export", target, *script, *carried, "-o", path])
        assert code == 0 and out.strip() == f"wrote {path}", err
        assert _estimate("--training-config", path, *script) == _estimate(*script, *carried)


@fuzz_settings(in_suite=40, share=0.01)
@given(deepspeed_plans())
def test_a_deepspeed_export_read_back_gives_the_same_estimate(plan):
    _round_trip("deepspeed", *plan, ".json")


@fuzz_settings(in_suite=40, share=0.01)
@given(accelerate_plans())
def test_an_accelerate_export_read_back_gives_the_same_estimate(plan):
    _round_trip("accelerate", *plan, ".yaml")


@fuzz_settings(in_suite=30, share=0.01)
@given(torchrun_plans())
def test_a_torchrun_export_read_back_gives_the_same_estimate(plan):
    _round_trip("torchrun", *plan, ".sh")


def test_the_torchrun_line_says_the_layout(capsys):
    code, out, err = run(capsys, "export", "torchrun", "--preset", "llama-3-70b", "--gpus", "64", "--tp", "8",
                         "--pp", "2", "--sp", "--cp", "2", "--micro-batch", "1", "--global-batch", "32",
                         "--recompute", "selective", "--convention", "megatron")
    assert code == 0, err
    words = shlex.split(out)
    assert words[:5] == ["torchrun", "--nnodes", "8", "--nproc-per-node", "8"]
    pairs = dict(itertools.pairwise(words[5:]))
    assert (pairs["--tensor-model-parallel-size"], pairs["--pipeline-model-parallel-size"],
            pairs["--context-parallel-size"]) == ("8", "2", "2")
    assert (pairs["--micro-batch-size"], pairs["--global-batch-size"], pairs["--num-layers"]) == ("1", "32", "80")
    assert {"--sequence-parallel", "--recompute-activations", "--bf16", "--use-distributed-optimizer"} <= set(words)


def test_what_a_target_cannot_hold_is_named(capsys):
    code, out, err = run(capsys, "export", "deepspeed", "--preset", "gpt2", "--finetune", "lora", "--optimizer",
                         "sgd", "--precision", "pure")
    assert code == 0
    assert "optimizer" not in json.loads(out)
    note = err.strip().splitlines()
    assert len(note) == 1 and note[0].startswith("vramgui: note: not written (DeepSpeed")
    assert "--finetune lora" in note[0] and "--optimizer sgd" in note[0] and "--precision pure" in note[0]


def test_an_invalid_plan_or_unwritable_file_is_one_line(capsys, tmp_path):
    code, out, err = run(capsys, "export", "deepspeed", "--params", "1B", "--offload-params", "cpu")
    assert code == 2 and not out and len(err.strip().splitlines()) == 1
    code, out, err = run(capsys, "export", "deepspeed", "--params", "1B", "-o", str(tmp_path / "no" / "x.json"))
    assert code == 2 and "--output" in err and len(err.strip().splitlines()) == 1
    target = tmp_path / "x.json"
    target.write_text("old")
    code, out, err = run(capsys, "export", "deepspeed", "--params", "1B", "-o", str(tmp_path))  # a folder
    assert code == 2 and target.read_text() == "old"
