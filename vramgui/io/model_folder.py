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

from vramgui.core.architecture import count_params
from vramgui.core.hf_mapping import architecture_from_config
from vramgui.core.specs import ModelSpec
from vramgui.io.hf_config import config_path, model_name, read_config
from vramgui.io.safetensors import WeightsCount, count_weights


@dataclass(frozen=True)
class ModelImport:
    path: str
    spec: ModelSpec
    config_params: int  # exact count of what transformers builds from config.json
    weights: WeightsCount | None  # None: no safetensors weights in the folder
    notes: tuple[str, ...] = ()

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

    def summary(self) -> str:
        """One paragraph for the CLI and the GUI's import dialog."""
        lines = [f"{self.spec.name}: {self.config_params:,} parameters from config.json "
                 f"({self.spec.architecture.model_type if self.spec.architecture else '?'})"]
        w = self.weights
        if w is None:
            lines.append("no safetensors weights found beside it")
        else:
            approx = "" if w.exact else "about "
            lines.append(f"{approx}{w.params:,} parameters in the weights ({w.source}, {w.tensors:,} tensors)")
            for reason, n in w.excluded:
                lines.append(f"  set aside: {n:,} in {reason}")
            if self.mismatch:
                lines.append(f"MISMATCH: weights differ from config.json by {self.difference:+,} parameters")
            else:
                lines.append("weights and config.json agree")
            lines += list(w.notes)
        return "\n".join(lines + list(self.notes))


def import_model(path: str | os.PathLike[str]) -> ModelImport:
    """Read ``config.json`` (a file or a model folder) and, for a folder, count its safetensors weights."""
    p = Path(path)
    config = read_config(p)
    arch = architecture_from_config(config)
    params = count_params(arch)
    spec = ModelSpec(name=model_name(config, p), params=params, architecture=arch)
    folder = config_path(p).parent
    dtype = config.get("torch_dtype", config.get("dtype"))
    notes = []
    if config.get("model_type") != arch.model_type:
        notes.append(f"read model_type {config.get('model_type')!r} as {arch.model_type!r}"
                     + (" (language model only)" if "text_config" in config else ""))
    weights = count_weights(folder, num_layers=arch.num_layers, tied=arch.tied_embeddings,
                            torch_dtype=dtype if isinstance(dtype, str) else None)
    return ModelImport(path=str(p), spec=spec, config_params=params, weights=weights, notes=tuple(notes))
