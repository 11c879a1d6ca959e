"""Sliding-window layers under SDPA: what a layer keeps when its window cuts the sequence (the ``hf`` profile).

transformers 5 (``masking_utils.sdpa_mask`` and ``_ignore_causal_mask_sdpa``) passes SDPA no mask for a causal
layer without padding (``is_causal=True``), but a sliding-window layer gets an explicit boolean mask of shape
(b, 1, s, s) as soon as ``kv_length >= local_attention_size`` (s ≥ window: the mask is built at s = window too,
where it masks nothing). Two things follow for every sliding layer of a training forward:

* ``torch.nn.functional.scaled_dot_product_attention`` turns the boolean mask into an additive one in the query's
  dtype before it picks a kernel (``aten/src/ATen/native/transformers/attention.cpp``
  ``convert_boolean_attn_mask``: ``at::where(attn_mask, 0.0, -inf)`` in ``query.dtype()``; the boolean mask is a
  (1, 1, s, s) storage expanded over the batch, the where's output a full (b, 1, s, s) tensor). No flash kernel
  takes a mask (``sdp_utils.cpp`` ``check_for_attn_mask``), so CUDA runs the memory-efficient kernel, whose
  autograd node keeps ``attn_bias`` for backward (``tools/autograd/derivatives.yaml``
  ``_scaled_dot_product_efficient_attention``: ``_scaled_dot_product_efficient_attention_backward(grad, query,
  key, value, attn_bias, ...)``; ``preprocess_mask`` copies it into a padded storage whose last dimension is a
  multiple of 8, ``mem_eff_alignment``, when s is not one, and expands the head dimension as a view); the cuDNN
  kernel, where it is chosen, keeps its own conversion of the mask (``convert_boolean_attn_mask_cudnn``) the same
  way. The CPU flash kernel keeps the same bias (``_scaled_dot_product_flash_attention_cpu_backward`` takes
  ``attn_mask``). Each layer converts the mask anew: B·b·s·⌈s/8⌉8 bytes per sliding layer.
* With a mask, transformers' ``sdpa_attention_forward`` cannot pass ``enable_gqa`` (``use_gqa_in_sdpa``: only
  ``attention_mask is None``) and expands K and V to all a heads with ``repeat_kv`` (a copy SDPA keeps): B·b·s·
  (a - k)·(d + d_v) more than the k-head K and V counted by the profile.

Measured on CPU with the training-step harness (bench/validate/peak_cases.py, the ``-w`` families: Gemma 3 and
Mistral shapes with s above, equal to and below the window; docs/accuracy.md). Under full recompute the
checkpointed layers keep the boolean mask as a keyword input (one 1-byte (1, 1, s, s) storage); the replayed layer
converts it again. Under selective recompute the core attention, and with it the bias, is recomputed. Eager
attention adds a float mask to the scores and keeps none of it (``eager_mask``; already outside the layer terms).
"""

from __future__ import annotations

from vramgui.core.activations.common import RawTerm, Shape
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.choices import Attention, Recompute

# transformers 5 runs these without SDPA (``_supports_sdpa = False``: Gemma 2's attention soft-capping, gpt-oss's
# sinks): "flash" there is a FlashAttention kernel, which takes the window as an argument and no mask
NO_SDPA_TYPES = ("gemma2", "gpt_oss")
MEM_EFFICIENT_ALIGN = 8  # attention.cpp preprocess_mask: mem_eff_alignment, pad_bias<8> of an unaligned bias


def masked(sh: Shape, arch: Architecture) -> bool:
    """SDPA gets an explicit mask in the sliding layers: a window no longer than the sequence
    (``_ignore_causal_mask_sdpa``: ``kv_length >= local_attention_size``) in a model transformers runs with SDPA."""
    window = arch.sliding_window
    return (window is not None and sh.attention == Attention.FLASH and sh.s >= window
            and arch.sliding_layers > 0 and arch.model_type not in NO_SDPA_TYPES)


def layer_terms(sh: Shape, arch: Architecture) -> list[RawTerm]:
    """What one sliding layer keeps beyond the profile's layer terms for one micro-batch (empty when SDPA gets no
    mask, under full recompute, where the layer keeps its input only, and under selective recompute)."""
    if not masked(sh, arch) or sh.recompute != Recompute.NONE:
        return []
    B, b, s = sh.dtype_bytes, sh.b, sh.s
    cols = -(-s // MEM_EFFICIENT_ALIGN) * MEM_EFFICIENT_ALIGN
    terms = [RawTerm("sliding_window_bias", "sliding-window mask as SDPA's additive bias (dtype, kept for backward)",
                     B * b * s * cols, f"{B}·b·s·⌈s/8⌉·8")]
    extra = sh.a_t - sh.kv_t
    if extra > 0 and arch.family != "gpt" and arch.model_type != "falcon":  # these expand K/V (or have a heads)
        terms.append(RawTerm("sliding_window_k_v_expanded", "K, V expanded to a heads (repeat_kv: a mask, no GQA)",
                             B * b * s * extra * (sh.d + arch.value_head_size), f"{B}·s·b·(a - k)·(d + d_v)/t"))
    return terms


def checkpoint_terms(sh: Shape, arch: Architecture) -> list[RawTerm]:
    """Full recompute: the boolean sliding-window mask, a keyword input every checkpointed sliding layer keeps
    (one storage of s² bytes, expanded over the batch)."""
    if not masked(sh, arch) or sh.recompute != Recompute.FULL:
        return []
    return [RawTerm("sliding_window_mask_checkpoint", "sliding-window mask (bool, checkpoint input)", sh.s * sh.s,
                    "s²")]
