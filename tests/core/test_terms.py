"""Derivations are data (terms) with one renderer: the same terms in GB or GiB, English or another language."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vramgui.core.estimate import estimate
from vramgui.core.scenario.specs import ModelSpec, OffloadSpec, OverheadSpec, ParallelSpec, PrecisionSpec, Scenario
from vramgui.core.terms import Derivation, Part, Term, amount, render_derivation, render_formula, render_terms, sci
from vramgui.core.text.message import Msg
from vramgui.core.text.units import GB

SEED = Scenario(model=ModelSpec(params=7 * 10**9), precision=PrecisionSpec(dtype="fp16"),
                parallel=ParallelSpec(num_gpus=8, zero_stage=2))


def test_the_seed_example_renders_as_it_always_has_in_english_gb():
    est = estimate(SEED)
    assert est.per_gpu_total == 26.25 * GB
    shown = {c.key: (c.formula, c.derivation) for c in est.components}
    assert shown == {
        "parameters": ("2Φ", "2 × 7.00e9 = 14.00 GB"),
        "gradients": ("2Φ/N_d", "2 × 7.00e9 / 8 = 1.75 GB"),
        "optimizer_states": ("12Φ/N_d", "12 × 7.00e9 / 8 = 10.50 GB"),
        "master_weights": ("4Φ/N_d", "4 × 7.00e9 / 8 = 3.50 GB"),
        "activations": ("n/a", "not estimable: no architecture known"),
        "other": ("0", "0 (no fixed terms given)"),
    }


def test_the_same_terms_total_in_gib_without_a_gb_left_over():
    grads = estimate(SEED).component("gradients").deriv
    assert render_derivation(grads, "GB") == "2 × 7.00e9 / 8 = 1.75 GB"
    assert render_derivation(grads, "GiB") == "2 × 7.00e9 / 8 = 1.63 GiB"


def test_a_term_is_its_numbers_and_its_symbols():
    term = Term(1_750_000_000, 2, "Φ", 7 * 10**9, 8, "N_d")
    steps = Term(1164, 4, "n_tensors", 291, style="plain")
    deriv = Derivation((term, steps), term.bytes + steps.bytes)
    assert render_formula(deriv) == "2Φ/N_d + 4·n_tensors"
    assert render_terms(deriv) == "2 × 7.00e9 / 8 + 4 × 291"
    assert render_derivation(deriv, "GB") == "2 × 7.00e9 / 8 + 4 × 291 = 1.75 GB"
    assert render_derivation(deriv, "GiB") == "2 × 7.00e9 / 8 + 4 × 291 = 1.63 GiB"


def test_byte_amounts_follow_the_unit_and_a_lone_amount_is_not_repeated():
    deriv = Derivation((Term(2 * 10**9, symbol="cuda_context", style="bytes"),), 2 * 10**9)
    assert render_formula(deriv) == "cuda_context"
    assert render_derivation(deriv, "GB") == "2.00 GB"
    assert render_derivation(deriv, "GiB") == "1.86 GiB"
    assert amount(134_200_000, "GB", fine=True) == "134.2 MB"
    assert amount(134_200_000, "GiB", fine=True) == "128.0 MiB"
    assert amount(3 * 2**30, "GiB", fine=True) == "3.00 GiB"


def test_words_come_from_the_translator_and_numbers_stay():
    deriv = estimate(replace(SEED, parallel=replace(SEED.parallel, zero_stage=3),
                             offload=OffloadSpec(optimizer="cpu"))).component("gradients").deriv
    assert render_derivation(deriv) == "0: gradient partition offloaded to CPU memory"
    assert render_formula(deriv) == "0 (offloaded)"
    upper = lambda context, text: text.upper()  # noqa: E731 - a stand-in translator
    assert render_derivation(deriv, "GB", upper) == "0: GRADIENT PARTITION OFFLOADED TO CPU MEMORY"
    layers = Derivation((Term(10**9, 32, quantity=31_250_000, style="fine_bytes", label=Msg.of("deriv.layers")),),
                        10**9)
    assert render_derivation(layers, "GB") == "32 layers × 31.2 MB = 1.00 GB"
    shown = render_derivation(layers, "GiB", lambda c, t, n=-1: "%n 层 × {quantity}" if "layer" in t else t)
    assert shown == "32 层 × 29.8 MiB = 0.93 GiB"


def test_deepspeed_subtracts_named_components_and_keeps_its_formula():
    est = estimate(replace(SEED, convention="deepspeed", parallel=replace(SEED.parallel, zero_stage=3)))
    opt = est.component("optimizer_states")
    assert opt.formula == "12Φ/N_d"
    assert opt.derivation == "int(18 × 7.00e9 / 8) − params − gradients = 10.50 GB"
    assert sum(t.bytes for t in opt.deriv.terms) == opt.bytes


def test_the_fixed_terms_list_each_input():
    s = replace(SEED, parallel=replace(SEED.parallel, zero_stage=3),
                overhead=OverheadSpec(cuda_context=2 * 10**9, zero3_live_params=10**9, extra=123_456_789))
    other = estimate(s).component("other")
    assert other.formula == "cuda_context + live_params·b_w + extra"
    assert other.derivation == "2.00 GB + 1,000,000,000 × 2 + 0.12 GB = 4.12 GB"
    assert render_derivation(other.deriv, "GiB") == "1.86 GiB + 1,000,000,000 × 2 + 0.11 GiB = 3.84 GiB"


@pytest.mark.parametrize("convention", ["paper", "deepspeed", "megatron"])
@pytest.mark.parametrize("stage", [0, 1, 2, 3])
def test_terms_add_up_to_each_component(convention, stage):
    s = replace(SEED, convention=convention, parallel=replace(SEED.parallel, zero_stage=stage),
                overhead=OverheadSpec(cuda_context=10**9, comm_buffers=5 * 10**8))
    est = estimate(s)
    for c in est.components:
        if c.deriv.terms and c.deriv.shape is None:
            assert sum(t.bytes for t in c.deriv.terms) == c.bytes == c.deriv.total, c.key


def test_json_gains_the_terms_and_keeps_the_strings():
    data = estimate(SEED).to_dict()
    assert data["derivations"]["gradients"] == "2 × 7.00e9 / 8 = 1.75 GB"
    assert data["formulas"]["gradients"] == "2Φ/N_d"
    term = data["terms"]["gradients"]["terms"][0]
    assert term == {"bytes": 1_750_000_000, "coefficient": 2, "symbol": "Φ", "quantity": 7 * 10**9, "divisor": 8,
                    "divisor_symbol": "N_d", "rounding": None, "text": "2 × 7.00e9 / 8"}
    assert data["terms"]["activations"] == {"terms": [], "total": None, "note": "not estimable: no architecture known"}
    assert data["strategy"] == "ZeRO-2" and data["strategy_key"] == "zero2"


def test_sci_writes_three_significant_digits():
    assert sci(7 * 10**9) == "7.00e9"
    assert sci(8_030_261_248) == "8.03e9"
    assert sci(0) == "0"


def test_one_part_type_for_model_states_step_terms_and_estimate_rows() -> None:
    """Issue 20: bytes + derivation + source is one type, keyed where it is looked up."""
    est = estimate(replace(SEED, parallel=ParallelSpec(num_gpus=8, zero_stage=1)))
    assert est.peak is not None
    for c in est.components:
        assert type(c.part) is Part and c.part.key == c.key
        assert (c.deriv, c.source, c.formula) == (c.part.deriv, c.part.source, c.part.formula)
        assert c.bytes == (c.part.bytes if c.estimated else None)
    assert all(type(t) is Part and t.key for t in est.peak.terms)
    assert est.peak.term("cuda_context") is next(t for t in est.peak.terms if t.key == "cuda_context")


def test_activations_that_cannot_be_estimated_have_no_bytes_but_keep_their_derivation() -> None:
    c = estimate(SEED).component("activations")
    assert c.bytes is None and c.part.bytes == 0 and not c.estimated
    assert c.deriv.note is not None and c.deriv.note.code == "deriv.not_estimable"


def test_a_later_part_writes_its_derivation_once_when_read_and_equals_the_part_built_at_once() -> None:
    calls: list[int] = []

    def build() -> Derivation:
        calls.append(1)
        return Derivation((Term(96, 12, "Φ", 8),), 96)

    later = Part.later(96, build, "ZeRO paper", "optimizer_states")
    assert calls == [] and later.bytes == 96 and type(later) is Part
    keyed = later.keyed("other")
    assert calls == [] and keyed.key == "other"  # still not written
    now = Part(96, build(), "ZeRO paper", "optimizer_states")
    assert later == now and hash(later) == hash(now) and repr(later) == repr(now)
    assert later.deriv is later.deriv and len(calls) == 2  # now's, later's: once each
    assert later.formula == "12Φ" and keyed.derivation == now.derivation and len(calls) == 3
    assert replace(later, key="x").deriv == now.deriv
