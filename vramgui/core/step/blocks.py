"""The architecture's block, embedding and head sizes that the step's moments ask for (FSDP2 gathers a whole
decoder block, the root holds the embedding and the head: ``vramgui.core.step.root``, ``step.terms``), worked out
once per model."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from vramgui.core.memo import by_identity, dict_init
from vramgui.core.parallel.layout import blocks_params, ceil_div, experts_split, routed_expert_params
from vramgui.core.scenario import architecture as am

if TYPE_CHECKING:
    from vramgui.core.scenario.architecture import Architecture
    from vramgui.core.scenario.specs import ParallelSpec


@dict_init
@dataclass(frozen=True)
class Blocks:
    """The architecture's own figures the step's moments ask for (``blocks_of``): parameters of the first block,
    of the first MoE block (0: none) and of its routed experts; of the embedding and of the head (with a tied
    matrix counted, as the last pipeline stage keeps it)."""

    first: int
    first_moe: int | None  # the index of the first MoE block, None when there is none
    moe: int
    routed: int
    embedding: int
    head: int
    head_tied: int

    def layer(self, tp: int, ep_etp: int | None) -> int:
        """FSDP2's unit on one GPU: the largest decoder block / tp; an MoE block's routed experts / (ep·etp) when
        they are held apart (``ep_etp`` given: ``experts_split``)."""
        layer = ceil_div(self.first, tp)
        if self.first_moe is not None:
            routed = self.routed if ep_etp is not None else 0
            layer = max(layer, ceil_div(self.moe - routed, tp) + ceil_div(routed, ep_etp or 1))
        return layer


@by_identity(256)
def blocks_of(arch: Architecture) -> Blocks:
    """``Blocks`` of ``arch``, worked out once per model (looked up by identity: ``vramgui.core.memo``)."""
    first = am.first_moe_block(arch)
    return Blocks(blocks_params(arch, 0, 1), first, blocks_params(arch, first, first + 1) if first is not None else 0,
                  routed_expert_params(arch) if first is not None else 0, am.embedding_params(arch),
                  am.head_params(arch), am.head_params(arch, include_tied=True))


def unit_layer(par: ParallelSpec, arch: Architecture) -> int:
    """The largest decoder block on this GPU (FSDP2's unit): ``Blocks.layer`` under this layout."""
    return blocks_of(arch).layer(par.tp, par.ep * par.expert_tp if experts_split(par, arch) else None)
