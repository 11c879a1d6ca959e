"""Which GPU counts a layout accepts: the one rule that validation, the fewest-GPUs solve, the window's *By GPU
count* sweep and the adviser share.

Megatron-Core ``parallel_state.initialize_model_parallel`` lays the world out on two grids that must both tile it:
tp × cp × dp × pp for the dense layers (``world_size % (tp * cp * pp) == 0``; tp × pp with cp = 1) and, for routed
experts, etp × ep × edp × pp (``world_size % (etp * ep * pp) == 0``). A count is accepted when every grid divides
it, i.e. when it is a multiple of the world group, the lcm of the grids. Without experts the expert grid does not
apply (validate.py rejects ep > 1 and an own etp then).
"""

from __future__ import annotations

import math

from vramgui.core.scenario.specs import ParallelSpec, Scenario


def model_grid(p: ParallelSpec) -> int:
    """tp × pp: the ranks that hold one copy of the model (N_d = GPUs / this)."""
    return p.tp * p.pp


def context_grid(p: ParallelSpec) -> int:
    """tp × cp × pp: the ranks that train one sample (dp = GPUs / this)."""
    return p.tp * p.cp * p.pp


def expert_grid(p: ParallelSpec) -> int:
    """etp × ep × pp: the ranks that hold one copy of the routed experts (edp = GPUs / this)."""
    return p.expert_tp * p.ep * p.pp


def has_experts(s: Scenario) -> bool:
    """Whether the expert grid applies: an architecture with routed experts."""
    arch = s.model.architecture
    return arch is not None and arch.is_moe


def group_size(s: Scenario) -> int:
    """The world group: the accepted GPU counts are its multiples, lcm(tp·cp·pp, etp·ep·pp) (tp·cp·pp without
    experts; tp·pp divides tp·cp·pp, so it needs no term of its own)."""
    p = s.parallel
    dense = context_grid(p)
    return math.lcm(dense, expert_grid(p)) if has_experts(s) else dense


def accepts(s: Scenario, n: int) -> bool:
    """Whether ``n`` GPUs tile every grid of the scenario's layout."""
    return n >= 1 and n % group_size(s) == 0


def at_or_above(s: Scenario, n: int) -> int:
    """The fewest accepted GPUs that are at least ``n`` (at least one group)."""
    group = group_size(s)
    return max(1, -(-n // group)) * group


def accepted_counts(s: Scenario, bound: int) -> range:
    """The accepted GPU counts from one group up to ``bound`` (empty when the group is larger), ascending."""
    group = group_size(s)
    return range(group, bound + 1, group)


def group_terms(s: Scenario) -> str:
    """The world group as a formula over the layout's sizes, for a message: "tp × pp", "tp × cp × pp",
    "lcm(tp × cp × pp, etp × ep × pp)"; a term that equals the group is named alone."""
    p = s.parallel
    dense = "tp × cp × pp" if p.cp > 1 else "tp × pp"
    if not has_experts(s) or expert_grid(p) == context_grid(p) or context_grid(p) % expert_grid(p) == 0:
        return dense
    if expert_grid(p) % context_grid(p) == 0:
        return "etp × ep × pp"
    return f"lcm({dense}, etp × ep × pp)"
