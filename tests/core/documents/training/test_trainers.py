"""accelerate, axolotl, LLaMA-Factory, torchtune and TrainingArguments readers: each tool's own semantics."""

from __future__ import annotations

import pytest

from vramgui.core.documents.training import accelerate, axolotl, detect, fsdp, llamafactory, torchtune, trainer
from vramgui.core.documents.training.imported import Reader
from vramgui.core.text.errors import InputError


def taken(imported):
    return {t.path: t.value for t in imported.taken}


@pytest.mark.parametrize(("value", "stage"), [("FULL_SHARD", 3), ("shard_grad_op", 2), ("NO_SHARD", 0), (1, 3),
                                               ("2", 2), (3, 0)])
def test_fsdp_strategies_by_name_or_number(value, stage):
    r = Reader("accelerate")
    assert fsdp.take_strategy(r, "k", value) == stage


def test_hybrid_sharding_is_unresolved():
    r = Reader("accelerate")
    assert fsdp.take_strategy(r, "k", "HYBRID_SHARD") is None and r.unresolved


@pytest.mark.parametrize(("config", "stage"), [({"fsdp_version": 2, "fsdp_reshard_after_forward": False}, 2),
                                               ({"fsdp_version": 2, "fsdp_reshard_after_forward": True}, 3),
                                               ({"fsdp_version": 2}, 3),  # accelerate's default: reshard
                                               ({}, 3)])  # FSDP1 default FULL_SHARD
def test_accelerate_fsdp_versions(config, stage):
    t = taken(accelerate.read({"distributed_type": "FSDP", "fsdp_config": config, "num_processes": 8}))
    assert t["parallel.zero_stage"] == stage


def test_accelerate_offload_checkpointing_nodes_and_megatron():
    t = taken(accelerate.read({"distributed_type": "FSDP", "num_processes": 16, "num_machines": 2,
                               "fsdp_config": {"fsdp_offload_params": True, "fsdp_activation_checkpointing": True}}))
    assert (t["offload.optimizer"], t["offload.params"], t["training.recompute"]) == ("cpu", "cpu", "full")
    assert (t["parallel.num_gpus"], t["parallel.gpus_per_node"]) == (16, 8)
    m = taken(accelerate.read({"distributed_type": "MEGATRON_LM", "megatron_lm_config": {
        "megatron_lm_tp_degree": 4, "megatron_lm_pp_degree": 2, "megatron_lm_sequence_parallelism": True}}))
    assert (m["parallel.tp"], m["parallel.pp"], m["parallel.sp"], m["convention"]) == (4, 2, True, "megatron")


def test_accelerate_yaml_bare_no_is_fp32():
    assert taken(accelerate.read({"distributed_type": "NO", "mixed_precision": False}))["precision.dtype"] == "fp32"


def test_axolotl_adapters_and_precision():
    t = taken(axolotl.read({"base_model": "x", "adapter": "lora", "load_in_8bit": True, "lora_r": 16,
                            "lora_target_modules": ["q_proj", "v_proj"], "bf16": True}))
    assert (t["finetune.method"], t["finetune.base_dtype"], t["finetune.lora_targets"]) == ("lora", "int8",
                                                                                            "q_proj,v_proj")
    q = taken(axolotl.read({"base_model": "x", "adapter": "qlora", "load_in_4bit": True, "bf16": "auto"}))
    assert (q["finetune.method"], q["finetune.double_quant"], q["precision.dtype"]) == ("qlora", True, "bf16")
    full = taken(axolotl.read({"base_model": "x", "micro_batch_size": 1, "bf16": True}))
    assert full["precision.recipe"] == "pure"  # loaded in bf16 (resolve_dtype), trained as it is
    fp16 = taken(axolotl.read({"base_model": "x", "micro_batch_size": 1, "bf16": "auto", "fp16": True}))
    assert fp16["precision.dtype"] == "fp16"  # fp16 wins over an auto bf16


def test_axolotl_regex_targets_and_modules_to_save_are_unresolved():
    imported = axolotl.read({"base_model": "x", "adapter": "lora", "lora_target_modules": "q_proj|v_proj",
                             "lora_modules_to_save": ["lm_head"]})
    assert {u.key for u in imported.unresolved} == {"lora_target_modules", "lora_modules_to_save"}


def test_llamafactory_defaults():
    t = taken(llamafactory.read({"model_name_or_path": "m", "stage": "sft"}))
    assert (t["finetune.method"], t["finetune.lora_rank"], t["finetune.lora_targets"]) == ("lora", 8, "all-linear")
    assert (t["training.seq_len"], t["training.recompute"]) == (2048, "full")
    assert llamafactory.read({"model_name_or_path": "m", "stage": "sft"}).batch.micro[0] == 8
    full = taken(llamafactory.read({"model_name_or_path": "m", "finetuning_type": "full", "bf16": True}))
    assert full["precision.recipe"] == "amp"  # trainable params upcast to fp32 (model/adapter.py init_adapter)
    pure = taken(llamafactory.read({"model_name_or_path": "m", "finetuning_type": "full", "bf16": True,
                                    "pure_bf16": True}))
    assert pure["precision.recipe"] == "pure"
    q = taken(llamafactory.read({"model_name_or_path": "m", "quantization_bit": 4, "double_quantization": False}))
    assert (q["finetune.method"], q["finetune.double_quant"]) == ("qlora", False)


def test_torchtune_components():
    doc = {"model": {"_component_": "torchtune.models.llama3_1.qlora_llama3_1_8b", "lora_attn_modules": ["q_proj",
           "output_proj"], "apply_lora_to_mlp": True, "lora_rank": 8}, "dtype": "bf16", "optimizer_in_bwd": True,
           "tokenizer": {"max_seq_len": 4096}}
    imported = torchtune.read(doc)
    t = taken(imported)
    assert t["finetune.method"] == "qlora" and t["finetune.lora_targets"] == "q_proj,o_proj,gate_proj,up_proj,down_proj"
    assert (t["precision.recipe"], t["finetune.adapter_dtype"], t["training.seq_len"]) == ("pure", "bf16", 4096)
    assert imported.model == ("llama3_1_8b", "model._component_")
    assert "optimizer_in_bwd" in {u.key for u in imported.unresolved}


def test_trainer_args_names_and_fsdp_forms():
    old = taken(trainer.read({"output_dir": "o", "per_device_train_batch_size": 2, "gradient_checkpointing": True,
                              "fsdp": "full_shard offload auto_wrap", "fsdp_config": {"min_num_params": 0}}))
    assert (old["parallel.zero_stage"], old["offload.params"], old["training.recompute"]) == (3, "cpu", "full")
    new = taken(trainer.read({"output_dir": "o", "per_device_train_batch_size": 2, "fsdp": True,
                              "fsdp_config": {"reshard_after_forward": False}}))
    assert new["parallel.zero_stage"] == 2
    assert taken(trainer.read({"output_dir": "o", "per_device_train_batch_size": 1, "optim": "adamw_hf"}))[
        "precision.optimizer_impl"] == "for-loop"


def test_paged_optimizer_is_taken_and_reported():
    imported = trainer.read({"output_dir": "o", "per_device_train_batch_size": 1, "optim": "paged_adamw_8bit"})
    assert taken(imported)["precision.optimizer"] == "adam8bit"
    assert [u.key for u in imported.unresolved] == ["optim"]


@pytest.mark.parametrize(("doc", "fmt"), [
    ({"zero_optimization": {"stage": 1}}, "deepspeed"), ({"distributed_type": "FSDP"}, "accelerate"),
    ({"base_model": "m", "micro_batch_size": 1}, "axolotl"),
    ({"model_name_or_path": "m", "stage": "sft"}, "llamafactory"),
    ({"model": {"_component_": "torchtune.models.llama3.llama3_8b"}}, "torchtune"),
    ({"output_dir": "o", "per_device_train_batch_size": 8}, "trainer"), ({"hello": 1}, None), ([1, 2], None)])
def test_format_is_told_from_content(doc, fmt):
    assert detect.detect(doc) == fmt


def test_an_unknown_document_is_an_error_naming_the_file():
    with pytest.raises(InputError, match=r"notes\.yaml: not a DeepSpeed"):
        detect.read({"hello": 1}, "notes.yaml")


def test_megatron_launch_lines():
    from vramgui.core.documents.training import megatron

    line = ["torchrun", "--nnodes", "2", "--nproc-per-node=8", "pretrain_gpt.py", "--tensor-model-parallel-size",
            "4", "--sequence-parallel", "--micro-batch-size", "1", "--global-batch-size", "64", "--bf16",
            "--recompute-activations", "--num-layers", "32"]
    imported = megatron.read({"torchrun": line})
    t = taken(imported)
    assert (t["parallel.num_gpus"], t["parallel.gpus_per_node"], t["parallel.tp"], t["parallel.sp"]) == (16, 8, 4,
                                                                                                         True)
    assert (t["training.recompute"], t["precision.dtype"], t["convention"]) == ("selective", "bf16", "megatron")
    assert imported.batch.total == (64, "--global-batch-size")
    assert {x.key for x in imported.ignored} == {"(script)", "--num-layers"}
    partial = megatron.read({"torchrun": ["torchrun", "--recompute-granularity", "full", "--recompute-method",
                                          "block", "--recompute-num-layers", "4"]})
    assert [u.key for u in partial.unresolved] == ["--recompute-granularity"]
    assert detect.detect({"torchrun": line}) == "megatron"


def test_axolotl_without_bf16_or_fp16_trains_in_fp32_and_llamafactory_says_it_cannot_tell():
    t = taken(axolotl.read({"base_model": "x", "micro_batch_size": 1}))
    assert t["precision.dtype"] == "fp32"  # resolve_dtype: torch_dtype float32
    imported = llamafactory.read({"model_name_or_path": "m", "stage": "sft"})
    assert "precision.dtype" not in taken(imported) and "bf16/fp16" in {u.key for u in imported.unresolved}
