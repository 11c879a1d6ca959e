"""Fine-tuning with LoRA and QLoRA: which Linear layers get adapters, how many parameters train, and what the
frozen base weighs in its storage format.

* **Adapters** (peft ``LoraConfig``, ``tuners/lora/layer.py``): an adapted ``nn.Linear(in, out)`` gets ``lora_A``
  (r × in) and ``lora_B`` (out × r), no bias: r·(in + out) trainable parameters in two tensors. Fused layouts are
  adapted as peft sees them: one adapter on GPT-2's ``c_attn`` (in h, out 3h), on Phi-3's ``qkv_proj`` and
  ``gate_up_proj``. ``attention`` = the q, k, v and output projections; ``all-linear`` = peft's
  ``INCLUDE_LINEAR_LAYERS_SHORTHAND``: every ``nn.Linear`` / ``Conv1D`` but the output layer. In transformers 5
  the MoE routers and the fused 3-D experts are no ``nn.Linear``: they get no adapter.
* **The frozen base** (bitsandbytes 0.50, ``nn/modules.py`` and ``functional.py``), for the ``nn.Linear`` weights of
  the blocks (what transformers' ``replace_with_bnb_linear`` converts: the LM head, embeddings, norms, routers and
  fused experts stay in the compute dtype):

  - ``int8`` (``Int8Params``, ``int8_vectorwise_quant``): an int8 weight and an fp32 scale per output row,
    in·out + 4·out bytes;
  - ``nf4`` (``Params4bit``, ``quantize_4bit``, blocksize 64): two weights per byte, ⌈n/2⌉, an fp32 absmax per
    block of 64, 4·⌈n/64⌉, and a 16-entry fp32 code table per weight (64 bytes); with double quantisation
    (``compress_statistics``) the absmax is stored as uint8 (⌈n/64⌉ bytes) with an fp32 absmax per 256 blocks
    (``quantize_blockwise``), an fp32 offset, and a copy of the 256-entry fp32 dynamic map (1024 bytes:
    ``code.to(device, copy=True)`` per QuantState).

  Biases of quantised layers stay in the compute dtype. Measured (bench/validate/lora_measure.py) to the byte.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from vramgui.core.activations.lora import LoraActs
from vramgui.core.fields.finetune import split_targets, targets_syntax_ok
from vramgui.core.parallel.layout import ceil_div
from vramgui.core.scenario import architecture as am
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.choices import BaseDType, FinetuneMethod
from vramgui.core.scenario.specs import DTYPE_BYTES, FinetuneSpec
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg

NF4_BLOCK = 64  # bitsandbytes quantize_4bit blocksize (BitsAndBytesConfig default)
NESTED_BLOCK = 256  # quantize_blockwise blocksize of the double quantisation
NF4_CODE_BYTES = 16 * 4  # get_4bit_type("nf4"): 16 fp32 values, a tensor per QuantState
DYNAMIC_MAP_BYTES = 256 * 4  # create_dynamic_map(), copied into each nested QuantState (copy=True)
INT8_SCALE_BYTES = 4  # Int8Params.SCB: fp32 per output row


@dataclass(frozen=True)
class LinearModule:
    """One ``nn.Linear`` of a decoder block as peft sees it."""

    name: str  # the module's attribute name (what target_modules matches)
    parent: str  # the parent module's name ("self_attn", "attn", "mlp", "shared_expert")
    n_in: int
    n_out: int
    attention: bool  # one of the q, k, v and output projections
    bias: bool = False
    reads: str = "norm1"  # its input: norm1 (q, k, v), attn_out (o), norm2 (gate, up), mlp_mid (down)

    @property
    def qualified(self) -> str:
        return f"{self.parent}.{self.name}"


def _names(arch: Architecture) -> dict[str, str]:
    mt = arch.model_type
    if mt in ("gpt2", "gpt_bigcode") or (arch.family == "gpt" and mt == ""):
        return {"qkv": "c_attn", "o": "c_proj", "fc1": "c_fc", "fc2": "c_proj", "attn": "attn"}
    if mt in ("gpt_neox", "falcon"):
        return {"qkv": "query_key_value", "o": "dense", "fc1": "dense_h_to_4h", "fc2": "dense_4h_to_h",
                "attn": "attention" if mt == "gpt_neox" else "self_attention"}
    names = {"q": "q_proj", "k": "k_proj", "v": "v_proj", "qkv": "qkv_proj", "o": "o_proj", "gate": "gate_proj",
             "up": "up_proj", "gate_up": "gate_up_proj", "down": "down_proj", "fc1": "c_fc", "fc2": "c_proj",
             "attn": "self_attn"}
    if mt == "phi":
        names.update(o="dense", fc1="fc1", fc2="fc2")
    if mt == "gptj":
        names.update(o="out_proj", fc1="fc_in", fc2="fc_out", attn="attn")
    return names


def _attention(arch: Architecture, nm: dict[str, str]) -> list[LinearModule]:
    h, a, d, k = arch.hidden_size, arch.num_heads, arch.head_size, arch.kv_heads
    dv, bias, p = arch.value_head_size, arch.attention_bias, nm["attn"]
    out = a * (dv if arch.is_mla else d)
    if arch.is_mla:  # DeepseekV3Attention
        mods = ([LinearModule("q_a_proj", p, h, arch.q_lora_rank, True, bias),
                 LinearModule("q_b_proj", p, arch.q_lora_rank, a * d, True)] if arch.q_lora_rank
                else [LinearModule("q_proj", p, h, a * d, True)])
        mods += [LinearModule("kv_a_proj_with_mqa", p, h, arch.kv_lora_rank + arch.qk_rope_head_dim, True, bias),
                 LinearModule("kv_b_proj", p, arch.kv_lora_rank, a * (d - arch.qk_rope_head_dim + dv), True)]
    elif arch.fused_qkv:
        mods = [LinearModule(nm["qkv"], p, h, (a + 2 * k) * d, True, bias)]
    else:
        mods = [LinearModule(nm["q"], p, h, a * d, True, bias), LinearModule(nm["k"], p, h, k * d, True, bias),
                LinearModule(nm["v"], p, h, k * dv, True, bias)]
    return [*mods, LinearModule(nm["o"], p, out, h, True, arch.attention_out_bias, "attn_out")]


def _mlp(arch: Architecture, nm: dict[str, str], width: int, bias: bool, parent: str) -> list[LinearModule]:
    h = arch.hidden_size
    down = LinearModule(nm["down"] if arch.gated_mlp else nm["fc2"], parent, width, h, False, bias, "mlp_mid")
    if not arch.gated_mlp:
        return [LinearModule(nm["fc1"], parent, h, width, False, bias, "norm2"), down]
    if arch.fused_gate_up:
        return [LinearModule(nm["gate_up"], parent, h, 2 * width, False, bias, "norm2"), down]
    return [LinearModule(nm["gate"], parent, h, width, False, bias, "norm2"),
            LinearModule(nm["up"], parent, h, width, False, bias, "norm2"), down]


@lru_cache(maxsize=256)
def block_linears(arch: Architecture, moe: bool) -> tuple[LinearModule, ...]:
    """The ``nn.Linear`` modules of one dense (``moe`` False) or MoE decoder block, in transformers 5's layout."""
    nm = _names(arch)
    mods = _attention(arch, nm)
    if not moe:
        return tuple(mods + _mlp(arch, nm, arch.ffn_size, arch.mlp_bias, "mlp"))
    shared = arch.shared_expert_ffn_size
    if shared is None:
        shared = arch.expert_ffn_size * arch.shared_experts
    if shared:
        mods += _mlp(arch, nm, shared, False, "shared_expert")
        if arch.shared_expert_gate:
            mods.append(LinearModule("shared_expert_gate", "mlp", arch.hidden_size, 1, False, reads="norm2"))
    return tuple(mods)


def _kinds(arch: Architecture) -> list[tuple[bool, int]]:
    """(is MoE block, how many) for the block kinds the model has."""
    n_moe = am.moe_blocks_between(arch)
    return [(kind, n) for kind, n in ((False, arch.num_layers - n_moe), (True, n_moe)) if n > 0]


def module_names(arch: Architecture) -> tuple[str, ...]:
    """Every name (and parent-qualified name) a comma list may use for this architecture."""
    names: dict[str, None] = {}
    for moe, _ in _kinds(arch):
        for m in block_linears(arch, moe):
            names.setdefault(m.name)
            names.setdefault(m.qualified)
    return tuple(names)


def is_target(module: LinearModule, targets: str) -> bool:
    text = targets.strip()
    if text == "all-linear":
        return True
    if text == "attention":
        return module.attention
    return any(n in (module.name, module.qualified) for n in split_targets(text))


def check_targets(arch: Architecture, targets: str) -> None:
    """InputError on ``finetune.lora_targets`` for a name this architecture has no Linear of."""
    if targets.strip() in ("attention", "all-linear"):
        return
    if not targets_syntax_ok(targets):
        raise InputError("finetune.lora_targets", Msg.of("error.lora_targets", value=repr(targets[:40])),
                         Msg.of("allowed.lora_target_syntax"))
    known = module_names(arch)
    for name in split_targets(targets):
        if name not in known:
            raise InputError("finetune.lora_targets", Msg.of("error.lora_target_unknown", name=name),
                             Msg.of("allowed.lora_targets", names=", ".join(known)))


@dataclass(frozen=True)
class LoraPlan:
    """What LoRA trains and freezes in one model (whole model, before any parallel split)."""

    trainable: int  # adapter parameters, r·(in + out) summed
    tensors: int  # adapter tensors (lora_A, lora_B per adapted Linear)
    base_params: int  # every parameter of the base model (frozen)
    quantised_params: int  # weights of the blocks' Linear layers (what bitsandbytes converts)
    quantised_tensors: int
    base_bytes: int  # the frozen base in its storage format
    base_storage: str  # fp32 | bf16 | fp16 | int8 | nf4
    adapted: tuple[tuple[LinearModule, bool], ...]  # adapted layers of one block of each kind (module, MoE block)
    largest_quantised: int  # elements of the largest quantised weight (the dequantisation transient)


def base_storage(ft: FinetuneSpec, weight_dtype: str) -> str:
    """The frozen base's storage: nf4 under QLoRA, else the given base dtype or the weights' own dtype."""
    if ft.method == FinetuneMethod.QLORA:
        return "nf4"
    return ft.base_dtype if ft.base_dtype != BaseDType.AUTO else weight_dtype


def quantised_weight_bytes(n_in: int, n_out: int, storage: str, double_quant: bool) -> int:
    """Bytes bitsandbytes allocates for one quantised Linear weight (shared dynamic map excluded)."""
    n = n_in * n_out
    if storage == "int8":
        return n + INT8_SCALE_BYTES * n_out
    blocks = ceil_div(n, NF4_BLOCK)
    packed = ceil_div(n, 2)
    if double_quant:
        return packed + blocks + 4 * ceil_div(blocks, NESTED_BLOCK) + 4 + NF4_CODE_BYTES + DYNAMIC_MAP_BYTES
    return packed + 4 * blocks + NF4_CODE_BYTES


@lru_cache(maxsize=512)
def lora_plan(arch: Architecture, ft: FinetuneSpec, weight_dtype: str, weight_bytes: int) -> LoraPlan:
    """The adapters and the frozen base of ``arch`` (``weight_bytes``: the bytes per weight of what is not
    quantised, the model's dtype as loaded)."""
    check_targets(arch, ft.lora_targets)
    storage = base_storage(ft, weight_dtype)
    quant = storage in ("int8", "nf4")
    r = ft.lora_rank
    trainable = tensors = q_params = q_tensors = q_bytes = largest = 0
    adapted: list[tuple[LinearModule, bool]] = []
    for moe, count in _kinds(arch):
        for m in block_linears(arch, moe):
            if is_target(m, ft.lora_targets):
                trainable += count * r * (m.n_in + m.n_out)
                tensors += 2 * count
                adapted.append((m, moe))
            if quant:
                q_params += count * m.n_in * m.n_out
                q_tensors += count
                q_bytes += count * quantised_weight_bytes(m.n_in, m.n_out, storage, ft.double_quant)
                largest = max(largest, m.n_in * m.n_out)
    if not trainable:
        raise InputError("finetune.lora_targets", Msg.of("error.lora_no_targets"),
                         Msg.of("allowed.lora_targets", names=", ".join(module_names(arch))))
    total = am.count_params(arch)
    if quant:
        base = q_bytes + (total - q_params) * weight_bytes
    else:
        base = total * DTYPE_BYTES[storage] if storage in DTYPE_BYTES else total * weight_bytes
    return LoraPlan(trainable, tensors, total, q_params, q_tensors, base, storage, tuple(adapted), largest)


@dataclass(frozen=True)
class FinetuneSizes:
    """The plan scaled to what one GPU holds before data-parallel sharding (``stage_params`` of ``total``)."""

    plan: LoraPlan
    trainable: int  # adapter parameters on this model-parallel rank
    tensors: int
    base_bytes: int  # frozen base bytes on this rank
    scaled: bool  # an explicit parameter count differed from the architecture's (counts scaled)


def finetune_sizes(plan: LoraPlan, params: int, stage_params: int, tp: int, pp: int) -> FinetuneSizes:
    """Scale the plan to an explicit parameter count (as ``parallel.stage_params`` scales a stage) and to one
    model-parallel rank: the adapters and the base in proportion to the parameters the rank holds."""
    scaled = params != plan.base_params
    trainable, base = plan.trainable, plan.base_bytes
    if scaled:
        trainable = ceil_div(trainable * params, plan.base_params)
        base = ceil_div(base * params, plan.base_params)
    tensors = plan.tensors
    if stage_params != params:  # tensor / pipeline parallel: this rank's share
        trainable = ceil_div(trainable * stage_params, params)
        base = ceil_div(base * stage_params, params)
        tensors = ceil_div(tensors, pp) if tp * pp > 1 else tensors
    return FinetuneSizes(plan, trainable, tensors, base, scaled)


def lora_acts(plan: LoraPlan, ft: FinetuneSpec, adapter_bytes: int) -> LoraActs:
    """What the activation model needs of the adapters (``activations_lora``)."""
    mods = tuple((m.reads, m.n_in, moe) for m, moe in plan.adapted)
    return LoraActs(ft.lora_rank, ft.lora_dropout, adapter_bytes, mods, plan.base_storage == "int8")
