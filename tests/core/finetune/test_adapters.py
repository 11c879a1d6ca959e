"""LoRA / QLoRA: full training unchanged, exact adapter counts and bitsandbytes storage, the inputs' rules."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vramgui.core.estimate import estimate
from vramgui.core.fields import registry as fields
from vramgui.core.finetune.adapters import lora_plan, quantised_weight_bytes
from vramgui.core.scenario.specs import FinetuneSpec, HardwareSpec, ModelSpec, Scenario, TrainingSpec
from vramgui.core.solve.questions import max_lora_rank, max_params_result
from vramgui.core.text.errors import InputError
from vramgui.io import presets

LLAMA3 = presets.find_model("llama-3-8b").spec
LORA = FinetuneSpec(method="lora", lora_rank=16, lora_targets="all-linear")


def _s(**ft: object) -> Scenario:
    return Scenario(model=LLAMA3, training=TrainingSpec(seq_len=2048, recompute="full"),
                    hardware=HardwareSpec(gpu_memory=24 * 10**9), finetune=replace(LORA, **ft))


def test_full_training_is_the_default_and_reports_no_trainable_count():
    s = Scenario(model=LLAMA3)
    assert s.finetune.method == "full"
    est = estimate(s)
    assert est.trainable_params is None and "trainable_params" not in est.to_dict()["model"]


def test_llama3_8b_all_linear_rank_16_trains_the_published_adapter_count():
    # peft print_trainable_parameters for Llama-3-8B, r=16, all-linear: 41,943,040 (32 layers x 1,310,720)
    assert estimate(_s()).trainable_params == 41_943_040
    assert estimate(_s(lora_targets="attention")).trainable_params == 32 * 16 * (2 * 8192 + 2 * 5120)


def test_only_the_adapters_have_gradients_and_optimizer_states():
    est = estimate(_s())
    phi_a = 41_943_040
    assert est.bytes_of("gradients") == 4 * phi_a  # fp32 adapters
    assert est.bytes_of("optimizer_states") == 8 * phi_a
    assert est.bytes_of("parameters") == 2 * LLAMA3.params + 4 * phi_a  # frozen bf16 base + fp32 adapters


def test_the_adapters_derivations_write_their_count_phi_a_beside_the_frozen_base():
    est = estimate(_s())
    for key in ("gradients", "optimizer_states"):
        assert [t.symbol for t in est.component(key).deriv.terms] == ["Φ_A"]
    assert [t.symbol for t in est.component("parameters").deriv.terms] == ["W_base", "Φ_A"]
    assert est.component("gradients").formula == "4·Φ_A"


def test_nf4_and_int8_weights_take_the_bytes_bitsandbytes_allocates():
    assert quantised_weight_bytes(4096, 4096, "nf4", False) == 4096 * 4096 // 2 + 4 * 4096 * 4096 // 64 + 64
    dq = 4096 * 4096 // 2 + 4096 * 4096 // 64 + 4 * (4096 * 4096 // 64 // 256) + 4 + 64 + 1024
    assert quantised_weight_bytes(4096, 4096, "nf4", True) == dq
    assert quantised_weight_bytes(4096, 1024, "int8", False) == 4096 * 1024 + 4 * 1024
    q = estimate(_s(method="qlora")).bytes_of("parameters")
    assert q < estimate(_s(base_dtype="int8")).bytes_of("parameters") < estimate(_s()).bytes_of("parameters")


def test_qlora_needs_less_than_lora_and_double_quantisation_less_still():
    peaks = [estimate(_s(**kw)).peak.bytes for kw in ({}, {"method": "qlora"},
                                                      {"method": "qlora", "double_quant": True})]
    assert peaks[0] > peaks[1] > peaks[2]


def test_a_target_the_model_lacks_is_refused_on_the_targets_field():
    with pytest.raises(InputError) as err:
        estimate(_s(lora_targets="c_attn"))
    assert err.value.field == "finetune.lora_targets"
    assert estimate(_s(lora_targets="q_proj, v_proj")).trainable_params == 32 * 16 * (4096 + 4096 + 4096 + 1024)


def test_lora_without_an_architecture_says_what_it_needs():
    with pytest.raises(InputError) as err:
        estimate(Scenario(model=ModelSpec(params=7 * 10**9), finetune=LORA))
    assert err.value.field == "finetune.method"


def test_the_targets_field_takes_the_two_sets_or_module_names():
    f = fields.field("finetune.lora_targets")
    assert fields.parse(f, "all-linear") == "all-linear"
    assert fields.parse(f, " q_proj , attn.c_proj ") == "q_proj,attn.c_proj"
    with pytest.raises(InputError):
        fields.parse(f, "q-proj;v")


def test_lora_fields_are_moot_under_full_training_and_the_base_under_qlora():
    full = Scenario()
    assert fields.inactive_reason(full, "finetune.lora_rank") is not None
    assert fields.inactive_reason(full, "finetune.method") is None
    q = replace(full, finetune=FinetuneSpec(method="qlora"))
    assert fields.inactive_reason(q, "finetune.base_dtype") is not None
    assert fields.inactive_reason(q, "finetune.double_quant") is None
    lora = replace(full, finetune=FinetuneSpec(method="lora"))
    assert fields.inactive_reason(lora, "finetune.double_quant") is not None


def test_reverse_solves_grow_with_cheaper_bases():
    lora, qlora = max_params_result(_s()).answer, max_params_result(_s(method="qlora")).answer
    full = max_params_result(replace(_s(), finetune=FinetuneSpec())).answer
    assert full < lora < qlora
    rank = max_lora_rank(_s(method="qlora"))
    assert rank > 16
    assert estimate(_s(method="qlora", lora_rank=rank)).fits
    assert not estimate(_s(method="qlora", lora_rank=rank + 1)).fits


def test_fused_layouts_get_one_adapter_as_peft_sees_them():
    phi3 = presets.find_model("phi-3-mini").spec.architecture
    assert phi3 is not None and phi3.fused_qkv
    plan = lora_plan(phi3, FinetuneSpec(method="lora", lora_rank=8, lora_targets="qkv_proj"), "bf16", 2)
    h = phi3.hidden_size
    assert plan.trainable == phi3.num_layers * 8 * (h + (phi3.num_heads + 2 * phi3.kv_heads) * phi3.head_size)
