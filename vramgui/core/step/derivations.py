"""The derivations of the step peak's terms (``vramgui.core.step.terms``), written when first read (``Part.later``)
by these module-level builders given their values: no closures, as a sweep keeps a thousand estimates and each
closure's cells would be more objects for the garbage collector to walk."""

from __future__ import annotations

from typing import Any

from vramgui.core.model_states import precision as prec
from vramgui.core.parallel.layout import ceil_div
from vramgui.core.terms import Derivation, Term
from vramgui.core.text.message import Msg


def bytes_derivation(key: str, n: int) -> Derivation:
    return Derivation((Term(n, symbol=key, style="bytes"),) if n else (), n,
                      note=None if n else Msg.of("deriv.cuda_context_given"))


def note_derivation(note: str, params: tuple[tuple[str, Any], ...]) -> Derivation:
    return Derivation(note=Msg.of(note, **dict(params)))


def grouped_derivation(n: int, coefficient: int, symbol: str, quantity: int, t: int, note: str | None
                        ) -> Derivation:
    """One grouped term ``coefficient × quantity [/ t]`` (t > 1: divided over tensor parallelism)."""
    term = Term(n, coefficient, symbol, quantity, t if t > 1 else None, "t" if t > 1 else "", style="grouped")
    return Derivation((term,), n, note=None if note is None else Msg.of(note))


def optimizer_derivation(n: int, foreach: bool, for_loop: bool, cast: bool, width: int, big: int, phi: int,
                          n_shard: int, experts: int, n_e: int, loops: int) -> Derivation:
    """``loops``: the for-loop optimizer's temporaries per tensor (``step.terms.FOR_LOOP_TEMPORARIES``)."""
    terms: list[Term] = []
    if foreach:
        terms += updated_terms(width, phi, n_shard, experts, n_e)
    elif for_loop:
        terms.append(Term(loops * width * big, loops * width, "T_largest", big))
    if cast:
        terms += updated_terms(prec.FP32, phi, n_shard, experts, n_e)
    return Derivation(tuple(terms), n)


def buckets_derivation(n: int, gb: int, symbol: str, elems: int, style: Any, note: str | None) -> Derivation:
    return Derivation((Term(n, gb, symbol, elems, style=style),), n, note=None if note is None else Msg.of(note))


def fsdp_derivation(end: int, root: int, units: int, grads: int, wb: int, gb: int, root_params: int, layer: int
                     ) -> Derivation:
    fsdp = [Term(root, wb, "R", root_params, style="grouped")] if root else []
    fsdp.extend((Term(units, 2 * wb, "Φ_layer", layer, style="grouped"),
                 Term(grads, 2 * gb, "Φ_layer", layer, style="grouped")))
    return Derivation(tuple(fsdp), end)


def context_derivation(n: int) -> Derivation:
    return Derivation((Term(n, symbol="cuda_context", style="bytes"),), n, note=Msg.of("deriv.cuda_context_default"))

def updated_bytes(width: int, phi: int, n_shard: int, experts: int, n_e: int) -> tuple[int, int]:
    """width bytes per parameter this GPU updates: (over Φ/N_d, over the routed experts Φ_e/N_e when held apart)."""
    return width * ceil_div(phi, n_shard), width * ceil_div(experts, n_e) if experts else 0


def updated_terms(width: int, phi: int, n_shard: int, experts: int, n_e: int) -> list[Term]:
    """``updated_bytes`` as terms: Φ/N_d, and Φ_e/N_e when the routed experts are held apart."""
    dense, routed = updated_bytes(width, phi, n_shard, experts, n_e)
    if not experts:
        return [Term(dense, width, "Φ", phi, n_shard if n_shard > 1 else None, "N_d" if n_shard > 1 else "")]
    return [Term(dense, width, "Φ_d", phi, n_shard if n_shard > 1 else None, "N_d" if n_shard > 1 else ""),
            Term(routed, width, "Φ_e", experts, n_e if n_e > 1 else None, "N_e" if n_e > 1 else "")]
