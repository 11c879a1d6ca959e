"""The field registry's table for serving (``serve.*``, ``vramgui serve``, ``vramgui.core.serve``): what is served,
how its weights and KV cache are stored, and the engine's own knobs under their engine's flag names."""

from __future__ import annotations

from vramgui.core.fields import rules
from vramgui.core.fields.table import MAX_BATCH, MAX_BYTES, MAX_SEQ, Field, Words
from vramgui.core.fields.table import field_entry as _f
from vramgui.core.scenario.choices import Engine, KvDType, WeightFormat
from vramgui.core.text.message import QT_TRANSLATE_NOOP

SERVE_TABLE: tuple[Field, ...] = (
    _f("serve.active", "bool", QT_TRANSLATE_NOOP("Fields", "Serve mode"),
       QT_TRANSLATE_NOOP("Fields", "Plan serving the model (as vramgui serve does) instead of training it: the serving "
                                   "inputs apply, the training-only inputs do nothing"),
       form="serve", order=0, check_text=QT_TRANSLATE_NOOP("Fields", "Plan serving instead of training")),
    _f("serve.context", "int", QT_TRANSLATE_NOOP("Fields", "Context length"),
       QT_TRANSLATE_NOOP("Fields", "Tokens per sequence, prompt and output together (vLLM max_model_len)"),
       low=1, high=MAX_SEQ, flag="--context", metavar="N", unit="tokens", form="serve", order=10,
       inactive=rules.serving),
    _f("serve.batch", "int", QT_TRANSLATE_NOOP("Fields", "Concurrent sequences"),
       QT_TRANSLATE_NOOP("Fields", "Sequences served at once, each of the full context length"),
       low=1, high=MAX_BATCH, flag="--batch", metavar="N", unit="samples", form="serve", order=20,
       inactive=rules.serving),
    _f("serve.weights", "choice", QT_TRANSLATE_NOOP("Fields", "Weight format"),
       QT_TRANSLATE_NOOP("Fields", "How the weights are stored: 16-bit, FP8, bitsandbytes int8/NF4, GPTQ/AWQ 4-bit "
                                   "(group 128), or a GGUF file type"),
       choices=tuple(WeightFormat), flag="--weights", form="serve", order=30, inactive=rules.serving),
    _f("serve.kv_dtype", "choice", QT_TRANSLATE_NOOP("Fields", "KV cache dtype"),
       QT_TRANSLATE_NOOP("Fields", "auto: the model's 16-bit dtype; fp8 (vLLM); q8_0, q4_0 (llama.cpp)"),
       choices=tuple(KvDType), flag="--kv-dtype", form="serve", order=40, inactive=rules.serving),
    _f("serve.engine", "choice", QT_TRANSLATE_NOOP("Fields", "Engine"),
       QT_TRANSLATE_NOOP("Fields", "Whose allocation is reproduced: transformers (hf), vLLM or llama.cpp"),
       choices=tuple(Engine), flag="--engine", form="serve", order=50, inactive=rules.serving,
       words=(("hf", Words(shown=QT_TRANSLATE_NOOP("Fields", "Hugging Face transformers"),
                           said=QT_TRANSLATE_NOOP("Fields", "Hugging Face transformers"))),
              ("vllm", Words(said="vLLM")),
              ("llama.cpp", Words(shown="llama.cpp", said="llama.cpp")))),
    _f("serve.gpu_memory_utilization", "fraction", QT_TRANSLATE_NOOP("Fields", "GPU memory utilization"),
       QT_TRANSLATE_NOOP("Fields", "vLLM --gpu-memory-utilization: the share of each GPU's memory vLLM may use"),
       low=0.0, high=1.0, flag="--gpu-memory-utilization", metavar="F", form="serve", order=60,
       widget="line", inactive=rules.vllm_utilization),
    _f("serve.max_num_batched_tokens", "int", QT_TRANSLATE_NOOP("Fields", "Max batched tokens"),
       QT_TRANSLATE_NOOP("Fields", "vLLM --max-num-batched-tokens: the tokens of its profile run; empty: vLLM's "
                                   "default (8192 on GPUs of 70 GiB or more but A100, else 2048)"),
       low=1, high=MAX_SEQ, flag="--max-num-batched-tokens", metavar="N", unit="tokens", form="serve", order=70,
       placeholder=QT_TRANSLATE_NOOP("Fields", "vLLM's default"), inactive=rules.vllm_only),
    _f("serve.kv_cache_memory_bytes", "bytes", QT_TRANSLATE_NOOP("Fields", "KV cache memory"),
       QT_TRANSLATE_NOOP("Fields", "vLLM --kv-cache-memory-bytes: the KV pool per GPU given directly (no profiling, "
                                   "utilization ignored); empty: what is left"),
       low=1, high=MAX_BYTES, flag="--kv-cache-memory-bytes", metavar="SIZE", unit="bytes", form="serve",
       order=80, placeholder=QT_TRANSLATE_NOOP("Fields", "what is left"), inactive=rules.vllm_only),
    _f("serve.block_size", "int", QT_TRANSLATE_NOOP("Fields", "Block size"),
       QT_TRANSLATE_NOOP("Fields", "vLLM --block-size: tokens per KV cache page"),
       low=1, high=4096, flag="--block-size", metavar="N", unit="tokens", form="serve", order=90,
       inactive=rules.vllm_only),
    _f("serve.ubatch", "int", QT_TRANSLATE_NOOP("Fields", "Micro-batch tokens"),
       QT_TRANSLATE_NOOP("Fields", "llama.cpp --ubatch-size: tokens per prefill step; the SWA cache keeps this many "
                                   "beyond the window"),
       low=1, high=MAX_SEQ, flag="--ubatch-size", metavar="N", unit="tokens", form="serve", order=100,
       inactive=rules.llama_cpp_only),
)
