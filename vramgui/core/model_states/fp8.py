"""FP8 training (``precision.fp8``): the persistent terms FP8 Linears add beside the parameters - the FP8 weight
copies and the scaling state (TransformerEngine; the sources and the whole account are in
``vramgui.core.activations.fp8``, which also prices the FP8 Linear inputs kept for backward)."""

from __future__ import annotations

from dataclasses import dataclass

from vramgui.core.activations.common import Shape, linear_weights
from vramgui.core.activations.fp8 import (
    CURRENT_BYTES_PER_GEMM,
    DELAYED_BYTES_PER_GEMM,
    SOURCE,
    active_recipe,
    stored,
)
from vramgui.core.model_states.paper import Part
from vramgui.core.parallel.layout import ceil_div, rank_chunks
from vramgui.core.scenario.architecture import Architecture, moe_blocks_between
from vramgui.core.scenario.specs import ParallelSpec, Scenario
from vramgui.core.terms import Derivation, Term
from vramgui.core.text.message import Msg

__all__ = ["Fp8States", "fp8_states", "with_fp8_parameters"]


@dataclass(frozen=True)
class Fp8States:
    """Per GPU: Linear weight elements on the most loaded stage, their FP8 copies, FP8 GEMMs and scaling state."""

    recipe: str
    elements: int
    weight_bytes: int
    gemms: int
    scaling_bytes: int


def _layer_linears(arch: Architecture, parallel: ParallelSpec, moe: bool) -> tuple[int, int]:
    """(Linear weight elements, FP8 GEMMs) of one block on one GPU: attention and MLP Linears split by tp; routed
    experts (TE GroupedLinear, one GEMM per local expert and linear) split by ep and etp; the router stays 16-bit."""
    sh = Shape(b=1, s=1, h=arch.hidden_size, a=arch.num_heads, kv=arch.kv_heads, d=arch.head_size,
               v=arch.vocab_size, t=parallel.tp, sp=False, dtype_bytes=2, attention="flash", recompute="none")
    h = arch.hidden_size
    attn_gemms = (5 if arch.q_lora_rank else 4) if arch.is_mla else 2
    if not moe:
        return linear_weights(sh, arch, False), attn_gemms + 2
    elements = linear_weights(sh, arch, True) - h * arch.num_experts  # the router: no FP8 GEMM
    local = ceil_div(arch.num_experts, parallel.ep)
    width = (3 if arch.gated_mlp else 2) * h * ceil_div(arch.expert_ffn_size, parallel.expert_tp)
    shared = arch.shared_expert_ffn_size if arch.shared_expert_ffn_size is not None else (
        arch.expert_ffn_size * arch.shared_experts)
    return elements + local * width, attn_gemms + 2 * local + (2 if shared else 0)


def fp8_states(scenario: Scenario) -> Fp8States | None:
    """The FP8 copies and scaling state of the most loaded pipeline rank (None: FP8 off or no architecture)."""
    recipe, arch = active_recipe(scenario), scenario.model.architecture
    if recipe == "none" or arch is None:
        return None
    dense_w, dense_g = _layer_linears(arch, scenario.parallel, False)
    moe_w, moe_g = _layer_linears(arch, scenario.parallel, True) if arch.is_moe else (0, 0)
    best = (0, 0)
    for ranges in rank_chunks(arch.num_layers, scenario.parallel):
        n_all = sum(b - a for a, b in ranges)
        n_moe = sum(moe_blocks_between(arch, a, b) for a, b in ranges)
        best = max(best, ((n_all - n_moe) * dense_w + n_moe * moe_w, (n_all - n_moe) * dense_g + n_moe * moe_g))
    elements, gemms = best
    per_gemm = {"delayed": DELAYED_BYTES_PER_GEMM, "current": CURRENT_BYTES_PER_GEMM}.get(recipe, 0)
    return Fp8States(recipe, elements, 2 * stored(recipe, elements), gemms, gemms * per_gemm)


def with_fp8_parameters(params: Part, st: Fp8States) -> Part:
    """The parameters component plus the FP8 weight copies and the scaling state, each a named term."""
    terms = list(params.deriv.terms)
    terms.append(Term(st.weight_bytes, symbol="fp8_weights", style="fine_bytes",
                      label=Msg.of("deriv.fp8_weights", elements=f"{st.elements:,}", recipe=st.recipe)))
    if st.scaling_bytes:
        terms.append(Term(st.scaling_bytes, symbol="fp8_scaling", style="fine_bytes",
                          label=Msg.of("deriv.fp8_scaling", gemms=f"{st.gemms:,}", recipe=st.recipe)))
    added = tuple(terms[len(params.deriv.terms):])
    total = params.bytes + st.weight_bytes + st.scaling_bytes
    d = params.deriv
    formula_terms = None if d.formula_terms is None else (*d.formula_terms, *added)
    return Part(total, Derivation(tuple(terms), total, formula_terms=formula_terms, shape=d.shape),
                params.source + "; " + SOURCE)
