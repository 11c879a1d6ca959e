"""Plain-text tables for the CLI (kept apart from argument handling). Stdlib only, no Qt."""

from __future__ import annotations

import argparse
from typing import Any

from vramgui.core.estimate import Estimate
from vramgui.core.units import format_bytes, format_count, parse_bytes, parse_count


def _table(rows: list[list[str]], right: set[int]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        cells = [c.rjust(widths[i]) if i in right else c.ljust(widths[i]) for i, c in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def estimate_table(est: Estimate, unit: str = "GB") -> str:
    s = est.scenario
    p = s.parallel
    head = (f"{s.model.name}: {format_count(est.params)} parameters"
            + (f" ({format_count(est.active_params)} active)" if est.active_params else "")
            + f" | {est.strategy} ({est.fsdp}) | {p.num_gpus} GPU(s), N_d = {est.data_parallel}"
            + (f", tp {p.tp}, pp {p.pp}" if p.tp * p.pp > 1 else "")
            + f" | {s.precision.dtype} {s.precision.recipe}, {s.precision.optimizer} | {s.convention} convention")
    rows = [["Component", "Per GPU", "Derivation"]]
    for c in est.components:
        label = ("  " + c.label) if c.key == "master_weights" else c.label
        deriv = c.derivation
        if unit != "GB" and c.bytes is not None and " = " in deriv:  # derivations are written in GB
            deriv = deriv.rsplit(" = ", 1)[0] + " = " + format_bytes(c.bytes, unit)
        rows.append([label, format_bytes(c.bytes, unit), deriv])
    rows.append(["Total", format_bytes(est.per_gpu_total, unit), ""])
    formulas = "Formulas: " + "; ".join(f"{c.key} = {c.formula}" for c in est.components if c.formula not in ("0", "n/a"))
    out = [head, "", _table(rows, {1}), formulas]
    hw = s.hardware
    if hw.gpu_memory is not None:
        verdict = "fits" if est.fits else "does NOT fit"
        out.append(f"\nGPU {hw.gpu_name + ' ' if hw.gpu_name else ''}{format_bytes(hw.gpu_memory, unit)}, {hw.reserve:.0%} reserved -> "
                   f"usable {format_bytes(est.usable, unit)}: {verdict}, headroom {format_bytes(est.headroom, unit)}")
    if est.host_per_node is not None:
        out.append(f"Host (CPU) memory per node: {format_bytes(est.host_per_node, unit)}  [{est.host_formula}]")
    out.append(f"Gradient accumulation: {est.accumulation_steps} step(s), {est.tokens_per_step:,} tokens per step")
    if est.notes:
        out.append("Notes:\n" + "\n".join(f"  - {n}" for n in est.notes))
    return "\n".join(out)


def compare_output(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    """The seed's Part 3 table (largest model per strategy); with --params, each strategy's memory too."""
    from vramgui.core.seed import seed_compare_table

    memory = parse_bytes(args.gpu_memory, "--gpu-memory")
    gb = memory / 10**9
    table = seed_compare_table(gb, args.gpus, args.reserve, args.dtype, args.optimizer)
    data: dict[str, Any] = {
        "gpu_memory": memory, "num_gpus": args.gpus, "reserve": args.reserve, "dtype": args.dtype,
        "optimizer": args.optimizer,
        "rows": [{"strategy": name, "max_params": int(b * 1e9), "max_params_b": b} for name, b in table],
    }
    lines = [f"{args.gpus} x {gb:g} GB: largest trainable model ({args.dtype.upper()} + {args.optimizer.title()}, "
             f"{args.reserve:.0%} memory reserved):", "-" * 78]
    lines += [f"{name:<8} {b:>8.2f}B parameters" for name, b in table]
    if args.params is not None:
        from vramgui.core.estimate import estimate
        from vramgui.core.solve import strategy_variants
        from vramgui.core.specs import HardwareSpec, ModelSpec, ParallelSpec, PrecisionSpec, Scenario

        base = Scenario(model=ModelSpec(params=parse_count(args.params, "--params")),
                        precision=PrecisionSpec(dtype=args.dtype, optimizer=args.optimizer),
                        parallel=ParallelSpec(num_gpus=args.gpus),
                        hardware=HardwareSpec(gpu_memory=memory, reserve=args.reserve))
        rows = [["Strategy", "Per GPU", "Host per node", "Fits"]]
        data["strategies"] = []
        for label, variant in strategy_variants(base):
            est = estimate(variant)
            rows.append([label, format_bytes(est.per_gpu_total, args.unit),
                         format_bytes(est.host_per_node, args.unit) if est.host_per_node else "-",
                         "yes" if est.fits else "no"])
            data["strategies"].append({"strategy": label, "per_gpu_total": est.per_gpu_total,
                                       "host_per_node": est.host_per_node, "fits": est.fits})
        lines += ["", f"{format_count(base.model.params)} parameters per strategy:", _table(rows, {1, 2})]
    return data, "\n".join(lines)


def presets_output() -> tuple[dict[str, Any], str]:
    try:
        from vramgui.core import catalog
    except ImportError:  # the catalog module is not part of this build
        return {"models": [], "gpus": []}, "No presets available."
    models = catalog.model_presets()
    gpus = catalog.gpu_presets()
    data = {
        "models": [{"key": k, "name": m.name, "params": m.official_params, "source": m.source}
                   for k, m in models.items()],
        "gpus": [{"key": k, "name": g.name, "memory": g.memory, "source": g.source} for k, g in gpus.items()],
    }
    rows = [["Model preset", "Name", "Parameters"]]
    rows += [[k, m.name, format_count(m.official_params)] for k, m in models.items()]
    grows = [["GPU preset", "Name", "Memory"]]
    grows += [[k, g.name, f"{format_bytes(g.memory, 'GB')} ({format_bytes(g.memory, 'GiB')})"] for k, g in gpus.items()]
    return data, _table(rows, set()) + "\n\n" + _table(grows, set())
