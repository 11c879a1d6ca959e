"""Model architecture and its exact parameter count.

The count must equal, to the parameter, ``sum(p.numel() for p in model.parameters())`` of the model the
framework (Hugging Face transformers 5.x, ``AutoModelForCausalLM.from_config``) builds from the same config;
tied input/output embeddings count once. The rules per family follow the transformers modeling code
(``src/transformers/models/<model_type>/modeling_<model_type>.py``); ``vramgui.core.documents.hf_config`` maps a
``config.json`` onto these fields and docs/catalog.md lists what each field means for each family.

Non-parameter tensors are not counted: rotary ``inv_freq``, GPT-2's causal-mask ``bias`` buffer and
DeepSeek-V3's ``e_score_correction_bias`` are buffers (``register_buffer``), not parameters.
"""

from __future__ import annotations

from dataclasses import dataclass

FAMILIES = ("gpt", "llama")  # block style: GPT (LayerNorm, GELU MLP, dropout) or Llama (RMSNorm, gated MLP, RoPE)
EXPERT_LAYOUTS = ("fused", "per_expert")  # transformers >= 5: one 3-D tensor per projection; 4.x: nn.Linear each
SLIDING, FULL = "s", "f"  # the letters of Architecture.layer_types ("sliding_attention", "full_attention")


@dataclass(frozen=True)
class Architecture:
    family: str = "llama"  # one of FAMILIES; "llama" = gated (gate/up/down) MLP, "gpt" = two-matrix MLP
    model_type: str = ""  # Hugging Face model_type it came from, for provenance
    num_layers: int = 32
    hidden_size: int = 4096
    num_heads: int = 32
    num_kv_heads: int | None = None  # None = num_heads (multi-head attention); fewer = grouped-query
    head_dim: int | None = None  # None = hidden_size // num_heads; MLA: q/k head dim (nope + rope)
    ffn_size: int = 11008  # intermediate size of the (dense) MLP
    vocab_size: int = 32000
    tied_embeddings: bool = False
    attention_bias: bool = False  # biases on the q/k/v projections (MLA: on q_a_proj and kv_a_proj)
    attention_out_bias: bool = False  # bias on the output projection
    mlp_bias: bool = False
    norm: str = "rmsnorm"  # "rmsnorm" (weight only) or "layernorm" (weight + bias)
    max_position_embeddings: int = 0
    learned_pos_embeddings: bool = False  # GPT-2 style wpe table of max_position_embeddings x hidden
    # Mixture of experts (num_experts == 0: dense model)
    num_experts: int = 0
    experts_per_token: int = 0
    shared_experts: int = 0
    moe_ffn_size: int | None = None  # intermediate size of one expert; None = ffn_size
    dense_layers: int = 0  # leading layers with a dense MLP instead of experts (DeepSeek first_k_dense_replace)
    # --- added by the catalog (all defaulted; the defaults reproduce a plain Llama block) ---
    norms_per_layer: int = 2  # hidden-size norms per block: 2 (pre-attn, pre-MLP), 4 (Gemma 2/3), 1 (Falcon-7B)
    qk_norm: bool = False  # RMSNorm on queries and keys (Qwen3, Gemma 3, OLMo 2)
    qk_norm_per_head: bool = True  # True: RMSNorm(head_dim) (Qwen3, Gemma 3); False: over all heads (OLMo 2)
    attention_sinks: bool = False  # one learned sink logit per head (GPT-OSS ``sinks``)
    final_norm: bool = True  # norm after the last block
    head_bias: bool = False  # bias on the LM head (Phi-1/2 ``lm_head.bias``); a parameter even when tied
    fused_qkv: bool = False  # one q/k/v projection tensor (GPT-2 c_attn, GPT-NeoX, Falcon, Phi-3)
    fused_gate_up: bool = False  # one gate+up tensor in the dense MLP (Phi-3 gate_up_proj)
    parallel_attn: bool = False  # attention and MLP read the same input (GPT-J/NeoX/Falcon); no params change
    moe_layer_step: int = 1  # every n-th block is MoE (Qwen decoder_sparse_step), after dense_layers
    shared_expert_ffn_size: int | None = None  # total shared-expert width; None = moe_ffn_size * shared_experts
    shared_expert_gate: bool = False  # Qwen2-MoE sigmoid gate Linear(hidden, 1) on the shared expert
    router_bias: bool = False  # bias on the router Linear (the DeepSeek correction bias is a buffer: False)
    # Multi-head latent attention (DeepSeek-V2/V3); kv_lora_rank == 0: ordinary attention
    q_lora_rank: int = 0  # 0 = plain q_proj
    kv_lora_rank: int = 0
    qk_rope_head_dim: int = 0  # part of head_dim carrying RoPE
    v_head_dim: int | None = None  # None = head_dim
    # Training-time behaviour read from config.json (no parameters change). Dropout probabilities: None = the code
    # default of the profile's family (GPT-2: 0.1, the GPT2Config default; every other family: no dropout).
    attention_dropout: float | None = None  # on the attention probabilities (attn_pdrop, attention_dropout)
    residual_dropout: float | None = None  # on the attention and MLP outputs (resid_pdrop)
    embedding_dropout: float | None = None  # on the embedding output (embd_pdrop)
    use_cache: bool = True  # config use_cache: GPT-2's KV-cache update copies K and V in a training forward
    # Attention span per layer (no parameters change; the KV cache and the attention's activations do).
    # sliding_window: tokens a sliding-window layer attends to (config ``sliding_window``); None = no such layer.
    # layer_types: the per-layer kinds as a pattern of "s" (sliding_attention) and "f" (full_attention) repeated
    # over the layers (transformers ``config.layer_types``, shortest period: Gemma 2 / gpt-oss "sf", Gemma 3
    # "sssssf"); "" = every layer alike: sliding when sliding_window is set (Mistral v0.1), else full.
    sliding_window: int | None = None
    layer_types: str = ""

    @property
    def kv_heads(self) -> int:
        return self.num_kv_heads if self.num_kv_heads is not None else self.num_heads

    @property
    def head_size(self) -> int:
        return self.head_dim if self.head_dim is not None else self.hidden_size // self.num_heads

    @property
    def is_moe(self) -> bool:
        return self.num_experts > 0

    @property
    def is_mla(self) -> bool:
        return self.kv_lora_rank > 0

    @property
    def gated_mlp(self) -> bool:
        return self.family != "gpt"

    @property
    def expert_ffn_size(self) -> int:
        return self.moe_ffn_size if self.moe_ffn_size is not None else self.ffn_size

    @property
    def value_head_size(self) -> int:
        return self.v_head_dim if self.v_head_dim is not None else self.head_size

    def is_sliding_layer(self, index: int) -> bool:
        """Block ``index`` attends to the last ``sliding_window`` tokens only (transformers ``layer_types[index]
        == "sliding_attention"``; every layer when the config gives a window and no types, as Mistral v0.1)."""
        if self.sliding_window is None:
            return False
        pattern = self.layer_types
        return not pattern or pattern[index % len(pattern)] == SLIDING

    @property
    def sliding_layers(self) -> int:
        """How many blocks are sliding-window layers, in O(len(layer_types))."""
        return sliding_blocks_between(self)

    @property
    def full_layers(self) -> int:
        """Blocks that attend to the whole sequence."""
        return max(self.num_layers, 0) - self.sliding_layers


# ---------------------------------------------------------------------------------------------------------
# Modules as (weight numel, bias numel) pairs. Every count below is built from this one list so that the
# total, the tensor count and DeepSpeed's largest layer can never disagree.
# ---------------------------------------------------------------------------------------------------------


def _linear(n_in: int, n_out: int, bias: bool) -> tuple[int, ...]:
    return (n_in * n_out, n_out) if bias else (n_in * n_out,)


def _norm(arch: Architecture, dim: int) -> tuple[int, ...]:
    return (dim, dim) if arch.norm == "layernorm" else (dim,)


def is_moe_layer(arch: Architecture, index: int) -> bool:
    """transformers: DeepSeek ``layer_idx >= first_k_dense_replace``; Qwen-MoE ``(layer_idx + 1) %
    decoder_sparse_step == 0``; Mixtral every layer."""
    return arch.is_moe and index >= arch.dense_layers and (index + 1) % max(arch.moe_layer_step, 1) == 0


def _attention_modules(arch: Architecture) -> list[tuple[int, ...]]:
    h, nh, hd = arch.hidden_size, arch.num_heads, arch.head_size
    out_in = nh * (arch.value_head_size if arch.is_mla else hd)
    mods: list[tuple[int, ...]] = []
    if arch.is_mla:  # DeepseekV3Attention
        if arch.q_lora_rank:
            mods += [_linear(h, arch.q_lora_rank, arch.attention_bias), _norm(arch, arch.q_lora_rank),
                     _linear(arch.q_lora_rank, nh * hd, False)]
        else:
            mods.append(_linear(h, nh * hd, False))
        mods += [_linear(h, arch.kv_lora_rank + arch.qk_rope_head_dim, arch.attention_bias),
                 _norm(arch, arch.kv_lora_rank),
                 _linear(arch.kv_lora_rank, nh * (hd - arch.qk_rope_head_dim + arch.value_head_size), False)]
    elif arch.fused_qkv:
        mods.append(_linear(h, (nh + 2 * arch.kv_heads) * hd, arch.attention_bias))
    else:
        mods += [_linear(h, nh * hd, arch.attention_bias), _linear(h, arch.kv_heads * hd, arch.attention_bias),
                 _linear(h, arch.kv_heads * hd, arch.attention_bias)]
    if arch.qk_norm:
        per_head = arch.qk_norm_per_head
        mods += [_norm(arch, hd if per_head else nh * hd), _norm(arch, hd if per_head else arch.kv_heads * hd)]
    mods.append(_linear(out_in, h, arch.attention_out_bias))
    if arch.attention_sinks:
        mods.append((nh,))
    return mods


def _mlp_modules(arch: Architecture, width: int, bias: bool) -> list[tuple[int, ...]]:
    h = arch.hidden_size
    if not arch.gated_mlp:
        return [_linear(h, width, bias), _linear(width, h, bias)]
    if arch.fused_gate_up:
        return [_linear(h, 2 * width, bias), _linear(width, h, bias)]
    return [_linear(h, width, bias), _linear(h, width, bias), _linear(width, h, bias)]


def _moe_modules(arch: Architecture, layout: str) -> list[tuple[int, ...]]:
    h, e, width = arch.hidden_size, arch.num_experts, arch.expert_ffn_size
    mods = [_linear(h, e, arch.router_bias)]
    if layout == "fused":  # e.g. MixtralExperts: gate_up_proj (E, 2I, H) and down_proj (E, H, I) in one module
        up = (2 if arch.gated_mlp else 1) * width
        mods.append((e * up * h, e * h * width) + ((e * up, e * h) if arch.mlp_bias else ()))
    else:
        for _ in range(e):
            mods += _mlp_modules(arch, width, arch.mlp_bias)
    shared = arch.shared_expert_ffn_size
    if shared is None:
        shared = width * arch.shared_experts
    if shared:
        mods += _mlp_modules(arch, shared, False)
        if arch.shared_expert_gate:
            mods.append(_linear(h, 1, False))
    return mods


def tp_replicated_block_params(arch: Architecture, index: int) -> int:
    """Parameters of decoder block ``index`` that every tensor-parallel rank holds whole, as Megatron-Core builds
    them: norms (``TENorm``/``LayerNorm``: no TP split; QK norms too), the row-parallel linears' biases (added after
    the all-reduce, ``RowParallelLinear``: ``bias`` of size output, not divided), MLA's down-projections and their
    norms (``multi_latent_attention.py``: ``linear_q_down_proj`` / ``linear_kv_down_proj`` built with
    ``parallel_mode="duplicated"``), the MoE router (``moe/router.py`` ``TopKRouter.weight``, a plain parameter)
    and the shared-expert gate. Everything else of the block is split over tp."""
    h = arch.hidden_size
    norm = sum(_norm(arch, h)) * arch.norms_per_layer
    if arch.qk_norm:
        per_head = arch.qk_norm_per_head
        hd = arch.head_size
        norm += sum(_norm(arch, hd if per_head else arch.num_heads * hd))
        norm += sum(_norm(arch, hd if per_head else arch.kv_heads * hd))
    if arch.is_mla:
        if arch.q_lora_rank:
            norm += sum(_linear(h, arch.q_lora_rank, arch.attention_bias)) + sum(_norm(arch, arch.q_lora_rank))
        norm += sum(_linear(h, arch.kv_lora_rank + arch.qk_rope_head_dim, arch.attention_bias))
        norm += sum(_norm(arch, arch.kv_lora_rank))
    norm += h if arch.attention_out_bias else 0
    if is_moe_layer(arch, index):
        norm += sum(_linear(h, arch.num_experts, arch.router_bias))
        if arch.shared_expert_gate and (arch.shared_expert_ffn_size or arch.shared_experts):
            norm += h
    elif arch.mlp_bias:
        norm += h
    return norm


def tp_replicated_embedding_params(arch: Architecture) -> int:
    """Of the embedding: the learned position embedding (Megatron-Core ``LanguageModelEmbedding``: a plain
    ``torch.nn.Embedding``; the word embedding is ``VocabParallelEmbedding``, split over tp)."""
    return arch.max_position_embeddings * arch.hidden_size if arch.learned_pos_embeddings else 0


def tp_replicated_head_params(arch: Architecture) -> int:
    """Of the head: the final norm (the output layer is a ``ColumnParallelLinear`` over the vocabulary)."""
    return sum(_norm(arch, arch.hidden_size)) if arch.final_norm else 0


def layer_modules(arch: Architecture, index: int, layout: str = "fused") -> list[tuple[int, ...]]:
    """The parameter-holding modules of decoder block ``index``, as tuples of tensor sizes."""
    mods = [_norm(arch, arch.hidden_size) for _ in range(arch.norms_per_layer)]
    mods += _attention_modules(arch)
    if is_moe_layer(arch, index):
        mods += _moe_modules(arch, layout)
    else:
        mods += _mlp_modules(arch, arch.ffn_size, arch.mlp_bias)
    return mods


def _embedding_modules(arch: Architecture) -> list[tuple[int, ...]]:
    mods: list[tuple[int, ...]] = [(arch.vocab_size * arch.hidden_size,)]
    if arch.learned_pos_embeddings:
        mods.append((arch.max_position_embeddings * arch.hidden_size,))
    return mods


def _head_modules(arch: Architecture, include_tied: bool) -> list[tuple[int, ...]]:
    mods = [_norm(arch, arch.hidden_size)] if arch.final_norm else []
    bias = (arch.vocab_size,) if arch.head_bias else ()
    if include_tied or not arch.tied_embeddings:
        mods.append((arch.vocab_size * arch.hidden_size, *bias))
    elif bias:
        mods.append(bias)
    return mods


def _check_layout(layout: str) -> None:
    if layout not in EXPERT_LAYOUTS:
        raise ValueError(f"expert layout {layout!r} is not one of {EXPERT_LAYOUTS}")


# ---------------------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------------------


def embedding_params(arch: Architecture) -> int:
    """Token embedding (+ learned position embedding): what the first pipeline stage holds before block 0."""
    return sum(sum(m) for m in _embedding_modules(arch))


def head_params(arch: Architecture, include_tied: bool = False) -> int:
    """Final norm + LM head. A tied head shares the embedding matrix and adds nothing to the model total;
    ``include_tied=True`` counts it anyway (the copy a last pipeline stage keeps, as Megatron does)."""
    return sum(sum(m) for m in _head_modules(arch, include_tied))


def moe_blocks_between(arch: Architecture, start: int = 0, stop: int | None = None) -> int:
    """How many of blocks ``start .. stop-1`` (default: all) are MoE blocks (``is_moe_layer``), in O(1): block i
    is MoE when i >= dense_layers and (i + 1) % moe_layer_step == 0, so they are the multiples of the step in
    (lo, hi]. The one MoE block counter: the parameter count, the pipeline stages and the activations use it."""
    if not arch.is_moe:
        return 0
    hi = arch.num_layers if stop is None else min(stop, arch.num_layers)
    lo = max(start, arch.dense_layers, 0)
    step = max(arch.moe_layer_step, 1)
    return hi // step - lo // step if lo < hi else 0


def sliding_blocks_between(arch: Architecture, start: int = 0, stop: int | None = None) -> int:
    """How many of blocks ``start .. stop-1`` (default: all) are sliding-window layers (``is_sliding_layer``), in
    O(len(layer_types)): the pattern's sliding letters over whole periods plus those of the part period."""
    if arch.sliding_window is None:
        return 0
    hi = max(arch.num_layers, 0) if stop is None else min(stop, max(arch.num_layers, 0))
    lo, pattern = max(start, 0), arch.layer_types
    if lo >= hi:
        return 0
    if not pattern:
        return hi - lo

    def upto(n: int) -> int:
        whole, rest = divmod(n, len(pattern))
        return whole * pattern.count(SLIDING) + pattern[:rest].count(SLIDING)

    return upto(hi) - upto(lo)


def first_moe_block(arch: Architecture) -> int | None:
    """Index of the first MoE block (the first i >= dense_layers with (i + 1) % moe_layer_step == 0); None when
    the model has none."""
    if not moe_blocks_between(arch):
        return None
    step = max(arch.moe_layer_step, 1)
    return (max(arch.dense_layers, 0) // step + 1) * step - 1


def _kinds(arch: Architecture) -> dict[bool, tuple[int, int]]:
    """Block kinds present (dense False / MoE True) -> (first index, how many blocks), in O(1) of num_layers.
    Block 0 is dense unless every block is MoE."""
    n = max(arch.num_layers, 0)
    moe = moe_blocks_between(arch)
    kinds: dict[bool, tuple[int, int]] = {}
    if n - moe:
        kinds[False] = (0, n - moe)
    first = first_moe_block(arch)
    if first is not None:
        kinds[True] = (first, moe)
    return kinds


def layer_params(arch: Architecture) -> tuple[int, ...]:
    """Parameters of each decoder block, in order (dense and MoE blocks differ, e.g. DeepSeek-V3)."""
    sizes = {moe: sum(sum(m) for m in layer_modules(arch, first)) for moe, (first, _) in _kinds(arch).items()}
    return tuple(sizes[is_moe_layer(arch, i)] for i in range(arch.num_layers))


def count_params(arch: Architecture) -> int:
    """Exact ``sum(p.numel() for p in model.parameters())`` of the transformers causal-LM model."""
    blocks = sum(n * sum(sum(m) for m in layer_modules(arch, first)) for first, n in _kinds(arch).values())
    return embedding_params(arch) + blocks + head_params(arch)


def expert_params(arch: Architecture) -> int:
    """One routed expert's MLP (gate/up/down, or up/down for a two-matrix MLP, with biases if any)."""
    if not arch.is_moe:
        return 0
    return sum(sum(m) for m in _mlp_modules(arch, arch.expert_ffn_size, arch.mlp_bias))


def count_active_params(arch: Architecture) -> int:
    """Parameters one token passes through: the routed experts count ``experts_per_token`` times, not
    ``num_experts`` times (router, shared experts and everything else in full). Dense models: count_params."""
    idle = max(arch.num_experts - arch.experts_per_token, 0)
    return count_params(arch) - moe_blocks_between(arch) * idle * expert_params(arch)


def count_param_tensors(arch: Architecture, layout: str = "fused") -> int:
    """``len(list(model.parameters()))`` (tied weights once). ``layout="fused"`` is transformers >= 5 (all
    experts of a block in one gate_up and one down tensor); ``"per_expert"`` is transformers 4.x (an nn.Linear
    per expert projection). PyTorch's Adam keeps one ``step`` tensor per parameter tensor."""
    _check_layout(layout)
    n = sum(len(m) for m in _embedding_modules(arch) + _head_modules(arch, False))
    for first, blocks in _kinds(arch).values():
        n += blocks * sum(len(m) for m in layer_modules(arch, first, layout))
    return n


def largest_layer_params(arch: Architecture, layout: str = "fused") -> int:
    """DeepSpeed's "largest layer": ``max(sum(p.numel() for p in m.parameters(recurse=False)) for m in
    model.modules())`` (deepspeed.runtime.zero.stage3 ``model_to_params``, used by
    ``estimate_zero3_model_states_mem_needs_all_live`` for its ``4 * largest_layer_params`` term): the largest
    single parameter-holding module, usually the embedding or LM head (a tied head module still holds the
    matrix). With transformers >= 5 fused experts (``layout="fused"``) one block's experts module holds all
    its experts' weights at once and is often the largest."""
    _check_layout(layout)
    sizes = [sum(m) for m in _embedding_modules(arch) + _head_modules(arch, True)]
    for first, _ in _kinds(arch).values():
        sizes += [sum(m) for m in layer_modules(arch, first, layout)]
    return max(sizes)
