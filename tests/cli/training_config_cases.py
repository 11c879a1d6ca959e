"""The real training configs of tests/fixtures/training_configs, each with the flags that say the same plan.

Each case: the fixture (relative to that folder), the folder the tool is run from (nested DeepSpeed paths are
resolved against it, as the tools resolve them), the flags given beside the file (what the file leaves open: the
GPU count, a model it names no preset for, a micro-batch DeepSpeed leaves "auto") and the explicit flags a user would
type for the same run, written from reading the file and the tool's documented semantics (not from vramgui's
output): ``estimate --training-config FILE GIVEN`` must equal ``estimate EXPLICIT``. docs/training-configs.md is made
from this table (``python -m bench.training_configs_table``).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "fixtures" / "training_configs"

H4096 = ("--reduce-bucket", "16777216")  # "auto" reduce_bucket_size = hidden² for hidden 4096
H4096_Z3 = (*H4096, "--prefetch-bucket", "15099494")  # + int(0.9 × 4096²)
H2560_Z3 = ("--reduce-bucket", "6553600", "--prefetch-bucket", "5898240")  # Qwen3-4B, hidden 2560
H6144_Z3 = ("--reduce-bucket", "37748736", "--prefetch-bucket", "33973862")  # Mixtral-8x22B, hidden 6144
QLORA_TARGETS = "gate_proj,down_proj,up_proj,q_proj,v_proj,k_proj,o_proj"
TT_TARGETS = "q_proj,v_proj,o_proj,gate_proj,up_proj,down_proj"

# (fixture, run from, flags beside the file, the same plan as explicit flags)
CASES: list[tuple[str, str, tuple[str, ...], tuple[str, ...]]] = [
    # ---- accelerate YAML
    ("accelerate/examples/config_yaml_templates/fsdp.yaml", "accelerate/examples/config_yaml_templates",
     ("--preset", "llama-3.1-8b"),
     ("--preset", "llama-3.1-8b", "--gpus", "2", "--dtype", "bf16", "--stage", "3", "--offload-optimizer", "none",
      "--offload-params", "none", "--recompute", "none")),
    ("accelerate/examples/config_yaml_templates/deepspeed.yaml", "accelerate/examples/config_yaml_templates",
     ("--preset", "llama-3.1-8b", "--micro-batch", "2"),
     ("--preset", "llama-3.1-8b", "--micro-batch", "2", "--gpus", "2", "--dtype", "fp16", "--precision", "mixed",
      "--stage", "1", "--optimizer", "adamw", "--optimizer-impl", "foreach", *H4096)),
    ("accelerate/examples/config_yaml_templates/multi_gpu.yaml", "accelerate",
     ("--preset", "llama-3.2-1b"),
     ("--preset", "llama-3.2-1b", "--gpus", "2", "--dtype", "bf16", "--stage", "0")),
    ("accelerate/tests/test_configs/latest_fsdp.yaml", "accelerate",
     ("--preset", "gpt2"),
     ("--preset", "gpt2", "--gpus", "1", "--gpus-per-node", "1", "--dtype", "fp32", "--stage", "3",
      "--offload-optimizer", "none", "--offload-params", "none", "--recompute", "none")),
    ("llamafactory/examples/accelerate/fsdp_config_offload.yaml", "llamafactory",
     ("--preset", "llama-3-8b"),
     ("--preset", "llama-3-8b", "--gpus", "2", "--gpus-per-node", "2", "--dtype", "bf16", "--stage", "3",
      "--offload-optimizer", "cpu", "--offload-params", "cpu")),
    # ---- DeepSpeed JSON on its own ("auto" batch sizes given beside it)
    ("accelerate/examples/deepspeed_config_templates/zero_stage2_config.json", "accelerate",
     ("--preset", "llama-3-8b", "--gpus", "8", "--micro-batch", "4"),
     ("--preset", "llama-3-8b", "--gpus", "8", "--micro-batch", "4", "--dtype", "fp16", "--precision", "mixed",
      "--stage", "2", "--optimizer", "adamw", "--optimizer-impl", "foreach", *H4096)),
    ("accelerate/examples/deepspeed_config_templates/zero_stage3_offload_config.json", "accelerate",
     ("--preset", "llama-3-8b", "--gpus", "8", "--micro-batch", "1"),
     ("--preset", "llama-3-8b", "--gpus", "8", "--micro-batch", "1", "--dtype", "fp16", "--precision", "mixed",
      "--stage", "3", "--offload-optimizer", "cpu", "--offload-params", "cpu", "--live-params", "1e9",
      "--optimizer", "adamw", "--optimizer-impl", "fused", *H4096_Z3)),
    ("axolotl/deepspeed_configs/zero1.json", "axolotl",
     ("--preset", "llama-3-8b", "--gpus", "8"),
     ("--preset", "llama-3-8b", "--gpus", "8", "--stage", "1")),
    ("axolotl/deepspeed_configs/zero3_bf16.json", "axolotl",
     ("--preset", "llama-3-8b", "--gpus", "8"),
     ("--preset", "llama-3-8b", "--gpus", "8", "--dtype", "bf16", "--precision", "mixed", "--stage", "3",
      "--live-params", "0", *H4096_Z3)),
    ("llamafactory/examples/deepspeed/ds_z2_offload_config.json", "llamafactory",
     ("--preset", "llama-3-8b", "--gpus", "4", "--micro-batch", "1"),
     ("--preset", "llama-3-8b", "--gpus", "4", "--micro-batch", "1", "--stage", "2", "--offload-optimizer", "cpu",
      "--reduce-bucket", "5e8")),
    ("llamafactory/examples/deepspeed/ds_z3_config.json", "llamafactory",
     ("--preset", "qwen3-4b", "--gpus", "8", "--micro-batch", "1"),
     ("--preset", "qwen3-4b", "--gpus", "8", "--micro-batch", "1", "--stage", "3", "--live-params", "1e9",
      *H2560_Z3)),
    ("deepspeedexamples/training/BingBertSquad/deepspeed_bsz24_config.json", "deepspeedexamples",
     ("--preset", "gpt2", "--gpus", "8"),
     ("--preset", "gpt2", "--gpus", "8", "--micro-batch", "3", "--global-batch", "24", "--dtype", "fp16",
      "--precision", "mixed", "--optimizer", "adam", "--optimizer-impl", "fused")),
    ("deepspeedexamples/training/autotuning/hf/dsconfigs/ds_config_fp16_z3.json", "deepspeedexamples",
     ("--preset", "gpt2", "--gpus", "4", "--micro-batch", "2"),
     ("--preset", "gpt2", "--gpus", "4", "--micro-batch", "2", "--dtype", "fp16", "--precision", "mixed",
      "--stage", "3")),
    ("deepspeedexamples/training/imagenet/config/ds_config.json", "deepspeedexamples",  # 256 = micro × 1 × 8
     ("--preset", "gpt2", "--gpus", "8"),
     ("--preset", "gpt2", "--gpus", "8", "--micro-batch", "32", "--global-batch", "256", "--dtype", "fp32",
      "--stage", "0", "--optimizer", "adam", "--optimizer-impl", "fused")),
    # ---- axolotl YAML (run from the repository root: deepspeed: deepspeed_configs/...)
    ("axolotl/examples/llama-3/qlora-1b.yml", "axolotl",
     ("--gpu", "rtx-4090"),
     ("--preset", "llama-3.2-1b", "--gpu", "rtx-4090", "--seq-len", "2048", "--dtype", "bf16", "--finetune", "qlora",
      "--double-quant", "--adapter-dtype", "fp32", "--lora-rank", "32", "--lora-dropout", "0.05", "--lora-targets",
      QLORA_TARGETS, "--recompute", "full", "--optimizer", "adam8bit", "--attention", "flash", "--micro-batch", "2",
      "--global-batch", "8")),
    ("axolotl/examples/llama-3/lora-8b.yml", "axolotl",
     ("--gpus", "2"),
     ("--preset", "llama-3-8b", "--gpus", "2", "--seq-len", "4096", "--dtype", "bf16", "--finetune", "lora",
      "--base-dtype", "int8", "--adapter-dtype", "fp32", "--lora-rank", "32", "--lora-dropout", "0.05",
      "--lora-targets", "all-linear", "--recompute", "full", "--optimizer", "adam8bit", "--attention", "flash",
      "--micro-batch", "2", "--global-batch", "16")),
    ("axolotl/examples/llama-3/fft-8b.yaml", "axolotl",  # NousResearch/Meta-Llama-3.1-8B: Meta's old repo name
     ("--preset", "llama-3.1-8b", "--gpus", "2", "--stage", "3"),
     ("--preset", "llama-3.1-8b", "--gpus", "2", "--stage", "3", "--seq-len", "8192", "--dtype", "bf16",
      "--precision", "pure", "--recompute", "full", "--optimizer", "adam8bit", "--attention", "flash",
      "--micro-batch", "1", "--global-batch", "16")),
    ("axolotl/examples/mistral/bigstral/bigstral-ds-zero3.yaml", "axolotl",
     ("--gpus", "8"),
     ("--preset", "mixtral-8x22b", "--gpus", "8", "--seq-len", "2048", "--dtype", "bf16", "--precision", "mixed",
      "--recompute", "full", "--optimizer", "adam8bit", "--attention", "flash", "--micro-batch", "1", "--stage", "3",
      "--offload-params", "cpu", "--live-params", "0", *H6144_Z3)),
    ("axolotl/examples/llama-3/qlora-fsdp-70b.yaml", "axolotl",  # casperhansen/llama-3-70b-fp16: no preset
     ("--preset", "llama-3-70b", "--gpus", "8"),
     ("--preset", "llama-3-70b", "--gpus", "8", "--seq-len", "512", "--dtype", "bf16", "--finetune", "qlora",
      "--double-quant", "--adapter-dtype", "fp32", "--lora-rank", "8", "--lora-dropout", "0.05", "--lora-targets",
      "all-linear", "--recompute", "full", "--optimizer", "adamw", "--optimizer-impl", "fused", "--attention",
      "flash", "--stage", "3", "--offload-optimizer", "cpu", "--offload-params", "cpu", "--micro-batch", "1",
      "--global-batch", "32")),
    # ---- LLaMA-Factory YAML (run from the repository root: deepspeed: examples/deepspeed/...)
    ("llamafactory/examples/train_lora/qwen3_lora_sft.yaml", "llamafactory",  # Qwen3-4B-Instruct-2507: no preset
     ("--preset", "qwen3-4b"),
     ("--preset", "qwen3-4b", "--seq-len", "2048", "--dtype", "bf16", "--recompute", "full", "--finetune", "lora",
      "--adapter-dtype", "fp32", "--lora-rank", "8", "--lora-targets", "all-linear", "--micro-batch", "1",
      "--global-batch", "8")),
    ("llamafactory/examples/train_qlora/qwen3_lora_sft_otfq.yaml", "llamafactory",
     ("--preset", "qwen3-4b", "--gpu", "rtx-4090"),
     ("--preset", "qwen3-4b", "--gpu", "rtx-4090", "--seq-len", "2048", "--dtype", "bf16", "--recompute", "full",
      "--finetune", "qlora", "--double-quant", "--adapter-dtype", "fp32", "--lora-rank", "8", "--lora-targets",
      "all-linear", "--micro-batch", "1", "--global-batch", "8")),
    ("llamafactory/examples/train_full/qwen3_full_sft.yaml", "llamafactory",
     ("--preset", "qwen3-4b", "--gpus", "8"),
     ("--preset", "qwen3-4b", "--gpus", "8", "--seq-len", "2048", "--recompute", "full", "--dtype", "bf16",
      "--precision", "mixed", "--stage", "3", "--live-params", "1e9", "--micro-batch", "1", "--global-batch", "16",
      *H2560_Z3)),
    ("llamafactory/examples/extras/fsdp_qlora/llama3_lora_sft.yaml", "llamafactory",  # an Instruct repo: no preset
     ("--preset", "llama-3-8b", "--gpus", "2"),
     ("--preset", "llama-3-8b", "--gpus", "2", "--seq-len", "2048", "--dtype", "bf16", "--recompute", "full",
      "--finetune", "qlora", "--double-quant", "--adapter-dtype", "fp32", "--lora-rank", "8", "--lora-targets",
      "all-linear", "--micro-batch", "1", "--global-batch", "16")),
    # ---- torchtune YAML (max_seq_len: null, the data decides: given beside the file)
    ("torchtune/recipes/configs/llama3_1/8B_qlora_single_device.yaml", "torchtune",
     ("--seq-len", "2048", "--gpu", "rtx-4090"),
     ("--preset", "llama-3.1-8b", "--seq-len", "2048", "--gpu", "rtx-4090", "--finetune", "qlora", "--double-quant",
      "--lora-rank", "8", "--lora-dropout", "0", "--lora-targets", TT_TARGETS, "--dtype", "bf16", "--precision",
      "pure", "--adapter-dtype", "bf16", "--recompute", "full", "--loss", "chunked", "--optimizer", "adamw",
      "--optimizer-impl", "fused", "--micro-batch", "2", "--global-batch", "16")),
    ("torchtune/recipes/configs/llama3_2/1B_lora.yaml", "torchtune",
     ("--seq-len", "2048", "--gpus", "2"),
     ("--preset", "llama-3.2-1b", "--seq-len", "2048", "--gpus", "2", "--finetune", "lora", "--lora-rank", "64",
      "--lora-dropout", "0", "--lora-targets", TT_TARGETS, "--dtype", "bf16", "--precision", "pure",
      "--adapter-dtype", "bf16", "--recompute", "none", "--loss", "chunked", "--optimizer", "adamw",
      "--optimizer-impl", "fused", "--micro-batch", "4", "--global-batch", "64")),
    ("torchtune/recipes/configs/llama3_1/8B_full.yaml", "torchtune",
     ("--seq-len", "4096", "--gpus", "8"),
     ("--preset", "llama-3.1-8b", "--seq-len", "4096", "--gpus", "8", "--stage", "3", "--dtype", "bf16",
      "--precision", "pure", "--recompute", "full", "--loss", "chunked", "--optimizer", "adamw", "--optimizer-impl",
      "fused", "--micro-batch", "2")),
    # ---- TrainingArguments JSON (trainer.args.to_json_string(), transformers 5.24.0)
    ("transformers/trainer_args_bf16_checkpointing.json", "transformers",
     ("--preset", "llama-3.2-1b"),
     ("--preset", "llama-3.2-1b", "--micro-batch", "4", "--global-batch", "32", "--dtype", "bf16", "--recompute",
      "full", "--optimizer", "adamw", "--optimizer-impl", "fused")),
    ("transformers/trainer_args_fused_adamw_fp16.json", "transformers",
     ("--preset", "gpt2", "--gpus", "2"),
     ("--preset", "gpt2", "--gpus", "2", "--micro-batch", "2", "--dtype", "fp16", "--recompute", "none",
      "--optimizer", "adamw", "--optimizer-impl", "fused")),
    ("transformers/trainer_args_fsdp_offload.json", "transformers",
     ("--preset", "llama-3.1-8b", "--gpus", "4"),
     ("--preset", "llama-3.1-8b", "--gpus", "4", "--micro-batch", "1", "--global-batch", "64", "--dtype", "bf16",
      "--optimizer", "adamw", "--optimizer-impl", "fused", "--stage", "3", "--offload-optimizer", "cpu",
      "--offload-params", "cpu", "--recompute", "full")),
    ("transformers/trainer_args_8bit_adam.json", "transformers",
     ("--preset", "qwen2.5-0.5b"),
     ("--preset", "qwen2.5-0.5b", "--micro-batch", "8", "--dtype", "bf16", "--recompute", "none", "--optimizer",
      "adam8bit")),
]
