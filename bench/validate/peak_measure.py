"""Measure the peak live memory of real training steps (``python -m bench.validate.peak_measure --out FILE``).

Each case runs two AdamW steps of a transformers causal LM: ``zero_grad(set_to_none=True)``; per micro-batch
``model(input_ids=ids, labels=ids)`` (HF's ForCausalLMLoss) and ``loss.backward()``; then ``optimizer.step()``.
Step 1 creates the optimizer state, step 2 is the steady state. ``peak_track.LiveStorages`` counts every live
tensor storage op by op (parameters, gradients, optimizer states, activations, temporaries) and records, per step
and micro-batch, the live bytes at the end of forward (loss computed, model output dropped as HF Trainer does),
the maximum during backward and where it happened, the live bytes after backward, the maximum during the
optimizer step, and the overall peak with its breakdown.

Single-process cases run under ``FakeTensorMode`` (the model is built inside the mode: no kernel runs and no
data memory is used, so a 7B or 8B model measures in seconds). Pitfalls handled here:

- transformers' ``is_tracing()`` is true for fake tensors; ``masking_utils.find_packed_sequence_indices`` then
  cannot prove the positions unpacked and returns a mask, which disables SDPA's ``is_causal`` skip and builds a
  b·s² boolean causal mask a real run never has. ``unpacked_positions`` runs the same ops and returns None, what
  the real run returns for the harness's inputs (default positions, never packed).
- CPU SDPA with dropout falls back to the math kernel (a·s² tensors CUDA's flash kernel never makes): SDPA cases
  run with attention dropout 0; dropout goes through ``native_dropout`` (1-byte mask, as CUDA) and SDPA's output
  gets CUDA's layout (``measure.gpu_like_dropout`` / ``gpu_like_sdpa_layout``).
- Mixtral's router takes data-dependent shapes (``nonzero``): it runs on real tensors.
- AMP is an fp32 model with ``torch.autocast("cpu", dtype=torch.bfloat16)`` around forward and loss (HF
  Trainer's bf16=True on an fp32-loaded model); the autocast weight cache is counted (it is live memory).
- AdamW's ``step`` counters are counted (4 bytes per parameter tensor; on a GPU they stay on the host unless
  ``fused``): reported separately in the breakdown's detail.

Fake and real runs of the same tiny case give the same figures to the byte (the ``-real`` twins).
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import json
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import torch

from bench.validate.measure import gpu_like_dropout, gpu_like_sdpa_layout
from bench.validate.peak_cases import PeakCase, all_cases
from bench.validate.peak_track import LiveStorages

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "measured_peaks.json"
OPTIMIZER_KWARGS = {"foreach": {"foreach": True}, "fused": {"fused": True}, "for-loop": {"foreach": False}}


@contextlib.contextmanager
def unpacked_positions() -> Iterator[None]:
    """Make the fake run take the real run's mask path (see the module docstring)."""
    from torch._subclasses.fake_tensor import is_fake
    from transformers import masking_utils

    original = masking_utils.find_packed_sequence_indices

    def find_packed_sequence_indices(position_ids: torch.Tensor) -> torch.Tensor | None:
        if not is_fake(position_ids):
            return original(position_ids)
        first = position_ids[:, :1] - 1  # the same ops as the original, so the same temporaries
        packed = (torch.diff(position_ids, prepend=first, dim=-1) != 1).cumsum(-1)
        (packed[:, -1] == 0).all()
        return None

    masking_utils.find_packed_sequence_indices = find_packed_sequence_indices
    try:
        yield
    finally:
        masking_utils.find_packed_sequence_indices = original


def set_mode(model: torch.nn.Module, attention: str, recompute: str) -> None:
    """compare._set_mode without importing vramgui: SDPA with attention dropout 0, recompute on or off."""
    model.set_attn_implementation(attention)
    for name, module in model.named_modules():
        if name.endswith("attn_dropout") and isinstance(module, torch.nn.Dropout):
            configured = module.__dict__.setdefault("configured_p", module.p)
            module.p = 0.0 if attention == "sdpa" else configured
    if recompute == "full":
        model.activation_checkpointing_enable()
    else:
        model.activation_checkpointing_disable()


def build_model(case: PeakCase) -> torch.nn.Module:
    config = case.make_config()
    config._attn_implementation = case.attention  # noqa: SLF001 - some models read it only at init
    torch.manual_seed(0)
    # built in its dtype, as from_pretrained(dtype=...) does: Module.to() cannot swap fake parameters
    dtype = torch.float32 if case.amp or case.dtype == "fp32" else torch.bfloat16
    model = case.model_class()._from_config(config, dtype=dtype)  # noqa: SLF001 - transformers' own entry
    model.train()
    set_mode(model, case.attention, case.recompute)
    return model


def make_optimizer(case: PeakCase, params: Any) -> torch.optim.Optimizer:
    return torch.optim.AdamW(params, lr=1e-4, **OPTIMIZER_KWARGS[case.impl])


def input_ids(case: PeakCase, vocab: int, seed: int = 0) -> torch.Tensor:
    torch.manual_seed(seed)
    return torch.randint(0, vocab, (case.batch, case.seq))


def train_steps(case: PeakCase, model: Any, opt: torch.optim.Optimizer, ids: torch.Tensor, tracker: LiveStorages,
                no_sync: Callable[[], Any] | None = None, label: Callable[[], None] | None = None,
                before_forward: Callable[[], None] | None = None) -> None:
    """Two optimizer steps of ``case.accumulation`` micro-batches each, phases marked on the tracker."""
    amp = (lambda: torch.autocast("cpu", dtype=torch.bfloat16)) if case.amp else contextlib.nullcontext

    def relabel() -> None:
        tracker.label_module(model, opt)
        if label is not None:
            label()

    for step in (1, 2):
        opt.zero_grad(set_to_none=True)
        for micro in range(case.accumulation):
            sync = no_sync() if no_sync is not None and micro < case.accumulation - 1 else contextlib.nullcontext()
            with sync:
                if before_forward is not None:
                    before_forward()
                tracker.begin("forward", step, micro)
                with amp():
                    out = model(input_ids=ids, labels=ids)
                loss = out.loss
                tracker.watch_loss_grad(out.logits)
                del out  # HF Trainer keeps only the loss
                tracker.end()
                tracker.begin("backward", step, micro)
                loss.backward()
                del loss
                tracker.end()
            relabel()
        tracker.begin("optimizer", step)
        opt.step()
        tracker.end()
        relabel()


def result(case: PeakCase, config: Any, tracker: LiveStorages, extra: dict[str, Any] | None = None
           ) -> dict[str, Any]:
    import transformers

    peak = tracker.peak
    measured: dict[str, Any] = {
        "peak": peak.bytes, "phase": peak.phase, "step": peak.step, "micro_batch": peak.micro,
        "where": next((r.as_dict().get("max_where", "") for r in tracker.records
                       if (r.phase, r.step, r.micro, r.max) == (peak.phase, peak.step, peak.micro, peak.bytes)), ""),
        "op": peak.op, "node": peak.node, "breakdown": tracker.breakdown(),
        "phases": [r.as_dict() for r in tracker.records],
    }
    measured.update(extra or {})
    return {"key": case.key, "config": json_clean(config.to_dict()), "scenario": case.scenario(),
            "measured": measured, "fake": case.fake, "torch": torch.__version__,
            "transformers": transformers.__version__}


def json_clean(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {str(k): json_clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_clean(v) for v in obj]
    if obj is None or isinstance(obj, (bool, int, str)):
        return obj
    if isinstance(obj, float):
        return obj if obj == obj and abs(obj) != float("inf") else str(obj)
    return str(obj).replace("torch.", "")


def memtracker_peak(mt: Any) -> int:
    return sum(int(snap["Total"]) for snap in mt.get_tracker_snapshot("peak").values())


def run_single(case: PeakCase) -> dict[str, Any]:
    from torch._subclasses.fake_tensor import FakeTensorMode

    with contextlib.ExitStack() as stack:
        if case.fake:
            stack.enter_context(FakeTensorMode())
        stack.enter_context(unpacked_positions())
        stack.enter_context(gpu_like_dropout())
        stack.enter_context(gpu_like_sdpa_layout())
        model = build_model(case)
        opt = make_optimizer(case, model.parameters())
        ids = input_ids(case, model.config.vocab_size)
        tracker = LiveStorages()
        tracker.label_module(model, opt)
        tracker.adopt(ids, "other")
        stack.enter_context(tracker)
        mt = None
        if case.memtracker:
            from torch.distributed._tools.mem_tracker import MemTracker

            mt = MemTracker()
            mt.track_external(model, opt, ids)
            stack.enter_context(mt)
        train_steps(case, model, opt, ids, tracker, before_forward=mt.reset_mod_stats if mt is not None else None)
        stack.close()
        extra = {"memtracker_peak": memtracker_peak(mt)} if mt is not None else {}
        return result(case, model.config, tracker, extra)


def run_case(case: PeakCase) -> dict[str, Any]:
    if case.dist:
        from bench.validate.peak_dist import run_distributed

        return run_distributed(case)
    return run_single(case)


def measure(keys: list[str] | None = None, log: Any = print) -> list[dict[str, Any]]:
    import transformers

    transformers.logging.set_verbosity_error()
    warnings.simplefilter("ignore")
    torch.set_num_threads(2)
    cases = all_cases()
    if keys:
        cases = [c for c in cases if any(fnmatch.fnmatchcase(c.key, k) for k in keys)]
    out = []
    for case in cases:
        started = time.perf_counter()
        entry = run_case(case)
        m = entry["measured"]
        log(f"{case.key}: peak {m['peak']:,} in {m['phase']} step {m['step']} "
            f"({time.perf_counter() - started:.1f} s)")
        out.append(entry)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.validate.peak_measure", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=FIXTURE, help="JSON file (default tests/fixtures/"
                        "measured_peaks.json; '-' prints it)")
    parser.add_argument("--only", nargs="*", help="case keys or shell patterns ('*-mt') to run; merged into --out")
    parser.add_argument("--list", action="store_true", help="list the case keys and exit")
    args = parser.parse_args(argv)
    if args.list:
        for case in all_cases():
            print(case.key)
        return 0
    entries = measure(args.only)
    if str(args.out) == "-":
        print(json.dumps(entries, indent=1))
        return 0
    if args.only and args.out.is_file():  # keep the other cases, in case-list order
        old = {e["key"]: e for e in json.loads(args.out.read_text())["cases"]}
        old.update({e["key"]: e for e in entries})
        order = [c.key for c in all_cases()]
        entries = sorted(old.values(), key=lambda e: order.index(e["key"]) if e["key"] in order else len(order))
    doc = {"about": "Peak live tensor bytes of two AdamW training steps, measured on CPU by "
                    "bench/validate/peak_measure.py; regenerate with `python -m bench.validate.peak_measure`.",
           "cases": entries}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(entries)} cases to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
