"""The field registry: every input of a ``Scenario`` once, by its dotted path.

The dataclasses in ``vramgui.core.specs`` and ``vramgui.core.architecture`` declare each field's type and
default; this table adds what everything else needs: the allowed range or choices, the unit, the CLI flag, the
label and tooltip (marked for translation), and when a field does not apply. Validation of single values, the
scenario reader, the CLI parser, the window's form, the error-to-field mapping and the range tooltips are all
derived from here, so adding an input is one entry here plus its formula.

Cross-field rules (tp × pp divides the GPUs, the global batch is a multiple of micro-batch × N_d...) are in
``vramgui.core.validate``; single-value rules are here and only here.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, Literal

from vramgui.core import specs
from vramgui.core.architecture import FAMILIES, Architecture
from vramgui.core.errors import InputError
from vramgui.core.messages import QT_TRANSLATE_NOOP as _t
from vramgui.core.messages import Msg
from vramgui.core.units import parse_bytes_exact, parse_count_exact

Kind = Literal["int", "count", "bytes", "fraction", "choice", "bool", "text"]

MAX_PARAMS = 10**15
MAX_GPUS = 10**6
MAX_GPUS_PER_NODE = 4096
MAX_BATCH = 10**7
MAX_SEQ = 10**8
MAX_BYTES = 10**18
MAX_LAYERS = 10_000  # the deepest published LLMs have ~100-200 blocks
MAX_WIDTH = 10**8  # hidden, heads, FFN and vocabulary sizes
MAX_EXPERTS = 10**5


@dataclass(frozen=True)
class Field:
    """One scenario input. ``default`` and ``type`` come from the dataclass that holds the field."""

    path: str
    kind: Kind
    label: str
    tooltip: str = ""
    low: int | float | None = None
    high: int | float | None = None
    high_open: bool = False  # the range excludes ``high`` (the reserve fraction: 0 <= value < 1)
    choices: tuple[Any, ...] = ()
    flag: str | None = None
    metavar: str | None = None
    unit: str = ""  # shown beside the editor: "bytes", "parameters", "tokens", "samples", "GPUs"
    default: Any = None
    optional: bool = False  # None is a value: "not given" (no global batch, no GPU memory...)

    @property
    def group(self) -> str:
        parts = self.path.split(".")
        return "architecture" if parts[:2] == ["model", "architecture"] else parts[0]

    @property
    def name(self) -> str:
        return self.path.rsplit(".", 1)[-1]

    def allowed(self) -> Msg:
        """The allowed values as a message (also the range shown in tooltips)."""
        if self.kind == "choice":
            return Msg.of("allowed.choices", choices=", ".join(str(c) for c in self.choices))
        if self.kind == "bool":
            return Msg.of("allowed.true_false")
        if self.kind == "fraction":
            return Msg.of("allowed.fraction")
        if self.low is None or self.high is None:
            return Msg.of("allowed.range", low="", high="")
        return Msg.of("allowed.range", low=f"{self.low:,}", high=f"{self.high:,}")


def _f(path: str, kind: Kind, label: str, tooltip: str = "", **kw: Any) -> Field:
    return Field(path, kind, label, tooltip, **kw)


_A = "model.architecture."
# Order is the order of the form and of `--help`. Labels and tooltips use the "Fields" translation context.
_TABLE: tuple[Field, ...] = (
    _f("model.name", "text", _t("Fields", "Model name"), _t("Fields", "A label for the model")),
    _f("model.params", "count", _t("Fields", "Parameters"),
       _t("Fields", "Parameter count: 7B, 124M, 7.5e9 (no activations without an architecture)"),
       low=1, high=MAX_PARAMS, flag="--params", metavar="COUNT", unit="parameters"),
    _f("model.largest_layer", "count", _t("Fields", "Largest layer"),
       _t("Fields", "DeepSpeed ZeRO-3's largest layer, in parameters; from the architecture when empty"),
       low=0, high=MAX_PARAMS, flag="--largest-layer", metavar="COUNT", unit="parameters"),
    _f(_A + "family", "choice", _t("Fields", "Block style"), choices=FAMILIES),
    _f(_A + "model_type", "text", _t("Fields", "Model type")),
    _f(_A + "num_layers", "int", _t("Fields", "Layers"), low=1, high=MAX_LAYERS),
    _f(_A + "hidden_size", "int", _t("Fields", "Hidden size"), low=1, high=MAX_WIDTH),
    _f(_A + "num_heads", "int", _t("Fields", "Attention heads"), low=1, high=MAX_WIDTH),
    _f(_A + "num_kv_heads", "int", _t("Fields", "KV heads"), low=1, high=MAX_WIDTH),
    _f(_A + "head_dim", "int", _t("Fields", "Head dimension"), low=1, high=10**6),
    _f(_A + "ffn_size", "int", _t("Fields", "FFN size"), low=1, high=MAX_WIDTH),
    _f(_A + "vocab_size", "int", _t("Fields", "Vocabulary"), low=1, high=MAX_WIDTH),
    _f(_A + "tied_embeddings", "bool", _t("Fields", "Tied embeddings")),
    _f(_A + "attention_bias", "bool", _t("Fields", "Attention bias")),
    _f(_A + "attention_out_bias", "bool", _t("Fields", "Attention output bias")),
    _f(_A + "mlp_bias", "bool", _t("Fields", "MLP bias")),
    _f(_A + "norm", "choice", _t("Fields", "Norm"), choices=("rmsnorm", "layernorm")),
    _f(_A + "max_position_embeddings", "int", _t("Fields", "Max positions"), low=0, high=MAX_SEQ),
    _f(_A + "learned_pos_embeddings", "bool", _t("Fields", "Learned positions")),
    _f(_A + "num_experts", "int", _t("Fields", "Experts"), low=0, high=MAX_EXPERTS),
    _f(_A + "experts_per_token", "int", _t("Fields", "Experts per token"), low=0, high=MAX_EXPERTS),
    _f(_A + "shared_experts", "int", _t("Fields", "Shared experts"), low=0, high=MAX_EXPERTS),
    _f(_A + "moe_ffn_size", "int", _t("Fields", "Expert FFN size"), low=1, high=MAX_WIDTH),
    _f(_A + "dense_layers", "int", _t("Fields", "Dense layers"), low=0, high=MAX_LAYERS),
    _f(_A + "norms_per_layer", "int", _t("Fields", "Norms per layer"), low=0, high=16),
    _f(_A + "qk_norm", "bool", _t("Fields", "QK norm")),
    _f(_A + "qk_norm_per_head", "bool", _t("Fields", "QK norm per head")),
    _f(_A + "attention_sinks", "bool", _t("Fields", "Attention sinks")),
    _f(_A + "final_norm", "bool", _t("Fields", "Final norm")),
    _f(_A + "head_bias", "bool", _t("Fields", "Output layer bias")),
    _f(_A + "fused_qkv", "bool", _t("Fields", "Fused QKV")),
    _f(_A + "fused_gate_up", "bool", _t("Fields", "Fused gate/up")),
    _f(_A + "parallel_attn", "bool", _t("Fields", "Parallel attention")),
    _f(_A + "moe_layer_step", "int", _t("Fields", "MoE layer step"), low=1, high=MAX_LAYERS),
    _f(_A + "shared_expert_ffn_size", "int", _t("Fields", "Shared expert FFN size"), low=1, high=MAX_WIDTH),
    _f(_A + "shared_expert_gate", "bool", _t("Fields", "Shared expert gate")),
    _f(_A + "router_bias", "bool", _t("Fields", "Router bias")),
    _f(_A + "q_lora_rank", "int", _t("Fields", "Query LoRA rank"), low=0, high=MAX_WIDTH),
    _f(_A + "kv_lora_rank", "int", _t("Fields", "KV LoRA rank"), low=0, high=MAX_WIDTH),
    _f(_A + "qk_rope_head_dim", "int", _t("Fields", "RoPE head dimension"), low=0, high=10**6),
    _f(_A + "v_head_dim", "int", _t("Fields", "Value head dimension"), low=1, high=10**6),
    _f("precision.dtype", "choice", _t("Fields", "Dtype"),
       _t("Fields", "Dtype of weights, gradients and activations"), choices=specs.DTYPES, flag="--dtype"),
    _f("precision.recipe", "choice", _t("Fields", "Recipe"),
       _t("Fields", "mixed: fp32 master weights beside the dtype; pure: the dtype alone"),
       choices=specs.RECIPES, flag="--precision"),
    _f("precision.optimizer", "choice", _t("Fields", "Optimizer"), choices=specs.OPTIMIZERS, flag="--optimizer"),
    _f("training.micro_batch", "int", _t("Fields", "Micro-batch"),
       _t("Fields", "Samples per GPU per forward/backward"), low=1, high=MAX_BATCH, flag="--micro-batch",
       metavar="N", unit="samples"),
    _f("training.seq_len", "int", _t("Fields", "Sequence length"), _t("Fields", "Tokens per sample"),
       low=1, high=MAX_SEQ, flag="--seq-len", metavar="N", unit="tokens"),
    _f("training.global_batch", "int", _t("Fields", "Global batch"),
       _t("Fields", "Samples per optimizer step (gives the accumulation steps); empty: one micro-batch per GPU"),
       low=1, high=MAX_BATCH * MAX_GPUS, flag="--global-batch", metavar="N", unit="samples"),
    _f("training.recompute", "choice", _t("Fields", "Recompute"), _t("Fields", "Activation recomputation"),
       choices=specs.RECOMPUTE, flag="--recompute"),
    _f("training.attention", "choice", _t("Fields", "Attention"),
       _t("Fields", "eager keeps the attention scores, flash does not"), choices=specs.ATTENTION,
       flag="--attention"),
    _f("training.implementation", "choice", _t("Fields", "Implementation"),
       _t("Fields", "Activation accounting profile"), choices=specs.IMPLEMENTATIONS, flag="--implementation"),
    _f("parallel.num_gpus", "int", _t("Fields", "Number of GPUs"), _t("Fields", "GPUs in all"),
       low=1, high=MAX_GPUS, flag="--gpus", metavar="N", unit="GPUs"),
    _f("parallel.gpus_per_node", "int", _t("Fields", "GPUs per node"),
       _t("Fields", "GPUs per node, for host memory per node (the last node may be partial)"),
       low=1, high=MAX_GPUS_PER_NODE, flag="--gpus-per-node", metavar="N", unit="GPUs"),
    _f("parallel.zero_stage", "choice", _t("Fields", "ZeRO stage"), _t("Fields", "ZeRO stage, 0 = DDP"),
       choices=specs.ZERO_STAGES, flag="--stage"),
    _f("parallel.tp", "int", _t("Fields", "Tensor parallel"), _t("Fields", "Tensor-parallel size"),
       low=1, high=MAX_GPUS, flag="--tp", metavar="N"),
    _f("parallel.pp", "int", _t("Fields", "Pipeline parallel"), _t("Fields", "Pipeline-parallel size"),
       low=1, high=MAX_GPUS, flag="--pp", metavar="N"),
    _f("parallel.sp", "bool", _t("Fields", "Sequence parallel"),
       _t("Fields", "Megatron sequence parallelism: shards norm and dropout activations over the TP group"),
       flag="--sp"),
    _f("parallel.distributed_optimizer", "bool", _t("Fields", "Distributed optimizer"),
       _t("Fields", "Megatron's distributed optimizer: optimizer states sharded over data-parallel ranks"),
       flag="--distributed-optimizer"),
    _f("offload.optimizer", "choice", _t("Fields", "Optimizer offload"),
       _t("Fields", "Optimizer states to CPU memory (ZeRO-Offload)"), choices=specs.OFFLOAD,
       flag="--offload-optimizer"),
    _f("offload.params", "choice", _t("Fields", "Parameter offload"),
       _t("Fields", "Parameters to CPU memory (ZeRO-3 only)"), choices=specs.OFFLOAD, flag="--offload-params"),
    _f("offload.zero_init", "bool", _t("Fields", "zero.Init"),
       _t("Fields", "DeepSpeed zero.Init: the model is created already partitioned (host memory per node)"),
       flag="--zero-init"),
    _f("hardware.gpu_name", "text", _t("Fields", "GPU"), _t("Fields", "The GPU's name (informational)")),
    _f("hardware.gpu_memory", "bytes", _t("Fields", "Memory per GPU"),
       _t("Fields", "Memory per GPU: 80GB (10^9 bytes), 80GiB (2^30 bytes), 24576MiB; empty: fit not judged"),
       low=1, high=MAX_BYTES, flag="--gpu-memory", metavar="SIZE", unit="bytes"),
    _f("hardware.reserve", "fraction", _t("Fields", "Reserve"),
       _t("Fields", "Fraction of GPU memory kept back (the seed's overhead_ratio)"),
       low=0.0, high=1.0, high_open=True, flag="--reserve", metavar="FRACTION"),
    _f("overhead.cuda_context", "bytes", _t("Fields", "CUDA context"),
       _t("Fields", "CUDA context and allocator slack per GPU"), low=0, high=MAX_BYTES, flag="--cuda-context",
       metavar="SIZE", unit="bytes"),
    _f("overhead.comm_buffers", "bytes", _t("Fields", "Communication buffers"),
       _t("Fields", "DDP/ZeRO communication buckets per GPU"), low=0, high=MAX_BYTES, flag="--comm-buffers",
       metavar="SIZE", unit="bytes"),
    _f("overhead.zero3_live_params", "count", _t("Fields", "ZeRO-3 live parameters"),
       _t("Fields", "ZeRO-3 parameters gathered at once (DeepSpeed's stage3_max_live_parameters)"),
       low=0, high=MAX_PARAMS, flag="--live-params", metavar="COUNT", unit="parameters"),
    _f("overhead.extra", "bytes", _t("Fields", "Extra memory"), _t("Fields", "Anything else per GPU"),
       low=0, high=MAX_BYTES, flag="--extra", metavar="SIZE", unit="bytes"),
    _f("convention", "choice", _t("Fields", "Convention"),
       _t("Fields", "Whose accounting: the ZeRO paper, DeepSpeed's estimator or Megatron-LM"),
       choices=specs.CONVENTIONS, flag="--convention"),
)


# ------------------------------------------------------------------------------- types and defaults


def _leaf_types(cls: type, prefix: str) -> dict[str, tuple[Any, Any]]:
    """Dotted path -> (type hint, default) of every leaf field under ``cls`` (nested dataclasses walked)."""
    out: dict[str, tuple[Any, Any]] = {}
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        tp = hints[f.name]
        inner = _dataclass_in(tp)
        if inner is not None:
            out.update(_leaf_types(inner, f"{prefix}{f.name}."))
            continue
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc]
        out[prefix + f.name] = (tp, default)
    return out


def _dataclass_in(tp: Any) -> type | None:
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return tp
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        for arg in typing.get_args(tp):
            if dataclasses.is_dataclass(arg) and isinstance(arg, type):
                return arg
    return None


def _is_optional(tp: Any) -> bool:
    return typing.get_origin(tp) in (typing.Union, types.UnionType) and type(None) in typing.get_args(tp)


@cache
def registry() -> dict[str, Field]:
    """Every field by path, with its dataclass default and optionality filled in."""
    leaves = _leaf_types(specs.Scenario, "")
    table = {f.path: f for f in _TABLE}
    missing, extra = set(leaves) - set(table), set(table) - set(leaves)
    if missing or extra:  # pragma: no cover - caught by tests/core/test_fields.py
        raise RuntimeError(f"field registry out of step with the dataclasses: missing {missing}, extra {extra}")
    return {path: dataclasses.replace(f, default=leaves[path][1], optional=_is_optional(leaves[path][0]))
            for path, f in table.items()}


def field(path: str) -> Field:
    return registry()[path]


def fields() -> tuple[Field, ...]:
    return tuple(registry().values())


def by_flag(flag: str) -> Field | None:
    return next((f for f in fields() if f.flag == flag), None)


def flag_of(path: str) -> str | None:
    """The CLI flag that sets ``path`` (also for a path below a field, e.g. ``model.architecture.*``)."""
    f = registry().get(path)
    return None if f is None else f.flag


# ------------------------------------------------------------------------------- reading and writing values


def get(scenario: specs.Scenario, path: str) -> Any:
    """The value at ``path`` (None below a missing architecture)."""
    value: Any = scenario
    for part in path.split("."):
        if value is None:
            return None
        value = getattr(value, part)
    return value


def with_value(obj: Any, path: str, value: Any) -> Any:
    """A copy of the frozen dataclass ``obj`` with ``path`` set (an absent architecture starts from defaults)."""
    head, _, rest = path.partition(".")
    if not rest:
        return dataclasses.replace(obj, **{head: value})
    child = getattr(obj, head)
    if child is None:
        child = Architecture() if head == "architecture" else None
    return dataclasses.replace(obj, **{head: with_value(child, rest, value)})


def check(f: Field, value: Any) -> Any:
    """``value`` if it is valid for ``f`` on its own (type, range, choices); else ``InputError`` naming it."""
    if value is None:
        if f.optional:
            return None
        raise InputError(f.path, Msg.of("error.unknown_value", value="null"), f.allowed())
    if f.kind == "bool":
        if not isinstance(value, bool):
            raise InputError(f.path, Msg.of("error.true_false", value=_show(value)), f.allowed())
        return value
    if f.kind == "text":
        if not isinstance(value, str):
            raise InputError(f.path, Msg.of("error.text", value=_show(value)))
        return value
    if f.kind == "choice":
        if isinstance(value, bool) or value not in f.choices:
            raise InputError(f.path, Msg.of("error.unknown_value", value=_show(value)), f.allowed())
        return value
    if f.kind == "fraction":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value in (
                float("inf"), float("-inf")):
            raise InputError(f.path, Msg.of("error.number", value=_show(value)), f.allowed())
        assert f.low is not None and f.high is not None
        if not (f.low <= value < f.high if f.high_open else f.low <= value <= f.high):
            raise InputError(f.path, Msg.of("error.out_of_range", value=_show(value)), f.allowed())
        return float(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f.path, Msg.of("error.whole_number", value=_show(value)), f.allowed())
    assert f.low is not None and f.high is not None
    if not f.low <= value <= f.high:
        raise InputError(f.path, Msg.of("error.out_of_range", value=_show(value)), f.allowed())
    return value


def _show(value: Any) -> str:
    """A value as it appears in a message: short (a 4,000-digit number is not echoed whole)."""
    if isinstance(value, int) and not isinstance(value, bool):
        text = f"{value:,}"
    else:
        text = repr(value)
    return text if len(text) <= 40 else text[:18] + "…" + text[-18:]


def parse(f: Field, text: str) -> Any:
    """A value for ``f`` from what a person typed (form or command line), checked with ``check``.
    Empty text is None for an optional field. Sizes and counts are exact (no float rounding)."""
    raw = text.strip()
    if raw == "" and f.optional:
        return None
    if f.kind == "text":
        return check(f, text)
    if f.kind == "bool":
        low = raw.lower()
        if low in ("true", "yes", "on", "1"):
            return True
        if low in ("false", "no", "off", "0"):
            return False
        raise InputError(f.path, Msg.of("error.true_false", value=_show(raw)), f.allowed())
    if f.kind == "choice":
        for choice in f.choices:
            if str(choice) == raw:
                return choice
        raise InputError(f.path, Msg.of("error.unknown_value", value=_show(raw)), f.allowed())
    if f.kind == "fraction":
        try:
            number = float(raw)
        except ValueError:
            raise InputError(f.path, Msg.of("error.number", value=_show(raw)), f.allowed()) from None
        return check(f, number)
    if f.kind in ("bytes", "count"):
        try:
            value = parse_bytes_exact(raw, f.path) if f.kind == "bytes" else parse_count_exact(raw, f.path)
        except InputError as err:
            if err.allowed_msg is None:  # a number too large to compute: the field's range says what fits
                raise InputError(f.path, err.msg, f.allowed()) from None
            raise
        return check(f, value)
    cleaned = raw.replace(",", "").replace("_", "")
    try:
        return check(f, int(cleaned))
    except ValueError:
        raise InputError(f.path, Msg.of("error.whole_number", value=_show(raw)), f.allowed()) from None


def format_value(f: Field, value: Any) -> str:
    """An exact, re-parsable text for ``value`` (``parse(f, format_value(f, v)) == v``)."""
    if value is None:
        return ""
    if f.kind == "bytes":
        return memory_text(value)
    if f.kind == "fraction":
        return repr(float(value))
    if f.kind == "bool":
        return "true" if value else "false"
    return str(value)


def memory_text(n: int) -> str:
    """Whole GB, GiB or MiB when ``n`` is one (``80GB``, ``80GiB``), else bytes (``123B``)."""
    for unit, factor in (("GB", 10**9), ("GiB", 2**30), ("MiB", 2**20)):
        if n and n % factor == 0:
            return f"{n // factor}{unit}"
    return f"{n}B"



# ------------------------------------------------------------------------------- fields a choice makes moot


def inactive_reason(scenario: specs.Scenario, path: str) -> Msg | None:
    """Why ``path`` has no effect on ``scenario`` (the window disables it with this tooltip), or None."""
    conv, par = scenario.convention, scenario.parallel
    if path == "parallel.zero_stage" and conv == "megatron":
        return Msg.of("inactive.stage_megatron")
    if path == "parallel.distributed_optimizer" and conv != "megatron":
        return Msg.of("inactive.megatron_only")
    if path == "offload.zero_init" and conv != "deepspeed":
        return Msg.of("inactive.deepspeed_only")
    if path in ("precision.recipe", "precision.optimizer") and conv == "deepspeed":
        return Msg.of("inactive.deepspeed_precision")
    if path == "precision.recipe" and conv == "megatron":
        return Msg.of("inactive.megatron_recipe")
    if path in ("offload.optimizer", "offload.params") and conv == "megatron":
        return Msg.of("inactive.megatron_offload")
    if path == "offload.params" and par.zero_stage != 3:
        return Msg.of("inactive.stage3_only")
    if path == "overhead.zero3_live_params" and par.zero_stage != 3:
        return Msg.of("inactive.stage3_only")
    if path == "model.largest_layer" and not (conv == "deepspeed" and par.zero_stage == 3):
        return Msg.of("inactive.largest_layer")
    if path == "parallel.sp" and par.tp == 1:
        return Msg.of("inactive.sp_needs_tp")
    return None
