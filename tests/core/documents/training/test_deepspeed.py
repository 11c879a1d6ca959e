"""DeepSpeed configs: batch arithmetic (DeepSpeedConfig._set_batch_related_parameters), the hidden-size autos
(transformers HfTrainerDeepSpeedConfig.trainer_config_finalize), ZeRO keys under both their names, offload."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vramgui.core.documents.training import deepspeed
from vramgui.core.documents.training.detect import context_of, with_deepspeed
from vramgui.core.documents.training.imported import Include
from vramgui.core.documents.training.resolve import apply, finish
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.specs import ModelSpec, ParallelSpec, Scenario
from vramgui.core.text.errors import InputError


def taken(imported):
    return {t.path: t.value for t in imported.taken}


def plan(doc, gpus=8, hidden=None, fixed=None):
    imported = deepspeed.read(doc)
    s = Scenario(model=ModelSpec(params=10**9), parallel=ParallelSpec(num_gpus=gpus))
    if hidden:
        arch = Architecture(num_layers=2, hidden_size=hidden, num_heads=8, ffn_size=4 * hidden, vocab_size=1000)
        s = replace(s, model=ModelSpec(architecture=arch))
    s = apply(imported, s)
    return finish(imported, s, fixed or {})


@pytest.mark.parametrize(("doc", "micro", "total"), [
    ({"train_batch_size": 64, "train_micro_batch_size_per_gpu": 2}, 2, 64),  # accumulation = 64 / (2 × 8) = 4
    ({"train_batch_size": 64, "gradient_accumulation_steps": 2}, 4, 64),  # micro = 64 / (8 × 2)
    ({"train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 4}, 2, 64),  # total = 2 × 4 × 8
    ({"train_batch_size": 32}, 4, 32),  # only the total: accumulation 1, micro = 32 / 8
    ({"train_micro_batch_size_per_gpu": 3}, 3, None),  # only the micro-batch: one per step
])
def test_any_two_batch_numbers_give_the_third(doc, micro, total):
    s, _ = plan(doc)
    assert (s.training.micro_batch, s.training.global_batch) == (micro, total)


def test_a_total_that_does_not_split_names_its_keys():
    with pytest.raises(InputError, match="train_batch_size, gradient_accumulation_steps"):
        plan({"train_batch_size": 60, "gradient_accumulation_steps": 2})


def test_hidden_size_autos_follow_transformers():
    doc = {"zero_optimization": {"stage": 3, "reduce_bucket_size": "auto", "stage3_prefetch_bucket_size": "auto",
                                 "stage3_param_persistence_threshold": "auto"}}
    s, report = plan(doc, hidden=4096)
    assert s.overhead.reduce_bucket == 4096**2 == 16_777_216
    assert s.overhead.zero3_prefetch == int(0.9 * 4096**2) == 15_099_494
    persistence = [u for u in report.unresolved if u.key.endswith("param_persistence_threshold")]
    assert persistence and "40,960" in persistence[0].value  # 10 × 4096, no vramgui input


def test_hidden_size_autos_without_a_model_are_unresolved():
    s, report = plan({"zero_optimization": {"stage": 2, "reduce_bucket_size": "auto"}})
    assert s.overhead.reduce_bucket is None
    assert [u.key for u in report.unresolved] == ["zero_optimization.reduce_bucket_size"]


def test_a_flag_overrides_an_auto_and_the_report_says_so():
    doc = {"zero_optimization": {"stage": 3, "reduce_bucket_size": "auto"}}
    s, report = plan(doc, hidden=1024, fixed={"overhead.reduce_bucket": "--reduce-bucket"})
    assert s.overhead.reduce_bucket is None  # the caller's flag value stays
    assert [e.overridden for e in report.taken if e.path == "overhead.reduce_bucket"] == ["--reduce-bucket"]


def test_zero_keys_under_both_names_and_floats_as_json_writes_them():
    a = taken(deepspeed.read({"zero_optimization": {"stage": 3, "stage3_max_live_parameters": 1e9}}))
    b = taken(deepspeed.read({"zero_optimization": {"stage": 3, "max_live_parameters": 1e9}}))
    assert a["overhead.zero3_live_params"] == b["overhead.zero3_live_params"] == 10**9


def test_offload_devices_and_legacy_booleans():
    doc = {"zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"},
                                 "offload_param": {"device": "nvme"}}}
    imported = deepspeed.read(doc)
    assert taken(imported)["offload.optimizer"] == "cpu"
    assert [u.key for u in imported.unresolved] == ["zero_optimization.offload_param.device"]  # ZeRO-Infinity
    legacy = taken(deepspeed.read({"zero_optimization": {"stage": 2, "cpu_offload": True}}))
    assert legacy["offload.optimizer"] == "cpu"
    below = deepspeed.read({"zero_optimization": {"stage": 2, "offload_param": {"device": "cpu"}}})
    assert "offload.params" not in taken(below) and below.unresolved[0].key.endswith("offload_param.device")


def test_precision_and_fused_adam():
    t = taken(deepspeed.read({"bf16": {"enabled": True}, "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}}))
    assert (t["precision.dtype"], t["precision.recipe"]) == ("bf16", "mixed")
    assert (t["precision.optimizer"], t["precision.optimizer_impl"]) == ("adamw", "fused")  # FusedAdam by default
    assert taken(deepspeed.read({"fp16": {"enabled": False}}))["precision.dtype"] == "fp32"
    t = taken(deepspeed.read({"optimizer": {"type": "Adam", "params": {"torch_adam": True}}}))
    assert t["precision.optimizer_impl"] == "foreach"


def test_autos_inside_a_trainer_take_the_trainer_values():
    from vramgui.core.documents.training import trainer

    outer = trainer.read({"output_dir": "o", "per_device_train_batch_size": 4, "gradient_accumulation_steps": 2,
                          "bf16": True, "deepspeed": "ds.json"})
    ds = {"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto", "bf16": {"enabled": "auto"},
          "zero_optimization": {"stage": 2}}
    assert context_of(outer).micro and context_of(outer).accumulation
    merged = with_deepspeed(outer, Include("deepspeed", "ds.json"), ds, "ds.json")
    t = taken(merged)
    assert (t["precision.dtype"], t["precision.recipe"], t["parallel.zero_stage"]) == ("bf16", "mixed", 2)
    assert not [u for u in merged.unresolved if "auto" in u.value]
    assert merged.batch.micro == (4, "per_device_train_batch_size")


def test_unknown_keys_are_reported_never_dropped():
    imported = deepspeed.read({"zero_optimization": {"stage": 1, "brand_new_knob": 3}, "shiny": True})
    assert {x.key for x in imported.ignored} >= {"zero_optimization.brand_new_knob", "shiny"}


def test_a_bad_value_names_the_key_and_the_file():
    with pytest.raises(InputError, match=r"zero_optimization\.stage3_max_live_parameters in cfg\.json"):
        deepspeed.read({"zero_optimization": {"stage": 3, "stage3_max_live_parameters": 10**30}}, "cfg.json")
