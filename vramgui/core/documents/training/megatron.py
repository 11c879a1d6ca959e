"""A torchrun + Megatron-LM command line (``vramgui export torchrun`` writes one; a launch script holds one): the
launcher's GPUs and Megatron's own flags, as ``megatron/training/arguments.py`` names them.

``torchrun --nnodes N --nproc-per-node G`` gives N·G GPUs, G per node; then ``--tensor-model-parallel-size``,
``--pipeline-model-parallel-size``, ``--sequence-parallel``, ``--context-parallel-size``,
``--expert-model-parallel-size``, ``--expert-tensor-parallel-size``, ``--num-virtual-stages-per-pipeline-rank``,
``--decoder-first/last-pipeline-num-layers``, ``--micro-batch-size``, ``--global-batch-size``, ``--seq-length``,
``--bf16`` / ``--fp16`` (fp32 main parameters and gradients: the megatron convention), ``--use-distributed-optimizer``,
``--recompute-activations`` (selective) or ``--recompute-granularity full`` with ``--recompute-method uniform
--recompute-num-layers 1`` (every layer: full), ``--moe-expert-capacity-factor``. The model's shape flags describe
the model the preset or config gives: they are reported, the model is the preset's.
"""

from __future__ import annotations

from typing import Any

from vramgui.core.documents.training.imported import Imported, Reader, as_int
from vramgui.core.scenario.choices import Convention, DType, Recipe, Recompute
from vramgui.core.text.message import Msg

LAUNCHERS = ("torchrun", "python -m torch.distributed.run")
_INTS = {"--tensor-model-parallel-size": "parallel.tp", "--pipeline-model-parallel-size": "parallel.pp",
         "--context-parallel-size": "parallel.cp", "--expert-model-parallel-size": "parallel.ep",
         "--expert-tensor-parallel-size": "parallel.etp",
         "--num-virtual-stages-per-pipeline-rank": "parallel.vpp",
         "--decoder-first-pipeline-num-layers": "parallel.first_stage_layers",
         "--decoder-last-pipeline-num-layers": "parallel.last_stage_layers", "--seq-length": "training.seq_len"}
_SHAPE = {"--num-layers", "--hidden-size", "--num-attention-heads", "--ffn-hidden-size", "--num-query-groups",
          "--max-position-embeddings", "--num-experts", "--moe-router-topk", "--group-query-attention",
          "--vocab-size", "--kv-channels", "--swiglu", "--untie-embeddings-and-output-weights",
          "--normalization", "--position-embedding-type", "--disable-bias-linear"}
_SWITCHES = {"--sequence-parallel", "--bf16", "--fp16", "--use-distributed-optimizer", "--recompute-activations",
             "--group-query-attention", "--swiglu", "--untie-embeddings-and-output-weights", "--disable-bias-linear"}
_LAUNCH = {"--nnodes", "--nproc-per-node", "--nproc_per_node", "--node-rank", "--node_rank", "--master-addr",
           "--master_addr", "--master-port", "--master_port", "--rdzv-backend", "--rdzv-endpoint", "--rdzv-id",
           "--standalone", "--max-restarts"}


def options(argv: list[str]) -> tuple[dict[str, str | None], list[str]]:
    """``--flag value`` and ``--flag=value`` pairs (a switch has None), and the words that are no flag (the script)."""
    out: dict[str, str | None] = {}
    words: list[str] = []
    i = 0
    while i < len(argv):
        word = argv[i]
        if word.startswith("--"):
            name, eq, value = word.partition("=")
            if eq:
                out[name] = value
            elif name in _SWITCHES or name == "--standalone" or i + 1 >= len(argv) or argv[i + 1].startswith("--"):
                out[name] = None
            else:
                out[name] = argv[i + 1]
                i += 1
        else:
            words.append(word)
        i += 1
    return out, words


def read(doc: dict[str, Any], what: str = "torchrun command") -> Imported:
    """``doc``: ``{"torchrun": [the command's words]}`` as io/ splits a launch line."""
    r = Reader("megatron", what)
    opts, words = options([str(w) for w in doc.get("torchrun", [])[1:]])
    for word in words:  # the training script and its positional arguments
        r.ignore("(script)", word)
    r.take("convention", Convention.MEGATRON, "torchrun", note=Msg.of("imported.megatron_run"))
    nodes = as_int(opts.pop("--nnodes", "1") or "1")
    per_node = as_int(opts.pop("--nproc-per-node", None) or opts.pop("--nproc_per_node", None) or "1")
    if nodes and per_node and nodes >= 1 and per_node >= 1:
        r.take("parallel.num_gpus", nodes * per_node, "--nnodes × --nproc-per-node")
        r.take("parallel.gpus_per_node", per_node, "--nproc-per-node")
    else:
        r.bad_value("--nnodes / --nproc-per-node", f"{nodes} × {per_node}")
    for flag, path in _INTS.items():
        if flag in opts:
            n = r.whole(flag, opts.pop(flag), 1)
            if n is not None:
                r.take(path, n, flag)
    if "--micro-batch-size" in opts:
        n = r.whole("--micro-batch-size", opts.pop("--micro-batch-size"), 1)
        if n is not None:
            r.micro = (n, "--micro-batch-size")
    if "--global-batch-size" in opts:
        n = r.whole("--global-batch-size", opts.pop("--global-batch-size"), 1)
        if n is not None:
            r.total = (n, "--global-batch-size")
    _switches(r, opts)
    if "--moe-expert-capacity-factor" in opts:
        value = opts.pop("--moe-expert-capacity-factor")
        try:
            r.take("training.moe_capacity_percent", round(float(value or "") * 100), "--moe-expert-capacity-factor")
        except ValueError:
            r.bad_value("--moe-expert-capacity-factor", value)
    for flag, value in opts.items():
        shown = "" if value is None else value
        if flag in _SHAPE:
            r.ignore(flag, shown, "imported.model_shape")
        elif flag in _LAUNCH:
            r.ignore(flag, shown)
        else:
            r.ignore(flag, shown, "imported.unknown_key")
    return r.result()


def _switches(r: Reader, opts: dict[str, str | None]) -> None:
    for flag in ("--sequence-parallel", "--use-distributed-optimizer"):
        on = flag in opts
        opts.pop(flag, None)
        r.take("parallel.sp" if flag == "--sequence-parallel" else "parallel.distributed_optimizer", on, flag)
    dtype = DType.BF16 if "--bf16" in opts else DType.FP16 if "--fp16" in opts else DType.FP32
    r.take("precision.dtype", dtype, "--bf16" if dtype == DType.BF16 else "--fp16" if dtype == DType.FP16
           else "(neither --bf16 nor --fp16)")
    if dtype != DType.FP32:
        r.take("precision.recipe", Recipe.MIXED, "--bf16" if dtype == DType.BF16 else "--fp16")
    opts.pop("--bf16", None)
    opts.pop("--fp16", None)
    granularity = opts.pop("--recompute-granularity", None)
    method, layers = opts.pop("--recompute-method", None), opts.pop("--recompute-num-layers", None)
    if "--recompute-activations" in opts or granularity == "selective":
        opts.pop("--recompute-activations", None)
        r.take("training.recompute", Recompute.SELECTIVE, "--recompute-activations")
    elif granularity == "full" and method == "uniform" and layers == "1":
        r.take("training.recompute", Recompute.FULL, "--recompute-granularity full")
    elif granularity == "full":  # block or uniform over several layers: partial recompute, no vramgui input
        r.unresolve("--recompute-granularity", f"full, {method} {layers}")
    elif granularity is not None:
        r.bad_value("--recompute-granularity", granularity)
    else:
        r.take("training.recompute", Recompute.NONE, "(no --recompute-*)")
