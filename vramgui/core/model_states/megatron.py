"""The ``megatron`` convention: Megatron-LM's bytes per parameter with and without the distributed optimizer.

Source: Megatron-LM README / docs "Distributed Optimizer" table (d = data-parallel size):

    fp16 param, fp16 grads   20   4 + 16/d   (fp32 main grads 4 + main params 4 + Adam 8, sharded)
    bf16 param, fp32 grads   18   6 + 12/d   (fp32 grads accumulate in the model's grad buffer: not sharded)
    fp32 param, fp32 grads   16   8 + 8/d    (no separate main params; Adam 8 sharded)

Megatron keeps gradients in fp32 for bf16 training (``accumulate_allreduce_grads_in_fp32``). The table covers
Adam; other optimizers keep their own fp32 states in place of Adam's 8 bytes (an extrapolation, noted).
"""

from __future__ import annotations

from vramgui.core.model_states import precision as prec
from vramgui.core.model_states.paper import ModelStates, Part, part, phi_term
from vramgui.core.scenario.choices import DType, Optimizer, Recipe
from vramgui.core.scenario.specs import PrecisionSpec
from vramgui.core.text.message import Msg

SRC = "Megatron-LM docs, Distributed Optimizer table"


def megatron_bytes(dtype: str, distributed: bool, states: int = 8) -> dict[str, tuple[int, int]]:
    """Bytes per parameter as (unsharded, sharded over d) for params, grads and optimizer (incl. master)."""
    if dtype == "fp16":
        master, main_grad, grad = 4, 4, 2
    elif dtype == "bf16":
        master, main_grad, grad = 4, 0, 4
    else:
        master, main_grad, grad = 0, 0, 4
    weights = 2 if dtype != "fp32" else 4
    opt = master + states
    if distributed:
        return {"parameters": (weights, 0), "gradients": (grad, main_grad), "optimizer": (0, opt),
                "master": (0, master)}
    return {"parameters": (weights, 0), "gradients": (grad + main_grad, 0), "optimizer": (opt, 0),
            "master": (master, 0)}


def megatron_model_states(phi: int, precision: PrecisionSpec, n_d: int, distributed: bool) -> ModelStates:
    notes: list[Msg] = []
    info = prec.OPTIMIZER_INFO[precision.optimizer]
    states = info.states * (info.fixed_state_bytes or 4)
    if precision.optimizer not in (Optimizer.ADAM, Optimizer.ADAMW):
        notes.append(Msg.of("note.megatron_optimizer", optimizer=info.label, bytes=states))
    if precision.recipe == Recipe.PURE and precision.dtype != DType.FP32:
        notes.append(Msg.of("note.megatron_recipe"))
    table = megatron_bytes(precision.dtype, distributed, states)

    def mk(key: str) -> Part:
        whole, sharded = table[key]
        if whole and sharded:  # fp16 gradients: 2Φ + 4Φ/d
            return part(whole, phi, n_d, sharded=False, source=SRC, extra=phi_term(sharded, phi, n_d))
        if sharded:
            return part(sharded, phi, n_d, sharded=True, source=SRC)
        return part(whole, phi, n_d, sharded=False, source=SRC)

    return ModelStates(mk("parameters"), mk("gradients"), mk("optimizer"), mk("master"), None, None, None,
                       tuple(notes))
