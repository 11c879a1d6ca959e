"""DDP and FSDP2 training-step peaks on CPU: real tensors, gloo, ranks spawned with torch.multiprocessing and a
file:// rendezvous (no torchrun, no network).

Each rank builds the same tiny model (seed 0), enters ``LiveStorages`` *before* wrapping it (so DDP's gradient
buckets and FSDP2's sharded copies are counted from birth), wraps it - DDP(gradient_as_bucket_view, bucket_cap_mb)
or ``fully_shard`` on every decoder layer then on the root (reshard_after_forward default) - and runs the same two
steps as the single-process cases on its own random batch. Gradient accumulation: DDP skips the all-reduce of
all but the last micro-batch with ``no_sync()`` (what accelerate and HF Trainer do); FSDP2 reduce-scatters every
micro-batch (its default; keeping unsharded gradients instead costs memory). FSDP2 cases with ``memtracker`` also
run PyTorch's ``FSDPMemTracker`` alongside. The case's figures are those of the rank with the highest peak.

Roles: FSDP2's sharded parameters (the local shards of the DTensor parameters) are ``parameters``; its
all-gathered unsharded parameters are ``other`` (listed as ``gathered_parameters`` in the breakdown's detail);
DDP's buckets without bucket view are ``other`` (with bucket view the buckets are the gradients).
"""

from __future__ import annotations

import json
import os
import tempfile
import warnings
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist

from bench.validate.peak_cases import PeakCase


def _gathered_labeler(model: torch.nn.Module, tracker: Any) -> Any:
    def label() -> None:
        for module in model.modules():
            get_state = getattr(module, "_get_fsdp_state", None)
            if get_state is None:
                continue
            group = getattr(get_state(), "_fsdp_param_group", None)
            for fsdp_param in getattr(group, "fsdp_params", []):
                for t in list(getattr(fsdp_param, "all_gather_outputs", []) or []):
                    tracker.adopt(t, "gathered_parameters")
                unsharded = getattr(fsdp_param, "_unsharded_param", None)
                if unsharded is not None:
                    tracker.adopt(unsharded, "gathered_parameters")

    return label


def _worker(rank: int, case: PeakCase, tmp: str) -> None:
    import transformers

    from bench.validate.measure import gpu_like_dropout, gpu_like_sdpa_layout
    from bench.validate.peak_measure import build_model, input_ids, make_optimizer, memtracker_peak, result, train_steps
    from bench.validate.peak_track import LiveStorages

    warnings.simplefilter("ignore")
    transformers.logging.set_verbosity_error()
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"file://{tmp}/rendezvous", rank=rank, world_size=case.ranks)
    try:
        with gpu_like_dropout(), gpu_like_sdpa_layout():
            tracker = LiveStorages(real_only=True)
            with tracker:
                model = build_model(case)
                ids = input_ids(case, model.config.vocab_size, seed=rank)
                no_sync = label = None
                if case.dist == "ddp":
                    from torch.nn.parallel import DistributedDataParallel as DDP  # noqa: N817

                    kwargs = {} if case.bucket_cap_mb is None else {"bucket_cap_mb": case.bucket_cap_mb}
                    wrapped = DDP(model, gradient_as_bucket_view=case.bucket_view, **kwargs)
                    no_sync = wrapped.no_sync
                else:
                    from torch.distributed.fsdp import fully_shard

                    for layer in model.model.layers:
                        fully_shard(layer)
                    wrapped = fully_shard(model)
                    label = _gathered_labeler(model, tracker)
                opt = make_optimizer(case, model.parameters())
                tracker.label_module(model, opt)
                mt = None
                if case.memtracker and case.dist == "fsdp2":
                    from torch.distributed._tools.fsdp2_mem_tracker import FSDPMemTracker

                    mt = FSDPMemTracker(wrapped, opt)
                    mt.track_inputs((ids,))
                    mt.__enter__()
                try:
                    train_steps(case, wrapped, opt, ids, tracker, no_sync=no_sync, label=label,
                                before_forward=mt.reset_mod_stats if mt is not None else None)
                finally:
                    if mt is not None:
                        mt.__exit__(None, None, None)
            extra = {"rank": rank, "backend_peak": tracker.backend_peak, "raw_peak": tracker.raw_peak}
            if mt is not None:
                extra["memtracker_peak"] = memtracker_peak(mt)
            entry = result(case, model.config, tracker, extra)
        Path(tmp, f"rank{rank}.json").write_text(json.dumps(entry))
    finally:
        dist.destroy_process_group()


def run_distributed(case: PeakCase) -> dict[str, Any]:
    """Spawn the ranks; the entry of the rank with the highest peak, with every rank's peak listed."""
    import torch.multiprocessing as mp

    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("OMP_NUM_THREADS", "1")
        mp.spawn(_worker, args=(case, tmp), nprocs=case.ranks, join=True)
        entries = [json.loads(Path(tmp, f"rank{r}.json").read_text()) for r in range(case.ranks)]
    best = max(entries, key=lambda e: e["measured"]["peak"])
    best["measured"]["rank_peaks"] = [e["measured"]["peak"] for e in entries]
    if "memtracker_peak" in best["measured"]:
        best["measured"]["memtracker_rank_peaks"] = [e["measured"].get("memtracker_peak") for e in entries]
    return best
