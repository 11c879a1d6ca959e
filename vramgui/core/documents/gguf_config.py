"""A GGUF header (read by ``vramgui.io.gguf``) -> the model it holds: pure, no file access.

llama.cpp writes the architecture under ``general.architecture`` and its hyper-parameters as ``{arch}.<key>``
(``convert_hf_to_gguf.py``, ``gguf-py/gguf/constants.py`` ``Keys.LLM`` / ``Keys.Attention``). They are mapped onto
the config.json names of the matching transformers family and read by ``architecture_from_config``, so a GGUF file
and its config.json give the same Architecture: the vocabulary from the ``token_embd.weight`` shape, a tied head
when the file has no ``output.weight``, attention biases when ``blk.0.attn_q.bias`` exists, the sliding window from
``{arch}.attention.sliding_window`` (llama.cpp's ``set_swa_pattern``: Gemma 2 and gpt-oss alternate, Gemma 3 keeps
every sixth layer full).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vramgui.core.documents.hf_config import architecture_from_config
from vramgui.core.scenario.architecture import count_params
from vramgui.core.scenario.specs import ModelSpec
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg

# llama.cpp architecture name -> transformers model_type
MODEL_TYPES = {"llama": "llama", "qwen2": "qwen2", "qwen3": "qwen3", "qwen2moe": "qwen2_moe",
               "qwen3moe": "qwen3_moe", "gemma": "gemma", "gemma2": "gemma2", "gemma3": "gemma3_text", "phi3": "phi3",
               "starcoder2": "starcoder2", "gpt-oss": "gpt_oss", "olmo2": "olmo2"}
_KEYS = {  # config.json key -> GGUF key under the architecture's prefix
    "num_hidden_layers": "block_count", "hidden_size": "embedding_length", "intermediate_size": "feed_forward_length",
    "num_attention_heads": "attention.head_count", "num_key_value_heads": "attention.head_count_kv",
    "head_dim": "attention.key_length", "max_position_embeddings": "context_length",
    "sliding_window": "attention.sliding_window", "num_local_experts": "expert_count",
    "num_experts_per_tok": "expert_used_count", "moe_intermediate_size": "expert_feed_forward_length",
    "shared_expert_intermediate_size": "expert_shared_feed_forward_length",
}


@dataclass(frozen=True)
class GgufTensor:
    name: str
    dims: tuple[int, ...]  # ggml ne[]: ne[0] is the row length
    ggml_type: int

    @property
    def elements(self) -> int:
        n = 1
        for d in self.dims:
            n *= d
        return n


@dataclass(frozen=True)
class GgufHeader:
    version: int
    metadata: dict[str, Any]
    tensors: tuple[GgufTensor, ...]

    @property
    def architecture(self) -> str:
        arch = self.metadata.get("general.architecture")
        return arch if isinstance(arch, str) else ""

    def tensor(self, name: str) -> GgufTensor | None:
        return next((t for t in self.tensors if t.name == name), None)


def _scalar(value: Any) -> Any:
    """A per-layer array (llama.cpp writes head_count_kv per layer for some models): its one value, if uniform."""
    if isinstance(value, list):
        kinds = set(value)
        return value[0] if len(kinds) == 1 else max(v for v in value if v is not None)
    return value


def config_from_gguf(header: GgufHeader) -> dict[str, Any]:
    """The config.json the header stands for (only the keys the architecture reads)."""
    arch = header.architecture
    model_type = MODEL_TYPES.get(arch)
    if model_type is None:
        raise InputError("config.model_type", Msg.of("error.gguf_architecture", arch=repr(arch[:60])),
                         Msg.of("allowed.choices", choices=", ".join(sorted(MODEL_TYPES))))
    config: dict[str, Any] = {"model_type": model_type}
    for key, gguf_key in _KEYS.items():
        value = header.metadata.get(f"{arch}.{gguf_key}")
        if value is not None:
            config[key] = _scalar(value)
    if model_type in ("qwen2_moe", "qwen3_moe"):
        config["num_experts"] = config.pop("num_local_experts", None)
    embedding = header.tensor("token_embd.weight")
    if embedding is not None and len(embedding.dims) == 2:
        config["vocab_size"] = embedding.dims[1]
    config["tie_word_embeddings"] = header.tensor("output.weight") is None
    if model_type in ("llama", "qwen3", "olmo2"):
        config["attention_bias"] = header.tensor("blk.0.attn_q.bias") is not None
    if config.get("sliding_window") and model_type in ("qwen2", "qwen3", "qwen2_moe", "qwen3_moe"):
        config["use_sliding_window"] = True
    return {k: v for k, v in config.items() if v is not None}


def model_from_gguf(header: GgufHeader, name: str) -> ModelSpec:
    arch = architecture_from_config(config_from_gguf(header))
    title = header.metadata.get("general.name")
    return ModelSpec(name=title[:200] if isinstance(title, str) and title.strip() else name,
                     params=count_params(arch), architecture=arch)
