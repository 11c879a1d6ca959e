"""Bytes per parameter for each precision recipe and optimizer.

Recipes (``PrecisionSpec.recipe`` with ``dtype``):

* **mixed** with fp16/bf16: weights and gradients in the low-precision dtype, an fp32 master copy and fp32
  optimizer states (Micikevicius et al. 2018; ZeRO paper §3: 2Φ + 2Φ + KΦ with K = 12 for Adam).
* **fp32** (dtype fp32, any recipe): everything in fp32, no master copy (K = 8 for Adam).
* **pure**: weights, gradients and optimizer states all in the dtype, no master copy — what a plain
  ``torch.optim.AdamW`` keeps for bf16 parameters (``exp_avg``/``exp_avg_sq`` are ``zeros_like(param)``), plus
  its fp32 scalar ``step`` tensor per parameter tensor (torch/optim/adam.py ``_init_group``: ``torch.tensor(0.0,
  dtype=_get_scalar_dtype())``).
* **amp**: fp32 weights, gradients and optimizer states (K = 8 for Adam, plus the ``step`` scalars), with
  ``torch.autocast`` computing in the dtype: what HF Trainer's ``bf16=True`` does with a model loaded in fp32
  (transformers ``TrainingArguments.bf16``; torch/amp/autocast_mode.py). The dtype is the compute dtype of the
  activations only; autocast's low-precision weight copies are activations (``activations_hf``).
"""

from __future__ import annotations

from dataclasses import dataclass

from vramgui.core.memo import by_identity
from vramgui.core.scenario.choices import DType, Recipe
from vramgui.core.scenario.specs import DTYPE_BYTES, PrecisionSpec

FP32 = 4
STEP_COUNTER_BYTES = 4  # float32 scalar ``step`` tensor per parameter tensor (PyTorch Adam/AdamW/Adafactor)


@dataclass(frozen=True)
class OptimizerInfo:
    """How many per-parameter state tensors an optimizer keeps, and of what width."""

    key: str
    label: str
    states: int  # full-size state tensors per parameter tensor
    fixed_state_bytes: int | None  # bytes per element regardless of recipe (8-bit states), else None
    step_counter: bool  # keeps a float32 scalar ``step`` tensor per parameter tensor (PyTorch)
    source: str


OPTIMIZER_INFO: dict[str, OptimizerInfo] = {
    "adam": OptimizerInfo("adam", "Adam", 2, None, True, "torch.optim.Adam: exp_avg, exp_avg_sq, step"),
    "adamw": OptimizerInfo("adamw", "AdamW", 2, None, True, "torch.optim.AdamW: exp_avg, exp_avg_sq, step"),
    "adam8bit": OptimizerInfo(
        "adam8bit", "8-bit Adam", 2, 1, False,
        "bitsandbytes Adam8bit: state1/state2 uint8 (Dettmers et al. 2022); block absmax statistics not counted",
    ),
    "sgd": OptimizerInfo("sgd", "SGD", 0, None, False, "torch.optim.SGD without momentum keeps no state"),
    "sgd_momentum": OptimizerInfo("sgd_momentum", "SGD + momentum", 1, None, False, "torch.optim.SGD: momentum_buffer"),
    "adafactor": OptimizerInfo(
        "adafactor", "Adafactor", 0, None, True,
        "Shazeer & Stern 2018: factored second moment (row + column vectors, counted as 0 per parameter), no "
        "momentum; torch.optim.Adafactor keeps a full second moment for 1-D parameters (norms, biases), not counted",
    ),
    "lion": OptimizerInfo("lion", "Lion", 1, None, False, "Chen et al. 2023 (lion-pytorch): exp_avg only"),
}


def effective_recipe(precision: PrecisionSpec) -> str:
    """``fp32`` when the dtype is fp32 (nothing to be mixed) or the recipe is amp (fp32 model states), else the
    spec's recipe."""
    return "fp32" if precision.dtype == DType.FP32 or precision.recipe == Recipe.AMP else precision.recipe


def weight_bytes(precision: PrecisionSpec) -> int:
    """Bytes per parameter of the weights as stored (fp32 under amp: autocast casts them per operation)."""
    return FP32 if precision.recipe == Recipe.AMP else DTYPE_BYTES[precision.dtype]


def gradient_bytes(precision: PrecisionSpec) -> int:
    """Bytes per parameter of the gradients (the dtype of the weights in all recipes)."""
    return weight_bytes(precision)


def master_bytes(precision: PrecisionSpec) -> int:
    """fp32 master copy: 4 bytes per parameter under the mixed recipe, else none."""
    return FP32 if effective_recipe(precision) == "mixed" else 0


def state_bytes(precision: PrecisionSpec) -> int:
    """Optimizer-state bytes per parameter, excluding the master copy and step counters."""
    info = OPTIMIZER_INFO[precision.optimizer]
    if info.fixed_state_bytes is not None:
        width = info.fixed_state_bytes
    elif effective_recipe(precision) == "pure":
        width = DTYPE_BYTES[precision.dtype]
    else:
        width = FP32
    return info.states * width


def counts_step_tensors(precision: PrecisionSpec) -> bool:
    """Step counters are counted under the pure recipe (what a plain PyTorch optimizer holds), fp32 included:
    a plain ``torch.optim.AdamW`` over fp32 parameters keeps them too (measured by bench/validate)."""
    return precision.recipe in (Recipe.PURE, Recipe.AMP) and OPTIMIZER_INFO[precision.optimizer].step_counter


SEED_OPTIMIZER_BYTES = {"adam": 12, "sgd": 4}  # the seed's optimizer_bytes table (mixed-precision K)
SEED_MODEL_BYTES = {"fp32": 4, "fp16": 2, "bf16": 2}


@by_identity(256)
def widths(precision: PrecisionSpec) -> tuple[int, int, int, int, bool]:
    """(weight, gradient, master and state bytes per parameter, whether step counters count) of ``precision``,
    worked out once per precision section (every estimate of an edit or a sweep asks the same section)."""
    return (weight_bytes(precision), gradient_bytes(precision), master_bytes(precision), state_bytes(precision),
            counts_step_tensors(precision))

