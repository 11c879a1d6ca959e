"""The "Serving" section of docs/accuracy.md: vramgui's serving arithmetic against what the engines printed.

No torch needed: every row is a figure vLLM or llama.cpp logged, as published (tests/fixtures/serving_published.json),
beside what ``vramgui.core.serve`` computes for the same model and settings. vLLM logs its pool in GiB rounded to
two decimals: a row passes when vramgui's block count, token count and concurrency for a pool anywhere in that
rounding interval include the logged ones (pages: ``kv_cache_interface.py``; blocks: ``kv_cache_utils.py``
``get_num_blocks``). llama.cpp rows must match to the printed 0.01 MiB. The weight-format rows are the formats'
own bits per weight, from their tensor layouts.

    python -m bench.validate.serve_table [--out docs/accuracy.md]   # replaces (or appends) the section
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vramgui.core.scenario.choices import Engine, KvDType, WeightFormat
from vramgui.core.scenario.specs import Scenario, ServeSpec
from vramgui.core.serve.estimate import serve_estimate
from vramgui.core.serve.formats import linear_bytes
from vramgui.io import presets

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "serving_published.json"
MEASURED = ROOT / "tests" / "fixtures" / "measured_serving.json"  # bench/validate/serve_measure.py
TOLERANCE = 0.05  # the goal for the measured transformers prefill peak
EAGER = ("gemma2",)  # transformers runs Gemma 2 eagerly (no SDPA): its b·a·s² scores are not modelled
HEADING = "## Serving"
GiB, MiB = 2**30, 2**20


@dataclass(frozen=True)
class Row:
    case: str
    published: str
    vramgui: str
    ok: bool
    source: str
    judged: bool = True  # False: shown for reference (an eagerly run model), not held to the goal


def _vllm(case: dict[str, Any], pool: int) -> Any:
    serve = ServeSpec(context=case["max_model_len"], kv_dtype=KvDType(case["kv_dtype"]),
                      block_size=case["block_size"], kv_cache_memory_bytes=pool, engine=Engine.VLLM)
    e = serve_estimate(Scenario(model=presets.find_model(case["preset"]).spec, serve=serve))
    assert e.vllm is not None
    return e.vllm


def vllm_row(case: dict[str, Any]) -> Row:
    """The logged blocks / tokens / concurrency against vramgui's for pools across the log's rounding."""
    low, high = (math.ceil((case["available_gib"] - 0.005) * GiB), math.floor((case["available_gib"] + 0.005) * GiB))
    lo, hi = _vllm(case, low), _vllm(case, high)
    ok = True
    got, want = [], []
    if "num_blocks" in case:
        ok &= lo.num_blocks <= case["num_blocks"] <= hi.num_blocks
        want.append(f"{case['num_blocks']:,} blocks")
        got.append(f"{lo.num_blocks:,}-{hi.num_blocks:,} blocks")
    if "kv_cache_tokens" in case:
        ok &= lo.kv_cache_tokens <= case["kv_cache_tokens"] <= hi.kv_cache_tokens
        want.append(f"{case['kv_cache_tokens']:,} tokens")
        got.append(f"{lo.kv_cache_tokens:,}-{hi.kv_cache_tokens:,} tokens")
    conc = case["max_concurrency"]
    ok &= round(lo.max_concurrency, 2) <= conc <= round(hi.max_concurrency, 2)
    want.append(f"{conc:.2f}x")
    got.append(f"{lo.max_concurrency:.2f}-{hi.max_concurrency:.2f}x")
    name = f"vLLM {case['preset']}, {case['available_gib']} GiB pool, max_model_len {case['max_model_len']:,}"
    return Row(name, ", ".join(want), ", ".join(got), bool(ok), case["source"])


def llama_cpp_row(case: dict[str, Any]) -> Row:
    serve = ServeSpec(context=case["context"], batch=case["batch"], weights=WeightFormat(case["weights"]),
                      kv_dtype=KvDType(case["kv_dtype"]), engine=Engine.LLAMA_CPP)
    e = serve_estimate(Scenario(model=presets.find_model(case["preset"]).spec, serve=serve))
    assert e.llama_cpp is not None
    ok = round(e.kv.bytes / MiB, 2) == case["kv_mib"] and e.llama_cpp.cells == case["cells"]
    want = [f"KV {case['kv_mib']:.2f} MiB, {case['cells']:,} cells"]
    got = [f"KV {e.kv.bytes / MiB:.2f} MiB, {e.llama_cpp.cells:,} cells"]
    if "gpu_model_buffer_mib" in case:
        ok &= round(e.weights.bytes / MiB, 2) == case["gpu_model_buffer_mib"]
        want.append(f"model buffer {case['gpu_model_buffer_mib']:.2f} MiB")
        got.append(f"model buffer {e.weights.bytes / MiB:.2f} MiB")
    name = (f"llama.cpp {case['preset']} {case['weights']}, {case['batch']} × {case['context']:,} tokens, "
            f"KV {case['kv_dtype']}")
    return Row(name, ", ".join(want), ", ".join(got), ok, case["source"])


# (format, published bits per weight of a 4096 × 4096 Linear, where the figure is stated)
FORMAT_BITS = (
    (WeightFormat.AWQ_INT4, 4.15625, "4 bits + fp16 scale and 4-bit zero per group of 128 (WQLinear_GEMM shapes)"),
    (WeightFormat.GPTQ_INT4, 4.15625 + 32 / 4096, "AWQ's + a 32-bit g_idx per input row (QuantLinear shapes)"),
    (WeightFormat.NF4, 4.5, "Dettmers et al. 2023 (QLoRA) §3: a 32-bit absmax per 64 weights adds 0.5 bits"),
    (WeightFormat.INT8, 8 + 32 / 4096, "an fp32 scale per output row (Int8Params.SCB)"),
)


def format_rows() -> list[Row]:
    rows = []
    for fmt, bits, source in FORMAT_BITS:
        got = 8 * linear_bytes(fmt, 4096, 4096, False) / 4096**2
        rows.append(Row(f"{fmt} Linear 4096 × 4096", f"{bits:.4f} bits", f"{got:.4f} bits",
                        abs(got - bits) < 0.002, source))
    dq = 8 * linear_bytes(WeightFormat.NF4, 4096, 4096, False, double_quant=True) / 4096**2
    rows.append(Row("nf4 + double quantisation", "4.127 bits", f"{dq:.4f} bits", abs(dq - 4.127) < 0.001,
                    "Dettmers et al. 2023 (QLoRA) §3: double quantisation cuts the 0.5 bits to 0.127"))
    return rows


def measured_row(case: dict[str, Any]) -> Row:
    """transformers' measured prefill (KV cache + activations beyond the weights) against ``serve --engine hf``."""
    from vramgui.core.documents.hf_config import architecture_from_config
    from vramgui.core.scenario.specs import ModelSpec, OverheadSpec

    arch = architecture_from_config(case["config"])
    serve = ServeSpec(context=case["seq"], batch=case["batch"], engine=Engine.HF)
    e = serve_estimate(Scenario(model=ModelSpec(architecture=arch), overhead=OverheadSpec(cuda_context=0), serve=serve))
    got, want = e.kv.bytes + e.activations.bytes, case["peak_beyond_weights"]
    error = got / want - 1
    eager = case["config"]["model_type"] in EAGER
    name = f"transformers {case['case']} prefill b={case['batch']} s={case['seq']}" + (" (eager)" if eager else "")
    ok = eager or abs(error) <= TOLERANCE
    return Row(name, f"{want:,} bytes (KV {case['kv_cache']:,})", f"{got:,} bytes (KV {e.kv.bytes:,}), {error:+.2%}",
               ok, "measured: bench/validate/serve_measure.py" + ("; eager attention not modelled" if eager else ""),
               judged=not eager)


def all_rows() -> list[Row]:
    published = json.loads(FIXTURE.read_text(encoding="utf-8"))
    measured = json.loads(MEASURED.read_text(encoding="utf-8"))["rows"]
    return ([vllm_row(c) for c in published["vllm"]] + [llama_cpp_row(c) for c in published["llama_cpp"]]
            + [measured_row(c) for c in measured] + format_rows())


def render(rows: list[Row]) -> str:
    judged = [r for r in rows if r.judged]
    passed = sum(r.ok for r in judged)
    intro = (f"Written by `python -m bench.validate.serve_table` from `tests/fixtures/serving_published.json` "
             f"(pinned by `tests/core/serve/test_published.py`): {passed}/{len(judged)} within the published or "
             "measured figure. "
             "vLLM prints its pool in GiB to two decimals, so vramgui's blocks are computed for both ends of that "
             "rounding; llama.cpp's sizes must match to the printed 0.01 MiB (the GPU model buffer leaves out the "
             "token embedding, which llama.cpp keeps on the CPU). The pool itself (utilization minus weights, "
             "profile peak and non-torch memory) is measured by vLLM at start-up: these rows check the page and "
             "block arithmetic, not the profile. The transformers rows are measured on the CPU (tiny random models, "
             "bf16, SDPA, live tensors op by op; torch 2.13.0, transformers 5.24.0) and must be within 5 %; Gemma 2 "
             "runs eagerly there (transformers refuses SDPA for it), whose b·a·s² attention scores vramgui does not "
             "model (it assumes SDPA or flash attention): those rows are shown, not judged. docs/serving.md says "
             "what each figure is.")
    lines = [HEADING, "", intro, "",
             "| case | published | vramgui | within | source |", "|---|---|---|:---:|---|"]
    for r in rows:
        within = "n/a" if not r.judged else "yes" if r.ok else "**no**"
        lines.append(f"| {r.case} | {r.published} | {r.vramgui} | {within} | {r.source} |")
    return "\n".join(lines) + "\n"


def _replace_section(text: str, section: str) -> str:
    start = text.find("\n" + HEADING + "\n")
    if start < 0:
        return text.rstrip("\n") + "\n\n" + section
    end = text.find("\n## ", start + len(HEADING) + 2)
    return text[:start + 1] + section + ("" if end < 0 else "\n" + text[end + 1:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.validate.serve_table", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="replace the section in this report (else print it)")
    args = parser.parse_args(argv)
    rows = all_rows()
    section = render(rows)
    if args.out is None:
        print(section)
    else:
        args.out.write_text(_replace_section(args.out.read_text(encoding="utf-8"), section), encoding="utf-8")
        print(f"wrote {args.out}")
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
