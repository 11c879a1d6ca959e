"""Command-line front end over the core. No Qt import on this path (it must start fast).

``vramgui estimate|max-params|solve|accumulation|compare|inspect|presets``; each prints a table, or JSON with
``--json``. Bad input: one line on stderr naming the field, exit code 2, never a traceback. ``solve`` exits 1
when nothing fits.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from typing import Any, Sequence

from vramgui import __version__
from vramgui.core.errors import InputError
from vramgui.core.specs import (
    ATTENTION, CONVENTIONS, DTYPES, IMPLEMENTATIONS, OFFLOAD, OPTIMIZERS, RECIPES, RECOMPUTE, Scenario,
)
from vramgui.core.units import parse_bytes, parse_count

SUBCOMMANDS = ("estimate", "max-params", "solve", "accumulation", "compare", "inspect", "presets")
EXIT_BAD_INPUT = 2
FLAGS = {  # scenario field -> the flag that sets it, so messages name what the user typed
    "model.params": "--params", "model.largest_layer": "--largest-layer", "precision.dtype": "--dtype",
    "precision.recipe": "--precision", "precision.optimizer": "--optimizer", "convention": "--convention",
    "training.micro_batch": "--micro-batch", "training.seq_len": "--seq-len", "training.global_batch": "--global-batch",
    "training.recompute": "--recompute", "training.attention": "--attention",
    "training.implementation": "--implementation", "parallel.num_gpus": "--gpus",
    "parallel.gpus_per_node": "--gpus-per-node", "parallel.zero_stage": "--stage", "parallel.tp": "--tp",
    "parallel.pp": "--pp", "offload.optimizer": "--offload-optimizer", "offload.params": "--offload-params",
    "hardware.gpu_memory": "--gpu-memory", "hardware.reserve": "--reserve", "overhead.cuda_context": "--cuda-context",
    "hardware.gpu": "--gpu", "model.preset": "--preset", "model.architecture": "--preset or --config",
    "overhead.comm_buffers": "--comm-buffers", "overhead.zero3_live_params": "--live-params", "overhead.extra": "--extra",
}


class UsageError(Exception):
    """A command-line mistake: printed as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, no usage dump
        raise UsageError(f"{self.prog}: {message}")


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number (allowed: 0 <= FRACTION < 1)") from None
    return value


def _add_model_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("model (one of --params, --preset, --config, --scenario)")
    g.add_argument("--params", metavar="COUNT", help="parameter count: 7B, 124M, 7.5e9 (no activations without an "
                   "architecture)")
    g.add_argument("--preset", metavar="NAME", help="a model preset (see `vramgui presets`)")
    g.add_argument("--config", metavar="PATH", help="a Hugging Face config.json (file or folder)")
    g.add_argument("--scenario", metavar="FILE", help="a saved scenario; flags given here override it")
    g.add_argument("--largest-layer", metavar="COUNT",
                   help="DeepSpeed ZeRO-3 largest layer, in parameters (e.g. 131M); from the architecture otherwise")


def _add_scenario_options(p: argparse.ArgumentParser) -> None:
    d = Scenario()
    _add_model_options(p)
    g = p.add_argument_group("precision")
    g.add_argument("--dtype", choices=DTYPES, help=f"weights, gradients and activations (default {d.precision.dtype})")
    g.add_argument("--precision", choices=RECIPES,
                   help=f"mixed: fp32 master weights; pure: the dtype alone (default {d.precision.recipe})")
    g.add_argument("--optimizer", choices=OPTIMIZERS, help=f"(default {d.precision.optimizer})")
    g.add_argument("--convention", choices=CONVENTIONS,
                   help=f"whose accounting: ZeRO paper, DeepSpeed's estimator, Megatron-LM (default {d.convention})")
    g = p.add_argument_group("training shape")
    g.add_argument("--micro-batch", type=int, metavar="N",
                   help=f"samples per GPU per forward/backward (default {d.training.micro_batch})")
    g.add_argument("--seq-len", type=int, metavar="N", help=f"tokens per sample (default {d.training.seq_len})")
    g.add_argument("--global-batch", type=int, metavar="N",
                   help="samples per optimizer step (gives accumulation steps)")
    g.add_argument("--recompute", choices=RECOMPUTE, help=f"activation recomputation (default {d.training.recompute})")
    g.add_argument("--attention", choices=ATTENTION,
                   help=f"eager keeps the attention scores, flash does not (default {d.training.attention})")
    g.add_argument("--implementation", choices=IMPLEMENTATIONS,
                   help=f"activation accounting profile (default {d.training.implementation})")
    g = p.add_argument_group("parallelism")
    g.add_argument("--gpus", type=int, metavar="N", help=f"GPUs in all (default {d.parallel.num_gpus})")
    g.add_argument("--gpus-per-node", type=int, metavar="N",
                   help=f"for host memory per node (default {d.parallel.gpus_per_node})")
    g.add_argument("--stage", type=int, choices=(0, 1, 2, 3), help="ZeRO stage, 0 = DDP (default 0)")
    g.add_argument("--tp", type=int, metavar="N", help="tensor-parallel size (default 1)")
    g.add_argument("--pp", type=int, metavar="N", help="pipeline-parallel size (default 1)")
    g.add_argument("--sp", action=argparse.BooleanOptionalAction, default=None, help="sequence parallelism")
    g.add_argument("--distributed-optimizer", action=argparse.BooleanOptionalAction, default=None,
                   help="Megatron's distributed optimizer (megatron convention)")
    g.add_argument("--offload-optimizer", choices=OFFLOAD, help="optimizer states to CPU (ZeRO-Offload)")
    g.add_argument("--offload-params", choices=OFFLOAD, help="parameters to CPU (ZeRO-3 only)")
    g.add_argument("--zero-init", action=argparse.BooleanOptionalAction, default=None,
                   help="DeepSpeed zero.Init (deepspeed convention host memory)")
    g = p.add_argument_group("hardware and overheads")
    g.add_argument("--gpu", metavar="NAME", help="a GPU preset (see `vramgui presets`)")
    g.add_argument("--gpu-memory", metavar="SIZE", help="memory per GPU: 80GB, 80GiB, 24576MiB")
    g.add_argument("--reserve", type=_fraction, metavar="FRACTION",
                   help="fraction of GPU memory kept back, the seed's overhead_ratio (default 0)")
    g.add_argument("--cuda-context", metavar="SIZE", help="CUDA context + allocator slack per GPU")
    g.add_argument("--comm-buffers", metavar="SIZE", help="communication buckets per GPU")
    g.add_argument("--live-params", metavar="COUNT", help="ZeRO-3 parameters gathered at once")
    g.add_argument("--extra", metavar="SIZE", help="anything else per GPU")
    _add_output_options(p)


def _add_output_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--unit", choices=("GB", "GiB"), default="GB", help="GB = 10^9 bytes, GiB = 2^30 bytes")
    p.add_argument("--json", action="store_true", help="machine-readable output (integer bytes)")


_MAIN_EPILOG = """\
Without a sub-command, vramgui opens the desktop app. `vramgui COMMAND --help` describes each command.
Sizes: 80GB (10^9 bytes), 80GiB (2^30 bytes), 24576MiB. Counts: 7B, 124M, 7.5e9.
Exit codes: 0 done; 1 `solve` found nothing that fits; 2 bad input (one line on stderr naming the flag).
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
}


def _add_solve_parser(sub: Any) -> None:
    from vramgui.cli_solve import DEFAULT_MAX_GPUS, QUESTIONS

    p = _command(sub, "solve", "reverse solves: largest micro-batch or sequence, fewest GPUs, cheapest strategy",
                 "Answer a question about what fits, with the same scenario options as `estimate`; "
                 "--gpu-memory (or --gpu) is required.\nThe answer is checked by the estimate at it (fits) and "
                 "at the next value (does not fit).\nExit code 1 when nothing fits, 2 for bad input.",
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
        _add_scenario_options(q)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="vramgui", description="Plan the GPU memory of a training run.", epilog=_MAIN_EPILOG,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", "-V", action="version", version=f"vramgui {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    _add_scenario_options(_command(
        sub, "estimate", "per-GPU memory breakdown of one training run, with the formula of every term",
        "Per-GPU memory (parameters, gradients, optimizer states, activations, other), host memory per node "
        "when anything is offloaded,\nand whether it fits --gpu-memory after --reserve.",
        "vramgui estimate --preset llama-3-8b --gpu h100-sxm --gpus 8 --stage 3 --seq-len 4096"))
    _add_scenario_options(_command(
        sub, "max-params", "largest parameter count that fits (full accounting)",
        "Largest parameter count whose full estimate fits; an architecture (--preset/--config) still sizes the "
        "activations.\n--gpu-memory (or --gpu) is required.",
        "vramgui max-params --gpus 8 --stage 3 --gpu-memory 80GB --reserve 0.2 --dtype fp16"))
    _add_solve_parser(sub)
    p = _command(sub, "accumulation", "gradient-accumulation steps from global batch, micro-batch and GPUs",
                 "Steps = global batch / (micro-batch × data-parallel size), data-parallel size = GPUs / (tp × pp).\n"
                 "A global batch that does not divide is rejected with the nearest valid ones.",
                 "vramgui accumulation --global-batch 1024 --micro-batch 4 --gpus 64 --tp 2 --seq-len 4096")
    p.add_argument("--global-batch", type=int, required=True, help="samples per optimizer step")
    p.add_argument("--micro-batch", type=int, required=True, help="samples per GPU per forward/backward")
    p.add_argument("--gpus", type=int, required=True, help="GPUs in all")
    p.add_argument("--tp", type=int, default=1, help="tensor-parallel size (default 1)")
    p.add_argument("--pp", type=int, default=1, help="pipeline-parallel size (default 1)")
    p.add_argument("--seq-len", type=int, help="also report tokens per optimizer step")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p = _command(sub, "compare", "the seed's table: largest model per strategy; with --params, memory per strategy",
                 "Largest trainable model under DDP and ZeRO-1/2/3 (the seed tutorial's Part 3 table); with "
                 "--params, each strategy's\nper-GPU memory, host memory and fit, offload variants included.",
                 "vramgui compare --gpu-memory 80GB --gpus 8 --params 13B")
    p.add_argument("--gpu-memory", metavar="SIZE", default="80GB", help="memory per GPU (default 80GB)")
    p.add_argument("--gpus", type=int, default=8, metavar="N", help="GPUs in all (default 8)")
    p.add_argument("--reserve", type=_fraction, metavar="FRACTION", default=0.2,
                   help="fraction kept back (default 0.2)")
    p.add_argument("--dtype", choices=DTYPES, default="fp16")
    p.add_argument("--optimizer", choices=("adam", "sgd"), default="adam")
    p.add_argument("--params", metavar="COUNT", help="also show each strategy's per-GPU memory for this model")
    _add_output_options(p)
    p = _command(sub, "inspect", "a local Hugging Face model: architecture, config.json count vs. safetensors count",
                 "Read config.json (a file, or the one in a model folder) and the safetensors headers beside it, "
                 "offline:\nnothing is downloaded, executed or loaded beyond the headers. A weights count that "
                 "differs from\nthe config count prints a WARNING line (exit code still 0; `mismatch` in --json).",
                 "vramgui inspect ~/models/Mistral-7B-v0.1")
    p.add_argument("path", metavar="PATH", help="config.json or a model folder")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p = _command(sub, "presets", "list model presets (exact and official parameter counts) and GPU presets",
                 "Model presets with the exact parameter count computed from the architecture beside the official "
                 "rounded figure,\nand GPU presets with memory in GB and GiB. Use a key with --preset or --gpu.",
                 "vramgui presets --json")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    return parser


def _model_from(args: argparse.Namespace, base: Scenario) -> Scenario:
    model = base.model
    if args.preset:
        from vramgui.core import catalog

        model = catalog.find_model(args.preset).spec
    if args.config:
        from vramgui.core.hf_config import load_model_spec

        model = load_model_spec(args.config)
    if args.params is not None:
        model = replace(model, params=parse_count(args.params, "--params"))
        if args.preset is None and args.config is None and base.model.params is None:
            model = replace(model, name="custom")
    if args.largest_layer is not None:
        model = replace(model, largest_layer=parse_count(args.largest_layer, "--largest-layer"))
    return replace(base, model=model)


def _set(section: Any, **changes: Any) -> Any:
    given = {k: v for k, v in changes.items() if v is not None}
    return replace(section, **given) if given else section


def scenario_from_args(args: argparse.Namespace) -> Scenario:
    """The scenario file (if any), then every flag given explicitly on top of it."""
    base = Scenario()
    if args.scenario:
        from vramgui.core.scenario_io import load_scenario

        base = load_scenario(args.scenario)
    s = _model_from(args, base)
    s = replace(s, precision=_set(s.precision, dtype=args.dtype, recipe=args.precision, optimizer=args.optimizer))
    s = replace(s, training=_set(s.training, micro_batch=args.micro_batch, seq_len=args.seq_len,
                                 recompute=args.recompute, attention=args.attention,
                                 implementation=args.implementation))
    if args.global_batch is not None:
        s = replace(s, training=replace(s.training, global_batch=args.global_batch))
    s = replace(s, parallel=_set(s.parallel, num_gpus=args.gpus, gpus_per_node=args.gpus_per_node,
                                 zero_stage=args.stage, tp=args.tp, pp=args.pp, sp=args.sp,
                                 distributed_optimizer=args.distributed_optimizer))
    s = replace(s, offload=_set(s.offload, optimizer=args.offload_optimizer, params=args.offload_params,
                                zero_init=args.zero_init))
    hardware = s.hardware
    if args.gpu:
        from vramgui.core import catalog

        gpu = catalog.find_gpu(args.gpu)
        hardware = replace(hardware, gpu_name=gpu.name, gpu_memory=gpu.memory)
    if args.gpu_memory is not None:
        hardware = replace(hardware, gpu_memory=parse_bytes(args.gpu_memory, "--gpu-memory"))
    s = replace(s, hardware=_set(hardware, reserve=args.reserve))
    s = replace(s, overhead=_set(
        s.overhead,
        cuda_context=None if args.cuda_context is None else parse_bytes(args.cuda_context, "--cuda-context"),
        comm_buffers=None if args.comm_buffers is None else parse_bytes(args.comm_buffers, "--comm-buffers"),
        zero3_live_params=None if args.live_params is None else parse_count(args.live_params, "--live-params"),
        extra=None if args.extra is None else parse_bytes(args.extra, "--extra")))
    return replace(s, convention=args.convention or s.convention)


def _emit(args: argparse.Namespace, data: Any, text: str) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False) if args.json else text)


def cmd_estimate(args: argparse.Namespace) -> int:
    from vramgui.core.estimate import estimate
    from vramgui.cli_format import estimate_table

    est = estimate(scenario_from_args(args))
    _emit(args, est.to_dict(), estimate_table(est, args.unit))
    return 0


def cmd_max_params(args: argparse.Namespace) -> int:
    from vramgui.core.solve import max_params
    from vramgui.core.units import format_bytes, format_count

    s = scenario_from_args(args)
    n = max_params(s)
    data = {"max_params": n, "convention": s.convention, "zero_stage": s.parallel.zero_stage,
            "num_gpus": s.parallel.num_gpus, "gpu_memory": s.hardware.gpu_memory, "reserve": s.hardware.reserve}
    text = (f"Largest trainable model: {format_count(n)} parameters ({n:,})\n"
            f"  {s.parallel.num_gpus} GPU(s) of {format_bytes(s.hardware.gpu_memory, args.unit)}, "
            f"{s.hardware.reserve:.0%} reserved, ZeRO stage {s.parallel.zero_stage}, {s.convention} convention")
    _emit(args, data, text)
    return 0


def cmd_accumulation(args: argparse.Namespace) -> int:
    from vramgui.core.accumulation import steps_for

    group = args.tp * args.pp
    if args.tp < 1 or args.pp < 1 or args.gpus < 1 or args.gpus % group:
        raise InputError("--gpus", f"{args.gpus} GPUs do not divide into tp × pp = {group}", "a multiple of tp × pp")
    n_d = args.gpus // group
    steps = steps_for(args.global_batch, args.micro_batch, n_d)
    data: dict[str, Any] = {"steps": steps, "global_batch": args.global_batch, "micro_batch": args.micro_batch,
                            "data_parallel": n_d}
    text = (f"{steps} accumulation step(s): global batch {args.global_batch} = micro-batch {args.micro_batch}"
            f" × {n_d} data-parallel rank(s) × {steps}")
    if args.seq_len is not None:
        data["tokens_per_step"] = args.global_batch * args.seq_len
        text += f"\n{data['tokens_per_step']:,} tokens per optimizer step"
    _emit(args, data, text)
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    from vramgui.cli_format import compare_output

    data, text = compare_output(args)
    _emit(args, data, text)
    return 0


def cmd_presets(args: argparse.Namespace) -> int:
    from vramgui.cli_format import presets_output

    data, text = presets_output()
    _emit(args, data, text)
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    from vramgui.cli_solve import DEFAULT_MAX_GPUS, QUESTIONS, solve_output

    if not args.question:
        raise UsageError(f"vramgui solve: choose a QUESTION: {', '.join(QUESTIONS)} (see vramgui solve --help)")
    _, _, flag = QUESTIONS[args.question]
    dest = flag.lstrip("-").replace("-", "_")
    given = getattr(args, dest)
    notes = (f"{flag} {given} is ignored: it is what is solved for",) if given is not None else ()
    if args.question == "cheapest-strategy" and (args.offload_optimizer or args.offload_params):
        notes += ("--offload-optimizer/--offload-params are ignored: every strategy is tried",)
    data, text, code = solve_output(args.question, scenario_from_args(args), args.unit,
                                    getattr(args, "max_gpus", DEFAULT_MAX_GPUS), notes)
    _emit(args, data, text)
    return code


def cmd_inspect(args: argparse.Namespace) -> int:
    from vramgui.cli_format import inspect_output
    from vramgui.core.model_folder import import_model

    data, text = inspect_output(import_model(args.path))
    _emit(args, data, text)
    return 0


COMMANDS = {"estimate": cmd_estimate, "max-params": cmd_max_params, "solve": cmd_solve,
            "accumulation": cmd_accumulation, "compare": cmd_compare, "inspect": cmd_inspect, "presets": cmd_presets}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if not args.command:
            parser.print_help()
            return 0
        return COMMANDS[args.command](args)
    except UsageError as err:
        print(f"{err}", file=sys.stderr)
    except (InputError, ValueError) as err:  # ScenarioError and friends are ValueErrors too
        text = " ".join(str(err).split())
        flag = FLAGS.get(getattr(err, "field", ""))
        if flag:
            text = text.replace(err.field, f"{err.field} ({flag})", 1)
        print(f"vramgui: error: {text}", file=sys.stderr)
    except LookupError as err:  # unknown preset names
        print(f"vramgui: error: {err.args[0] if err.args else err}", file=sys.stderr)
    except BrokenPipeError:  # e.g. `vramgui presets | head`
        sys.stderr.close()
        return 0
    except OSError as err:
        print(f"vramgui: error: cannot read {err.filename or ''}: {err.strerror or err}", file=sys.stderr)
    return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
