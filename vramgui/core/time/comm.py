"""Collectives and transfers as time: ring algorithms' volumes over a link, Calculon's link efficiencies.

A ring all-reduce over n ranks moves 2(n − 1)/n of the buffer through each rank's link, a reduce-scatter or an
all-gather (n − 1)/n, an all-to-all (n − 1)/n of what each rank sends (Thakur, Rabenseifner and Gropp 2005,
"Optimization of collective communication operations in MPICH"; NCCL's bus-bandwidth convention,
github.com/NVIDIA/nccl-tests doc/PERFORMANCE.md). Each step of a ring pays the link's latency. The link is the
node's GPU link when the group fits in a node (Megatron-LM orders ranks tp, cp, dp, pp: a group whose members lie
``stride`` ranks apart spans ``stride · size`` consecutive ranks) and the network otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

from vramgui.core.time.rates import NETWORK_EFFICIENCY, NETWORK_LATENCY, NVLINK_EFFICIENCY, NVLINK_LATENCY, Rates

# Collectives: the share of the buffer each rank's link carries, as a factor of (n - 1)/n
RING_FACTOR = {"all_reduce": 2, "reduce_scatter": 1, "all_gather": 1, "all_to_all": 1}


@dataclass(frozen=True)
class Link:
    """A link as a collective sees it: bandwidth per GPU and direction, its efficiency and latency."""

    bandwidth: float
    efficiency: float
    latency: float
    inside_node: bool

    @property
    def rate(self) -> float:
        return self.bandwidth * self.efficiency

    @property
    def name(self) -> str:
        return "intra" if self.inside_node else "inter"


_LINKS: dict[tuple[float, bool], Link] = {}  # (bandwidth, inside a node) -> the link: a few per GPU


def link_for(rates: Rates, stride: int, size: int, gpus_per_node: int) -> Link:
    """The link a group of ``size`` ranks ``stride`` apart runs on: inside one node, or across the network."""
    inside = stride * size <= gpus_per_node
    key = (rates.intra if inside else rates.inter, inside)
    link = _LINKS.get(key)
    if link is None:
        if len(_LINKS) >= 256:
            _LINKS.clear()
        link = _LINKS[key] = (Link(key[0], NVLINK_EFFICIENCY, NVLINK_LATENCY, True) if inside
                              else Link(key[0], NETWORK_EFFICIENCY, NETWORK_LATENCY, False))
    return link


def collective_seconds(kind: str, buffer_bytes: float, ranks: int, link: Link) -> float:
    """Time of one ring collective of a ``buffer_bytes`` buffer over ``ranks`` ranks (0 for one rank)."""
    if ranks <= 1 or buffer_bytes <= 0:
        return 0.0
    factor = RING_FACTOR[kind]
    volume = factor * (ranks - 1) / ranks * buffer_bytes
    return volume / link.rate + factor * (ranks - 1) * link.latency


def collective_volume(kind: str, buffer_bytes: float, ranks: int) -> float:
    """Bytes through each rank's link for one collective."""
    return 0.0 if ranks <= 1 else RING_FACTOR[kind] * (ranks - 1) / ranks * buffer_bytes


def transfer_seconds(nbytes: float, link: Link) -> float:
    """A point-to-point send of ``nbytes``."""
    return 0.0 if nbytes <= 0 else nbytes / link.rate + link.latency
