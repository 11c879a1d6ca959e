"""Command-line front end over the core. No Qt import on this path (it must start fast).

``vramgui estimate|max-params|solve|accumulation|compare|inspect|presets|export``; each prints a table, or JSON
with ``--json`` (``export`` prints or writes the config of the plan). Bad input: one line on stderr naming the
field, exit code 2, never a traceback. ``solve`` exits 1 when nothing fits; so does any command that cannot
finish: its output cannot be written (one line naming stdout) or an internal error (one line asking for a report;
``VRAMGUI_DEBUG=1`` adds the traceback).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from vramgui.cli.options import NOT_GIVEN, empty_source, flag_for, option_value, scenario_from_args
from vramgui.cli.parser import COMPARE_DEFAULTS, EXPORT_TARGETS, PARSERS, UsageError, build_parser
from vramgui.core.fields import paths
from vramgui.core.fields import registry as fields
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg, render

EXIT_BAD_INPUT = 2
EXIT_FAILED = 1  # `solve`: nothing fits; any command: the output could not be written, or an internal error
DEBUG_ENV = "VRAMGUI_DEBUG"  # set to 1: an internal error prints its traceback too


class OutputError(Exception):
    """Writing the answer to stdout failed (a full disk, a closed terminal): one line, exit code 1."""

    def __init__(self, err: OSError) -> None:
        self.err = err
        super().__init__(f"vramgui: error: cannot write the output to stdout: {err.strerror or err}")


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
    report = getattr(args, "imported", None)
    if report is not None:  # --training-config: what the file gave, in both outputs
        from vramgui.cli.imported import report_text

        data["imported"] = report.to_dict()
        text += "\n\n" + report_text(report)
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
    from vramgui.core.text.units import counted

    batch = option_value(args, paths.GLOBAL_BATCH)
    if batch is None:  # `--global-batch ""` (empty is "not given" in a scenario, but this command needs one)
        raise InputError(paths.GLOBAL_BATCH, Msg.of("error.whole_number", value="''"),
                         fields.field(paths.GLOBAL_BATCH).allowed())
    micro = option_value(args, paths.MICRO_BATCH)
    parallel = ParallelSpec(num_gpus=option_value(args, paths.NUM_GPUS), tp=option_value(args, paths.TP, 1),
                            pp=option_value(args, paths.PP, 1))
    seq_len = option_value(args, paths.SEQ_LEN, None)
    # the estimate's own rules, before any arithmetic: tp × pp divides the GPUs, the global batch divides
    validate_scenario(Scenario(model=ModelSpec(params=1), parallel=parallel,
                               training=TrainingSpec(micro_batch=micro, global_batch=batch)))
    n_d = data_parallel_size(parallel)
    steps = steps_for(batch, micro, n_d)
    data: dict[str, Any] = {"steps": steps, "global_batch": batch, "micro_batch": micro, "data_parallel": n_d}
    text = (f"{counted(steps, 'accumulation step')}: global batch {batch} = micro-batch {micro}"
            f" × {counted(n_d, 'data-parallel rank')} × {steps}")
    if seq_len is not None:
        data["tokens_per_step"] = batch * seq_len
        text += f"\n{data['tokens_per_step']:,} tokens per optimizer step"
    _emit(args, data, text)
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    from vramgui.cli.tables import COMPARE_FINETUNE, compare_finetune_inputs, compare_output, finetune_default
    from vramgui.core.model_states.precision import SEED_OPTIMIZER_BYTES

    values = {path: option_value(args, path, default) for path, default in COMPARE_DEFAULTS.items()}
    tuned = {p: option_value(args, p, finetune_default(p)) for p in COMPARE_FINETUNE}
    if args.training_config:  # the file's values where no flag is given (the seed's table knows Adam and SGD)
        from vramgui.cli.options import compare_file_values

        file_values = compare_file_values(args, (*COMPARE_DEFAULTS, *COMPARE_FINETUNE, paths.PARAMS),
                                          values[paths.NUM_GPUS], frozenset(SEED_OPTIMIZER_BYTES))
        for path, value in file_values.items():
            target = values if path in values else tuned
            if path != paths.PARAMS and option_value(args, path) is NOT_GIVEN:
                target[path] = value
    optimizer, memory = values[paths.OPTIMIZER], values[paths.GPU_MEMORY]
    if optimizer not in SEED_OPTIMIZER_BYTES:  # the seed's table knows two optimizers
        raise InputError(paths.OPTIMIZER, Msg.of("error.unknown_value", value=repr(optimizer)),
                         Msg.of("allowed.choices", choices=", ".join(SEED_OPTIMIZER_BYTES)))
    if memory is None:  # `--gpu-memory ""`: the table needs a size
        raise InputError(paths.GPU_MEMORY, Msg.of("error.size_expected"), fields.field(paths.GPU_MEMORY).allowed())
    data, text = compare_output(memory=memory, num_gpus=values[paths.NUM_GPUS],
                                reserve=values[paths.RESERVE], dtype=values[paths.DTYPE],
                                optimizer=optimizer, params=option_value(args, paths.PARAMS, None), unit=args.unit,
                                finetune=compare_finetune_inputs(tuned))
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
        raise UsageError(f"vramgui solve: choose a QUESTION: {', '.join(QUESTIONS)}, fastest, cheapest, "
                         "max-context, max-batch (see vramgui solve --help)")
    if args.question in ("max-context", "max-batch"):  # serving's questions: `vramgui serve --solve NAME`
        args.solve = args.question
        return cmd_serve(args)
    if args.question in ("fastest", "cheapest"):
        from vramgui.cli.plans import DEFAULT_MAX_GPUS as PLAN_MAX_GPUS
        from vramgui.cli.plans import plan_output

        data, text, code = plan_output(args.question, scenario_from_args(args), args.unit,
                                       getattr(args, "max_gpus", PLAN_MAX_GPUS))
        _emit(args, data, text)
        return code
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


def cmd_serve(args: argparse.Namespace) -> int:
    from vramgui.cli.serve import serve_output, serve_solve_output

    s = scenario_from_args(args)
    header = getattr(args, "gguf_header", None)
    if header is not None:  # a .gguf file: its own file type unless --weights says otherwise; its bytes compared
        from vramgui.cli.serve import gguf_weights

        s, gguf_notes = gguf_weights(s, header, weights_given=args.weights is not None)
        args.cli_notes = [*getattr(args, "cli_notes", []), *(render(n) for n in gguf_notes)]
    elif args.config:
        from vramgui.core.documents.hf_config import config_notes
        from vramgui.io.hf_config import read_config

        arch = s.model.architecture
        notes = config_notes(read_config(args.config), arch.model_type if arch else "")
        args.cli_notes = [*getattr(args, "cli_notes", []), *(render(n) for n in notes)]
    if args.solve:
        data, text, code = serve_solve_output(args.solve, s, args.unit)
        _emit(args, data, text)
        return code
    data, text = serve_output(s, args.unit)
    _emit(args, data, text)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from vramgui.core.documents.training.export import export
    from vramgui.core.fields.validate import validate_scenario
    from vramgui.core.text.message import render
    from vramgui.io.training_configs import export_text, write_export

    if not args.target:
        raise UsageError(f"vramgui export: argument TARGET: choose one of {', '.join(EXPORT_TARGETS)} "
                         "(see vramgui export --help)")
    s = scenario_from_args(args)
    validate_scenario(s)  # an export of a plan the estimate refuses would launch a run that cannot be planned
    exported = export(args.target, s)
    args.cli_notes = [*getattr(args, "cli_notes", []), *(render(n) for n in exported.notes)]
    args.imported = None  # the report of --training-config is not part of the exported file
    if args.output:
        try:
            write_export(args.output, exported)
        except OSError as err:
            raise InputError("output", f"cannot write {args.output}: {err.strerror or err}") from None
        _write(f"wrote {args.output}")
    else:
        _write(export_text(exported).rstrip("\n"))
    return 0


COMMANDS = {"estimate": cmd_estimate, "max-params": cmd_max_params, "solve": cmd_solve,
            "accumulation": cmd_accumulation, "compare": cmd_compare, "inspect": cmd_inspect, "presets": cmd_presets,
            "serve": cmd_serve, "export": cmd_export}


def _model_source(field: str, args: argparse.Namespace | None) -> str | None:
    """The option a model error came from: a config.json key (``config.num_hidden_layers``) or an architecture
    field is the last model source applied (``scenario_from_args``: --config over --preset over --scenario)."""
    if args is None or not (field == "config" or field.startswith(("config.", paths.ARCH_PREFIX))):
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
    parser = build_parser(argv[0] if argv and argv[0] in PARSERS else None)
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
            import traceback

            traceback.print_exc()
        detail = " ".join(str(err).split())[:200]
        print(f"vramgui: internal error: {type(err).__name__}{': ' + detail if detail else ''} (please report it "
              f"with the command line; {DEBUG_ENV}=1 shows the traceback)", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
