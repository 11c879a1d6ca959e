"""Training configs on disk (``vramgui estimate --training-config FILE``): read, capped, as JSON or YAML, and the
DeepSpeed file a config names followed; interpreting them is the pure ``vramgui.core.documents.training``.

JSON when the text starts with ``{`` (DeepSpeed, TrainingArguments), a launch script when a line starts with
``torchrun`` (Megatron-LM's flags, as ``vramgui export torchrun`` writes them), YAML otherwise (accelerate, axolotl,
LLaMA-Factory, torchtune), each with the same caps: 1 MB, 64 levels, 100,000 elements (a real config is a few kB).
A nested ``deepspeed:`` / ``deepspeed_config_file`` path is resolved as the tools resolve it: as given, against the
working directory (accelerate ``DeepSpeedPlugin``, transformers ``HfTrainerDeepSpeedConfig``, axolotl
``normalize_config``: ``os.path.exists(cfg.deepspeed)``); one that is not there is reported unresolved.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from vramgui.core.documents.json_text import decode_text, loads_json
from vramgui.core.documents.training import detect, torchtune
from vramgui.core.documents.training.export import Export
from vramgui.core.documents.training.imported import Imported, Left
from vramgui.core.documents.training.resolve import Entry
from vramgui.core.scenario.specs import ModelSpec
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg
from vramgui.io.files import FileReadError, JsonError, atomic_write_text, read_error_message, read_regular_file
from vramgui.io.yaml_text import loads_yaml

MAX_BYTES = 1_000_000
MAX_DEPTH = 64
MAX_ITEMS = 100_000
FIELD = "training_config"


def read_document(path: str | os.PathLike[str], what: str = "training config") -> Any:
    """The parsed file; an ``InputError`` on ``training_config`` naming the file, the line and the problem."""
    name = f"{what} {os.fspath(path)}"
    try:
        text = decode_text(read_regular_file(path, MAX_BYTES, what=what), what=name)
        if text.lstrip()[:1] == "{":
            return loads_json(text, max_depth=MAX_DEPTH, max_items=MAX_ITEMS, what=name)
        command = launch_line(text, name)
        if command is not None:
            return {"torchrun": command}
        return loads_yaml(text, what=name, max_depth=MAX_DEPTH, max_items=MAX_ITEMS)
    except (FileReadError, JsonError) as err:
        raise InputError(FIELD, read_error_message(err)) from None


def launch_line(text: str, what: str = "the launch script") -> list[str] | None:
    """The words of the first torchrun command in a launch script (``\\``-continued lines joined, comments
    dropped), or None when the text holds none; split as a POSIX shell splits it."""
    import shlex

    joined = text.replace("\\\n", " ")
    for line in joined.splitlines():
        words = line.strip()
        if words.startswith(("torchrun ", "python -m torch.distributed.run ")):
            try:
                argv = shlex.split(words, comments=True)
            except ValueError as err:  # an unclosed quote
                raise JsonError(what, Msg.of("error.launch_line", problem=str(err))) from None
            return argv[2:] if argv[0] == "python" else argv
    return None


def load_training_config(path: str | os.PathLike[str], base: str | os.PathLike[str] | None = None
                         ) -> tuple[Imported, tuple[str, ...]]:
    """The file's fields with the DeepSpeed file it names merged in, and the files read. ``base`` is the working
    directory nested paths are resolved against (the process's own by default)."""
    doc = read_document(path)
    name = os.fspath(path)
    if not isinstance(doc, dict):
        raise InputError(FIELD, Msg.of("error.in_file", file=f"training config {name}", problem=Msg.of(
            "error.training_config_not_mapping", kind=type(doc).__name__ if doc is not None else "nothing")))
    imported = detect.read(doc, name)
    files = [name]
    folder = Path(base) if base is not None else Path.cwd()
    for include in imported.includes:
        if include.kind == "deepspeed-inline":
            imported = detect.with_deepspeed(imported, include, detect.inline_deepspeed(doc, include.key),
                                             f"{name} ({include.key})")
            continue
        target = Path(include.target).expanduser()
        resolved = target if target.is_absolute() else folder / target
        if not _exists(resolved):
            left = Left(include.key, include.target, Msg.of("imported.file_missing", path=include.target,
                                                            base=str(folder), tool=detect.TOOLS[imported.format]))
            imported = replace(imported, includes=tuple(i for i in imported.includes if i != include),
                               unresolved=(*imported.unresolved, left))
            continue
        inner = read_document(resolved, "DeepSpeed config")
        imported = detect.with_deepspeed(imported, include, inner, f"DeepSpeed config {resolved}")
        files.append(os.fspath(resolved))
    return imported, tuple(files)


def _exists(path: Path) -> bool:
    """Whether something is at ``path`` (a name too long or with a NUL byte is nothing there, not a crash); what it
    is the capped reader checks when it opens it."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def model_of(imported: Imported, base: str | os.PathLike[str] | None = None
             ) -> tuple[ModelSpec | None, Entry | None, Left | None]:
    """The model the file names: a preset (exact name or Hugging Face repo id, or torchtune's builder), else a local
    model folder as the tool would load it (relative to the working directory); otherwise unresolved."""
    if imported.model is None:
        return None, None, None
    from vramgui.io import presets

    name, key = imported.model
    wanted = torchtune.PRESETS.get(name, name) if imported.format == "torchtune" else name
    preset = presets.exact_model(wanted)
    if preset is not None:
        entry = Entry("model.preset", preset.key, key, Msg.of("imported.model_preset", name=name, preset=preset.key))
        return preset.spec, entry, None
    folder = Path(base) if base is not None else Path.cwd()
    local = Path(name).expanduser()
    local = local if local.is_absolute() else folder / local
    if len(name) <= 4096 and _exists(local / "config.json"):
        from vramgui.io.hf_config import load_model_spec

        return load_model_spec(local), Entry("model.config", name, key, Msg.of("imported.model_folder",
                                                                               name=name)), None
    return None, None, Left(key, name, Msg.of("imported.model_unknown"))


def export_text(exported: Export) -> str:
    """The file's text: JSON for DeepSpeed, YAML for accelerate (as ``accelerate config`` writes it), the command
    line for torchrun."""
    if isinstance(exported.document, str):
        return exported.document + "\n"
    if exported.target == "accelerate":
        import yaml

        return str(yaml.safe_dump(exported.document, sort_keys=False, default_flow_style=False))
    import json

    return json.dumps(exported.document, indent=2) + "\n"


def write_export(path: str | os.PathLike[str], exported: Export) -> None:
    """Written atomically (``atomic_write_text``): a failure leaves an old file as it was. Raises OSError."""
    atomic_write_text(path, export_text(exported))
