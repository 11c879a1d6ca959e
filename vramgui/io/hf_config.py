"""Offline import of a Hugging Face ``config.json`` (a file, or the one inside a model folder) into a ModelSpec.

The file is read as data through the capped readers of ``vramgui.io.files``, never executed; no transformers
import, no download. Interpreting the dict is the pure ``vramgui.core.documents.hf_config``. Every failure is an
``InputError`` on the field ``config`` whose message names the file and the reason (a message id; a file the
capped reader cannot open keeps the reader's text, which carries the operating system's words).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from vramgui.core.documents.hf_config import read_architecture
from vramgui.core.scenario.architecture import count_params
from vramgui.core.scenario.specs import ModelSpec
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg
from vramgui.io.files import FileReadError, JsonError, read_error_message, read_json

MAX_CONFIG_BYTES = 8 * 2**20  # real config.json files are a few kB; big id2label tables stay far below this
MAX_CONFIG_DEPTH = 64  # real configs nest three or four levels (text_config.rope_scaling...)
MAX_CONFIG_ITEMS = 1_000_000  # far above any id2label table


def config_path(path: str | os.PathLike[str]) -> Path:
    """A config.json file, or the config.json inside a model folder."""
    p = Path(path)
    return p / "config.json" if p.is_dir() else p


def read_config(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The parsed config.json as a dict. NaN/Infinity are kept (transformers writes configs with Python's json,
    which allows them, and a key vramgui does not read must not block an import; ``hf_mapping`` refuses them
    where a number is read); duplicate keys are refused (which value counts would be a guess)."""
    cfg = config_path(path)
    try:
        data = read_json(cfg, max_bytes=MAX_CONFIG_BYTES, max_depth=MAX_CONFIG_DEPTH, max_items=MAX_CONFIG_ITEMS,
                         what="model config", allow_nan=True)
    except (FileReadError, JsonError) as err:
        raise InputError("config", read_error_message(err)) from None
    if not isinstance(data, dict):
        raise InputError("config", Msg.of("error.config_file_not_object", path=str(cfg), kind=type(data).__name__))
    return data


def model_name(config: dict[str, Any], path: str | os.PathLike[str]) -> str:
    """``_name_or_path`` from the config, else the model folder's name."""
    name = config.get("_name_or_path")
    if isinstance(name, str) and name.strip():
        return name.strip()[:200]
    p = Path(path)
    folder = p if p.is_dir() else p.resolve().parent
    return folder.name or "imported model"


def load_model_spec(path: str | os.PathLike[str]) -> ModelSpec:
    """ModelSpec (name, exact parameter count, architecture) from a config.json file or a model folder."""
    return read_model_spec(path)[0]


def read_model_spec(path: str | os.PathLike[str]) -> tuple[ModelSpec, tuple[Msg, ...]]:
    """``load_model_spec`` and the notes on how config.json was read (the keys it left to the class defaults)."""
    config = read_config(path)
    reading = read_architecture(config)
    arch = reading.architecture
    return ModelSpec(name=model_name(config, path), params=count_params(arch), architecture=arch), reading.notes
