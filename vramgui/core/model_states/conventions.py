"""Accounting conventions: which source's byte counts the model states follow.

* ``paper``: ZeRO paper / the seed (``model_states.paper_model_states``).
* ``deepspeed``: DeepSpeed's ``estimate_zero{2,3}_model_states_mem_needs`` (``deepspeed_convention``).
* ``megatron``: Megatron-LM's distributed-optimizer table (``megatron_convention``).

With expert parallelism the routed experts are a second shard (``parallel.experts_split``): Φ_e per GPU, their
gradients and optimizer states divided over the expert data-parallel size N_e = GPUs/(etp·ep·pp), the rest (Φ_d)
over N_d = GPUs/(tp·pp), each by its convention's own rule, and the two added. Megatron-Core keeps the two in
separate gradient buffers and optimizer groups (``megatron/core/distributed/distributed_data_parallel.py``:
``expert_parallel_buffers`` reduced over the expert data-parallel group; ``megatron/core/optimizer/__init__.py``
``get_megatron_optimizer``: a second optimizer over ``expert_data_parallel_group``); DeepSpeed-MoE likewise runs
ZeRO over each expert's data-parallel group (``deepspeed/moe/utils.py`` ``split_params_into_different_moe_groups_
for_optimizer``). The later revision of Megatron's ``theoretical_memory_usage.py`` prices the same split:
(TP-sharded + replicated) · (6 + 12/dp) + expert-sharded · (6 + 12/edp).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from vramgui.core.model_states.deepspeed import deepspeed_model_states
from vramgui.core.model_states.megatron import megatron_model_states
from vramgui.core.model_states.paper import ModelStates, Part, paper_model_states
from vramgui.core.parallel.layout import num_nodes, ranks_per_node
from vramgui.core.scenario.choices import Convention, Offload
from vramgui.core.scenario.specs import Scenario
from vramgui.core.terms import Derivation, Term

StatesFn = Callable[[Scenario, int, int, int | None, int | None], ModelStates]


def _paper(s: Scenario, phi: int, n_d: int, param_tensors: int | None, largest_layer: int | None) -> ModelStates:
    """The ZeRO paper's accounting of ``phi`` parameters over ``n_d`` ranks."""
    return paper_model_states(phi, s.precision, s.parallel.zero_stage, n_d, ranks_per_node(s.parallel),
                              s.offload.optimizer == Offload.CPU, s.offload.params == Offload.CPU, param_tensors)


def _deepspeed(s: Scenario, phi: int, n_d: int, param_tensors: int | None, largest_layer: int | None) -> ModelStates:
    """DeepSpeed's ``estimate_zero{2,3}_model_states_mem_needs``."""
    return deepspeed_model_states(phi, s.parallel.zero_stage, n_d, ranks_per_node(s.parallel), num_nodes(s.parallel),
                                  s.offload.optimizer == Offload.CPU, s.offload.params == Offload.CPU,
                                  s.offload.zero_init, largest_layer, s.precision, tp=s.parallel.tp)


def _megatron(s: Scenario, phi: int, n_d: int, param_tensors: int | None, largest_layer: int | None) -> ModelStates:
    """Megatron-LM's distributed-optimizer table."""
    return megatron_model_states(phi, s.precision, n_d, s.parallel.distributed_optimizer)


# each convention's model-state arithmetic (the facts it decides are ``vramgui.core.scenario.convention``)
MODEL_STATES: dict[str, StatesFn] = {Convention.PAPER: _paper, Convention.DEEPSPEED: _deepspeed,
                                     Convention.MEGATRON: _megatron}


def model_states_for(s: Scenario, phi: int, n_d: int, param_tensors: int | None,
                     largest_layer: int | None, experts: int = 0, n_e: int = 1) -> ModelStates:
    """Model states per GPU for ``phi`` parameters per GPU and data-parallel size ``n_d``; ``experts`` of them
    (routed experts held apart, ``parallel.experts_split``) shard over ``n_e`` instead."""
    if not experts:
        return _one(s, phi, n_d, param_tensors, largest_layer)
    dense = _one(s, phi - experts, n_d, param_tensors, largest_layer)
    routed = _one(s, experts, n_e, 0, 0)
    return _merged(dense, routed)


def _one(s: Scenario, phi: int, n_d: int, param_tensors: int | None, largest_layer: int | None) -> ModelStates:
    return MODEL_STATES[s.convention](s, phi, n_d, param_tensors, largest_layer)


def _relabel(t: Term, symbol: str, divisor: str) -> Term:
    """Φ → Φ_d / Φ_e and N_d → N_e in one shard's terms, so the two read apart in the derivation."""
    return replace(t, symbol=symbol if t.symbol == "Φ" else t.symbol,
                   divisor_symbol=divisor if t.divisor_symbol == "N_d" else t.divisor_symbol)


def _merge_part(a: Part, b: Part) -> Part:
    def terms(p: Part, symbol: str, divisor: str) -> tuple[Term, ...]:
        return tuple(_relabel(t, symbol, divisor) for t in p.deriv.terms)

    def formula(p: Part, symbol: str, divisor: str) -> tuple[Term, ...]:
        chosen = p.deriv.formula_terms if p.deriv.formula_terms is not None else p.deriv.terms
        return tuple(_relabel(t, symbol, divisor) for t in chosen)

    if not b.bytes and not b.deriv.terms:
        return a
    total = a.bytes + b.bytes
    has_formula = a.deriv.formula_terms is not None or b.deriv.formula_terms is not None
    deriv = Derivation(terms(a, "Φ_d", "N_d") + terms(b, "Φ_e", "N_e"), total, note=a.deriv.note,
                       formula_terms=formula(a, "Φ_d", "N_d") + formula(b, "Φ_e", "N_e") if has_formula else None,
                       formula=a.deriv.formula if not a.deriv.terms and not b.deriv.terms else None)
    return Part(total, deriv, a.source)


def _merged(a: ModelStates, b: ModelStates) -> ModelStates:
    other = a.other if b.other is None else b.other if a.other is None else _merge_part(a.other, b.other)
    host = None if a.host_per_node is None and b.host_per_node is None else (
        (a.host_per_node or 0) + (b.host_per_node or 0))
    notes = a.notes + tuple(n for n in b.notes if n not in a.notes)
    return ModelStates(_merge_part(a.parameters, b.parameters), _merge_part(a.gradients, b.gradients),
                       _merge_part(a.optimizer_states, b.optimizer_states),
                       _merge_part(a.master_weights, b.master_weights), other, host, a.host_formula, notes)
