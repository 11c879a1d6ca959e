"""The attention span of each layer from a config.json: ``sliding_window`` and ``layer_types``. Pure, no file access.

No parameter depends on it; the KV cache (``vramgui.core.serve``) and the attention's activations do. Each family
reads the keys its transformers configuration class reads, with that class's defaults
(``src/transformers/models/<model_type>/configuration_<model_type>.py``):

- Mistral (``MistralConfig.sliding_window = 4096``), Mixtral, Phi-3 and Starcoder2 (``None``): one window for every
  layer; the modeling code has no per-layer types.
- Gemma 2 (``sliding_window = 4096``; ``layer_types`` default ``"sliding_attention" if (i + 1) % 2 else
  "full_attention"``) and gpt-oss (``GptOssConfig``: window 128, the same alternation).
- Gemma 3 (``Gemma3TextConfig``: window 4096; ``layer_types`` from the older ``sliding_window_pattern`` key,
  default 6: five sliding layers, then one full).
- Qwen2/Qwen2-MoE/Qwen3/Qwen3-MoE: a window only with ``use_sliding_window`` (default false); ``layer_types``
  default ``"sliding_attention" if i >= max_window_layers`` (28; Qwen3-MoE 48).

A key the config leaves out is filled with the class's default and reported by ``attention_notes`` (never
silently): a Mistral config without ``sliding_window`` gets transformers' 4,096-token window.
"""

from __future__ import annotations

from typing import Any

from vramgui.core.fields.table import MAX_LAYERS, MAX_SEQ
from vramgui.core.scenario.architecture import FULL, SLIDING
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg

_TYPES = {"sliding_attention": SLIDING, "full_attention": FULL}
_QWEN = ("qwen2", "qwen2_moe", "qwen3", "qwen3_moe")
# model_type -> (class, default window, default layer-types rule: "" one kind, "alternate", "pattern", "qwen")
_FAMILIES: dict[str, tuple[str, int | None, str]] = {
    "mistral": ("MistralConfig", 4096, ""),
    "mixtral": ("MixtralConfig", None, ""),
    "phi3": ("Phi3Config", None, ""),
    "starcoder2": ("Starcoder2Config", None, ""),
    "gemma2": ("Gemma2Config", 4096, "alternate"),
    "gemma3_text": ("Gemma3TextConfig", 4096, "pattern"),
    "gpt_oss": ("GptOssConfig", 128, "alternate"),
    "qwen2": ("Qwen2Config", 4096, "qwen"),
    "qwen2_moe": ("Qwen2MoeConfig", 4096, "qwen"),
    "qwen3": ("Qwen3Config", 4096, "qwen"),
    "qwen3_moe": ("Qwen3MoeConfig", 4096, "qwen"),
}
_MAX_WINDOW_LAYERS = {"qwen3_moe": 48}  # the others' max_window_layers default: 28
_GEMMA3_PATTERN = 6  # Gemma3TextConfig: kwargs.get("sliding_window_pattern", 6)


def _fail(model_type: str, key: str, problem: Msg, allowed: Msg | str | None = None) -> InputError:
    return InputError(f"config.{key}", Msg.of("error.config_key", problem=problem, model_type=repr(model_type)),
                      allowed)


def _whole(config: dict[str, Any], model_type: str, key: str, high: int, minimum: int = 1) -> int | None:
    value = config.get(key)
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(model_type, key, Msg.of("error.config_whole_number", value=f"{value!r:.40}"))
    if not minimum <= value <= high:
        raise _fail(model_type, key, Msg.of("error.out_of_range", value=f"{value:,}"),
                    Msg.of("allowed.span", low=minimum, high=f"{high:,}"))
    return value


def shortest_period(kinds: str) -> str:
    """The shortest prefix whose repetition gives ``kinds`` (``"sfsfs"`` -> ``"sf"``): the stored pattern."""
    for n in range(1, len(kinds) + 1):
        if all(kinds[i] == kinds[i % n] for i in range(len(kinds))):
            return kinds[:n]
    return kinds


def _listed_types(config: dict[str, Any], model_type: str, layers: int) -> str | None:
    value = config.get("layer_types")
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(model_type, "layer_types", Msg.of("error.config_layer_type", value=f"{value!r:.40}"))
    if len(value) != layers:
        raise _fail(model_type, "layer_types", Msg.of("error.config_layer_types_length", count=len(value),
                                                      layers=layers))
    unknown = next((v for v in value if v not in _TYPES), None)
    if unknown is not None:
        raise _fail(model_type, "layer_types", Msg.of("error.config_layer_type", value=repr(unknown[:40])))
    return shortest_period("".join(_TYPES[v] for v in value))


def _default_types(config: dict[str, Any], model_type: str, rule: str, layers: int) -> str:
    if rule == "alternate":  # "sliding_attention" if bool((i + 1) % 2) else "full_attention"
        return SLIDING + FULL
    if rule == "pattern":  # "sliding_attention" if bool((i + 1) % sliding_window_pattern) else "full_attention"
        every = _whole(config, model_type, "sliding_window_pattern", MAX_LAYERS) or _GEMMA3_PATTERN
        return SLIDING * (every - 1) + FULL
    if rule == "qwen":  # "sliding_attention" if sliding_window is not None and i >= max_window_layers
        first = _whole(config, model_type, "max_window_layers", MAX_LAYERS, minimum=0)
        first = _MAX_WINDOW_LAYERS.get(model_type, 28) if first is None else first
        return shortest_period("".join(FULL if i < first else SLIDING for i in range(layers)))
    return ""


def attention_fields(config: dict[str, Any], model_type: str, layers: int) -> dict[str, Any]:
    """``sliding_window`` and ``layer_types`` of an Architecture read from ``config`` (``{}`` for a family whose
    modeling code has no sliding window: Llama, GPT-2, DeepSeek...)."""
    family = _FAMILIES.get(model_type)
    if family is None:
        return {}
    _, default_window, rule = family
    if rule == "qwen" and not config.get("use_sliding_window", False):
        return {"sliding_window": None, "layer_types": ""}  # Qwen2Config: sliding_window if use_sliding_window
    window = _whole(config, model_type, "sliding_window", MAX_SEQ, minimum=0) or None  # 0: configs saying "none"
    if "sliding_window" not in config:
        window = default_window
    if window is None:
        return {"sliding_window": None, "layer_types": ""}
    types = _listed_types(config, model_type, layers)
    if types is None:
        types = _default_types(config, model_type, rule, layers)
    return {"sliding_window": window, "layer_types": "" if types == SLIDING else types}


def attention_notes(config: dict[str, Any], model_type: str) -> tuple[Msg, ...]:
    """What ``attention_fields`` took from the configuration class because the config left it out."""
    family = _FAMILIES.get(model_type)
    if family is None:
        return ()
    source, default_window, rule = family
    notes: list[Msg] = []

    def note(key: str, value: str) -> None:
        notes.append(Msg.of("note.config_default", key=key, model_type=model_type, value=value, source=source))

    if rule == "qwen":
        if "use_sliding_window" not in config:
            note("use_sliding_window", "false")
        if not config.get("use_sliding_window", False):
            return tuple(notes)
    if "sliding_window" not in config:
        note("sliding_window", "null" if default_window is None else f"{default_window:,}")
    if rule and "layer_types" not in config:
        if rule == "pattern" and "sliding_window_pattern" not in config:
            note("sliding_window_pattern", str(_GEMMA3_PATTERN))
        elif rule == "qwen" and "max_window_layers" not in config:
            note("max_window_layers", str(_MAX_WINDOW_LAYERS.get(model_type, 28)))
        elif rule == "alternate":
            note("layer_types", "sliding_attention, full_attention, …")
    return tuple(notes)
