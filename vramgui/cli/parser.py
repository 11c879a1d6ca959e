"""The command line's parsers: the main one, and each sub-command's (built only for the command that runs).

``build_parser(command)`` gives the main parser with that one sub-command; ``build_parser()`` all of them, for
``vramgui --help`` and a mistyped command. The help text is the same either way.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn

from vramgui import __version__
from vramgui.cli.options import add_field_option, add_output_options, add_scenario_options
from vramgui.core.fields import paths

EXPORT_TARGETS = ("deepspeed", "accelerate", "torchrun")
SUBCOMMANDS = ("estimate", "max-params", "solve", "accumulation", "compare", "inspect", "presets", "serve",
               "export")
COMPARE_DEFAULTS = {  # the seed's Part 3 table: 8 x 80 GB, 20% kept back, fp16 with Adam
    paths.GPU_MEMORY: 80 * 10**9, paths.NUM_GPUS: 8, paths.RESERVE: 0.2, paths.DTYPE: "fp16", paths.OPTIMIZER: "adam",
}
_COMPARE_HELP = {  # (help, metavar) where the seed's table takes a field in a narrower sense than the registry
    paths.GPU_MEMORY: ("Memory per GPU: 80GB (10^9 bytes), 80GiB (2^30 bytes), 24576MiB (default 80GB)", None),
    paths.OPTIMIZER: ("The seed's table counts Adam (K = 12) or SGD (K = 4) (default adam)", "{adam,sgd}"),
}
# `accumulation`: what it reads (required), the layout's two optional sizes, the sequence for tokens per step
ACCUMULATION_REQUIRED = (paths.MICRO_BATCH, paths.NUM_GPUS)
ACCUMULATION_LAYOUT = (paths.TP, paths.PP)


class UsageError(Exception):
    """A command-line mistake: printed as one line, exit code 2."""


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
    "fastest": "--preset llama-3-8b --gpu h100-sxm --gpus 16 --seq-len 8192 --global-batch 128",
    "cheapest": "--preset llama-3-8b --gpu h100-sxm --seq-len 8192 --global-batch 128 --max-gpus 64 "
                "--train-tokens 15T --gpu-hour-price 2.5",
    "max-context": "--preset llama-3-8b --batch 16 --weights awq-int4 --kv-dtype fp8 --engine vllm --gpu rtx-4090",
    "max-batch": "--preset llama-3-8b --context 8192 --weights awq-int4 --kv-dtype fp8 --engine vllm --gpu rtx-4090",
}
# Serving questions under `solve` (the same answers as `vramgui serve --solve NAME`; serving's fewest GPUs is
# `serve --solve min-gpus`, since `solve min-gpus` is training's).
SERVE_QUESTIONS = {"max-context": "serving: the longest --context that fits for --batch sequences",
                   "max-batch": "serving: the most concurrent sequences of --context tokens that fit"}


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
    _add_plan_questions(questions)
    for name, summary in SERVE_QUESTIONS.items():
        q = questions.add_parser(name, help=summary, description=summary[0].upper() + summary[1:] + ", with the "
                                 "options of `vramgui serve` (the same answer as `vramgui serve --solve "
                                 f"{name}`).\nExit code 1 when nothing fits, 2 for bad input.",
                                 epilog=f"example:\n  vramgui solve {name} {SOLVE_EXAMPLES[name]}",
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
        add_scenario_options(q, serving=True)


def _add_plan_questions(questions: Any) -> None:
    from vramgui.cli.plans import DEFAULT_MAX_GPUS, PLAN_QUESTIONS

    for name, summary in PLAN_QUESTIONS.items():
        q = questions.add_parser(name, help=summary, description=summary[0].upper() + summary[1:] + ".\n"
                                 "Needs --gpu-memory and the GPU's compute figures (--gpu). "
                                 "Exit code 1 when nothing fits, 2 for bad input.",
                                 epilog=f"example:\n  vramgui solve {name} {SOLVE_EXAMPLES[name]}",
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
        if name == "cheapest":
            q.add_argument("--max-gpus", type=int, default=DEFAULT_MAX_GPUS, metavar="N",
                           help=f"the most GPUs tried, in whole nodes (default {DEFAULT_MAX_GPUS:,})")
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
    add_field_option(p, paths.GLOBAL_BATCH, required=True, help="Samples per optimizer step")
    for path in ACCUMULATION_REQUIRED:
        add_field_option(p, path, required=True)
    for path in ACCUMULATION_LAYOUT:
        add_field_option(p, path)
    add_field_option(p, paths.SEQ_LEN, default=None, help="also report tokens per optimizer step")
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
    add_field_option(p, paths.PARAMS, help="also show each strategy's per-GPU memory for this model")
    for path in COMPARE_FINETUNE:  # --finetune lora|qlora adds the LoRA / QLoRA rows (docs/finetune.md)
        add_field_option(p, path, default=finetune_default(path))
    p.add_argument("--training-config", metavar="FILE", help="a training config (docs/training-configs.md): its "
                   "GPUs, dtype, optimizer and LoRA settings where no flag gives them")
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


def _add_serve_parser(sub: Any) -> None:
    p = _command(sub, "serve", "serving memory: weights in their format, the KV cache as the engine allocates it",
                 "Per-GPU memory of serving --batch sequences of --context tokens: the weights in --weights, the KV "
                 "cache as\n--engine allocates it (vLLM's pages and blocks, llama.cpp's cells, transformers' "
                 "DynamicCache), the prefill peak.\nWith --solve, the longest context, the most sequences or the "
                 "fewest GPUs that fit (exit code 1 when nothing does).",
                 "vramgui serve --preset llama-3-8b --context 8192 --batch 16 --weights awq-int4 --kv-dtype fp8 "
                 "--engine vllm --gpu rtx-4090")
    p.add_argument("--solve", choices=("max-context", "max-batch", "min-gpus"), default=None,
                   help="answer a question instead: the largest --context, the largest --batch, the fewest GPUs")
    add_scenario_options(p, serving=True)


def _add_export_parser(sub: Any) -> None:
    p = _command(sub, "export", "the plan as a DeepSpeed JSON, an accelerate YAML or a torchrun + Megatron-LM command",
                 "Write the config that launches the planned run: deepspeed (ZeRO stage, offload, buckets, batch, "
                 "precision, optimizer),\naccelerate (FSDP2, DDP or its DeepSpeed section, GPUs, nodes, precision), "
                 "torchrun (Megatron-LM's TP/PP/CP/EP,\nbatch, precision, recompute, model shape). Settings the "
                 "target cannot hold are named on stderr. Opened again with\n--training-config, an export gives "
                 "the same estimate (docs/training-configs.md).",
                 "vramgui export deepspeed --preset llama-3-8b --gpus 8 --stage 3 --micro-batch 2 -o ds.json")
    p.add_argument("target", nargs="?", choices=EXPORT_TARGETS, metavar="TARGET",
                   help="deepspeed, accelerate or torchrun")
    p.add_argument("-o", "--output", metavar="FILE", help="write it here (atomically) instead of to stdout")
    add_scenario_options(p)


# Each sub-command's parser, in the order `vramgui --help` lists them (SUBCOMMANDS).
PARSERS = {"estimate": _add_estimate_parser, "max-params": _add_max_params_parser, "solve": _add_solve_parser,
            "accumulation": _add_accumulation_parser, "compare": _add_compare_parser,
            "inspect": _add_inspect_parser, "presets": _add_presets_parser, "serve": _add_serve_parser,
            "export": _add_export_parser}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or with ``command`` (a sub-command's name) the main parser and that sub-command's
    parser only: a call builds the one it runs (each scenario command adds about a hundred options). Parsing
    ``[command, ...]`` reads the same either way: the main parser's options, usage and COMMAND are unchanged."""
    parser = _Parser(prog="vramgui", description="Plan the GPU memory of a training run.", epilog=_MAIN_EPILOG,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", "-V", action="version", version=f"vramgui {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in SUBCOMMANDS if command is None else (command,):
        PARSERS[name](sub)
    return parser
