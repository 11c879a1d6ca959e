"""The CLI's scenario options are the field registry's: every flag round-trips a value, every option of
`estimate --help` is a field or a documented non-field option, and bad values name the field, the flag and the
registry's range in every command."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.strategies import values
from vramgui.cli.commands import build_parser, main
from vramgui.cli.options import NON_FIELD_OPTIONS, flagged_fields, scenario_from_args
from vramgui.core.fields import registry as fields
from vramgui.core.scenario.specs import Scenario

FLAGGED = flagged_fields()
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "hf_configs"


def _argv(f: fields.Field, value: object) -> list[str]:
    if f.kind == "bool":
        return [f.flag if value else "--no-" + f.flag.removeprefix("--")]
    return [f.flag, fields.format_value(f, value)]


@st.composite
def _field_and_value(draw: st.DrawFn) -> tuple[fields.Field, object]:
    f = draw(st.sampled_from(FLAGGED))
    return f, draw(values(f))


@settings(max_examples=400, deadline=None)
@given(_field_and_value())
def test_a_formatted_value_given_to_its_flag_is_the_same_value_in_the_scenario(case):
    f, value = case
    command = "serve" if f.group == "serve" else "estimate"  # the serving fields are `serve`'s only
    scenario = scenario_from_args(build_parser().parse_args([command, *_argv(f, value)]))
    assert fields.get(scenario, f.path) == value


def test_every_flag_sets_a_different_field_and_all_flags_together_keep_every_value():
    assert len({f.flag for f in FLAGGED}) == len(FLAGGED)
    training = [f for f in FLAGGED if f.group != "serve"]
    picked = {f.path: (f.low if f.kind not in ("bool", "choice", "text") and f.low is not None else None)
              for f in training}
    argv: list[str] = []
    for f in training:
        value = f.choices[-1] if f.kind == "choice" else (not f.default if f.kind == "bool" else picked[f.path])
        picked[f.path] = value
        argv += _argv(f, value)
    scenario = scenario_from_args(build_parser().parse_args(["estimate", *argv]))
    assert {path: fields.get(scenario, path) for path in picked} == picked


def test_flags_override_the_scenario_file(tmp_path):
    from vramgui.io.scenario_files import save_scenario

    path = tmp_path / "s.json"
    save_scenario(path, fields.with_value(fields.with_value(Scenario(), "parallel.tp", 4), "parallel.num_gpus", 8))
    scenario = scenario_from_args(build_parser().parse_args(["estimate", "--scenario", str(path), "--tp", "2"]))
    assert scenario.parallel.tp == 2 and scenario.parallel.num_gpus == 8


def _help_options(capsys: pytest.CaptureFixture[str], command: list[str]) -> set[str]:
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    text = capsys.readouterr().out
    return set(re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", text.split("\noptions:", 1)[1].split("\nexample:")[0]))


def test_every_option_of_estimate_help_is_a_field_or_a_documented_non_field_option(capsys):
    shown = _help_options(capsys, ["estimate"])
    training = [f for f in FLAGGED if f.group != "serve"]
    field_flags = {f.flag for f in training} | {"--no-" + f.flag[2:] for f in training if f.kind == "bool"}
    assert shown - field_flags - set(NON_FIELD_OPTIONS) == set()
    assert field_flags <= shown  # and every field flag is there


def test_serve_help_has_the_serving_fields_and_the_gpus_but_no_training_input(capsys):
    from vramgui.core.fields.paths import SERVING_ALSO as SERVE_PATHS

    shown = _help_options(capsys, ["serve"])
    serving = [f for f in FLAGGED if f.group == "serve" or f.path in SERVE_PATHS]
    field_flags = {f.flag for f in serving} | {"--no-" + f.flag[2:] for f in serving if f.kind == "bool"}
    assert shown - field_flags - set(NON_FIELD_OPTIONS) == {"--solve"}
    assert field_flags <= shown
    assert "--micro-batch" not in shown and "--params" not in shown


def _help_text(capsys: pytest.CaptureFixture[str], command: list[str]) -> str:
    """The help on one line: argparse wraps at the terminal width and breaks after a hyphen ("gradient-\n
    sized"); both are undone so a tooltip reads as the registry has it."""
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    return " ".join(re.sub(r"(\w-)\n\s+(?=\w)", r"\1", capsys.readouterr().out).split())


@pytest.mark.parametrize("command", ["estimate", "serve"])
def test_help_shows_the_registry_tooltip_default_and_choices(capsys, command):
    from vramgui.core.fields.paths import SERVING_ALSO as SERVE_PATHS

    text = _help_text(capsys, [command])
    for f in FLAGGED:
        if (f.group == "serve" or f.path in SERVE_PATHS) != (command == "serve") and f.path not in SERVE_PATHS:
            continue
        tooltip = " ".join(f.tooltip.split())
        assert tooltip.removesuffix(")") in text, f.path
        if f.default is not None:
            default = f"default {fields.format_value(f, f.default)})"
            assert (f"{tooltip[:-1]}; {default}" if tooltip.endswith(")") else f"{tooltip} ({default}") in text, f.path
        if f.kind == "choice":
            assert "{" + ",".join(map(str, f.choices)) + "}" in text, f.path
    assert ") (default" not in text  # one parenthesis, not two in a row


@pytest.mark.parametrize(("flags", "path"), [
    (("--optimizer-impl {foreach,fused,for-loop}",), "precision.optimizer_impl"),
    (("--loss {hf,chunked}",), "training.loss"),
    (("--ddp-bucket-view, --no-ddp-bucket-view",), "parallel.ddp_bucket_view"),
    (("--prefetch-bucket COUNT",), "overhead.zero3_prefetch"),
    (("--reduce-bucket COUNT",), "overhead.reduce_bucket"),
    (("--precision {mixed,pure,amp}",), "precision.recipe"),
    (("--cuda-context SIZE",), "overhead.cuda_context"),
    (("--comm-buffers SIZE",), "overhead.comm_buffers"),
    (("--live-params COUNT",), "overhead.zero3_live_params"),
])
@pytest.mark.parametrize("command", [["estimate"], ["max-params"], ["solve", "min-gpus"]])
def test_the_step_peak_flags_are_offered_with_their_registry_tooltips(capsys, flags, path, command):
    """Issue 11's inputs: the optimizer implementation, the loss, DDP's bucket view, DeepSpeed's buckets, the amp
    recipe, and the three overheads that became optional (empty: the step peak's documented default)."""
    text = _help_text(capsys, command)
    f = fields.field(path)
    assert f.flag == flags[0].split(" ")[0].rstrip(",")
    for flag in flags:
        assert flag in text, flag
    assert " ".join(f.tooltip.split()).removesuffix(")") in text
    if f.default is None and f.kind in ("bytes", "count"):
        assert "empty: " in f.tooltip and "(default" not in text.split(flags[0], 1)[1].split(" --", 1)[0]


def test_the_cuda_context_tooltip_names_the_step_peaks_default():
    from vramgui.core.step.peak import DEFAULT_CUDA_CONTEXT

    assert DEFAULT_CUDA_CONTEXT == 532 * 2**20 and "532 MiB" in fields.field("overhead.cuda_context").tooltip


@pytest.mark.parametrize(("argv", "path", "flag", "allowed"), [
    (["estimate", "--params", "7B", "--tp", "0"], "parallel.tp", "--tp", "1 to 1,000,000"),
    (["estimate", "--params", "7B", "--stage", "5"], "parallel.zero_stage", "--stage", "0, 1, 2, 3"),
    (["estimate", "--params", "7B", "--gpu-memory", "0GB"], "hardware.gpu_memory", "--gpu-memory",
     "1 B to 1,000,000 TB"),
    (["estimate", "--params", "7B", "--micro-batch", "1.5"], "training.micro_batch", "--micro-batch",
     "1 to 10,000,000"),
    (["estimate", "--params", "7B", "--reserve", "1"], "hardware.reserve", "--reserve", "0 <= value < 1"),
    (["estimate", "--params", "2e15"], "model.params", "--params", "1 to 1,000T"),
    (["compare", "--gpu-memory", "0"], "hardware.gpu_memory", "--gpu-memory", "1 B to 1,000,000 TB"),
    (["compare", "--gpus", "0"], "parallel.num_gpus", "--gpus", "1 to 1,000,000"),
    (["compare", "--reserve", "-0.1"], "hardware.reserve", "--reserve", "0 <= value < 1"),
    (["compare", "--dtype", "fp8"], "precision.dtype", "--dtype", "fp32, fp16, bf16"),
    (["compare", "--optimizer", "lion"], "precision.optimizer", "--optimizer", "adam, sgd"),
    (["compare", "--params", "-1"], "model.params", "--params", ""),
    (["accumulation", "--global-batch", "8", "--micro-batch", "1", "--gpus", "8", "--tp", "-1"],
     "parallel.tp", "--tp", "1 to 1,000,000"),
    (["accumulation", "--global-batch", "0", "--micro-batch", "1", "--gpus", "8"],
     "training.global_batch", "--global-batch", "1 to "),
    (["accumulation", "--global-batch", "8", "--micro-batch", "1", "--gpus", "8", "--pp", "3"],
     "parallel.num_gpus", "--gpus", "a multiple of tp × pp"),
    (["accumulation", "--global-batch", "8", "--micro-batch", "1", "--gpus", "8", "--seq-len", "0"],
     "training.seq_len", "--seq-len", "1 to 100,000,000"),
    (["solve", "min-gpus", "--params", "7B", "--gpu-memory", "80GB", "--tp", "0"], "parallel.tp", "--tp", "1 to"),
    (["solve", "min-gpus", "--params", "7B", "--gpu-memory", "80GB", "--pp", "0"], "parallel.pp", "--pp", "1 to"),
    (["solve", "max-micro-batch", "--preset", "gpt2", "--gpu-memory", "24GB", "--seq-len", "0"],
     "training.seq_len", "--seq-len", "1 to"),
    (["solve", "cheapest-strategy", "--params", "7B", "--gpu-memory", "80GB", "--gpus", "0"],
     "parallel.num_gpus", "--gpus", "1 to"),
    (["max-params", "--gpu-memory", "80GB", "--gpus-per-node", "0"], "parallel.gpus_per_node", "--gpus-per-node",
     "1 to 4,096"),
    (["estimate"], "model.params", "--params", "1 to 1,000T"),
    (["estimate", "--params", "7B", "--gpus", "1,5"], "parallel.num_gpus", "--gpus", "1 to 1,000,000"),
    (["estimate", "--params", "7,5B"], "model.params", "--params", "K, M, B (or G), T"),
    (["estimate", "--params", "7B", "--cuda-context=-1GB"], "overhead.cuda_context", "--cuda-context",
     "0 B to 1,000,000 TB"),
])
def test_a_bad_value_names_the_field_the_flag_and_the_range_in_every_command(capsys, argv, path, flag, allowed):
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"vramgui: error: {path} ({flag}): "), err
    assert "(allowed: " in err and allowed in err.split("(allowed: ", 1)[1], err


def test_an_error_in_the_model_source_names_the_option_it_came_from(tmp_path, capsys):
    """config.json keys and architecture fields have no flag of their own: the error names --config, --preset or
    --scenario, whichever the architecture came from (inspect's PATH is no option: nothing is added)."""
    from vramgui.io.scenario_files import save_scenario

    llama = json.loads((FIXTURES / "llama-3-8b" / "config.json").read_text(encoding="utf-8"))
    deep, fractional = tmp_path / "deep.json", tmp_path / "fractional.json"
    deep.write_text(json.dumps({**llama, "num_hidden_layers": 20_000}), encoding="utf-8")
    fractional.write_text(json.dumps({**llama, "hidden_size": 4096.5}), encoding="utf-8")
    scenario = tmp_path / "scenario.json"
    arch = fields.with_value(Scenario(), "model.architecture.num_kv_heads", 5)
    save_scenario(scenario, arch)
    for argv, head in [
        (["estimate", "--config", str(deep)], "config.num_hidden_layers (--config): "),
        (["estimate", "--config", str(fractional)], "config.hidden_size (--config): "),
        (["estimate", "--config", str(tmp_path / "missing")], "config (--config): "),
        (["estimate", "--scenario", str(scenario)], "model.architecture.num_kv_heads (--scenario): "),
        (["estimate", "--scenario", str(scenario), "--preset", "gpt2", "--tp", "5", "--gpus", "5"],
         "parallel.tp (--tp): "),
        (["inspect", str(tmp_path / "missing")], "config: "),
    ]:
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"vramgui: error: {head}") and err.count("\n") == 1, (argv, err)
