"""Measure peft LoRA / QLoRA models on the CPU (``python -m bench.validate.lora_measure``).

For every case of ``lora_cases``: the trainable-parameter count (peft's ``get_nb_trainable_parameters``), the bytes of
the frozen base in its storage format (every parameter storage that does not require a gradient, plus the
bitsandbytes ``QuantState`` tensors: absmax, code, the nested absmax/offset/code of double quantisation; buffers
excluded), the adapters' bytes, the bytes autograd keeps at the end of forward (``measure.saved_activations``: real
tensors only) and the peak live tensor bytes of two AdamW steps over the trainable parameters
(``peak_track.LiveStorages``, as ``peak_measure`` runs full training). Also peft's trainable count for every family
the harness can build, rank 8, attention and all-linear targets. Writes tests/fixtures/measured_lora.json.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import torch

from bench.validate.families import family
from bench.validate.lora_cases import ATTENTION, COUNT_FAMILIES, LoraCase, all_cases
from bench.validate.measure import gpu_like_dropout, gpu_like_sdpa_layout, saved_activations
from bench.validate.peak_measure import json_clean, unpacked_positions
from bench.validate.peak_track import LiveStorages

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "measured_lora.json"

# the module names vramgui's "attention" targets stand for, per family (peft matches a name as a suffix)
ATTENTION_NAMES = {"phi3": ["qkv_proj", "o_proj"], "gpt2": ["c_attn", "attn.c_proj"],
                   "gpt_neox": ["query_key_value", "dense"], "falcon": ["query_key_value", "dense"],
                   "falcon-new": ["query_key_value", "dense"]}


def target_modules(fam: str, targets: str) -> Any:
    if targets == "all-linear":
        return "all-linear"
    if targets == "attention":
        return ATTENTION_NAMES.get(fam, list(ATTENTION))
    return targets.split(",")


def quantise(model: torch.nn.Module, base: str, double_quant: bool) -> None:
    """transformers' replace_with_bnb_linear, by hand: every nn.Linear of the decoder blocks (not the LM head)."""
    import bitsandbytes as bnb

    for module in list(model.modules()):
        for child_name, child in list(module.named_children()):
            if not isinstance(child, torch.nn.Linear) or child_name == "lm_head":
                continue
            w = child.weight.data
            bias = child.bias is not None
            if base == "nf4":
                new: Any = bnb.nn.Linear4bit(child.in_features, child.out_features, bias=bias,
                                             compute_dtype=torch.bfloat16, compress_statistics=double_quant,
                                             quant_type="nf4")
                new.weight = bnb.nn.Params4bit(w, requires_grad=False, compress_statistics=double_quant,
                                               quant_type="nf4", blocksize=64)
            else:
                new = bnb.nn.Linear8bitLt(child.in_features, child.out_features, bias=bias, has_fp16_weights=False,
                                          threshold=0.0)
                new.weight = bnb.nn.Int8Params(w, requires_grad=False, has_fp16_weights=False)
            if bias:
                new.bias = torch.nn.Parameter(child.bias.data, requires_grad=False)
            new = new.to("cpu")  # quantises (Params4bit._quantize / Int8Params._quantize)
            setattr(module, child_name, new)


def quant_tensors(model: torch.nn.Module) -> list[torch.Tensor]:
    out: list[torch.Tensor] = []
    for p in model.parameters():
        qs = getattr(p, "quant_state", None)
        if qs is not None:
            out += [qs.absmax, qs.code]
            if qs.nested:
                out += [qs.offset, qs.state2.absmax, qs.state2.code]
        for attr in ("SCB",):
            t = getattr(p, attr, None)
            if isinstance(t, torch.Tensor):
                out.append(t)
    return out


def build(case: LoraCase) -> Any:
    import peft

    config = case.make_config()
    config._attn_implementation = case.attention  # noqa: SLF001
    torch.manual_seed(0)
    model = case.model_class()._from_config(config, dtype=torch.bfloat16)  # noqa: SLF001
    model.train()
    model.set_attn_implementation(case.attention)
    if case.base in ("nf4", "int8"):
        quantise(model, case.base, case.double_quant)
    if case.recompute == "full":
        model.gradient_checkpointing_enable()
        model.enable_input_require_grads()  # what HF Trainer / prepare_model_for_kbit_training do for peft
    if case.fake:  # Module.to() cannot swap fake parameters: the adapters stay as created (fp32, on the CPU)
        from peft.tuners.tuners_utils import BaseTunerLayer

        BaseTunerLayer._move_adapter_to_device_of_base_layer = lambda *a, **k: None  # type: ignore[method-assign]  # noqa: SLF001
        torch.nn.Module.to = lambda self, *a, **k: self  # type: ignore[method-assign]
    lcfg = peft.LoraConfig(r=case.rank, lora_alpha=16, lora_dropout=case.dropout,
                           target_modules=target_modules(case.family, case.targets), task_type="CAUSAL_LM")
    return peft.get_peft_model(model, lcfg, autocast_adapter_dtype=case.adapter == "fp32")


def storage_bytes(tensors: list[torch.Tensor]) -> int:
    seen: dict[int, torch.UntypedStorage] = {}  # one Python object per live storage (fake ones have no address)
    for t in tensors:
        st = t.untyped_storage()
        seen.setdefault(id(st), st)
    return sum(st.nbytes() for st in seen.values())


def train(case: LoraCase, model: Any, tracker: LiveStorages) -> dict[str, Any]:
    trainable = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(trainable, lr=1e-4, foreach=True)
    torch.manual_seed(0)
    ids = torch.randint(0, model.config.vocab_size, (case.batch, case.seq))
    tracker.label_module(model, opt)
    tracker.adopt(quant_tensors(model), "parameters")
    tracker.adopt(ids, "other")
    forward_added: list[int] = []
    with tracker:
        for step in (1, 2):
            opt.zero_grad(set_to_none=True)
            tracker.begin("forward", step, 0)
            out = model(input_ids=ids, labels=ids)
            loss = out.loss
            tracker.watch_loss_grad(out.logits)
            del out
            tracker.end()
            forward_added.append(tracker.records[-1].end - tracker.records[-1].start)
            tracker.begin("backward", step, 0)
            loss.backward()
            del loss
            tracker.end()
            tracker.label_module(model, opt)
            tracker.begin("optimizer", step)
            opt.step()
            tracker.end()
            tracker.label_module(model, opt)
    peak = tracker.peak
    return {"peak": peak.bytes, "phase": peak.phase, "step": peak.step, "breakdown": tracker.breakdown(),
            "forward_added": forward_added[-1], "phases": [r.as_dict() for r in tracker.records]}


def run_case(case: LoraCase) -> dict[str, Any]:
    from torch._subclasses.fake_tensor import FakeTensorMode

    with contextlib.ExitStack() as stack:
        if case.fake:
            stack.enter_context(FakeTensorMode())
        stack.enter_context(unpacked_positions())
        stack.enter_context(gpu_like_dropout())
        stack.enter_context(gpu_like_sdpa_layout())
        model = build(case)
        trainable, total = model.get_nb_trainable_parameters()
        frozen = [p for p in model.parameters() if not p.requires_grad] + quant_tensors(model)
        adapters = [p for p in model.parameters() if p.requires_grad]
        measured: dict[str, Any] = {"trainable_params": trainable, "all_params": total,
                                    "trainable_tensors": len(adapters), "base_bytes": storage_bytes(frozen),
                                    "adapter_bytes": storage_bytes(adapters)}
        if not case.fake:
            measured["saved"] = saved_activations(model, case.batch, case.seq, model.config.vocab_size)[0]
        if case.step:
            measured.update(train(case, model, LiveStorages()))
        return {"key": case.key, "config": json_clean(model.config.to_dict()), "scenario": case.scenario(),
                "measured": measured, "fake": case.fake}


def count_case(key: str) -> list[dict[str, Any]]:
    import peft
    import transformers

    fam = family(key)
    config = fam.make_config(2)
    out = []
    for targets in ("attention", "all-linear"):
        torch.manual_seed(0)
        model = fam.model_class()(config) if not fam.extended else transformers.AutoModelForCausalLM.from_config(config)
        lcfg = peft.LoraConfig(r=8, target_modules=target_modules(key, targets), task_type="CAUSAL_LM")
        pm = peft.get_peft_model(model, lcfg)
        trainable, total = pm.get_nb_trainable_parameters()
        out.append({"family": key, "targets": targets, "rank": 8, "peft_targets": target_modules(key, targets),
                    "trainable_params": trainable, "all_params": total, "config": json_clean(config.to_dict())})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.validate.lora_measure", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=FIXTURE)
    parser.add_argument("--only", nargs="*", help="case keys (substring match); merged into --out")
    parser.add_argument("--no-counts", action="store_true")
    args = parser.parse_args(argv)
    import transformers

    transformers.logging.set_verbosity_error()
    warnings.simplefilter("ignore")
    torch.set_num_threads(2)
    old: dict[str, Any] = json.loads(args.out.read_text()) if args.out.is_file() else {}
    cases = {e["key"]: e for e in old.get("cases", [])}
    for case in all_cases():
        if args.only and not any(k in case.key for k in args.only):
            continue
        started = time.perf_counter()
        entry = run_case(case)
        m = entry["measured"]
        print(f"{case.key}: trainable {m['trainable_params']:,} base {m['base_bytes']:,} saved {m.get('saved')} "
              f"peak {m.get('peak')} ({time.perf_counter() - started:.1f} s)", flush=True)
        cases[case.key] = entry
    counts = old.get("counts", [])
    if not args.no_counts:
        counts = [row for key in COUNT_FAMILIES for row in count_case(key)]
    import bitsandbytes
    import peft

    doc = {"about": "peft LoRA / QLoRA models measured on CPU by bench/validate/lora_measure.py "
                    f"(torch {torch.__version__}, transformers {transformers.__version__}, peft {peft.__version__}, "
                    f"bitsandbytes {bitsandbytes.__version__}); regenerate with "
                    "`python -m bench.validate.lora_measure`.",
           "cases": [cases[c.key] for c in all_cases() if c.key in cases], "counts": counts}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(doc['cases'])} cases, {len(counts)} counts to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
