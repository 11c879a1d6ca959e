"""Model states per GPU: parameters, gradients, optimizer states (with the fp32 master copy shown separately).

The ``paper`` convention (default) follows the ZeRO paper (Rajbhandari et al. 2020, §3 and Fig. 1) and the
seed: for mixed-precision Adam 2Φ + 2Φ + KΦ with K = 12, divided by N_d for what each stage partitions
(ZeRO-1: optimizer states; ZeRO-2: + gradients; ZeRO-3: + parameters). CPU offload follows ZeRO-Offload
(Ren et al. 2021, §4.1): gradients and all optimizer states live in host memory, the GPU keeps the 16-bit
parameters; parameter offload (ZeRO-Infinity) moves the parameter partition to the host as well.

Each component has its own function so it can be checked against bytes read off real tensors.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from vramgui.core import precision as prec
from vramgui.core.parallel import ceil_div
from vramgui.core.specs import PrecisionSpec
from vramgui.core.units import format_bytes

PAPER_SOURCE = "ZeRO paper (Rajbhandari et al. 2020) §3, Fig. 1"
OFFLOAD_SOURCE = "ZeRO-Offload (Ren et al. 2021) §4.1"


@dataclass(frozen=True)
class Part:
    """One component's bytes on one GPU with its symbolic formula, filled-in derivation and source."""

    bytes: int
    formula: str
    derivation: str
    source: str


@dataclass(frozen=True)
class ModelStates:
    parameters: Part
    gradients: Part
    optimizer_states: Part  # includes master_weights
    master_weights: Part
    other: Part | None = None  # convention-specific fixed term (DeepSpeed's 4 x largest layer)
    host_per_node: int | None = None  # bytes of host memory per node; None = nothing on the host
    host_formula: str = ""
    notes: tuple[str, ...] = field(default=())


# --- unsharded, single-GPU bytes: one function per component (checked against real PyTorch tensors) ---

def parameter_bytes(params: int, precision: PrecisionSpec) -> int:
    """Bytes of the weights: Φ x dtype bytes."""
    return params * prec.weight_bytes(precision)


def gradient_bytes(params: int, precision: PrecisionSpec) -> int:
    """Bytes of ``p.grad`` for every parameter: Φ x dtype bytes."""
    return params * prec.gradient_bytes(precision)


def master_weight_bytes(params: int, precision: PrecisionSpec) -> int:
    """fp32 master copy: 4Φ under the mixed recipe, 0 otherwise."""
    return params * prec.master_bytes(precision)


def optimizer_state_bytes(params: int, precision: PrecisionSpec) -> int:
    """Optimizer's own per-parameter state tensors (exp_avg, exp_avg_sq, momentum...), no master copy."""
    return params * prec.state_bytes(precision)


def step_counter_bytes(param_tensors: int | None, precision: PrecisionSpec) -> int:
    """4 bytes per parameter tensor for PyTorch's float32 ``step`` scalars (pure recipe only)."""
    if param_tensors is None or not prec.counts_step_tensors(precision):
        return 0
    return prec.STEP_COUNTER_BYTES * param_tensors


# --- formatting helpers ---

def sci(n: int | float) -> str:
    """``7_000_000_000`` -> ``"7.00e9"`` (compact Φ in derivations)."""
    if n == 0:
        return "0"
    mantissa, exponent = f"{n:.2e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def coef_term(coef: int | float, symbol: str = "Φ", shard: str = "") -> str:
    c = f"{coef:g}"
    return f"{c}{symbol}{shard}" if coef else "0"


def part(coef: int, phi: int, n_shard: int, *, sharded: bool, source: str, extra: int = 0,
         extra_formula: str = "", extra_text: str = "") -> Part:
    """coef·Φ bytes, divided (rounded up) by ``n_shard`` when ``sharded``, plus an unsharded ``extra``."""
    whole = coef * phi
    value = ceil_div(whole, n_shard) if sharded and n_shard > 1 else whole
    if sharded:
        formula = coef_term(coef, "Φ", "/N_d")
        deriv = f"{coef} × {sci(phi)} / {n_shard}" if coef else "0"
    else:
        formula = coef_term(coef)
        deriv = f"{coef} × {sci(phi)}" if coef else "0"
    if extra:
        formula = f"{formula} + {extra_formula}" if coef else extra_formula
        deriv = f"{deriv} + {extra_text}" if coef else extra_text
    total = (value if coef else 0) + extra
    return Part(total, formula, f"{deriv} = {format_bytes(total)}", source)


def offloaded(what: str, source: str = OFFLOAD_SOURCE) -> Part:
    return Part(0, "0 (offloaded)", f"0: {what} offloaded to CPU memory", source)


def paper_model_states(phi: int, precision: PrecisionSpec, stage: int, n_d: int, ranks_on_node: int,
                       offload_optimizer: bool, offload_params: bool, param_tensors: int | None) -> ModelStates:
    """Per-GPU model states under the paper convention (see module docstring)."""
    wb, gb = prec.weight_bytes(precision), prec.gradient_bytes(precision)
    mb, sb = prec.master_bytes(precision), prec.state_bytes(precision)
    k = mb + sb
    steps = step_counter_bytes(param_tensors, precision)
    notes: list[str] = []
    if prec.counts_step_tensors(precision) and param_tensors is None:
        notes.append("PyTorch's 4-byte step counter per parameter tensor is not counted: no architecture known")
    step_formula = "4·n_tensors"
    step_text = f"4 × {param_tensors}" if param_tensors is not None else ""

    host_rank = 0
    host_terms: list[str] = []
    if offload_params:
        parameters = offloaded("parameter partition")
        host_rank += ceil_div(wb * phi, n_d)
        host_terms.append(f"{wb}Φ/N_d")
    else:
        parameters = part(wb, phi, n_d, sharded=stage >= 3, source=PAPER_SOURCE)
    if offload_optimizer:
        gradients = offloaded("gradient partition")
        optimizer = offloaded("optimizer states (with master weights)")
        master = offloaded("fp32 master weights") if mb else Part(0, "0", "0: no master copy", PAPER_SOURCE)
        host_rank += ceil_div(gb * phi, n_d) + ceil_div(k * phi, n_d) + steps
        host_terms.append(f"({gb} + {k})Φ/N_d")
    else:
        gradients = part(gb, phi, n_d, sharded=stage >= 2, source=PAPER_SOURCE)
        optimizer = part(k, phi, n_d, sharded=stage >= 1, source=PAPER_SOURCE,
                         extra=steps, extra_formula=step_formula, extra_text=step_text)
        master = part(mb, phi, n_d, sharded=stage >= 1, source=PAPER_SOURCE)
    host_node = host_rank * ranks_on_node if host_terms else None
    host_formula = f"({' + '.join(host_terms)}) × GPUs per node" if host_terms else ""
    return ModelStates(parameters, gradients, optimizer, master, None, host_node, host_formula, tuple(notes))
