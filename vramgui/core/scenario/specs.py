"""Inputs of an estimate as frozen dataclasses.

These are the contract between the core, the presenters, the CLI and the scenario files. Fields are plain
data (ints, floats, strs, bools; a choice is a ``StrEnum`` member of ``vramgui.core.scenario.choices``, itself a
str) so that a scenario serialises to JSON without custom code. Validation lives in ``validate_scenario``
(``vramgui.core.fields.validate``) and raises ``InputError`` naming the field.

Names follow the ZeRO paper and the seed: Φ = parameter count, K = optimizer-state bytes per parameter,
N_d = data-parallel size.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from vramgui.core.memo import dict_init
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.choices import (
    AdapterDType,
    Attention,
    BaseDType,
    Convention,
    DType,
    Engine,
    FinetuneMethod,
    Fp8Recipe,
    Implementation,
    KvDType,
    LoraTargetSet,
    Loss,
    Offload,
    Optimizer,
    OptimizerImpl,
    Recipe,
    Recompute,
    WeightFormat,
)

DTYPES = tuple(DType)
DTYPE_BYTES: dict[str, int] = {DType.FP32: 4, DType.FP16: 2, DType.BF16: 2}
RECIPES = tuple(Recipe)
OPTIMIZER_IMPLS = tuple(OptimizerImpl)
LOSSES = tuple(Loss)
FP8_RECIPES = tuple(Fp8Recipe)
OPTIMIZERS = tuple(Optimizer)
ZERO_STAGES = (0, 1, 2, 3)
RECOMPUTE = tuple(Recompute)
ATTENTION = tuple(Attention)
IMPLEMENTATIONS = tuple(Implementation)
CONVENTIONS = tuple(Convention)
OFFLOAD = tuple(Offload)
FINETUNE_METHODS = tuple(FinetuneMethod)
BASE_DTYPES = tuple(BaseDType)
ADAPTER_DTYPES = tuple(AdapterDType)
LORA_TARGET_SETS = tuple(LoraTargetSet)  # or a comma list of module names (vramgui.core.finetune.adapters)


@dict_init
@dataclass(frozen=True)
class ModelSpec:
    """What is trained. Either an explicit parameter count, or an architecture (or both: ``params`` wins
    for model states; the architecture is still used for activations and the largest layer)."""

    name: str = "custom"
    params: int | None = None
    architecture: Architecture | None = None
    largest_layer: int | None = None  # explicit override of DeepSpeed's ZeRO-3 largest-layer term (params)


@dict_init
@dataclass(frozen=True)
class PrecisionSpec:
    dtype: DType = DType.BF16  # the dtype of weights/gradients/activations
    recipe: Recipe = Recipe.MIXED
    optimizer: Optimizer = Optimizer.ADAM
    optimizer_impl: OptimizerImpl = OptimizerImpl.FOREACH  # its temporaries at the optimizer step
    fp8: Fp8Recipe = Fp8Recipe.NONE  # TransformerEngine FP8 Linears (fused profile, 16-bit dtype only)


@dict_init
@dataclass(frozen=True)
class TrainingSpec:
    micro_batch: int = 1
    seq_len: int = 2048
    global_batch: int | None = None  # for gradient accumulation; None = one micro-batch per GPU per step
    recompute: Recompute = Recompute.NONE
    attention: Attention = Attention.FLASH
    implementation: Implementation = Implementation.HF  # activation accounting profile
    loss: Loss = Loss.HF  # what the loss keeps and its gradient allocates
    # Mixture of experts (docs/activations.md "Expert and context parallelism"): Megatron-Core's
    # --moe-expert-capacity-factor in percent (None = dropless, Megatron's default) and the routing imbalance: the
    # most loaded expert-parallel rank receives imbalance/100 times the balanced share of routed tokens
    moe_capacity_percent: int | None = None
    moe_imbalance_percent: int = 100
    train_tokens: int | None = None  # tokens of the whole run (300B): days, GPU-hours and cost (core/time)


@dict_init
@dataclass(frozen=True)
class ParallelSpec:
    """``num_gpus`` GPUs in all; data-parallel size N_d = num_gpus / (tp * pp) (= dp · cp: the group that shards
    the non-expert model states, as Megatron-Core's dp-cp group); the batch is split over
    dp = num_gpus / (tp * cp * pp). Experts: num_gpus = pp · etp · ep · edp (Megatron-Core
    ``parallel_state.initialize_model_parallel``)."""

    num_gpus: int = 1
    gpus_per_node: int = 8
    zero_stage: int = 0  # 0 = DDP (FSDP NO_SHARD), 1, 2 (FSDP SHARD_GRAD_OP), 3 (FSDP FULL_SHARD)
    tp: int = 1
    pp: int = 1
    sp: bool = False  # Megatron sequence parallelism: shards LayerNorm/dropout activations across the TP group
    # Megatron convention only: shard the optimizer over DP (Megatron --use-distributed-optimizer)
    distributed_optimizer: bool = True
    # PyTorch DDP gradient_as_bucket_view (default False, as in PyTorch and accelerate): gradients as views into
    # the reducer's buckets instead of a second gradient-sized copy
    ddp_bucket_view: bool = False
    ep: int = 1  # expert parallelism: routed experts split over ep ranks (Megatron --expert-model-parallel-size)
    etp: int | None = None  # expert tensor parallelism; None = tp (Megatron --expert-tensor-parallel-size)
    cp: int = 1  # context parallelism: the sequence split over cp ranks (Megatron --context-parallel-size)
    vpp: int = 1  # interleaved 1F1B: model chunks per pipeline rank (Megatron --num-virtual-stages-per-pipeline-rank)
    first_stage_layers: int | None = None  # Megatron --decoder-first-pipeline-num-layers; None = even split
    last_stage_layers: int | None = None  # Megatron --decoder-last-pipeline-num-layers; None = even split

    @property
    def expert_tp(self) -> int:
        """Expert tensor parallelism as Megatron-Core resolves it: the dense TP size unless given."""
        return self.tp if self.etp is None else self.etp


@dict_init
@dataclass(frozen=True)
class OffloadSpec:
    optimizer: Offload = Offload.NONE
    params: Offload = Offload.NONE  # ZeRO-3 only
    zero_init: bool = True  # DeepSpeed zero.Init: host memory while the model initialises (deepspeed convention)


@dict_init
@dataclass(frozen=True)
class HardwareSpec:
    gpu_name: str | None = None
    gpu_memory: int | None = None  # bytes per GPU; None = do not judge fit
    # fraction of gpu_memory kept back (the seed's overhead_ratio). 10 % by default, for what the peak leaves out:
    # the caching allocator's rounding and fragmentation (max_memory_reserved exceeds max_memory_allocated by a few
    # percent: docs/peak.md), NCCL's communicator buffers and kernels' own workspaces; the CUDA context is in the
    # peak already. vLLM keeps back the same 10 % by default (vllm/engine/arg_utils.py, EngineArgs
    # gpu_memory_utilization = 0.90). The window and the CLI start from this one default.
    reserve: float = 0.1
    # The GPU's compute figures (a GPU preset fills them from resources/presets/gpus.json, docs/catalog.md; None =
    # not known: no step time). Dense peaks in TFLOP/s (never the sparsity figures), bandwidths in bytes per second
    # per GPU and direction.
    tflops_16bit: float | None = None  # bf16/fp16 tensor cores
    tflops_fp8: float | None = None
    tflops_tf32: float | None = None
    tflops_fp32: float | None = None  # plain fp32 (CUDA cores)
    memory_bandwidth: int | None = None  # HBM/GDDR
    link_bandwidth: int | None = None  # the GPU-to-GPU link inside a node: NVLink, else PCIe
    pcie_bandwidth: int | None = None  # the host link (offload)
    network_bandwidth: int | None = None  # the network port per GPU of the preset's reference system (DGX)
    # The user's own figures (core/time): None = the preset's link / the cited network default / the predicted rate
    intra_node_bandwidth: int | None = None
    inter_node_bandwidth: int | None = None
    achieved_tflops: float | None = None  # model TFLOP/s per GPU, in place of the predicted one (llm-analysis)
    gpu_hour_price: float | None = None  # price of one GPU for one hour (any currency)


@dict_init
@dataclass(frozen=True)
class OverheadSpec:
    """Fixed per-GPU terms, each an explicit input. ``None`` = not given: the textbook sum (``per_gpu``) counts
    nothing for it, so the seed's numbers come out, and the step peak (``vramgui.core.step.peak``) uses its documented
    default (a cited CUDA context, the framework's own buckets and ZeRO-3 working set)."""

    cuda_context: int | None = None  # bytes: CUDA context + library workspaces; None = the step peak's default
    comm_buffers: int | None = None  # bytes: DDP/ZeRO communication buckets; None = the framework's own
    zero3_live_params: int | None = None  # parameters: DeepSpeed stage3_max_live_parameters; None = its default
    zero3_prefetch: int | None = None  # parameters: DeepSpeed stage3_prefetch_bucket_size; None = its default
    reduce_bucket: int | None = None  # elements: DeepSpeed reduce_bucket_size (ZeRO 1-3); None = its default
    extra: int = 0  # bytes: anything else the user wants to add


@dict_init
@dataclass(frozen=True)
class FinetuneSpec:
    """What is trained: every parameter (``full``, the default: today's numbers), or LoRA adapters of rank
    ``lora_rank`` on the ``lora_targets`` Linear layers over a frozen base (``lora``; ``qlora``: an NF4 base)."""

    method: FinetuneMethod = FinetuneMethod.FULL
    lora_rank: int = 16
    lora_targets: str = LoraTargetSet.ATTENTION  # a LoraTargetSet or a comma list of module names (q_proj,v_proj)
    lora_dropout: float = 0.0  # peft's default; p > 0 keeps a mask and the dropped-out input per adapter
    base_dtype: BaseDType = BaseDType.AUTO  # auto = the weights' dtype (lora), nf4 (qlora)
    double_quant: bool = False  # bitsandbytes bnb_4bit_use_double_quant (its default: off)
    adapter_dtype: AdapterDType = AdapterDType.FP32


@dict_init
@dataclass(frozen=True)
class ServeSpec:
    """Serving a model (``vramgui serve``, ``vramgui.core.serve``): ``batch`` sequences of ``context`` tokens each
    (prompt and generated tokens together), the weights' storage, the KV cache's dtype and the engine whose
    allocation is reproduced. The GPUs are ``hardware`` and ``parallel.num_gpus`` / ``parallel.tp``."""

    context: int = 4096
    batch: int = 1
    weights: WeightFormat = WeightFormat.BF16
    kv_dtype: KvDType = KvDType.AUTO
    engine: Engine = Engine.VLLM
    gpu_memory_utilization: float = 0.9  # vLLM --gpu-memory-utilization (EngineArgs default 0.9)
    max_num_batched_tokens: int | None = None  # vLLM's profile-run tokens; None = its default (serve.engines)
    kv_cache_memory_bytes: int | None = None  # vLLM --kv-cache-memory-bytes: the pool given, no profiling
    block_size: int = 16  # vLLM --block-size (CUDA default 16)
    ubatch: int = 512  # llama.cpp --ubatch-size (default 512): its prefill chunk and the SWA cache's margin
    active: bool = False  # the window's Serve mode: the scenario plans serving, not training (a file reopens in it)


@dict_init
@dataclass(frozen=True)
class Scenario:
    model: ModelSpec = field(default_factory=ModelSpec)
    precision: PrecisionSpec = field(default_factory=PrecisionSpec)
    training: TrainingSpec = field(default_factory=TrainingSpec)
    parallel: ParallelSpec = field(default_factory=ParallelSpec)
    offload: OffloadSpec = field(default_factory=OffloadSpec)
    hardware: HardwareSpec = field(default_factory=HardwareSpec)
    overhead: OverheadSpec = field(default_factory=OverheadSpec)
    convention: Convention = Convention.PAPER
    finetune: FinetuneSpec = field(default_factory=FinetuneSpec)
    serve: ServeSpec = field(default_factory=ServeSpec)
