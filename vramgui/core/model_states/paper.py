"""Model states per GPU: parameters, gradients, optimizer states (with the fp32 master copy shown separately).

The ``paper`` convention (default) follows the ZeRO paper (Rajbhandari et al. 2020, §3 and Fig. 1) and the
seed: for mixed-precision Adam 2Φ + 2Φ + KΦ with K = 12, divided by N_d for what each stage partitions
(ZeRO-1: optimizer states; ZeRO-2: + gradients; ZeRO-3: + parameters). CPU offload follows ZeRO-Offload
(Ren et al. 2021, §4.1): gradients and all optimizer states live in host memory, the GPU keeps the 16-bit
parameters; parameter offload (ZeRO-Infinity) moves the parameter partition to the host as well.

The bytes per parameter of each component are ``vramgui.core.model_states.precision``'s (weight, gradient, master and
state bytes), checked against bytes read off real tensors (bench/validate).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from vramgui.core.memo import dict_init
from vramgui.core.model_states import precision as prec
from vramgui.core.parallel.layout import ceil_div
from vramgui.core.scenario.specs import PrecisionSpec
from vramgui.core.terms import Derivation, Part, Term, sci
from vramgui.core.text.message import Msg

PAPER_SOURCE = "ZeRO paper (Rajbhandari et al. 2020) §3, Fig. 1"
OFFLOAD_SOURCE = "ZeRO-Offload (Ren et al. 2021) §4.1"

__all__ = ["ModelStates", "Part", "offloaded", "paper_model_states", "part", "sci"]


@dict_init
@dataclass(frozen=True)
class ModelStates:
    parameters: Part
    gradients: Part
    optimizer_states: Part  # includes master_weights
    master_weights: Part
    other: Part | None = None  # convention-specific fixed term (DeepSpeed's 4 x largest layer)
    host_per_node: int | None = None  # bytes of host memory per node; None = nothing on the host
    host_formula: Msg | None = None
    notes: tuple[Msg, ...] = field(default=())


# --- bytes outside the Φ terms ---

def step_counter_bytes(param_tensors: int | None, precision: PrecisionSpec) -> int:
    """4 bytes per parameter tensor for PyTorch's float32 ``step`` scalars (pure recipe only)."""
    if param_tensors is None or not prec.counts_step_tensors(precision):
        return 0
    return prec.STEP_COUNTER_BYTES * param_tensors


# --- terms ---

def phi_bytes(coef: int, phi: int, n_shard: int | None = None) -> int:
    """coef·Φ bytes, divided over ``n_shard`` ranks when given (rounded up, padding to equal partitions)."""
    return ceil_div(coef * phi, n_shard) if n_shard is not None and n_shard > 1 else coef * phi


def phi_term(coef: int, phi: int, n_shard: int | None = None, value: int | None = None, symbol: str = "Φ") -> Term:
    """``phi_bytes`` as a term, ``/N_d`` when divided over ``n_shard`` ranks. ``symbol`` writes Φ (``Φ_A``:
    LoRA's trainable adapters), chosen here rather than replaced afterwards."""
    n = phi_bytes(coef, phi, n_shard) if value is None else value
    if n_shard is None:
        return Term(n, coef, symbol, phi)
    return Term(n, coef, symbol, phi, n_shard, "N_d")


def part(coef: int, phi: int, n_shard: int, *, sharded: bool, source: str, extra: Term | None = None,
         symbol: str = "Φ", key: str = "") -> Part:
    """coef·Φ bytes, divided (rounded up) by ``n_shard`` when ``sharded``, plus an unsharded ``extra`` term; the
    terms are written when the derivation is first read (their bytes are ``phi_bytes``, counted the same way)."""
    shard = n_shard if sharded else None
    total = (phi_bytes(coef, phi, shard) if coef else 0) + (extra.bytes if extra is not None else 0)
    return Part.later(total, _part_derivation, source, key, (total, coef, phi, shard, extra, symbol))


def _part_derivation(total: int, coef: int, phi: int, shard: int | None, extra: Term | None, symbol: str
                     ) -> Derivation:
    """``part``'s derivation, written when first read (module-level, given its values: no closure to keep)."""
    terms = [phi_term(coef, phi, shard, symbol=symbol)] if coef else []
    if extra is not None and extra.bytes:
        terms.append(extra)
    return Derivation(tuple(terms), total)


def offloaded(note: str, source: str = OFFLOAD_SOURCE, key: str = "") -> Part:
    """0 bytes on the GPU; ``note`` (a ``deriv.*`` code) says where they went."""
    return Part.later(0, _offloaded_derivation, source, key, (note,))


def _offloaded_derivation(note: str) -> Derivation:
    return Derivation(note=Msg.of(note), formula=Msg.of("deriv.offloaded"))


def paper_model_states(phi: int, precision: PrecisionSpec, stage: int, n_d: int, ranks_on_node: int,
                       offload_optimizer: bool, offload_params: bool, param_tensors: int | None,
                       symbol: str = "Φ") -> ModelStates:
    """Per-GPU model states under the paper convention (see module docstring); ``symbol``: how Φ is written."""
    wb, gb, mb, sb, counted = prec.widths(precision)
    k = mb + sb
    steps = prec.STEP_COUNTER_BYTES * param_tensors if counted and param_tensors is not None else 0
    notes: list[Msg] = []
    if counted and param_tensors is None:
        notes.append(Msg.of("note.step_counter_unknown"))
    step_term = Term(steps, prec.STEP_COUNTER_BYTES, "n_tensors", param_tensors, style="plain") if steps else None

    host_rank = 0
    host_terms: list[str] = []
    if offload_params:
        parameters = offloaded("deriv.param_partition_offloaded", key="parameters")
        host_rank += ceil_div(wb * phi, n_d)
        host_terms.append(f"{wb}Φ/N_d")
    else:
        parameters = part(wb, phi, n_d, sharded=stage >= 3, source=PAPER_SOURCE, symbol=symbol, key="parameters")
    if offload_optimizer:
        gradients = offloaded("deriv.gradient_partition_offloaded", key="gradients")
        optimizer = offloaded("deriv.optimizer_states_offloaded", key="optimizer_states")
        master = (offloaded("deriv.master_offloaded", key="master_weights") if mb
                  else Part(0, Derivation(note=Msg.of("deriv.no_master_copy")), PAPER_SOURCE, "master_weights"))
        host_rank += ceil_div(gb * phi, n_d) + ceil_div(k * phi, n_d) + steps
        host_terms.append(f"({gb} + {k})Φ/N_d")
    else:
        # keyed as the estimate's rows (``Part.keyed`` then keeps them as they are)
        gradients = part(gb, phi, n_d, sharded=stage >= 2, source=PAPER_SOURCE, symbol=symbol, key="gradients")
        optimizer = part(k, phi, n_d, sharded=stage >= 1, source=PAPER_SOURCE, extra=step_term, symbol=symbol,
                         key="optimizer_states")
        master = part(mb, phi, n_d, sharded=stage >= 1, source=PAPER_SOURCE, symbol=symbol, key="master_weights")
    host_node = host_rank * ranks_on_node if host_terms else None
    host_formula = Msg.of("deriv.host_paper", terms=" + ".join(host_terms)) if host_terms else None
    return ModelStates(parameters, gradients, optimizer, master, None, host_node, host_formula, tuple(notes))
