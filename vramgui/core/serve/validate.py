"""The serving inputs' cross-field rules: one ``InputError`` naming the field (its CLI flag) and what is allowed.

What each engine accepts: vLLM needs the attention heads to divide over tp (``ModelConfig.verify_with_parallel_config``:
"Total number of attention heads must be divisible by tensor parallel size") and a pool to size (the GPU's memory
or ``--kv-cache-memory-bytes``); llama.cpp runs GGUF files (or their F16/BF16 type) on one GPU here (it splits
layers, not tensors); transformers dequantises a GGUF file when it loads it, so GGUF formats are refused for it (use
bf16); llama.cpp's quantised K/V rows need whole 32-element blocks.
"""

from __future__ import annotations

from collections.abc import Iterable

from vramgui.core.fields.validate import check_fields
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.choices import Engine, WeightFormat
from vramgui.core.scenario.specs import Scenario
from vramgui.core.serve.formats import GGUF_FTYPES, is_gguf
from vramgui.core.serve.kv import ALLOWED_KV, kv_row, row_fits_blocks
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg

_LLAMA_CPP_WEIGHTS = (WeightFormat.BF16, WeightFormat.FP16, *GGUF_FTYPES)


def _choices(values: Iterable[object]) -> Msg:
    return Msg.of("allowed.choices", choices=", ".join(str(v) for v in values))


def validate_serving(s: Scenario) -> Architecture:
    """The architecture to serve, once every serving input is valid for the engine."""
    check_fields(s)
    arch = s.model.architecture
    if arch is None:
        raise InputError("model.architecture", Msg.of("error.serve_needs_architecture"),
                         Msg.of("allowed.serve_model"))
    v, p = s.serve, s.parallel
    if v.kv_dtype not in ALLOWED_KV[v.engine]:
        raise InputError("serve.kv_dtype", Msg.of("error.serve_kv_dtype", dtype=str(v.kv_dtype), engine=str(v.engine)),
                         _choices(ALLOWED_KV[v.engine]))
    if v.engine == Engine.LLAMA_CPP and v.weights not in _LLAMA_CPP_WEIGHTS:
        raise InputError("serve.weights", Msg.of("error.serve_weights", weights=str(v.weights), engine=str(v.engine)),
                         _choices(_LLAMA_CPP_WEIGHTS))
    if v.engine == Engine.HF and is_gguf(v.weights):
        raise InputError("serve.weights", Msg.of("error.serve_weights", weights=str(v.weights), engine=str(v.engine)),
                         _choices([w for w in WeightFormat if not is_gguf(w)]))
    if p.num_gpus % p.tp:
        raise InputError("parallel.num_gpus", Msg.of("error.serve_gpus_tp", gpus=p.num_gpus, tp=p.tp),
                         Msg.of("allowed.multiple_of", n=p.tp))
    if v.engine == Engine.LLAMA_CPP and p.tp > 1:
        raise InputError("parallel.tp", Msg.of("error.serve_llama_cpp_tp"), Msg.of("allowed.sizes", sizes="1"))
    if arch.num_heads % p.tp:
        sizes = ", ".join(str(d) for d in range(1, min(arch.num_heads, 1024) + 1) if arch.num_heads % d == 0)
        raise InputError("parallel.tp", Msg.of("error.serve_heads_tp", heads=arch.num_heads, tp=p.tp),
                         Msg.of("allowed.sizes", sizes=sizes))
    if v.engine == Engine.VLLM and s.hardware.gpu_memory is None and v.kv_cache_memory_bytes is None:
        raise InputError("hardware.gpu_memory", Msg.of("error.serve_vllm_pool"), Msg.of("allowed.serve_vllm_pool"))
    if v.engine == Engine.LLAMA_CPP and not row_fits_blocks(kv_row(arch, v.engine, v.kv_dtype), v.kv_dtype):
        raise InputError("serve.kv_dtype", Msg.of("error.serve_kv_row", dtype=str(v.kv_dtype)),
                         _choices(("auto", "fp16", "bf16")))
    return arch
