"""Activation terms are identified by key, never by their English names (issue 20: rewording a description must
not change a number). Names stay for display; these tests pin the keys and that keys and names agree one to one,
so merging by key merges exactly the tensors it always did."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from vramgui.core.activations import estimate as activations_estimate
from vramgui.core.activations import fp8, fused
from vramgui.core.activations.common import RawTerm, Shape
from vramgui.core.activations.estimate import estimate_activations
from vramgui.core.activations.lora import LoraActs
from vramgui.core.documents.hf_config import architecture_from_config
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.specs import ParallelSpec, TrainingSpec

FIXTURES = Path(__file__).parents[2] / "fixtures" / "hf_configs"
CONFIGS = sorted(p.parent.name for p in FIXTURES.glob("*/config.json"))
KEY = re.compile(r"^(layers|embedding|output)\.[a-z0-9_]+$")


def _arch(name: str) -> Architecture:
    config = json.loads((FIXTURES / name / "config.json").read_text())
    return replace(architecture_from_config(config), num_layers=4)


def _variants(arch: Architecture):
    for implementation in ("hf", "fused"):
        for attention in ("eager", "flash"):
            for recompute in ("none", "selective", "full"):
                training = TrainingSpec(micro_batch=2, seq_len=64, attention=attention, recompute=recompute,
                                        implementation=implementation)
                yield training, {}
                if implementation == "hf":
                    yield training, {"amp": True}
                else:
                    yield training, {"fp8_recipe": "mxfp8"}
    h, f = arch.hidden_size, arch.ffn_size
    for dropout, adapter_bytes, int8 in ((0.0, 2, False), (0.1, 4, False), (0.0, 4, True)):
        acts = LoraActs(rank=8, dropout=dropout, adapter_bytes=adapter_bytes, int8_base=int8,
                        modules=(("norm1", h, False), ("attn_out", h, False), ("norm2", h, False),
                                 ("mlp_mid", f, False)))
        for attention in ("eager", "flash"):
            yield TrainingSpec(micro_batch=2, seq_len=64, attention=attention), {"lora": acts}


@pytest.mark.parametrize("name", CONFIGS)
def test_every_term_has_a_snake_case_key_unique_on_the_stage_and_one_name_per_key(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    arch = _arch(name)
    seen: list[tuple[list[RawTerm], ...]] = []
    stage_terms = activations_estimate._stage_terms  # to see the terms before they merge

    def spy(dense, moe, n_dense, n_moe, n_inputs, inputs, outputs, sliding, n_sliding):  # type: ignore[no-untyped-def]
        seen.append((dense + (moe or []) + sliding, inputs, outputs))
        return stage_terms(dense, moe, n_dense, n_moe, n_inputs, inputs, outputs, sliding, n_sliding)

    monkeypatch.setattr(activations_estimate, "_stage_terms", spy)
    for training, kw in _variants(arch):
        seen.clear()
        est = estimate_activations(arch, training, ParallelSpec(), "bf16", **kw)
        for place in (part for lists in seen for part in lists):
            names: dict[str, str] = {}
            for t in place:  # one name per key: merging by key joins exactly what merging by name joined
                assert names.setdefault(t.key, t.name) == t.name, (t.key, names[t.key], t.name)
            assert len(set(names.values())) == len(names), names
        keys = [t.key for t in est.terms]
        assert all(KEY.fullmatch(k) for k in keys), keys
        assert len(set(keys)) == len(keys), keys
        assert len({t.name for t in est.terms}) == len(keys)  # keys and display names agree one to one
        assert sum(t.bytes for t in est.terms) == est.total


def _shape(**kw: object) -> Shape:
    base = {"b": 2, "s": 64, "h": 128, "a": 4, "kv": 4, "d": 32, "v": 1000, "t": 1, "sp": False,
            "dtype_bytes": 2, "attention": "flash", "recompute": "none"}
    return Shape(**{**base, **kw})  # type: ignore[arg-type]


def test_fp8_picks_the_linear_inputs_by_key_not_by_name() -> None:
    sh = _shape()
    renamed = RawTerm("qkv_input", "reworded description", 2 * 100, "2·s·b·h", "s·b·h")
    impostor = RawTerm("norm_inputs", "QKV projection input", 2 * 100, "2·s·b·h", "s·b·h")
    out = fp8.layer_terms([renamed, impostor], "delayed", sh, False)
    assert [(t.key, t.bytes) for t in out] == [("qkv_input_fp8", 100), ("norm_inputs", 200)]


def test_fp8_formula_is_built_from_the_element_count() -> None:
    sh = _shape()
    arch = architecture_from_config(json.loads((FIXTURES / "llama-3.2-1b" / "config.json").read_text()))
    terms = fp8.layer_terms(fused.layer_terms(sh, arch, False), "mxfp8", sh, False)
    by_key = {t.key: t for t in terms}
    assert by_key["qkv_input_fp8"].formula == "(1 + 1/32)·s·b·h"
    assert by_key["mlp_second_linear_input_fp8"].formula == "(1 + 1/32)·s·b·f/t"
    assert by_key["attn_out_proj_input_fp8"].formula == "(1 + 1/32)·s·b·a·d/t"
    assert by_key["attention_output_16bit"].bytes == by_key["attn_out_proj_input_fp8"].bytes * 2 * 32 // 33


def test_a_term_without_an_element_count_is_scaled_not_parsed() -> None:
    t = RawTerm("mlp_input", "MLP input", 2 * 64, "2·(s·b·h)")
    (out,) = fp8.layer_terms([t], "delayed", _shape(), False)
    assert (out.bytes, out.formula) == (64, "1/2·(2·(s·b·h))")


def test_dense_and_moe_layers_merge_the_same_keys() -> None:
    arch = architecture_from_config(json.loads((FIXTURES / "deepseek-v2-lite" / "config.json").read_text()))
    assert arch.is_moe and arch.dense_layers
    est = estimate_activations(arch, TrainingSpec(micro_batch=1, seq_len=64), ParallelSpec(), "bf16")
    keys = {t.key for t in est.terms}
    assert {"layers.q", "layers.mlp", "layers.experts_mlp"} <= keys
