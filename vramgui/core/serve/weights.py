"""Weight bytes of a served model on one GPU, in its storage format (``formats``, ``gguf_mix``), as a keyed Part."""

from __future__ import annotations

from dataclasses import dataclass

from vramgui.core.scenario import architecture as am
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.choices import WeightFormat
from vramgui.core.serve.formats import is_gguf, linear_bytes
from vramgui.core.serve.gguf_mix import gguf_bytes
from vramgui.core.serve.tensors import served_tensors
from vramgui.core.terms import Derivation, Part, Term
from vramgui.core.text.message import Msg

SOURCE = ("vLLM Fp8LinearMethod (quantization/fp8.py); bitsandbytes Int8Params/Params4bit; AutoGPTQ QuantLinear; "
          "AutoAWQ WQLinear_GEMM; ggml-common.h block structs and llama-quant.cpp llama_tensor_get_type; "
          "vLLM linear.py / vocab_parallel_embedding.py tensor-parallel splits (docs/serving.md)")


@dataclass(frozen=True)
class WeightBytes:
    linear: int  # the blocks' quantisable Linear weights (and their biases), in the format
    embedding: int  # the token embedding
    head: int  # the LM head (0 when tied to the embedding)
    rest: int  # norms, routers, sinks, positions
    linear_params: int  # elements of those Linear weights on this GPU
    types: tuple[tuple[str, int], ...] = ()  # GGUF: the ggml types mixed (type, elements)

    @property
    def total(self) -> int:
        return self.linear + self.embedding + self.head + self.rest

    @property
    def bits_per_weight(self) -> float:
        """Bits per quantised weight, scales and zeros included (the figure formats are compared by)."""
        return 8 * self.linear / max(self.linear_params, 1)


def _routers(arch: Architecture) -> int:
    """Parameters of the MoE routers (2-D ``ffn_gate_inp``: F16 in a GGUF file), bias excluded."""
    return am.moe_blocks_between(arch) * arch.hidden_size * arch.num_experts


def weight_bytes(arch: Architecture, fmt: WeightFormat, tp: int = 1, double_quant: bool = False) -> WeightBytes:
    served = served_tensors(arch, tp)
    params = sum(t.elements for t in served.linears)
    if is_gguf(fmt):
        g = gguf_bytes(fmt, arch, served)
        biases = sum(t.copies * t.n_out for t in served.linears if t.bias)
        two_d = _routers(arch) + (arch.max_position_embeddings * arch.hidden_size if arch.learned_pos_embeddings
                                  else 0)
        rest = 2 * two_d + 4 * (served.rest - two_d)  # 1-D tensors stay F32 (convert_hf_to_gguf.py)
        return WeightBytes(g.linear + 4 * biases, g.embedding, g.head, rest, params, g.types)
    linear = sum(t.copies * linear_bytes(fmt, t.n_in, t.n_out, t.bias, double_quant) for t in served.linears)
    return WeightBytes(linear, 2 * served.embedding, 2 * served.head, 2 * served.rest, params)


def weights_part(w: WeightBytes, fmt: WeightFormat, embedding_on_host: bool = False) -> Part:
    """The weights on the GPU. ``embedding_on_host``: llama.cpp keeps the input layer (``tok_embd``) in host memory
    (``llama-model.cpp`` ``load_tensors``: "there is very little benefit to offloading the input layer, so always
    keep it on the CPU"); a tied output is a GPU copy of it (``TENSOR_DUPLICATED``) and stays."""
    host = embedding_on_host and w.head > 0
    embedding = 0 if host else w.embedding
    total = w.linear + embedding + w.head + w.rest
    embed_label = Msg.of("deriv.serve_embedding_host") if host else Msg.of("deriv.serve_embedding")
    terms = (
        Term(w.linear, symbol="W_linear", label=Msg.of("deriv.serve_linear", format=str(fmt),
                                                            bits=f"{w.bits_per_weight:.3f}"), style="bytes"),
        Term(embedding, symbol="W_embed", label=embed_label, style="bytes"),
        Term(w.head, symbol="W_head", label=Msg.of("deriv.serve_head"), style="bytes"),
        Term(w.rest, symbol="W_rest", label=Msg.of("deriv.serve_rest"), style="bytes"),
    )
    return Part(total, Derivation(terms, total), SOURCE, key="weights")
