"""Random training configs of every format (the keys each reader knows, with valid, boundary and hostile values,
written as JSON or YAML, sometimes naming a nested DeepSpeed file): ``estimate --training-config`` answers or refuses
in one line, never a traceback, a hang or a NaN (``cli_checks.judge``, docs/fuzzing.md)."""

from __future__ import annotations

import json
import os
import tempfile

import yaml
from hypothesis import event, given
from hypothesis import strategies as st

from tests.fuzz.cli_checks import judge, run_cli
from tests.fuzz.profile import fuzz_settings

VALUES = st.one_of(
    st.sampled_from([0, 1, 2, 3, 8, -1, 10**30, 2**63, 0.5, 1e9, 1e308, "auto", "AUTO", "cpu", "nvme", "none", "",
                     True, False, None, "bf16", "fp16", "no", "fp8", "FULL_SHARD", "SHARD_GRAD_OP", "HYBRID_SHARD",
                     "adamw_torch_fused", "paged_adamw_8bit", "lora", "qlora", "all", "q_proj,v_proj", "1e9",
                     "NaN", "inf", "2", [], {}, ["q_proj"], [1, 2], {"enabled": True}, {"enabled": "auto"},
                     {"device": "cpu"}, {"_component_": "torch.optim.AdamW"}, "x" * 300]),
    st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20))

KEYS = {
    "deepspeed": ["train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps", "fp16", "bf16",
                  "optimizer", "zero_optimization", "zero_optimization.stage", "zero_optimization.offload_optimizer",
                  "zero_optimization.offload_param", "zero_optimization.reduce_bucket_size",
                  "zero_optimization.stage3_max_live_parameters", "zero_optimization.stage3_prefetch_bucket_size",
                  "zero_optimization.cpu_offload", "optimizer.type", "optimizer.params.torch_adam", "bfloat16"],
    "accelerate": ["distributed_type", "num_processes", "num_machines", "mixed_precision", "use_cpu",
                   "fsdp_config.fsdp_sharding_strategy", "fsdp_config.fsdp_version",
                   "fsdp_config.fsdp_reshard_after_forward", "fsdp_config.fsdp_offload_params",
                   "fsdp_config.fsdp_activation_checkpointing", "deepspeed_config.zero_stage",
                   "deepspeed_config.offload_param_device", "deepspeed_config.gradient_accumulation_steps",
                   "deepspeed_config.deepspeed_config_file", "megatron_lm_config.megatron_lm_tp_degree",
                   "megatron_lm_config.megatron_lm_pp_degree"],
    "axolotl": ["base_model", "adapter", "load_in_4bit", "load_in_8bit", "lora_r", "lora_dropout",
                "lora_target_modules", "lora_target_linear", "sequence_len", "micro_batch_size",
                "gradient_accumulation_steps", "batch_size", "bf16", "fp16", "gradient_checkpointing", "optimizer",
                "attn_implementation", "flash_attention", "deepspeed", "fsdp", "fsdp_config", "fsdp_version",
                "context_parallel_size", "liger_fused_linear_cross_entropy"],
    "llamafactory": ["model_name_or_path", "stage", "finetuning_type", "lora_rank", "lora_dropout", "lora_target",
                     "quantization_bit", "double_quantization", "cutoff_len", "per_device_train_batch_size",
                     "gradient_accumulation_steps", "bf16", "pure_bf16", "flash_attn", "deepspeed",
                     "disable_gradient_checkpointing", "enable_liger_kernel", "optim"],
    "torchtune": ["model._component_", "model.lora_attn_modules", "model.apply_lora_to_mlp", "model.lora_rank",
                  "model.lora_dropout", "dtype", "batch_size", "gradient_accumulation_steps",
                  "enable_activation_checkpointing", "tokenizer.max_seq_len", "loss._component_",
                  "optimizer._component_", "optimizer.fused", "fsdp_reshard_after_forward", "fsdp_cpu_offload",
                  "optimizer_in_bwd"],
    "trainer": ["per_device_train_batch_size", "gradient_accumulation_steps", "bf16", "fp16",
                "activation_checkpointing", "gradient_checkpointing", "optim", "use_liger_kernel", "fsdp",
                "fsdp_config", "fsdp_config.reshard_after_forward", "fsdp_config.cpu_offload", "deepspeed",
                "label_smoothing_factor"],
}
ANCHOR = {"deepspeed": {"zero_optimization": {"stage": 2}}, "accelerate": {"distributed_type": "FSDP"},
          "axolotl": {"base_model": "gpt2", "micro_batch_size": 1},
          "llamafactory": {"model_name_or_path": "openai-community/gpt2", "stage": "sft"},
          "torchtune": {"model": {"_component_": "torchtune.models.llama3_2.lora_llama3_2_1b"}},
          "trainer": {"output_dir": "out", "per_device_train_batch_size": 1}}
NESTED = ["ds.json", "missing.json", "cfg.yaml", "", ".", "/dev/null"]


def _set(doc: dict, key: str, value: object) -> None:
    *parents, last = key.split(".")
    node = doc
    for p in parents:
        if not isinstance(node.get(p), dict):
            node[p] = {}
        node = node[p]
    node[last] = value


@st.composite
def configs(draw: st.DrawFn) -> tuple[str, dict, bool, dict]:
    fmt = draw(st.sampled_from(list(KEYS)))
    doc = json.loads(json.dumps(ANCHOR[fmt]))
    for key in draw(st.lists(st.sampled_from(KEYS[fmt]), max_size=8)):
        value = draw(st.sampled_from(NESTED)) if key.endswith(("deepspeed", "deepspeed_config_file")) else draw(VALUES)
        _set(doc, key, value)
    nested = draw(st.dictionaries(st.sampled_from(KEYS["deepspeed"]), VALUES, max_size=5))
    return fmt, doc, draw(st.booleans()), nested


FLAGS = ["--nnodes", "--nproc-per-node", "--tensor-model-parallel-size", "--pipeline-model-parallel-size",
         "--context-parallel-size", "--expert-model-parallel-size", "--num-virtual-stages-per-pipeline-rank",
         "--decoder-first-pipeline-num-layers", "--micro-batch-size", "--global-batch-size", "--seq-length",
         "--bf16", "--fp16", "--sequence-parallel", "--use-distributed-optimizer", "--recompute-activations",
         "--recompute-granularity", "--recompute-method", "--recompute-num-layers", "--moe-expert-capacity-factor",
         "--num-layers", "--hidden-size", "--unknown-flag"]
WORDS = ["1", "2", "8", "0", "-1", "9" * 30, "full", "selective", "uniform", "block", "1.5", "nan", "x", "'a b'",
         '"', "'", "\\", "--", "=", "${N}", "$(echo hi)", "#", "pretrain_gpt.py"]


@fuzz_settings(in_suite=60, share=0.02)
@given(st.lists(st.tuples(st.sampled_from(FLAGS), st.one_of(st.none(), st.sampled_from(WORDS))), max_size=12),
       st.sampled_from(["torchrun", "python -m torch.distributed.run", "#!/bin/bash\ntorchrun"]),
       st.sampled_from([["--preset", "gpt2"], ["--preset", "llama-3.2-1b", "--gpus", "8"], []]))
def test_random_torchrun_lines(pairs, launcher, extra):
    words = [launcher] + [f"{flag} {value}" if value is not None else flag for flag, value in pairs]
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "launch.sh")
        with open(path, "w", encoding="utf-8") as f:
            f.write(" \\\n  ".join(words) + "\n")
        argv = ["estimate", "--training-config", path, *extra, "--json"]
        code, out, err, seconds = run_cli(argv)
        event(f"torchrun: {judge(argv, code, out, err, seconds)}")


@fuzz_settings(in_suite=150, share=0.05)
@given(configs(), st.sampled_from([[], ["--preset", "gpt2"], ["--preset", "llama-3.2-1b", "--gpus", "8"],
                                   ["--params", "1B", "--micro-batch", "2"]]))
def test_random_training_configs(case, extra):
    fmt, doc, as_yaml, nested = case
    with tempfile.TemporaryDirectory() as folder:
        ds = {}
        for key, value in nested.items():
            _set(ds, key, value)
        with open(os.path.join(folder, "ds.json"), "w", encoding="utf-8") as f:
            json.dump(ds, f)
        path = os.path.join(folder, "cfg.yaml" if as_yaml else "cfg.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(yaml.safe_dump(doc) if as_yaml else json.dumps(doc))
        here = os.getcwd()
        os.chdir(folder)
        try:
            argv = ["estimate", "--training-config", path, *extra, "--json"]
            code, out, err, seconds = run_cli(argv)
        finally:
            os.chdir(here)
        event(f"{fmt}: {judge(argv, code, out, err, seconds)}")
