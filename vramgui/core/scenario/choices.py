"""The closed choices of a scenario, one ``StrEnum`` each.

A member is its string (``DType.BF16 == "bf16"``, ``json.dumps`` and ``str`` give ``"bf16"``), so the JSON,
the scenario files and the CLI keep the values they had; code compares members, not literals. The tuples in
``vramgui.core.scenario.specs`` (``DTYPES``...) are derived from these. The ZeRO stage stays an int.
"""

from __future__ import annotations

from enum import StrEnum


class DType(StrEnum):
    """The dtype of weights, gradients and activations."""

    FP32 = "fp32"
    FP16 = "fp16"
    BF16 = "bf16"


class Recipe(StrEnum):
    """mixed: low-precision weights + fp32 master copy; pure: the dtype alone; amp: fp32 weights, gradients and
    optimizer states with torch.autocast computing in the dtype (HF Trainer's bf16=True over an fp32 model)."""

    MIXED = "mixed"
    PURE = "pure"
    AMP = "amp"


class Optimizer(StrEnum):
    ADAM = "adam"
    ADAMW = "adamw"
    ADAM8BIT = "adam8bit"
    SGD = "sgd"
    SGD_MOMENTUM = "sgd_momentum"
    ADAFACTOR = "adafactor"
    LION = "lion"


class OptimizerImpl(StrEnum):
    """torch.optim's implementations (torch/optim/adamw.py): foreach (the CUDA default), fused, the per-tensor
    for-loop."""

    FOREACH = "foreach"
    FUSED = "fused"
    FOR_LOOP = "for-loop"


class Fp8Recipe(StrEnum):
    """FP8 Linears through TransformerEngine (vramgui.core.model_states.fp8): off, delayed scaling
    (DelayedScaling), per-tensor current scaling (Float8CurrentScaling), MXFP8 block scaling (MXFP8BlockScaling)."""

    NONE = "none"
    DELAYED = "delayed"
    CURRENT = "current"
    MXFP8 = "mxfp8"


class Recompute(StrEnum):
    NONE = "none"
    SELECTIVE = "selective"
    FULL = "full"


class Attention(StrEnum):
    EAGER = "eager"
    FLASH = "flash"


class Implementation(StrEnum):
    """The activation accounting profile: Hugging Face eager modules or fused kernels."""

    HF = "hf"
    FUSED = "fused"


class Loss(StrEnum):
    """Hugging Face's ForCausalLMLoss (fp32 log-softmax over the vocabulary) or a chunked/fused cross-entropy
    (Liger's fused linear cross-entropy, Megatron's fused vocab-parallel loss) that never materialises fp32
    logits."""

    HF = "hf"
    CHUNKED = "chunked"


class Convention(StrEnum):
    """Whose model-state accounting is followed (vramgui.core.model_states.conventions)."""

    PAPER = "paper"
    DEEPSPEED = "deepspeed"
    MEGATRON = "megatron"


class Offload(StrEnum):
    NONE = "none"
    CPU = "cpu"


class FinetuneMethod(StrEnum):
    """Full training, LoRA adapters over a frozen base, QLoRA (LoRA over an NF4 base); docs/finetune.md."""

    FULL = "full"
    LORA = "lora"
    QLORA = "qlora"


class BaseDType(StrEnum):
    """The frozen base's storage: a float dtype, bitsandbytes Int8Params (LLM.int8()) or Params4bit NF4;
    auto: the weights' dtype (qlora: nf4)."""

    AUTO = "auto"
    FP32 = "fp32"
    BF16 = "bf16"
    FP16 = "fp16"
    INT8 = "int8"
    NF4 = "nf4"


class AdapterDType(StrEnum):
    """peft's autocast_adapter_dtype=True keeps adapters in fp32 over a 16-bit base."""

    FP32 = "fp32"
    BF16 = "bf16"


class LoraTargetSet(StrEnum):
    """The named sets of LoRA targets; the field also takes a comma list of module names
    (vramgui.core.finetune.adapters), so it stays open."""

    ATTENTION = "attention"
    ALL_LINEAR = "all-linear"


class WeightFormat(StrEnum):
    """How a served model's weights are stored (``vramgui.core.serve.formats`` has each layout and its source)."""

    BF16 = "bf16"
    FP16 = "fp16"
    FP8 = "fp8"  # vLLM Fp8LinearMethod: e4m3 weights, a per-tensor fp32 scale
    INT8 = "int8"  # bitsandbytes LLM.int8 (Int8Params)
    NF4 = "nf4"  # bitsandbytes Params4bit (with double quantisation: finetune.double_quant)
    GPTQ_INT4 = "gptq-int4"  # AutoGPTQ QuantLinear, 4 bits, group 128
    AWQ_INT4 = "awq-int4"  # AutoAWQ WQLinear_GEMM, 4 bits, group 128
    GGUF_Q8_0 = "gguf-q8_0"
    GGUF_Q6_K = "gguf-q6_k"
    GGUF_Q5_K_M = "gguf-q5_k_m"
    GGUF_Q4_K_M = "gguf-q4_k_m"
    GGUF_Q4_0 = "gguf-q4_0"


class KvDType(StrEnum):
    """The KV cache's element type; ``auto`` = the model's 16-bit dtype (vLLM ``--kv-cache-dtype auto``)."""

    AUTO = "auto"
    FP16 = "fp16"
    BF16 = "bf16"
    FP8 = "fp8"  # vLLM fp8 (e4m3): one byte
    Q8_0 = "q8_0"  # llama.cpp --cache-type-k/v q8_0: 34 bytes per 32
    Q4_0 = "q4_0"  # llama.cpp q4_0: 18 bytes per 32


class Engine(StrEnum):
    """The serving engine whose allocation is reproduced (docs/serving.md)."""

    HF = "hf"  # transformers generate() with its DynamicCache
    VLLM = "vllm"
    LLAMA_CPP = "llama.cpp"
