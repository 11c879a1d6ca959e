"""Random command lines for every sub-command, built from every flag the CLI has (the field registry, so a new
field is fuzzed the day it is added) with valid, boundary and hostile values; each outcome judged by
``cli_checks.judge`` (docs/fuzzing.md). ``make fuzz`` runs tens of thousands of them.
"""

from __future__ import annotations

from hypothesis import event, given
from hypothesis import strategies as st

from tests.fuzz.cli_checks import judge, run_cli
from tests.fuzz.profile import fuzz_settings
from vramgui.cli.options import flagged_fields
from vramgui.cli.solve import QUESTIONS
from vramgui.core.fields import registry as fields
from vramgui.core.fields.registry import Field
from vramgui.io import presets

FIELDS = flagged_fields()
MODEL_PRESETS = list(presets.model_presets())
GPU_PRESETS = list(presets.gpu_presets())
HOSTILE = ["", " ", "0", "-1", "-5", "1e308", "1e308GB", "1e300T", "-1e308", "nan", "NaN", "inf", "-inf", "Infinity",
           "9" * 30, "1" + "0" * 4000, "１２", "٣", "7B", "GB", "T", "1.5", "0.4", "1,5", "1_000", "0x10", "1e-300",
           "9007199254740993B", "1e19B", "80", "80GB", "80 GB", "80GiB", "24576MiB", "1KB", "1000T", "1001T",
           "\x00", "é", "--", "-h", "1/0", "1e999", "0.2", "1", "2", "8", "100%"]
COMMANDS = ["estimate", "max-params", "solve", "compare", "accumulation", "inspect", "presets", "export"]
TRAINING_CONFIGS = ["tests/fixtures/training_configs/axolotl/examples/llama-3/qlora-1b.yml",
                    "tests/fixtures/training_configs/accelerate/examples/config_yaml_templates/fsdp.yaml",
                    "tests/fixtures/training_configs/axolotl/deepspeed_configs/zero3_bf16.json",
                    "tests/fixtures/training_configs/torchtune/recipes/configs/llama3_2/1B_lora.yaml",
                    "tests/fixtures/training_configs/transformers/trainer_args_fsdp_offload.json",
                    "README.md", "/dev/null", "/", ""]


def _range_values(f: Field) -> st.SearchStrategy[str]:
    """Values in and at the edge of the field's range, typed as a user would (with a unit where it has one)."""
    low, high = f.low, f.high
    if f.kind == "fraction":
        return st.sampled_from(["0", "0.2", "0.5", "0.99", "1", "1.0", "1.01", "-0.1", "20%"])
    assert low is not None and high is not None
    if f.kind == "number":  # TFLOP/s, prices, token counts as plain numbers (float bounds)
        return st.sampled_from([f"{low:g}", f"{high:g}", f"{high * 10:g}", "0", "-1", "1e999", "nan", "inf",
                                f"{(low + high) / 2:g}"])
    if f.kind == "rate":  # bytes or bits per second, written with their unit
        return st.sampled_from([f"{low:g}B/s", f"{high:g}B/s", f"{high * 10:g}B/s", "0GB/s", "-1GB/s", "300GB",
                                "200Gb/s", "3.35TB/s", "1e30GB/s", "fastGB/s"])
    edges = [low, high, high + 1, low - 1, (low + high) // 2]
    values = st.one_of(st.sampled_from(edges), st.integers(min_value=low, max_value=min(high, 10**6)),
                       st.integers(min_value=low, max_value=high))
    if f.kind == "bytes":
        return st.one_of(values.map(lambda n: f"{n}B"), st.integers(0, 10**7).map(lambda n: f"{n}GB"),
                         st.sampled_from(["80GB", "24GiB", "0.5TB", "1e21B", "1000000TB", "1000001TB"]))
    if f.kind == "count":
        return st.one_of(values.map(str), st.sampled_from(["7B", "1.5B", "124M", "7.5e9", "1000T", "0.5"]))
    return values.map(str)


PLAUSIBLE = {  # values a user would type, so that most lines get past validation and their output is checked
    "int": ["1", "2", "4", "8", "16", "64", "512", "2048", "4096"],
    "count": ["7B", "1.3B", "125M", "70B", "0", "1", "100M"],
    "bytes": ["80GB", "24GiB", "40GB", "0", "2GB", "512MiB", "141GB"],
    "fraction": ["0", "0.1", "0.2", "0.5"],
    "number": ["312", "989", "140", "2.5", "0.5"],
    "rate": ["300GB/s", "200Gb/s", "3.35TB/s", "25GB/s", "64GB/s"],
}
_PLAUSIBLE_OF = {"training.seq_len": ["512", "1024", "2048", "4096", "8192"],
                 "training.micro_batch": ["1", "2", "4", "8"], "parallel.tp": ["1", "1", "2", "4"],
                 "parallel.pp": ["1", "1", "2"], "parallel.num_gpus": ["1", "8", "16", "64", "256"],
                 "parallel.gpus_per_node": ["1", "4", "8"], "training.global_batch": ["64", "512", "1024"]}


def plausible(f: Field) -> st.SearchStrategy[str]:
    if f.kind == "choice":
        return st.sampled_from([str(c) for c in f.choices])
    return st.sampled_from(_PLAUSIBLE_OF.get(f.path, PLAUSIBLE[f.kind]))


def value_for(f: Field) -> st.SearchStrategy[str]:
    """A boundary or hostile value (a plausible one now and then)."""
    if f.kind == "choice":
        return st.one_of(st.sampled_from([str(c) for c in f.choices]), st.sampled_from(["", "x", "ADAM", "4"]))
    return st.one_of(_range_values(f), st.sampled_from(HOSTILE), st.text(max_size=6))


@st.composite
def field_args(draw: st.DrawFn, allowed: tuple[Field, ...] = FIELDS, most: int = 6) -> list[str]:
    """Up to ``most`` flags (repeats allowed: argparse keeps the last); most lines get plausible values only,
    the others one or two boundary or hostile values among them."""
    argv: list[str] = []
    chosen = draw(st.lists(st.sampled_from(allowed), max_size=most))
    hostile = draw(st.sampled_from([0, 0, 0, 1, 1, 2])) if chosen else 0
    picks = {draw(st.integers(0, len(chosen) - 1)) for _ in range(hostile)}
    for i, f in enumerate(chosen):
        assert f.flag is not None
        if f.kind == "bool":
            argv.append(draw(st.sampled_from([f.flag, "--no-" + f.flag[2:]])))
        else:
            argv += [f.flag, draw(value_for(f) if i in picks else plausible(f))]
    return argv


def mostly(common: list[str], rare: list[str]) -> st.SearchStrategy[str]:
    """One of ``common``, and one of ``rare`` about one time in eight."""
    return st.sampled_from([False] * 7 + [True]).flatmap(lambda odd: st.sampled_from(rare if odd else common))


@st.composite
def scenario_args(draw: st.DrawFn, needs_memory: bool = False) -> list[str]:
    source = draw(st.sampled_from(["params", "params", "preset", "preset", "both", "none"]))
    argv: list[str] = []
    if source in ("params", "both"):
        argv += ["--params", draw(st.one_of(st.sampled_from(["7B", "1.3B", "70B", "125M"]), value_for(
            fields.field("model.params"))))]
    if source in ("preset", "both"):
        argv += ["--preset", draw(mostly(MODEL_PRESETS, ["", "llama", "gpt-9", "\x00"]))]
    if draw(st.booleans()):
        argv += ["--gpu", draw(mostly(GPU_PRESETS, ["", "h100", "nvidia"]))]
    elif needs_memory and draw(st.sampled_from([True] * 7 + [False])):
        argv += ["--gpu-memory", draw(plausible(fields.field("hardware.gpu_memory")))]
    if draw(st.integers(0, 7)) == 0:
        argv += ["--training-config", draw(st.sampled_from(TRAINING_CONFIGS))]
    argv += draw(field_args())
    if draw(st.booleans()):
        argv += ["--unit", draw(mostly(["GB", "GiB"], ["gb", ""]))]
    if draw(st.integers(0, 3)):
        argv.append("--json")
    return argv


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    command = draw(st.sampled_from(COMMANDS))
    if command in ("estimate", "max-params"):
        return [command, *draw(scenario_args(needs_memory=command == "max-params"))]
    if command == "solve":
        question = draw(st.sampled_from(list(QUESTIONS)))
        extra = ["--max-gpus", draw(st.sampled_from(["1", "8", "64", "0", "-1", "99999999", "x"]))] if (
            question == "min-gpus" and draw(st.booleans())) else []
        return ["solve", question, *extra, *draw(scenario_args(needs_memory=True))]
    if command == "compare":
        allowed = tuple(fields.field(p) for p in ("hardware.gpu_memory", "parallel.num_gpus", "hardware.reserve",
                                                  "precision.dtype", "precision.optimizer", "model.params"))
        return ["compare", *draw(field_args(allowed)), *(["--json"] if draw(st.booleans()) else [])]
    if command == "accumulation":
        allowed = tuple(fields.field(p) for p in ("training.global_batch", "training.micro_batch",
                                                  "parallel.num_gpus", "parallel.tp", "parallel.pp",
                                                  "training.seq_len"))
        base = ["--global-batch", draw(st.sampled_from(["512", "64", "0", ""])), "--micro-batch",
                draw(st.sampled_from(["4", "1", "3"])), "--gpus", draw(st.sampled_from(["8", "16", "1"]))]
        return ["accumulation", *base, *draw(field_args(allowed, 4)), *(["--json"] if draw(st.booleans()) else [])]
    if command == "inspect":
        path = draw(st.sampled_from(["", "/nonexistent", "/dev/null", "/", "tests/fixtures/hf_configs/gpt2",
                                     "tests/fixtures/hf_configs/mixtral-8x7b/config.json", "README.md"]))
        return ["inspect", path, *(["--json"] if draw(st.booleans()) else [])]
    if command == "export":  # prints the config itself (JSON, YAML or a command line), --json or not
        target = draw(mostly(["deepspeed", "accelerate", "torchrun"], ["", "x", "DeepSpeed"]))
        return ["export", target, *(a for a in draw(scenario_args()) if a != "--json")]
    return ["presets", *(["--json"] if draw(st.booleans()) else [])]


@fuzz_settings(in_suite=250, share=0.9)
@given(command_lines())
def test_every_command_line_is_answered_or_refused_in_one_line(argv):
    event(f"{argv[0]}: {judge(argv, *run_cli(argv))}")  # --hypothesis-show-statistics shows the mix


@fuzz_settings(in_suite=40, share=0.1)
@given(st.lists(st.one_of(st.sampled_from([*COMMANDS, "--help", "-h", "--version", "--json"]),
                          st.sampled_from([f.flag for f in FIELDS if f.flag]), st.sampled_from(HOSTILE)),
                max_size=6))
def test_arbitrary_word_salad_is_refused_in_one_line(argv):
    if not argv or argv[0] not in COMMANDS:
        argv = ["estimate", *argv]  # no sub-command opens the GUI (vramgui.__main__), not the CLI
    judge(argv, *run_cli(argv))
