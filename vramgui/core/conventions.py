"""Accounting conventions: which source's byte counts the model states follow.

* ``paper``: ZeRO paper / the seed (``model_states.paper_model_states``).
* ``deepspeed``: DeepSpeed's ``estimate_zero{2,3}_model_states_mem_needs`` (``deepspeed_convention``).
* ``megatron``: Megatron-LM's distributed-optimizer table (``megatron_convention``).
"""

from __future__ import annotations

from vramgui.core.deepspeed_convention import deepspeed_model_states
from vramgui.core.megatron_convention import megatron_model_states
from vramgui.core.model_states import ModelStates, paper_model_states
from vramgui.core.parallel import num_nodes, ranks_per_node
from vramgui.core.specs import Scenario


def model_states_for(s: Scenario, phi: int, n_d: int, param_tensors: int | None,
                     largest_layer: int | None) -> ModelStates:
    """Model states per GPU for ``phi`` parameters per model-parallel rank and data-parallel size ``n_d``."""
    offload_opt = s.offload.optimizer == "cpu"
    offload_par = s.offload.params == "cpu"
    if s.convention == "deepspeed":
        return deepspeed_model_states(phi, s.parallel.zero_stage, n_d, ranks_per_node(s.parallel),
                                      num_nodes(s.parallel), offload_opt, offload_par, s.offload.zero_init,
                                      largest_layer, s.precision, tp=s.parallel.tp)
    if s.convention == "megatron":
        return megatron_model_states(phi, s.precision, n_d, s.parallel.distributed_optimizer)
    return paper_model_states(phi, s.precision, s.parallel.zero_stage, n_d, ranks_per_node(s.parallel),
                              offload_opt, offload_par, param_tensors)
