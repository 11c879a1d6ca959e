"""Map a parsed Hugging Face ``config.json`` (a dict) onto an ``Architecture``: pure, no file access.

The file itself is read by ``vramgui.io.hf_config`` (capped, as data, never executed); this module only
interprets the dict, so presets (``resources/presets/models.json``) and a user's config go through the same
code. A ``trust_remote_code`` model (``auto_map`` in its config) is read like any other when its ``model_type``
is one of ours and rejected with a message otherwise. Where a key is absent the default of the matching
transformers configuration class applies (``configuration_<model_type>.py``), so that the count equals what
``AutoModelForCausalLM.from_config`` builds, and ``read_architecture`` returns a note naming every such key and the
value used (never a silent default); the dimensions themselves (layers, hidden size, heads, vocabulary,
intermediate size) must be present. Every key is read under each name transformers has written for it: the
configuration classes' ``attribute_map`` (transformers 5 saves Qwen3-MoE's ``num_experts`` as
``num_local_experts``; DeepSeek's ``n_routed_experts`` is also read as ``num_local_experts``) and the older names
of 4.x and remote code (GPT-2's ``n_embd``, Falcon's ``n_head``/``n_embed``); two names of one key that disagree
are an error. The validation harness (``bench/validate/config_keys.py``) builds every supported model_type with
transformers' own classes, saves it with ``save_pretrained`` and compares the count read here with the built
model's, one architecture key changed at a time (``tests/fixtures/hf_configs/transformers_saved.json``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from vramgui.core.documents.config_keys import ConfigKeys
from vramgui.core.documents.hf_attention import attention_fields, attention_notes
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg


def _common(c: ConfigKeys, *, kv_default: int | None = None, head_dim_default: int | None = None,
            tie_default: bool = False) -> dict[str, Any]:
    """Fields shared by the Llama-style decoders (llama.py config names)."""
    heads = c.int("num_attention_heads", limit="heads")
    hidden = c.int("hidden_size")
    return dict(
        model_type=c.model_type,
        num_layers=c.int("num_hidden_layers", limit="layers"),
        hidden_size=hidden,
        num_heads=heads,
        num_kv_heads=c.int("num_key_value_heads", default=kv_default or heads, limit="heads"),
        head_dim=c.int("head_dim", default=head_dim_default or hidden // heads),
        ffn_size=c.int("intermediate_size"),
        vocab_size=c.int("vocab_size", limit="vocab"),
        tied_embeddings=c.bool("tie_word_embeddings", tie_default),
        # rotary models hold no parameter per position: an absent key is no default worth a note
        max_position_embeddings=c.int("max_position_embeddings", default=0, limit="positions", minimum=0,
                                      noted=False),
        # eager_attention_forward(dropout=self.attention_dropout); absent: the configuration classes' 0.0
        attention_dropout=c.prob("attention_dropout"),
    )


def _gpt2(c: ConfigKeys) -> Architecture:  # GPT2LMHeadModel: Conv1D c_attn/c_proj/c_fc with biases, lm_head tied
    # GPT2Config / GPTBigCodeConfig attribute_map: hidden_size -> n_embd, num_hidden_layers -> n_layer,
    # num_attention_heads -> n_head, max_position_embeddings -> n_positions (saved under the n_* names)
    hidden = c.int("n_embd", "hidden_size", default=768)
    return Architecture(
        family="gpt", model_type=c.model_type, num_layers=c.int("n_layer", "num_hidden_layers", default=12,
                                                                limit="layers"),
        hidden_size=hidden, num_heads=c.int("n_head", "num_attention_heads", default=12, limit="heads"),
        ffn_size=c.int("n_inner", default=4 * hidden), vocab_size=c.int("vocab_size", default=50257, limit="vocab"),
        tied_embeddings=c.bool("tie_word_embeddings", True), attention_bias=True, attention_out_bias=True,
        mlp_bias=True, norm="layernorm", max_position_embeddings=c.int("n_positions", "max_position_embeddings",
                                                                      default=1024, limit="positions"),
        learned_pos_embeddings=True, fused_qkv=True,
        # GPT2Config / GPTBigCodeConfig: attn_pdrop, resid_pdrop, embd_pdrop 0.1 and use_cache true by default
        attention_dropout=c.prob("attn_pdrop", 0.1), residual_dropout=c.prob("resid_pdrop", 0.1),
        embedding_dropout=c.prob("embd_pdrop", 0.1), use_cache=c.bool("use_cache", True))


def _gpt_bigcode(c: ConfigKeys) -> Architecture:
    # GPTBigCode (StarCoder, SantaCoder): GPT-2's layout; multi_query (default True) makes c_attn hidden + 2 head_dim
    return replace(_gpt2(c), num_kv_heads=1 if c.bool("multi_query", True) else None)


def _phi(c: ConfigKeys) -> Architecture:
    # PhiDecoderLayer: one LayerNorm, attention and MLP in parallel; q/k/v/dense and fc1/fc2 with biases;
    # optional q/k LayerNorm(head_dim) (qk_layernorm); lm_head with bias
    fields = _common(c)
    return Architecture(**fields, family="gpt", attention_bias=True, attention_out_bias=True, mlp_bias=True,
                        norm="layernorm", norms_per_layer=1, parallel_attn=True,
                        qk_norm=c.bool("qk_layernorm", False), head_bias=True)


def _llama(c: ConfigKeys) -> Architecture:  # LlamaAttention: q/k/v/o bias=attention_bias; LlamaMLP bias=mlp_bias
    bias = c.bool("attention_bias", False)
    return Architecture(**_common(c), attention_bias=bias, attention_out_bias=bias,
                        mlp_bias=c.bool("mlp_bias", False))


def _mistral(c: ConfigKeys) -> Architecture:  # MistralAttention: no biases; MistralConfig num_key_value_heads=8
    return Architecture(**_common(c, kv_default=8))


def _mixtral(c: ConfigKeys) -> Architecture:  # MixtralSparseMoeBlock: router (E x H) + experts of intermediate_size
    # MixtralConfig attribute_map: num_experts -> num_local_experts
    return Architecture(**_common(c, kv_default=8), num_experts=c.int("num_local_experts", "num_experts", default=8,
                                                                       limit="experts"),
                        experts_per_token=c.int("num_experts_per_tok", default=2, limit="experts"))


def _qwen2(c: ConfigKeys) -> Architecture:  # Qwen2Attention: q/k/v bias=True, o_proj bias=False
    return Architecture(**_common(c, kv_default=32), attention_bias=True)


def _qwen_moe(c: ConfigKeys, *, shared: bool) -> dict[str, Any]:
    c.empty_list("mlp_only_layers")
    fields: dict[str, Any] = dict(
        # Qwen3MoeConfig (transformers 5) attribute_map: num_experts -> num_local_experts, and so saved; 4.x and
        # Qwen2MoeConfig write num_experts
        num_experts=c.int("num_experts", "num_local_experts", default=60 if shared else 128, limit="experts"),
        experts_per_token=c.int("num_experts_per_tok", default=4 if shared else 8, limit="experts"),
        moe_ffn_size=c.int("moe_intermediate_size", default=1408 if shared else 768),
        moe_layer_step=c.int("decoder_sparse_step", default=1, limit="layers"))
    if shared:  # Qwen2MoeSparseMoeBlock: shared_expert MLP + shared_expert_gate Linear(H, 1)
        fields.update(shared_experts=1, shared_expert_gate=True,
                      shared_expert_ffn_size=c.int("shared_expert_intermediate_size", default=5632, minimum=0))
    return fields


def _qwen2_moe(c: ConfigKeys) -> Architecture:
    return Architecture(**_common(c, kv_default=16), attention_bias=c.bool("qkv_bias", True),
                        **_qwen_moe(c, shared=True))


def _qwen3(c: ConfigKeys) -> Architecture:  # Qwen3Attention: q_norm/k_norm RMSNorm(head_dim), bias=attention_bias
    bias = c.bool("attention_bias", False)
    return Architecture(**_common(c, kv_default=32, head_dim_default=128), attention_bias=bias,
                        attention_out_bias=bias, qk_norm=True)


def _qwen3_moe(c: ConfigKeys) -> Architecture:
    bias = c.bool("attention_bias", False)
    return Architecture(**_common(c, kv_default=4), attention_bias=bias,  # Qwen3MoeConfig head_dim: hidden/heads
                        attention_out_bias=bias, qk_norm=True, **_qwen_moe(c, shared=False))


def _gemma(c: ConfigKeys, *, norms: int = 2, qk_norm: bool = False) -> Architecture:
    # Gemma(2/3)Attention bias=attention_bias; Gemma2/3 add pre_/post_feedforward_layernorm; Gemma3 q/k norms.
    # Config defaults: GemmaConfig num_key_value_heads=16 (7B), Gemma2Config/Gemma3TextConfig 4 (2B/4B shapes).
    bias = c.bool("attention_bias", False)
    kv_default = 16 if norms == 2 else 4
    return Architecture(**_common(c, kv_default=kv_default, head_dim_default=256, tie_default=True),
                        attention_bias=bias,
                        attention_out_bias=bias, norms_per_layer=norms, qk_norm=qk_norm)


def _phi3(c: ConfigKeys) -> Architecture:  # Phi3Attention qkv_proj fused, Phi3MLP gate_up_proj fused, no biases
    return Architecture(**_common(c), fused_qkv=True, fused_gate_up=True)


def _gpt_neox(c: ConfigKeys) -> Architecture:
    # GPTNeoXLayer: input_layernorm + post_attention_layernorm (LayerNorm), query_key_value/dense
    # bias=attention_bias (default True), dense_h_to_4h/dense_4h_to_h always with bias; embed_out untied
    fields = _common(c, head_dim_default=None)
    fields["num_kv_heads"] = fields["num_heads"]
    fields["head_dim"] = fields["hidden_size"] // fields["num_heads"]
    c.forget("num_key_value_heads", "head_dim")  # GPTNeoXConfig has neither key
    bias = c.bool("attention_bias", True)
    return Architecture(**fields, family="gpt", attention_bias=bias, attention_out_bias=bias, mlp_bias=True,
                        norm="layernorm", fused_qkv=True, parallel_attn=c.bool("use_parallel_residual", True))


def _falcon(c: ConfigKeys) -> Architecture:
    # FalconAttention: query_key_value of (heads + 2 kv) * head_dim (new arch), hidden + 2 head_dim (multi-query)
    # or 3 hidden; FalconDecoderLayer: 2 norms unless parallel_attn with one input_layernorm; lm_head tied.
    hidden = c.int("hidden_size", "n_embed", default=4544)  # FalconConfig.__post_init__: n_embed -> hidden_size
    heads = c.int("num_attention_heads", "n_head", default=71, limit="heads")
    new_arch = c.bool("new_decoder_architecture", False)
    parallel = c.bool("parallel_attn", True)
    if new_arch:
        kv = c.int("num_kv_heads", "n_head_kv", default=heads, limit="heads")
    else:
        kv = 1 if c.bool("multi_query", True) else heads
    lns = c.int("num_ln_in_parallel_attn", default=2 if new_arch else 1, limit="layers")
    bias = c.bool("bias", False)
    return Architecture(
        family="gpt", model_type=c.model_type, num_layers=c.int("num_hidden_layers", "n_layer", default=32,
                                                                limit="layers"),
        hidden_size=hidden, num_heads=heads, num_kv_heads=kv, head_dim=hidden // heads,
        ffn_size=c.int("ffn_hidden_size", default=4 * hidden), vocab_size=c.int("vocab_size", default=65024,
                                                                                limit="vocab"),
        tied_embeddings=c.bool("tie_word_embeddings", True), attention_bias=bias, attention_out_bias=bias,
        mlp_bias=bias, norm="layernorm", norms_per_layer=(2 if not parallel or lns == 2 else 1),
        max_position_embeddings=c.int("max_position_embeddings", default=2048, limit="positions", minimum=0),
        fused_qkv=True, parallel_attn=parallel)


def _gpt_oss(c: ConfigKeys) -> Architecture:
    # GptOssAttention: q/k/v/o bias=attention_bias (default True) + sinks (one per head); GptOssTopKRouter:
    # weight + bias; GptOssExperts: gate_up_proj, gate_up_proj_bias, down_proj, down_proj_bias (fused, all experts)
    bias = c.bool("attention_bias", True)
    return Architecture(**_common(c, kv_default=8, head_dim_default=64), attention_bias=bias,
                        attention_out_bias=bias, attention_sinks=True, mlp_bias=True, router_bias=True,
                        # GptOssConfig attribute_map: num_experts -> num_local_experts
                        num_experts=c.int("num_local_experts", "num_experts", default=128, limit="experts"),
                        experts_per_token=c.int("num_experts_per_tok", "experts_per_token", default=4,
                                                limit="experts"))


def _olmo2(c: ConfigKeys) -> Architecture:
    # Olmo2Attention: q_norm RMSNorm(heads * head_dim), k_norm RMSNorm(kv_heads * head_dim), bias=attention_bias;
    # Olmo2DecoderLayer: post_attention_layernorm + post_feedforward_layernorm (two norms)
    bias = c.bool("attention_bias", False)
    return Architecture(**_common(c), attention_bias=bias, attention_out_bias=bias, qk_norm=True,
                        qk_norm_per_head=False)


def _starcoder2(c: ConfigKeys) -> Architecture:
    # Starcoder2: q/k/v/o and c_fc/c_proj bias=use_bias (default True), LayerNorm with bias, non-gated MLP
    bias = c.bool("use_bias", True)
    # nn.LayerNorm keeps its bias whatever use_bias says; Starcoder2Config num_key_value_heads defaults to 2
    return Architecture(**_common(c, kv_default=2, tie_default=True), family="gpt", attention_bias=bias,
                        attention_out_bias=bias, mlp_bias=bias, norm="layernorm")


def _deepseek_v2(c: ConfigKeys) -> Architecture:
    # DeepseekV2: DeepSeek-V3's MLA and MoE layout with V2's defaults; no correction-bias buffer. DeepseekV2MLP
    # takes bias=mlp_bias on the dense and shared-expert MLPs but not on the fused routed experts: not modelled
    c.unsupported("mlp_bias", False)
    return _deepseek(c, defaults=dict(q_lora_rank=1536, experts=64, top_k=6, shared=2, moe_width=1407, dense=0))


def _deepseek_v3(c: ConfigKeys) -> Architecture:
    return _deepseek(c, defaults=dict(q_lora_rank=1536, experts=256, top_k=8, shared=1, moe_width=2048, dense=3))


def _deepseek(c: ConfigKeys, defaults: dict[str, int]) -> Architecture:
    # DeepseekV3Attention (MLA): q_a_proj/q_a_layernorm/q_b_proj, kv_a_proj_with_mqa/kv_a_layernorm/kv_b_proj,
    # o_proj; DeepseekV3MoE: router weight (E x H; e_score_correction_bias is a buffer), experts, shared_experts
    # of width moe_intermediate_size * n_shared_experts; blocks < first_k_dense_replace use the dense MLP.
    fields = _common(c)
    nope = c.int("qk_nope_head_dim", default=128)
    rope = c.int("qk_rope_head_dim", default=64)
    if "q_lora_rank" in c.data:
        q_rank = c.data["q_lora_rank"]  # null: q_proj directly, no low-rank query
    else:
        q_rank = c.used_default("q_lora_rank", defaults["q_lora_rank"])
    fields["head_dim"] = nope + rope
    # MLA gives every head its own K and V (kv_b_proj expands the latent to num_heads x (nope + v)); the config's
    # num_key_value_heads is unused by DeepseekV3Attention (tiny saved configs keep its default 128 beside 2 heads).
    fields["num_kv_heads"] = fields["num_heads"]
    c.forget("num_key_value_heads", "head_dim")
    bias = c.bool("attention_bias", False)
    return Architecture(
        **fields, attention_bias=bias, attention_out_bias=bias,
        q_lora_rank=0 if q_rank is None else c.int("q_lora_rank", default=defaults["q_lora_rank"]),
        kv_lora_rank=c.int("kv_lora_rank", default=512), qk_rope_head_dim=rope,
        v_head_dim=c.int("v_head_dim", default=128),
        # DeepseekV3Config attribute_map: num_local_experts -> n_routed_experts; DeepseekV2Config: num_experts
        num_experts=c.int("n_routed_experts", "num_local_experts", "num_experts", default=defaults["experts"],
                          limit="experts"),
        experts_per_token=c.int("num_experts_per_tok", default=defaults["top_k"], limit="experts"),
        shared_experts=c.int("n_shared_experts", default=defaults["shared"], limit="experts", minimum=0),
        moe_ffn_size=c.int("moe_intermediate_size", default=defaults["moe_width"]),
        dense_layers=c.int("first_k_dense_replace", default=defaults["dense"], limit="layers", minimum=0))


READERS: dict[str, Callable[[ConfigKeys], Architecture]] = {
    "gpt2": _gpt2, "llama": _llama, "mistral": _mistral, "mixtral": _mixtral, "qwen2": _qwen2,
    "qwen2_moe": _qwen2_moe, "qwen3": _qwen3, "qwen3_moe": _qwen3_moe, "gemma": _gemma,
    "gemma2": lambda c: _gemma(c, norms=4), "gemma3_text": lambda c: _gemma(c, norms=4, qk_norm=True),
    "phi3": _phi3, "gpt_neox": _gpt_neox, "falcon": _falcon, "deepseek_v3": _deepseek_v3,
    "gpt_oss": _gpt_oss, "olmo2": _olmo2, "starcoder2": _starcoder2, "deepseek_v2": _deepseek_v2, "phi": _phi,
    "gpt_bigcode": _gpt_bigcode,
    "granite": _llama,  # GraniteAttention/GraniteMLP: Llama's modules (the multipliers hold no parameters)
}
SUPPORTED_MODEL_TYPES = tuple(sorted(READERS))
_ALIASES = {"RefinedWeb": "falcon", "RefinedWebModel": "falcon"}  # Falcon's pre-transformers remote-code names
# Multimodal wrappers whose language model we count (the vision tower is not part of the count).
_TEXT_CONFIG_WRAPPERS = {"gemma3": "gemma3_text"}


@dataclass(frozen=True)
class ConfigReading:
    """An Architecture read from config.json and how: the keys it does not set and the values used for them."""

    architecture: Architecture
    defaults: tuple[tuple[str, Any], ...] = ()

    @property
    def notes(self) -> tuple[Msg, ...]:
        if not self.defaults:
            return ()
        pairs = ", ".join(f"{key} = {json.dumps(value)}" for key, value in self.defaults)
        return (Msg.of("note.config_defaults", pairs=pairs),)


def architecture_from_config(config: Any) -> Architecture:
    """Map a parsed config.json (a dict) onto an Architecture; unsupported model_type -> InputError."""
    return read_architecture(config).architecture


def read_architecture(config: Any) -> ConfigReading:
    """``architecture_from_config`` with the configuration-class defaults it used (``ConfigReading.notes``)."""
    if not isinstance(config, dict):
        raise InputError("config", Msg.of("error.config_not_object"))
    supported = Msg.of("allowed.choices", choices=", ".join(SUPPORTED_MODEL_TYPES))
    model_type = config.get("model_type")
    if not isinstance(model_type, str) or not model_type:
        raise InputError("config.model_type", Msg.of("error.config_no_model_type"), supported)
    if model_type in _TEXT_CONFIG_WRAPPERS and isinstance(config.get("text_config"), dict):
        text = dict(config["text_config"])
        text["model_type"] = _TEXT_CONFIG_WRAPPERS[model_type]  # never another wrapper: no recursion chains
        text.setdefault("tie_word_embeddings", config.get("tie_word_embeddings", True))
        return read_architecture(text)
    model_type = _ALIASES.get(model_type, model_type)
    reader = READERS.get(model_type)
    if reader is None:
        code = "error.model_type_remote_code" if "auto_map" in config else "error.model_type_unsupported"
        raise InputError("config.model_type", Msg.of(code, model_type=repr(model_type[:60])), supported)
    c = ConfigKeys(config, model_type)
    arch = reader(c)
    window = attention_fields(config, model_type, arch.num_layers)  # sliding windows: hf_attention.py
    return ConfigReading(replace(arch, **window) if window else arch, tuple(c.defaults.items()))


def config_notes(config: dict[str, Any], model_type: str) -> tuple[Msg, ...]:
    """What ``architecture_from_config`` took from a transformers default for the attention span
    (``hf_attention.attention_notes``; the other keys' defaults are ``read_architecture(...).notes``);
    ``model_type`` is the one it was read as."""
    text = config.get("text_config")
    inner = text if model_type != config.get("model_type") and isinstance(text, dict) else config
    return attention_notes(inner, model_type)
