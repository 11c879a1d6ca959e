"""Import a local Hugging Face model folder: the count from config.json beside the count in its weights.

Nothing is downloaded or executed and no tensor is loaded: config.json is read as data
(``vramgui.io.hf_config``) and the safetensors files only up to the end of their headers
(``vramgui.io.safetensors``). A difference between the two counts is reported, with the tensors that were set
aside (buffers, quantization scales, extra layers) listed so that the user can see why.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from vramgui.core.documents.hf_config import config_notes, read_architecture
from vramgui.core.estimate import estimate
from vramgui.core.scenario.architecture import count_params
from vramgui.core.scenario.specs import ModelSpec, Scenario
from vramgui.core.text.message import Msg
from vramgui.io.hf_config import config_path, model_name, read_config
from vramgui.io.safetensors import WeightsCount, count_weights


@dataclass(frozen=True)
class ModelImport:
    path: str
    spec: ModelSpec
    config_params: int  # exact count of what transformers builds from config.json
    weights: WeightsCount | None  # None: no safetensors weights in the folder
    notes: tuple[Msg, ...] = ()  # how config.json was read (vramgui.core.text.message ids)

    @property
    def weights_params(self) -> int | None:
        return self.weights.params if self.weights else None

    @property
    def difference(self) -> int | None:
        """weights - config (parameters); None without weights."""
        return None if self.weights is None else self.weights.params - self.config_params

    @property
    def mismatch(self) -> bool:
        return bool(self.difference)


def import_model(path: str | os.PathLike[str]) -> ModelImport:
    """Read ``config.json`` (a file or a model folder) and, for a folder, count its safetensors weights.

    The model is checked by the estimate itself (the default scenario with this model: every architecture
    field's range and the rules between them, some of which live beside the activation formulas, e.g. experts
    per token at most the experts), so ``inspect`` never shows a model that ``estimate --config`` refuses; the
    error is the same InputError."""
    p = Path(path)
    config = read_config(p)
    reading = read_architecture(config)
    arch = reading.architecture
    params = count_params(arch)
    spec = ModelSpec(name=model_name(config, p), params=params, architecture=arch)
    estimate(Scenario(model=spec))
    folder = config_path(p).parent
    dtype = config.get("torch_dtype", config.get("dtype"))
    notes: list[Msg] = list(reading.notes)
    if config.get("model_type") != arch.model_type:
        code = "note.model_type_read_as_text" if "text_config" in config else "note.model_type_read_as"
        notes.append(Msg.of(code, found=repr(config.get("model_type")), used=repr(arch.model_type)))
    notes += config_notes(config, arch.model_type)
    weights = count_weights(folder, num_layers=arch.num_layers, tied=arch.tied_embeddings,
                            torch_dtype=dtype if isinstance(dtype, str) else None)
    return ModelImport(path=str(p), spec=spec, config_params=params, weights=weights, notes=tuple(notes))
