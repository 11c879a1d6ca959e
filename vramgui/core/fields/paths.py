"""The fields that a module outside the core refers to for its behaviour, by name: the one place a window, a
presenter or the command line gets a field's dotted path from (``tests/test_linters.py`` fails on a path written as
a literal there).

Most code never needs one: the form, the CLI flags, captions, CSV columns and the disabled state iterate the
registry's rows. A constant here is for behaviour tied to one field (typing Φ defines the model by its count; the
``accumulation`` command reads its global batch; ``solve max-seq-len`` varies the sequence length). Each is checked
against the registry on first use (``registry.registry()``), so a renamed field fails at once, not on some path.
"""

from __future__ import annotations

# the model
MODEL_NAME = "model.name"
PARAMS = "model.params"
LARGEST_LAYER = "model.largest_layer"
ARCHITECTURE = "model.architecture"  # the section, not a field: every path below it starts with ARCH_PREFIX
ARCH_PREFIX = ARCHITECTURE + "."
ARCH_FAMILY = ARCH_PREFIX + "family"
ARCH_HIDDEN = ARCH_PREFIX + "hidden_size"
ARCH_HEADS = ARCH_PREFIX + "num_heads"

# precision and the training step
DTYPE = "precision.dtype"
OPTIMIZER = "precision.optimizer"
MICRO_BATCH = "training.micro_batch"
SEQ_LEN = "training.seq_len"
GLOBAL_BATCH = "training.global_batch"
RECOMPUTE = "training.recompute"

# the layout and the strategy
NUM_GPUS = "parallel.num_gpus"
TP = "parallel.tp"
PP = "parallel.pp"
ZERO_STAGE = "parallel.zero_stage"

# the hardware
GPU_NAME = "hardware.gpu_name"
GPU_MEMORY = "hardware.gpu_memory"
RESERVE = "hardware.reserve"

# the time and cost of a run (vramgui.core.time): the inputs the window's time texts name
TRAIN_TOKENS = "training.train_tokens"
PEAK_TFLOPS = "hardware.tflops_16bit"
MEMORY_BANDWIDTH = "hardware.memory_bandwidth"

# fixed per-GPU terms
CUDA_CONTEXT = "overhead.cuda_context"
EXTRA = "overhead.extra"

# fine-tuning
FINETUNE_METHOD = "finetune.method"
DOUBLE_QUANT = "finetune.double_quant"
LORA_RANK = "finetune.lora_rank"
FINETUNE_PREFIX = "finetune."

# serving: the window's Serve mode and the words of its summary
SERVE_MODE = "serve.active"
SERVE_ENGINE = "serve.engine"

# The training fields ``vramgui serve`` also takes, beside the model sources and its own ``serve.*`` section: the
# GPUs and their memory, tensor parallelism, the fixed per-GPU terms and NF4's double quantisation.
SERVING_ALSO = (GPU_MEMORY, RESERVE, NUM_GPUS, TP, CUDA_CONTEXT, EXTRA, DOUBLE_QUANT)

# Not fields: the catalog entries the model and the GPU were chosen from. The window's preset rows have these keys
# (``form_rows``), and an unknown preset name is an error on them (``vramgui.io.presets``).
MODEL_PRESET = "model.preset"
GPU_PRESET = "hardware.gpu"

ALL = (MODEL_NAME, PARAMS, LARGEST_LAYER, ARCH_FAMILY, ARCH_HIDDEN, ARCH_HEADS, DTYPE, OPTIMIZER, MICRO_BATCH, SEQ_LEN,
       GLOBAL_BATCH, RECOMPUTE, NUM_GPUS, TP, PP, ZERO_STAGE, GPU_NAME, GPU_MEMORY, RESERVE, FINETUNE_METHOD, LORA_RANK)
