"""The command line's scenario options, derived from the field registry (``vramgui.core.fields.registry``).

Every registry field with a ``flag`` becomes one argparse option: its metavar, its help (the field's tooltip
and its default), its choices, ``--x/--no-x`` for a true/false field. argparse keeps the text as typed; the
registry turns it into a value (``fields.parse``: exact sizes and counts, the range checked after the unit), so
a bad value is an ``InputError`` that names the field's path, and the CLI adds the flag (``flag_for``).

A few options are not fields: they pick a starting point (``--scenario``, ``--preset``, ``--config``,
``--gpu``) or the output (``--unit``, ``--json``). No Qt, no file reading at import (the CLI starts fast).
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from vramgui.core.fields import paths
from vramgui.core.fields import registry as fields
from vramgui.core.fields.registry import Field
from vramgui.core.scenario.specs import ModelSpec, Scenario
from vramgui.core.text.units import require_size_unit

# The options of `estimate` (and of every command with the scenario options) that are not registry fields.
NON_FIELD_OPTIONS = ("--preset", "--config", "--scenario", "--training-config", "--gpu", "--unit", "--json", "--help",
                     "-h")

# Inputs that a non-field option sets: an error on them names that option.
_OPTION_OF_PATH = {paths.MODEL_PRESET: "--preset", paths.GPU_PRESET: "--gpu",
                   paths.ARCHITECTURE: "--preset or --config",
                   "training_config": "--training-config", "output": "--output"}

GROUP_TITLES = {  # registry group -> title in --help (in the registry's order)
    "model": "model (one of --params, --preset, --config, --scenario)",
    "precision": "precision",
    "training": "training shape",
    "parallel": "parallelism",
    "offload": "offload",
    "hardware": "hardware",
    "overhead": "overheads per GPU",
    "convention": "accounting convention",
    "serve": "serving",
}

NOT_GIVEN: Any = object()


def flag_for(path: str) -> str | None:
    """The option that sets ``path`` (a field's flag, or the non-field option behind it), for messages."""
    return fields.flag_of(path) or _OPTION_OF_PATH.get(path)


def flagged_fields() -> tuple[Field, ...]:
    return tuple(f for f in fields.fields() if f.flag)


def dest_of(f: Field) -> str:
    """The argparse attribute of a field's option (``--micro-batch`` -> ``micro_batch``)."""
    assert f.flag is not None
    return f.flag.lstrip("-").replace("-", "_")


def _metavar(f: Field) -> str | None:
    if f.kind == "choice":
        return "{" + ",".join(str(c) for c in f.choices) + "}"
    return f.metavar


def _help(f: Field, default: Any) -> str:
    """The field's tooltip and the default: "Tensor-parallel size (default 1)"; a tooltip that ends in a
    parenthesis takes the default inside it ("... (ZeRO-3 only; default none)"), not a second one after it."""
    text = f.tooltip or f.label
    if default is not None:
        shown = f"default {fields.format_value(f, default)}"
        text = f"{text[:-1]}; {shown})" if text.endswith(")") else f"{text} ({shown})"
    return text.replace("%", "%%")


def add_field_option(group: Any, path: str, *, default: Any = NOT_GIVEN, required: bool = False,
                     help: str | None = None, metavar: str | None = None) -> None:
    """The option of the field at ``path``. ``default`` is the command's own default (a value: shown in the
    help, and given to ``option_value`` by the command); otherwise the registry's default is shown. ``help``
    and ``metavar`` replace the registry's where a command uses the field in a narrower sense."""
    f = fields.field(path)
    shown = f.default if default is NOT_GIVEN else default
    text = help.replace("%", "%%") if help is not None else _help(f, None if required else shown)
    if f.kind == "bool":
        group.add_argument(f.flag, action=argparse.BooleanOptionalAction, default=None, help=text)
    else:  # kept as typed: the registry parses it (choices included, so every bad value reads the same)
        group.add_argument(f.flag, metavar=metavar or _metavar(f), default=None, required=required, help=text)


def add_scenario_options(p: argparse.ArgumentParser, serving: bool = False) -> None:
    """Every field option, grouped by the registry's groups, with the non-field options in their groups; the
    serving fields only for ``vramgui serve`` (``serving``), which takes the model, the GPUs and those."""
    groups: dict[str, Any] = {}
    for f in flagged_fields():
        if serving != (f.group == "serve") and not (serving and f.path in paths.SERVING_ALSO):
            continue
        if serving and f.group == "model":
            continue
        if serving and "model" not in groups:
            groups["model"] = p.add_argument_group("model (one of --preset, --config, --scenario)")
            _add_model_sources(groups["model"], training=False)  # a training config plans training, not serving
        if f.group not in groups:
            groups[f.group] = p.add_argument_group(GROUP_TITLES.get(f.group, f.group))
            if f.group == "model":
                _add_model_sources(groups["model"])
            elif f.group == "hardware":
                groups["hardware"].add_argument("--gpu", metavar="NAME", help="a GPU preset (see `vramgui presets`)")
        add_field_option(groups[f.group], f.path)
    add_output_options(p)


def _add_model_sources(g: Any, training: bool = True) -> None:
    """--preset and --config both define the whole model: giving both is an error (which one was meant would be a
    guess); --scenario is a starting point that either of them, and every flag, overrides."""
    one = g.add_mutually_exclusive_group()
    one.add_argument("--preset", metavar="NAME", help="a model preset (see `vramgui presets`)")
    one.add_argument("--config", metavar="PATH", help="a Hugging Face config.json (file or folder)")
    g.add_argument("--scenario", metavar="FILE", help="a saved scenario; flags given here override it (--preset or "
                   "--config replaces its model)")
    if not training:
        return
    g.add_argument("--training-config", metavar="FILE", help="a DeepSpeed, accelerate, axolotl, LLaMA-Factory, "
                   "torchtune or TrainingArguments config (docs/training-configs.md); read over --scenario, flags "
                   "given here override it, --preset or --config replaces the model it names")


# Options naming a thing to look up or read: an empty value is a mistake, never "not given".
NAMED_SOURCES = (("preset", "--preset", "a preset name"), ("config", "--config", "a path"),
                 ("scenario", "--scenario", "a path"), ("training_config", "--training-config", "a path"),
                 ("gpu", "--gpu", "a GPU preset name"),
                 ("path", "PATH", "a path"))


def empty_source(args: argparse.Namespace) -> tuple[str, str] | None:
    """(option, what it expects) of the first option above given as an empty or blank value, else None."""
    for dest, option, what in NAMED_SOURCES:
        value = getattr(args, dest, None)
        if isinstance(value, str) and not value.strip():
            return option, what
    return None


def add_output_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--unit", choices=("GB", "GiB"), default="GB", help="GB = 10^9 bytes, GiB = 2^30 bytes")
    p.add_argument("--json", action="store_true", help="machine-readable output (integer bytes)")


def option_value(args: argparse.Namespace, path: str, default: Any = NOT_GIVEN) -> Any:
    """The value of the field option for ``path`` (``fields.parse`` of the text typed; a true/false flag
    checked as it is); ``default`` when the flag was not given."""
    f = fields.field(path)
    raw = getattr(args, dest_of(f), None)
    if raw is None:
        return default
    if f.kind == "bytes" and isinstance(raw, str):
        # "--gpu-memory 80": 80GB or 80GiB? asked, as the window asks (a proposal only when it is in range)
        require_size_unit(raw, f.path, f.low, f.high, f.allowed())
    return fields.check(f, raw) if f.kind == "bool" else fields.parse(f, raw)


def _imported_model(args: argparse.Namespace, imported: Any) -> tuple[Any, Any, Any]:
    """(ModelSpec or None, its report entry, or why it was not used) for the model a training config names."""
    from vramgui.core.documents.training.imported import Left
    from vramgui.core.text.message import Msg
    from vramgui.io.training_configs import model_of

    if imported.model is None:
        return None, None, None
    if args.preset or args.config:
        name, key = imported.model
        option = "--preset" if args.preset else "--config"
        return None, None, Left(key, name, Msg.of("imported.model_given", option=option))
    return model_of(imported)


def scenario_from_args(args: argparse.Namespace) -> Scenario:
    """The scenario file (if any), then --preset/--config and --gpu, then every field flag given on top.

    When --params replaces the count of a model that has an architecture, a note says so (``args.cli_notes``,
    printed on stderr once the command has succeeded): the architecture still sizes the activations."""
    base = Scenario()
    if args.scenario:
        from vramgui.io.scenario_files import load_scenario

        base = load_scenario(args.scenario)
    s = base
    imported = None
    if getattr(args, "training_config", None):
        from vramgui.core.documents.training.resolve import apply
        from vramgui.io.training_configs import load_training_config

        imported, files = load_training_config(args.training_config)
        s = apply(imported, s)
        model = _imported_model(args, imported)
        if model[0] is not None:
            s = replace(s, model=model[0])
    if args.preset:
        from vramgui.io import presets

        s = replace(s, model=presets.find_model(args.preset).spec)
    if args.config and str(args.config).lower().endswith(".gguf"):
        from vramgui.io.gguf import load_gguf_model

        spec, args.gguf_header = load_gguf_model(args.config)  # the header: `serve` compares its tensor bytes
        s = replace(s, model=spec)
    elif args.config:
        from vramgui.core.text.message import render
        from vramgui.io.hf_config import read_model_spec

        spec, read_notes = read_model_spec(args.config)
        s = replace(s, model=spec)
        args.cli_notes = [*getattr(args, "cli_notes", []), *(render(n) for n in read_notes)]
    if args.gpu:
        from vramgui.io import presets

        gpu = presets.find_gpu(args.gpu)
        from vramgui.core.documents.catalog import hardware_with_gpu

        s = replace(s, hardware=hardware_with_gpu(s.hardware, gpu))
    before_flags = s
    given: dict[str, str] = {}
    for f in flagged_fields():
        value = option_value(args, f.path)
        if value is not NOT_GIVEN:
            s = fields.with_value(s, f.path, value)
            given[f.path] = f.flag or f.path
    if imported is not None:
        from vramgui.core.documents.training.resolve import finish

        if model[2] is not None and s.model.params is None and s.model.architecture is None:
            from vramgui.core.text.errors import InputError
            from vramgui.core.text.message import Msg

            name, key = model[2].value, model[2].key
            raise InputError(paths.PARAMS, Msg.of("error.training_config_model", name=name, key=key),
                             Msg.of("allowed.model_sources"))
        s, args.imported = finish(imported, s, given, files, model[1:])
    params = getattr(args, "params", None)  # `serve` has no --params: it needs an architecture
    if params is not None and args.preset is None and args.config is None and base.model.params is None:
        s = fields.with_value(s, paths.MODEL_NAME, "custom")
    count = before_flags.model.params
    if (params is not None and before_flags.model.architecture is not None
            and s.model.params not in (None, count)
            and getattr(args, "command", "") != "max-params"):  # max-params solves for the count
        source = ("--preset" if args.preset else "--config" if args.config
                  else "--training-config" if imported is not None and imported.model else "--scenario")
        old = f" ({count:,})" if count else ""
        notes = getattr(args, "cli_notes", [])
        notes.append(f"--params {args.params} replaces the parameter count of the {source} model{old}; its "
                     "architecture still sizes the activations")
        args.cli_notes = notes
    return s


def compare_file_values(args: argparse.Namespace, wanted: tuple[str, ...], gpus: int,
                        optimizers: frozenset[str]) -> dict[str, Any]:
    """``compare --training-config``: the file's values of ``wanted`` (its batch sizes resolved on its GPU count, or
    ``gpus``, the table's); an optimizer the seed's table does not know (``optimizers``) is reported, not used. The
    report goes to ``args.imported``."""
    from vramgui.core.documents.training.resolve import apply, finish
    from vramgui.io.training_configs import load_training_config

    imported, files = load_training_config(args.training_config)
    s = apply(imported, Scenario(model=ModelSpec(params=1)))
    if not any(t.path == paths.NUM_GPUS for t in imported.taken):
        s = fields.with_value(s, paths.NUM_GPUS, gpus)
    given = {f.path: f.flag or f.path for f in flagged_fields()
             if f.path in wanted and getattr(args, dest_of(f), None) is not None}
    for path in given:
        s = fields.with_value(s, path, option_value(args, path))
    if s.precision.optimizer not in optimizers:
        given[paths.OPTIMIZER] = "compare (the seed's table counts Adam or SGD)"
    s, report = finish(imported, s, given, files)
    args.imported = report
    taken = {e.path for e in report.taken if not e.overridden}
    return {path: fields.get(s, path) for path in wanted if path in taken}
