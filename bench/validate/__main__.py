"""``python -m bench.validate``: measure, compare, write docs/accuracy.md; exit 1 on any miss.

Needs torch and transformers (``make validate`` installs them into .venv-validate); the app never does.

    python -m bench.validate                      # everything, writes docs/accuracy.md
    python -m bench.validate --families gpt2      # a subset, report to stdout only
    python -m bench.validate --dump llama-gqa bf16 sdpa none 2 64   # tensor-by-tensor listing of one case
    python -m bench.validate --peaks              # training-step peaks: measure, compare, print the section
    python -m bench.validate --peaks --peaks-from tests/fixtures/measured_peaks.json   # compare recorded figures
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _dump(args: list[str]) -> int:
    from bench.validate.compare import _set_mode, build
    from bench.validate.families import BASE_LAYERS, family
    from bench.validate.measure import saved_activations

    key, dtype, attention, recompute, batch, seq = args
    fam = family(key)
    totals = []
    for layers in (BASE_LAYERS, BASE_LAYERS + 1):
        model = build(fam, layers, dtype, attention)
        _set_mode(model, attention, recompute)
        total, rows = saved_activations(model, int(batch), int(seq), model.config.vocab_size, detail=True)
        totals.append(total)
        print(f"{layers} layers: {total:,} bytes")
        grouped = Counter((r.nbytes, r.shape, r.dtype, r.saved_by) for r in rows)
        for (nbytes, shape, dt, by), count in sorted(grouped.items(), key=lambda kv: -kv[0][0] * kv[1]):
            print(f"  {count:3d} x {nbytes:>12,}  {shape!s:22} {dt:9} {', '.join(by)}")
    print(f"one layer: {totals[1] - totals[0]:,} bytes")
    return 0


def _peaks(recorded: Path | None, out: Path | None) -> int:
    from bench.validate.peak_compare import compare, load, table

    if recorded is not None:
        entries = load(recorded)
        first = entries[0] if entries else {}
        versions = {"torch": first.get("torch", "?"), "transformers": first.get("transformers", "?")}
    else:
        import torch
        import transformers

        from bench.validate.peak_measure import measure

        entries = measure()
        versions = {"torch": torch.__version__, "transformers": transformers.__version__}
    from bench.validate.report import render_peaks

    rows = compare(entries)
    print(table(rows))
    text = render_peaks(rows, {"Python": sys.version.split()[0], **versions})
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        print(f"wrote {out}")
    else:
        print(text)
    return 1 if any(r.ok is False for r in rows) else 0


# Sections of the report written from other harnesses' fixtures, not measured by this run: carried over as they are
# (the LoRA/QLoRA table comes from `python -m bench.validate.lora_measure`, tests/fixtures/measured_lora.json, and
# is pinned by tests/core/finetune/test_measured.py; the Serving table from `python -m bench.validate.serve_table`,
# tests/fixtures/serving_published.json, pinned by tests/core/serve/test_published.py).
KEPT_SECTIONS = ("## Fine-tuning (LoRA, QLoRA)", "## Serving")


def _kept_sections(out: Path) -> str:
    """The kept sections of the report at ``out`` (from the first kept heading to the end), or ""."""
    if str(out) == "-" or not out.is_file():
        return ""
    old = out.read_text(encoding="utf-8")
    starts = [old.find("\n" + heading + "\n") for heading in KEPT_SECTIONS]
    found = [i for i in starts if i >= 0]
    return "\n\n" + old[min(found):].lstrip("\n") if found else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.validate", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "accuracy.md",
                        help="report path (default docs/accuracy.md; '-' prints it)")
    parser.add_argument("--fixtures", type=Path, default=ROOT / "tests" / "fixtures" / "hf_configs",
                        help="extra config.json files whose parameter counts are checked")
    parser.add_argument("--families", nargs="*", help="family keys (default: all); implies --out -")
    parser.add_argument("--dump", nargs=6, metavar=("FAMILY", "DTYPE", "ATTN", "RECOMPUTE", "B", "S"),
                        help="list the saved tensors of one case and exit")
    parser.add_argument("--peaks", action="store_true",
                        help="measure the training-step peaks (bench/validate/peak_measure.py), compare them with "
                             "vramgui's step peak and print the report section; exit")
    parser.add_argument("--peaks-from", type=Path, help="with --peaks: compare these recorded figures instead of "
                        "measuring (e.g. tests/fixtures/measured_peaks.json)")
    parser.add_argument("--peaks-out", type=Path, help="with --peaks: write the section to this file")
    args = parser.parse_args(argv)
    if args.dump:
        return _dump(args.dump)
    if args.peaks:
        return _peaks(args.peaks_from, args.peaks_out)

    import torch
    import transformers

    from bench.validate.compare import all_rows
    from bench.validate.families import EXTENDED, FAMILIES, family
    from bench.validate.report import failures, render

    started = time.perf_counter()
    families = tuple(family(k) for k in args.families) if args.families else FAMILIES + EXTENDED
    acts, states, counts = all_rows(args.fixtures, families)
    versions = {"Python": sys.version.split()[0], "torch": torch.__version__, "transformers": transformers.__version__}
    text = render(acts, states, counts, versions)
    peak_rows: list = []
    saved_rows: list = []
    if not args.families:  # config.json as transformers saves it, for every supported model_type (about 10 s)
        from bench.validate import config_keys

        saved_rows = config_keys.compare(config_keys.measure(log=lambda _line: None))
        equal = sum(r.ok for r in saved_rows)
        refused = sum(1 for r in saved_rows if r.vramgui is None)
        text = text.replace("- Result:", f"- Config keys: {equal}/{len(saved_rows)} configs saved by transformers "
                            f"equal to the model it builds, {refused} refused by name (a key vramgui does not "
                            "model), none read wrong.\n- Result:" if not config_keys.failures(saved_rows) else
                            f"- Config keys: {len(config_keys.failures(saved_rows))} saved configs read wrong.\n"
                            "- Result:", 1)
        text += "\n" + config_keys.section(saved_rows, versions)
    if not args.families:  # the training-step peaks: measured now (about 2 minutes), or the recorded figures
        from bench.validate.peak_compare import compare, load
        from bench.validate.report import render_peaks

        if args.peaks_from is not None:
            entries = load(args.peaks_from)
        else:
            from bench.validate.peak_measure import measure

            entries = measure()
        peak_rows = compare(entries)
        within = sum(1 for r in peak_rows if r.ok)
        summary = (f"- Training-step peak: {within}/{len(peak_rows)} configurations within the goal (±3 % on one "
                   "process, ±5 % for DDP / FSDP2).\n- Result:")
        text = text.replace("- Result:", summary, 1) + "\n" + render_peaks(peak_rows, versions)
    text += _kept_sections(args.out)
    if args.families or str(args.out) == "-":
        print(text)
    else:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
        print(f"wrote {args.out}")
    bad = failures(acts, states, counts) + [f"step peak {r.key}: not within the goal" for r in peak_rows
                                            if r.ok is False]
    if saved_rows:
        from bench.validate.config_keys import failures as saved_failures

        bad += saved_failures(saved_rows)
    elapsed = time.perf_counter() - started
    print(f"{len(acts)} activation cases, {len(states)} model-state cases, {len(counts)} parameter counts "
          f"in {elapsed:.0f} s: {'FAIL' if bad else 'PASS'}")
    for line in bad:
        print("  " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
