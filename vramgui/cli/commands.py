"""Command-line front end over the core. No Qt import on this path (it must start fast).

``vramgui estimate|max-params|solve|accumulation|compare|inspect|presets``; each prints a table, or JSON with
``--json``. Bad input: one line on stderr naming the field, exit code 2, never a traceback. ``solve`` exits 1
when nothing fits; so does any command that cannot finish: its output cannot be written (one line naming
stdout) or an internal error (one line asking for a report; ``VRAMGUI_DEBUG=1`` adds the traceback).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from collections.abc import Sequence
from typing import Any, NoReturn

from vramgui import __version__
from vramgui.cli.options import (
    add_field_option,
    add_output_options,
    add_scenario_options,
    empty_source,
    flag_for,
    option_value,
    scenario_from_args,
)
from vramgui.core.fields import registry as fields
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg

SUBCOMMANDS = ("estimate", "max-params", "solve", "accumulation", "compare", "inspect", "presets")
EXIT_BAD_INPUT = 2
EXIT_FAILED = 1  # `solve`: nothing fits; any command: the output could not be written, or an internal error
DEBUG_ENV = "VRAMGUI_DEBUG"  # set to 1: an internal error prints its traceback too
COMPARE_DEFAULTS = {  # the seed's Part 3 table: 8 x 80 GB, 20% kept back, fp16 with Adam
    "hardware.gpu_memory": 80 * 10**9, "parallel.num_gpus": 8, "hardware.reserve": 0.2, "precision.dtype": "fp16",
    "precision.optimizer": "adam",
}
_COMPARE_HELP = {  # (help, metavar) where the seed's table takes a field in a narrower sense than the registry
    "hardware.gpu_memory": ("Memory per GPU: 80GB (10^9 bytes), 80GiB (2^30 bytes), 24576MiB (default 80GB)", None),
    "precision.optimizer": ("The seed's table counts Adam (K = 12) or SGD (K = 4) (default adam)", "{adam,sgd}"),
}


class UsageError(Exception):
    """A command-line mistake: printed as one line, exit code 2."""


class OutputError(Exception):
    """Writing the answer to stdout failed (a full disk, a closed terminal): one line, exit code 1."""

    def __init__(self, err: OSError) -> None:
        self.err = err
        super().__init__(f"vramgui: error: cannot write the output to stdout: {err.strerror or err}")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, no usage dump
        raise UsageError(f"{self.prog}: {message}")

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        """As argparse's, with the arguments it did not recognise quoted (an empty one is shown as '')."""
        ns, extras = self.parse_known_args(args, namespace)
        if extras:
            self.error("unrecognized arguments: " + " ".join(
                repr(a) if not a.isprintable() or not a or a.strip() != a or " " in a else a for a in extras))
        return ns

    def _print_message(self, message: str, file: Any = None) -> None:  # argparse would ignore a failed write
        if message:
            (file or sys.stderr).write(message)


_MAIN_EPILOG = """\
Without a sub-command, vramgui opens the desktop app. `vramgui COMMAND --help` describes each command.
Sizes: 80GB (10^9 bytes), 80GiB (2^30 bytes), 24576MiB. Counts: 7B, 124M, 7.5e9.
Exit codes: 0 done; 1 `solve` or `max-params` found nothing that fits, or vramgui could not finish (the output
could not be written; an internal error, reported in one line: VRAMGUI_DEBUG=1 adds the traceback); 2 bad input
(one line on stderr naming the flag).
"""


def _command(sub: Any, name: str, summary: str, description: str,
             example: str | None = None) -> argparse.ArgumentParser:
    return sub.add_parser(name, help=summary, description=description,
                          epilog=f"example:\n  {example}" if example else None,
                          formatter_class=argparse.RawDescriptionHelpFormatter)


SOLVE_EXAMPLES = {
    "max-micro-batch": "--preset llama-3-8b --gpu h100-sxm --gpus 8 --stage 3 --seq-len 4096",
    "max-seq-len": "--preset llama-3.1-8b --gpu a100-80gb --gpus 8 --stage 3 --recompute full",
    "min-gpus": "--preset llama-3-70b --gpu h100-sxm --stage 3 --seq-len 4096 --recompute full",
    "cheapest-strategy": "--params 13B --dtype fp16 --gpus 8 --gpu-memory 80GB --reserve 0.2",
    "max-lora-rank": "--preset llama-3-8b --gpu rtx-4090 --finetune qlora --lora-targets all-linear --recompute full",
}


def _add_solve_parser(sub: Any) -> None:
    from vramgui.cli.solve import DEFAULT_MAX_GPUS, QUESTIONS

    p = _command(sub, "solve", "reverse solves: largest micro-batch or sequence, fewest GPUs, cheapest strategy",
                 "Answer a question about what fits, with the same scenario options as `estimate`; "
                 "--gpu-memory (or --gpu) is required.\nThe answer is judged by the peak of one training step: "
                 "checked by the estimate at it (fits) and at the next value\n(does not fit); the per-GPU sum is "
                 "shown for reference. Exit code 1 when nothing fits, 2 for bad input.",
                 "vramgui solve max-micro-batch --preset llama-3-8b --gpu h100-sxm --gpus 8 --stage 3")
    questions = p.add_subparsers(dest="question", metavar="QUESTION", parser_class=_Parser)
    for name, (summary, _, flag) in QUESTIONS.items():
        q = questions.add_parser(name, help=summary, description=summary[0].upper() + summary[1:] + "."
                                 + f" {flag} is what is solved for: a value given is ignored.\n"
                                 "Exit code 1 when nothing fits, 2 for bad input.",
                                 epilog=f"example:\n  vramgui solve {name} {SOLVE_EXAMPLES[name]}",
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
        if name == "min-gpus":
            q.add_argument("--max-gpus", type=int, default=DEFAULT_MAX_GPUS, metavar="N",
                           help=f"search bound: the most GPUs tried (default {DEFAULT_MAX_GPUS:,})")
        add_scenario_options(q)


def _add_estimate_parser(sub: Any) -> None:
    add_scenario_options(_command(
        sub, "estimate", "per-GPU memory breakdown of one training run, with the formula of every term",
        "Per-GPU memory (parameters, gradients, optimizer states, activations, other), host memory per node "
        "when anything is offloaded,\nwhether it fits --gpu-memory after --reserve, and if not, the ways to make it "
        "fit with the flags to add.",
        "vramgui estimate --preset llama-3-8b --gpu h100-sxm --gpus 8 --stage 3 --seq-len 4096"))


def _add_max_params_parser(sub: Any) -> None:
    add_scenario_options(_command(
        sub, "max-params", "largest parameter count that fits (judged by the peak of a training step)",
        "Largest parameter count whose training step fits: judged by the step peak, the per-GPU sum shown for "
        "reference;\nan architecture (--preset/--config) still sizes the activations. --gpu-memory (or --gpu) is "
        "required.",
        "vramgui max-params --gpus 8 --stage 3 --gpu-memory 80GB --reserve 0.2 --dtype fp16"))


def _add_accumulation_parser(sub: Any) -> None:
    p = _command(sub, "accumulation", "gradient-accumulation steps from global batch, micro-batch and GPUs",
                 "Steps = global batch / (micro-batch × data-parallel size), data-parallel size = GPUs / (tp × pp).\n"
                 "A global batch that does not divide is rejected with the nearest valid ones.",
                 "vramgui accumulation --global-batch 1024 --micro-batch 4 --gpus 64 --tp 2 --seq-len 4096")
    add_field_option(p, "training.global_batch", required=True, help="Samples per optimizer step")
    for path in ("training.micro_batch", "parallel.num_gpus"):
        add_field_option(p, path, required=True)
    for path in ("parallel.tp", "parallel.pp"):
        add_field_option(p, path)
    add_field_option(p, "training.seq_len", default=None, help="also report tokens per optimizer step")
    p.add_argument("--json", action="store_true", help="machine-readable output")


def _add_compare_parser(sub: Any) -> None:
    from vramgui.cli.tables import COMPARE_FINETUNE, finetune_default

    p = _command(sub, "compare", "the seed's table: largest model per strategy; with --params, memory per strategy",
                 "Largest trainable model under DDP and ZeRO-1/2/3 (the seed tutorial's Part 3 table); with "
                 "--params, each strategy's\nper-GPU memory, host memory and fit, offload variants included.",
                 "vramgui compare --gpu-memory 80GB --gpus 8 --params 13B")
    for path, default in COMPARE_DEFAULTS.items():
        text, metavar = _COMPARE_HELP.get(path, (None, None))
        add_field_option(p, path, default=default, help=text, metavar=metavar)
    add_field_option(p, "model.params", help="also show each strategy's per-GPU memory for this model")
    for path in COMPARE_FINETUNE:  # --finetune lora|qlora adds the LoRA / QLoRA rows (docs/finetune.md)
        add_field_option(p, path, default=finetune_default(path))
    add_output_options(p)


def _add_inspect_parser(sub: Any) -> None:
    p = _command(sub, "inspect", "a local Hugging Face model: architecture, config.json count vs. safetensors count",
                 "Read config.json (a file, or the one in a model folder) and the safetensors headers beside it, "
                 "offline:\nnothing is downloaded, executed or loaded beyond the headers. A weights count that "
                 "differs from\nthe config count prints a WARNING line (exit code still 0; `mismatch` in --json).",
                 "vramgui inspect ~/models/Mistral-7B-v0.1")
    p.add_argument("path", metavar="PATH", help="config.json or a model folder")
    p.add_argument("--json", action="store_true", help="machine-readable output")


def _add_presets_parser(sub: Any) -> None:
    p = _command(sub, "presets", "list model presets (exact and official parameter counts) and GPU presets",
                 "Model presets with the exact parameter count computed from the architecture beside the official "
                 "rounded figure,\nand GPU presets with memory in GB and GiB. Use a key with --preset or --gpu.",
                 "vramgui presets --json")
    p.add_argument("--json", action="store_true", help="machine-readable output")


# Each sub-command's parser, in the order `vramgui --help` lists them (SUBCOMMANDS).
_PARSERS = {"estimate": _add_estimate_parser, "max-params": _add_max_params_parser, "solve": _add_solve_parser,
            "accumulation": _add_accumulation_parser, "compare": _add_compare_parser,
            "inspect": _add_inspect_parser, "presets": _add_presets_parser}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or with ``command`` (a sub-command's name) the main parser and that sub-command's
    parser only: a call builds the one it runs (each scenario command adds about a hundred options). Parsing
    ``[command, ...]`` reads the same either way: the main parser's options, usage and COMMAND are unchanged."""
    parser = _Parser(prog="vramgui", description="Plan the GPU memory of a training run.", epilog=_MAIN_EPILOG,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", "-V", action="version", version=f"vramgui {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in SUBCOMMANDS if command is None else (command,):
        _PARSERS[name](sub)
    return parser


def _write(text: str) -> None:
    """``text`` and a newline on stdout, flushed, so that a failed write is reported while we can say so."""
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as err:
        raise OutputError(err) from None


def _emit(args: argparse.Namespace, data: Any, text: str) -> None:
    _write(json.dumps(data, indent=2, ensure_ascii=False) if args.json else text)


def cmd_estimate(args: argparse.Namespace) -> int:
    from vramgui.cli.advise import estimate_output  # the breakdown, and the ways out when it does not fit

    data, text = estimate_output(scenario_from_args(args), args.unit)
    _emit(args, data, text)
    return 0


def cmd_max_params(args: argparse.Namespace) -> int:
    from vramgui.cli.solve import EXIT_NOTHING_FITS, max_params_output
    from vramgui.core.solve.questions import max_params_result
    from vramgui.core.text.units import format_count

    s = scenario_from_args(args)
    data, text = max_params_output(s, args.unit)
    result = max_params_result(s)  # the same search: what it knew beyond the count
    data.update(found=result.found, bound=result.bound, at_bound=result.at_bound)
    if result.at_bound:
        text += (f"\nEvery count up to vramgui's limit of {format_count(result.bound)} parameters fits: the search "
                 "stops there, so this is the limit, not the largest model that fits.")
    elif not result.found:
        text += "\nNothing fits: not even a 1-parameter model (see `vramgui estimate --params 1` for why)."
    _emit(args, data, text)
    return 0 if result.found else EXIT_NOTHING_FITS


def cmd_accumulation(args: argparse.Namespace) -> int:
    from vramgui.core.accumulation import steps_for
    from vramgui.core.fields.validate import validate_scenario
    from vramgui.core.parallel.layout import data_parallel_size
    from vramgui.core.scenario.specs import ModelSpec, ParallelSpec, Scenario, TrainingSpec

    batch = option_value(args, "training.global_batch")
    if batch is None:  # `--global-batch ""` (empty is "not given" in a scenario, but this command needs one)
        raise InputError("training.global_batch", Msg.of("error.whole_number", value="''"),
                         fields.field("training.global_batch").allowed())
    micro = option_value(args, "training.micro_batch")
    parallel = ParallelSpec(num_gpus=option_value(args, "parallel.num_gpus"), tp=option_value(args, "parallel.tp", 1),
                            pp=option_value(args, "parallel.pp", 1))
    seq_len = option_value(args, "training.seq_len", None)
    # the estimate's own rules, before any arithmetic: tp × pp divides the GPUs, the global batch divides
    validate_scenario(Scenario(model=ModelSpec(params=1), parallel=parallel,
                               training=TrainingSpec(micro_batch=micro, global_batch=batch)))
    n_d = data_parallel_size(parallel)
    steps = steps_for(batch, micro, n_d)
    data: dict[str, Any] = {"steps": steps, "global_batch": batch, "micro_batch": micro, "data_parallel": n_d}
    text = (f"{steps} accumulation step(s): global batch {batch} = micro-batch {micro}"
            f" × {n_d} data-parallel rank(s) × {steps}")
    if seq_len is not None:
        data["tokens_per_step"] = batch * seq_len
        text += f"\n{data['tokens_per_step']:,} tokens per optimizer step"
    _emit(args, data, text)
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    from vramgui.cli.tables import COMPARE_FINETUNE, compare_finetune_inputs, compare_output, finetune_default
    from vramgui.core.model_states.precision import SEED_OPTIMIZER_BYTES

    values = {path: option_value(args, path, default) for path, default in COMPARE_DEFAULTS.items()}
    optimizer, memory = values["precision.optimizer"], values["hardware.gpu_memory"]
    if optimizer not in SEED_OPTIMIZER_BYTES:  # the seed's table knows two optimizers
        raise InputError("precision.optimizer", Msg.of("error.unknown_value", value=repr(optimizer)),
                         Msg.of("allowed.choices", choices=", ".join(SEED_OPTIMIZER_BYTES)))
    if memory is None:  # `--gpu-memory ""`: the table needs a size
        raise InputError("hardware.gpu_memory", Msg.of("error.size_expected"),
                         fields.field("hardware.gpu_memory").allowed())
    data, text = compare_output(memory=memory, num_gpus=values["parallel.num_gpus"],
                                reserve=values["hardware.reserve"], dtype=values["precision.dtype"],
                                optimizer=optimizer, params=option_value(args, "model.params", None), unit=args.unit,
                                finetune=compare_finetune_inputs({p: option_value(args, p, finetune_default(p))
                                                                  for p in COMPARE_FINETUNE}))
    _emit(args, data, text)
    return 0


def cmd_presets(args: argparse.Namespace) -> int:
    from vramgui.cli.tables import presets_output

    data, text = presets_output()
    _emit(args, data, text)
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    from vramgui.cli.solve import DEFAULT_MAX_GPUS, QUESTIONS, solve_output

    if not args.question:
        raise UsageError(f"vramgui solve: choose a QUESTION: {', '.join(QUESTIONS)} (see vramgui solve --help)")
    _, _, flag = QUESTIONS[args.question]
    dest = flag.lstrip("-").replace("-", "_")
    given = getattr(args, dest)
    notes: tuple[Msg, ...] = ()
    if given is not None:
        notes += (Msg.of("note.solved_for_ignored", flag=flag, value=str(given)),)
    if args.question == "cheapest-strategy" and (args.offload_optimizer or args.offload_params):
        notes += (Msg.of("note.offload_flags_ignored"),)
    data, text, code = solve_output(args.question, scenario_from_args(args), args.unit,
                                    getattr(args, "max_gpus", DEFAULT_MAX_GPUS), notes)
    _emit(args, data, text)
    return code


def cmd_inspect(args: argparse.Namespace) -> int:
    from vramgui.cli.tables import inspect_output
    from vramgui.io.model_folder import import_model

    data, text = inspect_output(import_model(args.path))  # validated as `estimate --config` validates
    _emit(args, data, text)
    return 0


COMMANDS = {"estimate": cmd_estimate, "max-params": cmd_max_params, "solve": cmd_solve,
            "accumulation": cmd_accumulation, "compare": cmd_compare, "inspect": cmd_inspect, "presets": cmd_presets}


def _model_source(field: str, args: argparse.Namespace | None) -> str | None:
    """The option a model error came from: a config.json key (``config.num_hidden_layers``) or an architecture
    field is the last model source applied (``scenario_from_args``: --config over --preset over --scenario)."""
    if args is None or not (field == "config" or field.startswith(("config.", "model.architecture."))):
        return None
    return next((f"--{name}" for name in ("config", "preset", "scenario") if getattr(args, name, None)), None)


def _quiet_stdout() -> None:
    """After a failed write, point stdout at the null device: the interpreter's final flush would fail again
    and print a second message (Python's docs, "Note on SIGPIPE"). Nothing to do for a captured stdout."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if not args.command:
        parser.print_help()
        return 0
    empty = empty_source(args)
    if empty is not None:
        option, what = empty
        raise UsageError(f"vramgui {args.command}: argument {option}: expected {what}, got an empty value")
    code = COMMANDS[args.command](args)
    sys.stdout.flush()
    for note in getattr(args, "cli_notes", ()):  # only once the command has succeeded: an error stays one line
        print(f"vramgui: note: {note}", file=sys.stderr)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # `vramgui COMMAND ...` needs COMMAND's parser only; anything else (no command, --help, a mistyped command that
    # argparse lists the choices for) gets them all.
    parser = build_parser(argv[0] if argv and argv[0] in _PARSERS else None)
    args: argparse.Namespace | None = None
    try:
        args = parser.parse_args(argv)
        return _run(parser, args)
    except UsageError as err:
        print(f"{err}", file=sys.stderr)
    except (InputError, ValueError) as err:  # ScenarioError and friends are ValueErrors too
        text = " ".join(str(err).split())
        field = str(getattr(err, "field", ""))
        flag = flag_for(field) or _model_source(field, args)  # the registry's flag, or the option behind it
        if flag:
            text = text.replace(field, f"{field} ({flag})", 1)
        print(f"vramgui: error: {text}", file=sys.stderr)
    except LookupError as err:  # unknown preset names
        print(f"vramgui: error: {err.args[0] if err.args else err}", file=sys.stderr)
    except BrokenPipeError:  # e.g. `vramgui presets | head`: the reader has all it wanted
        _quiet_stdout()
        return 0
    except OutputError as err:  # e.g. `vramgui estimate ... > /dev/full`
        _quiet_stdout()
        print(err, file=sys.stderr)
        return EXIT_FAILED
    except OSError as err:
        if err.filename is None:  # the CLI writes nothing but stdout; every read names its file
            _quiet_stdout()
            print(OutputError(err), file=sys.stderr)
            return EXIT_FAILED
        print(f"vramgui: error: cannot read {err.filename}: {err.strerror or err}", file=sys.stderr)
    except SystemExit:  # --help, --version: argparse has printed (ignoring a failed write) and exits
        try:
            sys.stdout.flush()
        except OSError as err:
            _quiet_stdout()
            print(OutputError(err), file=sys.stderr)
            raise SystemExit(EXIT_FAILED) from None
        raise
    except KeyboardInterrupt:
        print("vramgui: interrupted", file=sys.stderr)
        return 130
    except Exception as err:  # noqa: BLE001 - a bug: one line by default, the traceback on request
        if os.environ.get(DEBUG_ENV, "") not in ("", "0"):
            traceback.print_exc()
        detail = " ".join(str(err).split())[:200]
        print(f"vramgui: internal error: {type(err).__name__}{': ' + detail if detail else ''} (please report it "
              f"with the command line; {DEBUG_ENV}=1 shows the traceback)", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
