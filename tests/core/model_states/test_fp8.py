"""FP8 training through TransformerEngine (vramgui.core.model_states.fp8): the default changes nothing, each term pinned
by hand arithmetic on a small GPT (h = 64, 4 heads, f = 256, 2 layers, s = 128, b = 1, bf16, fused profile)."""

from __future__ import annotations

import dataclasses

import pytest

from vramgui.core.estimate import estimate
from vramgui.core.fields import registry as fields
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.specs import FinetuneSpec, ModelSpec, PrecisionSpec, Scenario, TrainingSpec
from vramgui.core.text.message import english, render

GPT = Architecture(family="gpt", model_type="megatron_gpt", num_layers=2, hidden_size=64, num_heads=4,
                   ffn_size=256, vocab_size=1000, norm="layernorm", attention_bias=False,
                   attention_out_bias=False, mlp_bias=False)
# Linear weight elements: per layer 4h² (QKV + output projection) + 2hf (fc1, fc2) = 16,384 + 32,768; 2 layers
ELEMENTS = 2 * (4 * 64 * 64 + 2 * 64 * 256)
GEMMS = 2 * 4  # QKV, proj, fc1, fc2 per layer


def scenario(fp8: str = "none", *, dtype: str = "bf16", implementation: str = "fused", recompute: str = "none",
             method: str = "full") -> Scenario:
    return Scenario(model=ModelSpec(architecture=GPT), precision=PrecisionSpec(dtype=dtype, fp8=fp8),
                    training=TrainingSpec(micro_batch=1, seq_len=128, recompute=recompute,
                                          implementation=implementation),
                    finetune=FinetuneSpec(method=method), convention="megatron")


def test_default_none_leaves_every_number_unchanged() -> None:
    for impl in ("fused", "hf"):
        base = Scenario(model=ModelSpec(architecture=GPT), training=TrainingSpec(implementation=impl))
        explicit = dataclasses.replace(base, precision=dataclasses.replace(base.precision, fp8="none"))
        assert estimate(base).to_dict() == estimate(explicit).to_dict()
    assert PrecisionSpec().fp8 == "none"
    assert fields.field("precision.fp8").default == "none"


@pytest.mark.parametrize(("recipe", "weights", "scaling"), [
    ("delayed", 2 * ELEMENTS, GEMMS * 4 * 5 * (1024 + 2)),  # scale, scale_inv, 1024-row amax history, fp32
    ("current", 2 * ELEMENTS, GEMMS * 4 * 2 * 5),  # scale + amax per quantizer
    ("mxfp8", 2 * (ELEMENTS + ELEMENTS // 32), 0),  # copy + transpose, one E8M0 scale per 32 elements each
])
def test_weight_copies_and_scaling_state_are_added_to_the_parameters(recipe: str, weights: int,
                                                                      scaling: int) -> None:
    assert ELEMENTS == 98_304
    base, fp8 = estimate(scenario()), estimate(scenario(recipe))
    assert fp8.bytes_of("parameters") == base.bytes_of("parameters") + weights + scaling
    assert fp8.peak is not None and base.peak is not None
    assert fp8.peak.components["parameters"] == fp8.bytes_of("parameters")  # counted once, live all step
    text = fp8.component("parameters").derivation
    assert "FP8 weight copies" in text and f"{ELEMENTS:,} Linear weight elements" in text
    assert ("FP8 scaling state" in text) == bool(scaling)
    assert any("not measured here" in render(n, english) for n in fp8.notes)


def test_delayed_scaling_bytes_by_hand() -> None:
    assert GEMMS * 4 * 5 * 1026 == 164_160
    fp8, base = estimate(scenario("delayed")), estimate(scenario())
    assert fp8.bytes_of("parameters") - (base.bytes_of("parameters") or 0) == 196_608 + 164_160


def test_linear_inputs_saved_in_fp8_lower_the_activations() -> None:
    base, fp8 = estimate(scenario()), estimate(scenario("delayed"))
    assert base.activation_detail is not None and fp8.activation_detail is not None
    # per layer: QKV input 2sbh -> sbh (-8,192), MLP input -8,192, second linear input 2sbf -> sbf (-32,768);
    # the output projection's FP8 input sbh (+8,192) beside the 16-bit output flash attention keeps
    assert (base.bytes_of("activations") or 0) - (fp8.bytes_of("activations") or 0) == 2 * 40_960
    keys = {t.key for t in fp8.activation_detail.terms}
    assert {"layers.qkv_input_fp8", "layers.mlp_input_fp8", "layers.mlp_second_linear_input_fp8",
            "layers.attn_out_proj_input_fp8"} <= keys
    assert "layers.attention_output_16bit" in keys
    assert not {"layers.qkv_input", "layers.mlp_input", "layers.attn_out_proj_input"} & keys
    assert "layers.norm_inputs" in keys  # stays 16-bit
    assert "output.output_layer_input" in keys  # the LM head is no TE Linear: 16-bit


def test_selective_recompute_drops_the_16bit_attention_output() -> None:
    base, fp8 = estimate(scenario(recompute="selective")), estimate(scenario("current", recompute="selective"))
    # per layer: -8,192 (QKV) - 8,192 (MLP input) - 32,768 (second linear) - 8,192 (output projection, FP8 only)
    assert (base.bytes_of("activations") or 0) - (fp8.bytes_of("activations") or 0) == 2 * 57_344


def test_full_recompute_checkpoint_stays_16bit() -> None:
    base, fp8 = estimate(scenario(recompute="full")), estimate(scenario("delayed", recompute="full"))
    assert fp8.bytes_of("activations") == base.bytes_of("activations")
    assert (fp8.bytes_of("parameters") or 0) > (base.bytes_of("parameters") or 0)


@pytest.mark.parametrize(("kw", "code"), [
    ({"dtype": "fp32"}, "inactive.fp8_needs_16bit"),
    ({"implementation": "hf"}, "inactive.fp8_fused_only"),
    ({"method": "lora"}, "inactive.fp8_full_training"),
])
def test_inactive_reasons_and_no_effect(kw: dict[str, str], code: str) -> None:
    s = scenario("delayed", **kw)
    reason = fields.inactive_reason(s, "precision.fp8")
    assert reason is not None and reason.code == code
    off = dataclasses.replace(s, precision=dataclasses.replace(s.precision, fp8="none"))
    assert estimate(s).to_dict() == estimate(off).to_dict()


def test_active_under_fused_bf16_and_fp16() -> None:
    for dtype in ("bf16", "fp16"):
        assert fields.inactive_reason(scenario("delayed", dtype=dtype), "precision.fp8") is None


def test_field_parses_its_choices() -> None:
    f = fields.field("precision.fp8")
    assert f.flag == "--fp8" and f.choices == ("none", "delayed", "current", "mxfp8")
    assert fields.parse(f, "mxfp8") == "mxfp8"
