"""The forward's activation peak of a prefill, with the logits: what each engine holds beyond weights and cache.

vramgui's reading of the engines' code, not a measurement (docs/serving.md says how far it goes). The peak of a
block is its MLP: the residual stream and the normed input (``T·h`` each), the gate/up output (``T·2f``) and the
activation's output (``T·f``), 16-bit, ``f`` split over tp (vLLM ``LlamaMLP``: ``gate_up_proj`` then
``SiluAndMul``; transformers ``LlamaMLP``: ``gate_proj(x)``, ``up_proj(x)``, their product). A MoE block runs each
token through ``top_k`` experts: vLLM's ``fused_experts`` keeps ``intermediate_cache1`` (T·k, 2f),
``intermediate_cache2`` (T·k, f) and ``intermediate_cache3`` (T·k, h) (``fused_moe/fused_moe.py``).

* vLLM profiles a forward of ``max_num_batched_tokens`` tokens (``gpu_model_runner.profile_run``) and a sampler
  run over ``max_num_seqs`` logits rows of the whole vocabulary in fp32 (``_dummy_sampler_run``): the logits and
  one fp32 copy of them (the sampler's probabilities).
* transformers' ``generate`` prefills the whole prompt (``batch · context`` tokens) and keeps the logits of the last
  position only (``logits_to_keep=1``): ``batch · V`` in the model dtype and its fp32 copy.
* llama.cpp computes ``n_ubatch`` tokens at a time; its compute buffer is sized by the worst-case graph
  (``llama-context.cpp`` ``graph_reserve`` with as many outputs as tokens): fp32 logits of ``n_ubatch · V``.
"""

from __future__ import annotations

from vramgui.core.parallel.layout import ceil_div
from vramgui.core.scenario import architecture as am
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.terms import Derivation, Part, Term
from vramgui.core.text.message import Msg

SOURCE = ("vLLM gpu_model_runner.profile_run / _dummy_sampler_run, fused_moe.fused_experts; transformers "
          "LlamaMLP and GenerationMixin (logits_to_keep=1); llama.cpp llama-context.cpp output buffer "
          "(docs/serving.md; not measured)")


def mlp_bytes_per_token(arch: Architecture, tp: int) -> int:
    """Bytes per token of the largest block's live set (16-bit), on one of ``tp`` ranks."""
    h = arch.hidden_size
    dense = 2 * (2 * h + 3 * ceil_div(arch.ffn_size, tp))
    if not arch.is_moe:
        return dense
    k, f = max(arch.experts_per_token, 1), ceil_div(arch.expert_ffn_size, tp)
    moe = 2 * (2 * h + k * (3 * f + h))
    return max(moe, dense) if arch.num_layers > am.moe_blocks_between(arch) else moe


def hf_model_bytes_per_token(arch: Architecture) -> int:
    """What transformers' model forward keeps beside a block's own tensors (``LlamaModel.forward``): the embedding
    output (``inputs_embeds`` stays referenced), the block's input (the loop's ``hidden_states`` while the block
    runs), the rotary ``cos`` and ``sin`` (b, s, head_dim) in the model dtype, and the int64 ``position_ids`` and
    ``cache_position``. Measured op by op (bench/validate/serve_measure.py)."""
    return 2 * 2 * arch.hidden_size + 2 * 2 * arch.head_size + 2 * 8


def hf_mask_bytes(arch: Architecture, batch: int, context: int) -> int:
    """The boolean (b, 1, s, s) mask transformers builds for sliding-window layers once the prompt is as long as the
    window (``masking_utils.sdpa_mask``: ``_ignore_causal_mask_sdpa`` skips the full-attention mask without padding,
    and returns False as soon as ``kv_length >= local_attention_size``; measured at s = window in the training
    harness, core/activations/window.py)."""
    window = arch.sliding_window
    return batch * context * context if window is not None and arch.sliding_layers and context >= window else 0


def prefill_part(arch: Architecture, tokens: int, tp: int, logits_rows: int, logits_bytes: int,
                 model_per_token: int = 0, mask: int = 0) -> Part:
    """The prefill's peak: ``tokens`` through the largest block (and ``model_per_token`` bytes each that the model
    keeps beside it, and the attention ``mask``), or, when larger, ``logits_rows`` rows of the vocabulary at
    ``logits_bytes`` bytes per entry (all of its copies), which live after the blocks' tensors are gone."""
    per_token = mlp_bytes_per_token(arch, tp) + model_per_token
    forward = tokens * per_token
    logits = logits_rows * arch.vocab_size * logits_bytes
    if logits > forward + mask:  # the logits come after the last block has freed its tensors: the larger counts
        term = Term(logits, logits_bytes, "n_rows·V", logits_rows * arch.vocab_size, coefficient_symbol="b_logits",
                    label=Msg.of("deriv.serve_logits"), style="grouped")
        return Part(logits, Derivation((term,), logits), SOURCE, key="activations")
    terms = [Term(forward, per_token, "T", tokens, coefficient_symbol="B_block", label=Msg.of("deriv.serve_forward"),
                  style="grouped")]
    if mask:
        terms.append(Term(mask, symbol="mask", label=Msg.of("deriv.serve_mask"), style="bytes"))
    total = forward + mask
    return Part(total, Derivation(tuple(terms), total), SOURCE, key="activations")
