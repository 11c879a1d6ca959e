"""Measure transformers' prefill as ``generate`` runs it: the live tensor bytes beyond the weights, and the cache.

    .venv-validate/bin/python -m bench.validate.serve_measure [--out tests/fixtures/measured_serving.json]

Small random models built from configs (no download), bf16, on the CPU: one forward of ``b × s`` prompt tokens with a
fresh ``DynamicCache``, ``use_cache=True`` and ``logits_to_keep=1`` under ``torch.no_grad`` (``GenerationMixin``'s
prefill, with generate's all-ones attention mask), then the fp32 copy of the last logits ``generate`` takes
(``outputs.logits[:, -1, :].to(copy=True, dtype=torch.float32)``). ``bench.validate.peak_track.LiveStorages``
counts live storages op by op; the peak beyond the parameters, buffers and input ids is compared with
``vramgui serve --engine hf``'s KV cache + prefill peak (bench/validate/serve_table.py). About ten seconds on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import torch
import transformers

from bench.validate.peak_track import LiveStorages

BASE = {"hidden_size": 256, "intermediate_size": 704, "num_hidden_layers": 4, "num_attention_heads": 8,
        "num_key_value_heads": 2, "vocab_size": 4096, "max_position_embeddings": 4096}
CASES: dict[str, dict[str, Any]] = {
    "llama": {"model_type": "llama", **BASE},
    "mistral-sliding": {"model_type": "mistral", **BASE, "sliding_window": 128},
    "gemma2": {"model_type": "gemma2", **BASE, "head_dim": 32, "sliding_window": 128},
    "gemma3": {"model_type": "gemma3_text", **BASE, "num_hidden_layers": 6, "head_dim": 32, "sliding_window": 128,
               "sliding_window_pattern": 6},
}
SHAPES = ((1, 512), (4, 256))


def measure(config: dict[str, Any], batch: int, seq: int) -> dict[str, int]:
    cfg = transformers.AutoConfig.for_model(**config)
    # what generate runs on a GPU: SDPA, or eager where transformers offers nothing else (Gemma 2's softcapping)
    cfg._attn_implementation = "eager" if config["model_type"] == "gemma2" else "sdpa"  # noqa: SLF001
    torch.manual_seed(0)
    model = transformers.AutoModelForCausalLM.from_config(cfg, torch_dtype=torch.bfloat16).eval()
    ids = torch.randint(0, cfg.vocab_size, (batch, seq))
    tracker = LiveStorages()
    with torch.no_grad(), tracker:
        tracker.label_module(model)
        tracker.adopt(ids, "other")  # the input ids and (below) the attention mask are generate's, not the model's
        base = tracker.live
        tracker.begin("prefill", 0)
        cache = transformers.DynamicCache(config=cfg)
        mask = torch.ones_like(ids)  # generate's _prepare_attention_mask_for_generation: ones without padding
        out = model(input_ids=ids, attention_mask=mask, past_key_values=cache, use_cache=True, logits_to_keep=1)
        last = out.logits[:, -1, :].to(copy=True, dtype=torch.float32)
        tracker.end()
        kv = sum(t.untyped_storage().nbytes() for layer in cache.layers for t in (layer.keys, layer.values))
        del last
    return {"peak_beyond_weights": tracker.peak.bytes - base, "kv_cache": kv}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.validate.serve_measure")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    rows = []
    for name, config in CASES.items():
        for batch, seq in SHAPES:
            got = measure(config, batch, seq)
            rows.append({"case": name, "config": config, "batch": batch, "seq": seq, **got})
            print(name, batch, seq, got, flush=True)
    data = {"torch": torch.__version__, "transformers": transformers.__version__, "rows": rows}
    text = json.dumps(data, indent=2) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
