"""FP8 training with TransformerEngine recipes (``precision.fp8``): the terms FP8 Linears add or change per GPU.

FP8 here is what Megatron-Core runs through TransformerEngine (TE) modules: the Linear layers of each block
(``LayerNormLinear`` for QKV, ``Linear`` for the attention output, ``LayerNormMLP`` / ``LayerNormLinear`` +
``Linear`` for the MLP, ``GroupedLinear`` for routed experts) compute in FP8 inside a bf16/fp16 model; the
embedding, the output layer (Megatron's ``ColumnParallelLinear``), the router, norms and attention stay 16-bit.
So it applies only to the ``fused`` activation profile (Hugging Face transformers runs no FP8 Linears) and only
with a 16-bit dtype. Every term follows TE's code (NVIDIA/TransformerEngine, ``transformer_engine/pytorch``);
**none of it is measured here**. Hopper's FP8 GEMMs take only the TN layout, so TE keeps a transposed
(``columnwise``) copy wherever a backward GEMM needs one; that is assumed (Blackwell needs no transpose for
per-tensor FP8).

* **FP8 weight copies** (persistent, counted with the parameters): ``module/base.py``
  ``TransformerEngineBaseModule.get_weight_workspace`` caches the quantised weight in ``_fp8_workspaces`` when
  ``is_first_microbatch`` is given (Megatron passes it), reused on every later micro-batch and step;
  ``module/linear.py`` ``_Linear.forward`` asks for rowwise data (forward GEMM) and columnwise data (the dgrad
  GEMM; ``weightmat.update_usage(columnwise_usage=True)`` in ``layernorm_linear.py``): 2 bytes per Linear
  weight element for ``delayed`` and ``current`` scaling; MXFP8 (``tensor/mxfp8_tensor.py``) adds one E8M0 scale
  byte per 32 elements to each of the two: 2·(n + ⌈n/32⌉).
* **Scaling state** (persistent): ``delayed`` - ``module/base.py`` ``set_meta_tensor``: per GEMM 3 forward
  (input, weight, output) and 2 backward (grad output, grad input) FP8 tensors, each with an fp32 ``scale``, an
  fp32 ``scale_inv`` and an fp32 ``amax_history`` of ``amax_history_len`` rows (``common/recipe``
  ``DelayedScaling.amax_history_len`` default 1024): 4·5·(H + 2) bytes per GEMM. ``current`` -
  ``tensor/float8_tensor.py`` ``Float8CurrentScalingQuantizer``: an fp32 ``scale`` and ``amax`` per quantizer,
  4·2·5 bytes per GEMM. ``mxfp8`` - none beyond the block scales inside the tensors.
* **Activations** (``layer_terms``): a Linear saves its input for the wgrad GEMM in FP8 - ``_Linear.forward``
  (``inputmat.update_usage(rowwise_usage=False)``: only the columnwise copy), ``_LayerNormLinear.forward``
  (``ln_out`` in FP8; under sequence parallelism with per-tensor scaling the rowwise data backward all-gathers),
  ``ops/basic/grouped_linear.py`` (``x.update_usage(rowwise_usage=False, columnwise_usage=True)``): 1 byte per
  element (MXFP8 + 1/32). What stays 16-bit: the norms' inputs, Q/K/V and everything the attention kernel keeps
  (flash attention keeps its 16-bit output O for its own backward: with FP8 the output projection's FP8 input
  is saved beside it), the activation function's input, dropout masks, the router, the embedding and the
  output layer, the checkpoint of full recompute, and the shared experts' tensors (not split out here).
"""

from __future__ import annotations

from vramgui.core.activations.common import RawTerm, Shape
from vramgui.core.fields import registry as fields
from vramgui.core.parallel.layout import ceil_div
from vramgui.core.scenario.choices import Attention, Recompute
from vramgui.core.scenario.specs import FP8_RECIPES, Scenario

__all__ = ["FP8_RECIPES", "active_recipe", "layer_terms", "stored"]

SOURCE = ("TransformerEngine transformer_engine/pytorch: module/base.py (get_weight_workspace, set_meta_tensor), "
          "module/linear.py and layernorm_linear.py (forward), tensor/float8_tensor.py, tensor/mxfp8_tensor.py, "
          "common/recipe; not measured here")
AMAX_HISTORY_LEN = 1024  # TE common/recipe DelayedScaling.amax_history_len default
FP32 = 4
FWD_TENSORS, BWD_TENSORS = 3, 2  # base.py set_meta_tensor: input, weight, output / grad output, grad input
MXFP8_BLOCK = 32  # mxfp8_tensor.py: one E8M0 scale per 32 elements
DELAYED_BYTES_PER_GEMM = FP32 * (FWD_TENSORS + BWD_TENSORS) * (AMAX_HISTORY_LEN + 2)  # history + scale + scale_inv
CURRENT_BYTES_PER_GEMM = FP32 * 2 * (FWD_TENSORS + BWD_TENSORS)  # scale + amax per quantizer

# fused-profile Linear inputs saved in FP8, by term key (activations.fused, activations.moe)
_FP8_INPUTS_DENSE = ("qkv_input", "mlp_input", "mlp_second_linear_input")
_FP8_INPUTS_MOE = ("qkv_input", "experts_received_tokens", "experts_second_linear_input")
_OUT_PROJ = "attn_out_proj_input"

def active_recipe(scenario: Scenario) -> str:
    """The FP8 recipe that counts: ``none`` unless one is chosen and it applies (the ``precision.fp8`` row's rule,
    ``vramgui.core.fields.rules.fp8``: a 16-bit dtype, the fused profile, full training)."""
    fp8 = scenario.precision.fp8
    return "none" if fp8 == "none" or fields.inactive_reason(scenario, "precision.fp8") is not None else fp8


def stored(recipe: str, n: int) -> int:
    """Bytes of ``n`` elements in one FP8 layout (rowwise or columnwise): 1 each, MXFP8 + one scale per 32."""
    return n + ceil_div(n, MXFP8_BLOCK) if recipe == "mxfp8" else n




def layer_terms(terms: list[RawTerm], recipe: str, sh: Shape, moe: bool) -> list[RawTerm]:
    """One layer's saved tensors (fused profile) with the FP8 Linears' inputs in FP8 (see module docstring)."""
    if recipe == "none":
        return terms
    B = sh.dtype_bytes
    keys = (*(_FP8_INPUTS_MOE if moe else _FP8_INPUTS_DENSE), _OUT_PROJ)
    per = "(1 + 1/32)" if recipe == "mxfp8" else "1"
    out: list[RawTerm] = []
    for t in terms:
        if t.key not in keys:
            out.append(t)
            continue
        if t.key == _OUT_PROJ and sh.attention == Attention.FLASH and sh.recompute == Recompute.NONE:
            out.append(RawTerm("attention_output_16bit", "attention output (16-bit, kept by flash attention)",
                               t.bytes, t.formula, t.elements))
        out.append(RawTerm(t.key + "_fp8", t.name + " (FP8)", stored(recipe, t.bytes // B), _fp8_formula(t, B, per)))
    return out


def _fp8_formula(t: RawTerm, width: int, per: str) -> str:
    """The term restated at ``per`` bytes per element: from its element count where it has one, else scaled."""
    return f"{per}·{t.elements}" if t.elements else f"{per}/{width}·({t.formula})"
