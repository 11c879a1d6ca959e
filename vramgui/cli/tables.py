"""Plain-text tables for the CLI (kept apart from argument handling). Stdlib only, no Qt."""

from __future__ import annotations

from typing import Any

from vramgui.core.estimate import Estimate
from vramgui.core.fields import paths
from vramgui.core.fields import registry as fields
from vramgui.core.scenario.choices import DType, Optimizer
from vramgui.core.terms import render_derivation
from vramgui.core.text.message import render
from vramgui.core.text.units import counted, format_bytes, format_count, format_seconds, to_unit


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
            + f" | {est.strategy} ({est.fsdp}) | {counted(p.num_gpus, 'GPU')}, N_d = {est.data_parallel}"
            + (f", tp {p.tp}, pp {p.pp}" if p.tp * p.pp > 1 else "")
            + f" | {s.precision.dtype} {s.precision.recipe}, {s.precision.optimizer} | {s.convention} convention")
    if est.trainable_params is not None:
        ft = s.finetune
        share = est.trainable_params / est.params if est.params else 0.0
        head += (f"\ntrainable_params: {est.trainable_params:,} ({format_count(est.trainable_params)}, {share:.3%} of "
                 f"{format_count(est.params)}) | {ft.method} rank {ft.lora_rank} on {ft.lora_targets}, dropout "
                 f"{ft.lora_dropout:g}, {ft.adapter_dtype} adapters")
    rows = [["Component", "Per GPU", "Derivation"]]
    for c in est.components:
        label = ("  " + c.label) if c.key == "master_weights" else c.label
        rows.append([label, format_bytes(c.bytes, unit), render_derivation(c.deriv, unit)])
    rows.append(["Total", format_bytes(est.per_gpu_total, unit), ""])
    formulas = "Formulas: " + "; ".join(f"{c.key} = {c.formula}" for c in est.components if c.deriv.has_formula)
    out = [head, "", _table(rows, {1}), formulas]
    if est.peak is not None:
        out += ["", peak_table(est, unit)]
    hw = s.hardware
    if hw.gpu_memory is not None:
        verdict = "fits" if est.fits else "does NOT fit"
        gpu = f"{hw.gpu_name} " if hw.gpu_name else ""
        peak = f" (step peak {format_bytes(est.peak.bytes, unit)})" if est.peak is not None else ""
        out.append(f"\nGPU {gpu}{format_bytes(hw.gpu_memory, unit)}, {hw.reserve:.0%} reserved -> "
                   f"usable {format_bytes(est.usable, unit)}: {verdict}{peak}, "
                   f"headroom {format_bytes(est.headroom, unit)}")
    if est.host_per_node is not None:
        out.append(f"Host (CPU) memory per node: {format_bytes(est.host_per_node, unit)}  [{est.host_formula}]")
    steps = counted(est.accumulation_steps, "step")
    out.append(f"Gradient accumulation: {steps}, {est.tokens_per_step:,} tokens per step")
    if est.notes:
        out.append("Notes:\n" + "\n".join(f"  - {render(n)}" for n in est.notes))
    out += ["", time_table(est)]
    return "\n".join(out)


def time_table(est: Estimate) -> str:
    """The "Time" section: every component of one step with its derivation, then the throughput and the run."""
    from vramgui.core.terms import render_formula

    t = est.time
    if t is None:
        return "Time: " + (render(est.time_note) if est.time_note is not None else "n/a")
    rows = [["Time of one step", "Seconds", "Derivation"]]
    for c in t.components:
        rows.append([c.label, format_seconds(c.seconds), render_derivation(c.part.deriv)])
    rows.append(["Step", format_seconds(t.step_seconds), ""])
    formulas = "Formulas: " + "; ".join(f"{c.key} = {render_formula(c.part.deriv)}" for c in t.components
                                        if c.seconds)
    out = ["Time", _table(rows, {1}), formulas,
           f"Throughput: {t.tokens_per_second:,.0f} tokens/s ({t.tokens_per_second_per_gpu:,.0f} per GPU); "
           f"{t.model_tflops_per_gpu:,.1f} model TFLOP/s per GPU; MFU {t.mfu:.1%}, HFU {t.hfu:.1%} of "
           f"{t.peak_tflops:,.1f} TFLOP/s ({t.peak_name} dense peak)",
           f"FLOPs per step: model {t.model_flops_per_step:.3e}, hardware {t.hardware_flops_per_step:.3e}"]
    if t.train_seconds is not None:
        run = f"Run: {format_seconds(t.train_seconds)} to train, {t.gpu_hours:,.0f} GPU-hours"
        if t.cost is not None:
            run += f", cost {t.cost:,.2f}"
        out.append(run)
    if t.notes:
        out.append("Time notes:\n" + "\n".join(f"  - {render(n)}" for n in t.notes))
    out.append("Sources: " + "; ".join(f"{c.key}: {c.source}" for c in t.components if c.seconds))
    return "\n".join(out)


def peak_table(est: Estimate, unit: str = "GB") -> str:
    """What is live at the step's peak, each with its derivation (the step's own terms) or the sum's."""
    from vramgui.core.step import components

    peak = est.peak
    assert peak is not None
    rows = [["Live at the step's peak", "Per GPU", "Derivation"]]
    for key, n in peak.at.components:
        if not n:
            continue
        term = peak.term(key)
        deriv = render_derivation(term.deriv, unit) if term is not None else (
            render_derivation(est.component(key).deriv, unit) if key in components.COMPONENT_KEYS else "")
        rows.append([render(components.label(key)), format_bytes(n, unit), deriv])
    rows.append([f"Peak ({render(peak.at_msg)})", format_bytes(peak.bytes, unit), ""])
    by_phase = "; ".join(f"{render(p.label_msg)} ({p.step}) {format_bytes(p.bytes, unit)}" for p in peak.phases)
    return _table(rows, {1}) + "\nPhases: " + by_phase


def compare_output(*, memory: int, num_gpus: int, reserve: float, dtype: str, optimizer: str,
                   params: int | None = None, unit: str = "GB", finetune: Any = None) -> tuple[dict[str, Any], str]:
    """The seed's Part 3 table (largest model per strategy); with ``params``, each strategy's memory too.
    The values are already parsed and range-checked (``vramgui.cli.options.option_value``)."""
    from vramgui.core.seed import seed_compare_table

    gb = to_unit(memory, "GB")
    table = seed_compare_table(gb, num_gpus, reserve, dtype, optimizer)
    data: dict[str, Any] = {
        "gpu_memory": memory, "num_gpus": num_gpus, "reserve": reserve, "dtype": dtype, "optimizer": optimizer,
        "rows": [{"strategy": name, "max_params": int(b * 1e9), "max_params_b": b} for name, b in table],
    }
    lines = [f"{num_gpus} x {gb:g} GB: largest trainable model ({dtype.upper()} + {optimizer.title()}, "
             f"{reserve:.0%} memory reserved):", "-" * 78]
    lines += [f"{name:<8} {b:>8.2f}B parameters" for name, b in table]
    if params is not None:
        from vramgui.core.estimate import estimate
        from vramgui.core.scenario.specs import HardwareSpec, ModelSpec, ParallelSpec, PrecisionSpec, Scenario
        from vramgui.core.solve.questions import strategy_variants

        base = Scenario(model=ModelSpec(params=params),
                        precision=PrecisionSpec(dtype=DType(dtype), optimizer=Optimizer(optimizer)),
                        parallel=ParallelSpec(num_gpus=num_gpus),
                        hardware=HardwareSpec(gpu_memory=memory, reserve=reserve))
        rows = [["Strategy", "Per GPU", "Step peak", "Host per node", "Fits (by the peak)"]]
        data["strategies"] = []
        for strategy, variant in strategy_variants(base):
            est = estimate(variant)
            label = strategy.label()
            peak = est.peak.bytes if est.peak is not None else None
            rows.append([label, format_bytes(est.per_gpu_total, unit), format_bytes(peak, unit),
                         format_bytes(est.host_per_node, unit) if est.host_per_node else "-",
                         "yes" if est.fits else "no"])
            data["strategies"].append({"strategy": label, "strategy_key": strategy.key,
                                       "per_gpu_total": est.per_gpu_total, "peak": peak,
                                       "host_per_node": est.host_per_node, "fits": est.fits})
        lines += ["", f"{format_count(base.model.params)} parameters per strategy:", _table(rows, {1, 2, 3})]
    if finetune is not None:
        rows_ft, text = finetune_compare_rows(finetune, memory=memory, num_gpus=num_gpus, reserve=reserve,
                                              dtype=dtype, optimizer=optimizer)
        data["finetune_rows"] = rows_ft
        lines += ["", text]
    return data, "\n".join(lines)


# the LoRA / QLoRA rows' inputs: every fine-tuning field, and the training shape the adapters' activations take
COMPARE_FINETUNE = (*(f.path for f in fields.fields() if f.group == fields.field(paths.FINETUNE_METHOD).group),
                    paths.MICRO_BATCH, paths.SEQ_LEN, paths.RECOMPUTE)
COMPARE_FINETUNE_DEFAULTS = {paths.RECOMPUTE: "full"}  # LoRA / QLoRA recipes checkpoint by default
COMPARE_FINETUNE_MODEL = "llama-2-7b"  # the geometry the LoRA rows scale (a preset key)


def finetune_default(path: str) -> Any:
    return COMPARE_FINETUNE_DEFAULTS.get(path, fields.field(path).default)


def compare_finetune_inputs(values: dict[str, Any]) -> Any:
    """The inputs of the LoRA / QLoRA rows (``compare --finetune``) from the parsed options; None for full."""
    from types import SimpleNamespace

    from vramgui.core.scenario.specs import FinetuneSpec
    from vramgui.io import presets

    if values[paths.FINETUNE_METHOD] == "full":
        return None
    section = fields.field(paths.FINETUNE_METHOD).group
    spec = FinetuneSpec(**{fields.field(p).name: v for p, v in values.items() if fields.field(p).group == section})
    preset = presets.find_model(COMPARE_FINETUNE_MODEL)
    return SimpleNamespace(spec=spec, architecture=preset.spec.architecture, label=preset.name,
                           micro_batch=values[paths.MICRO_BATCH], seq_len=values[paths.SEQ_LEN],
                           recompute=values[paths.RECOMPUTE])


def finetune_compare_rows(finetune: Any, *, memory: int, num_gpus: int, reserve: float, dtype: str, optimizer: str
                          ) -> tuple[list[dict[str, Any]], str]:
    """LoRA / QLoRA rows of the seed's table: the largest model each strategy can fine-tune, judged by the step
    peak (activations included) with the geometry of ``finetune.architecture`` scaled to each parameter count."""
    from dataclasses import replace

    from vramgui.core.scenario.specs import HardwareSpec, ModelSpec, ParallelSpec, PrecisionSpec, Scenario, TrainingSpec
    from vramgui.core.solve.questions import max_params_result

    ft, arch, label = finetune.spec, finetune.architecture, finetune.label
    base = Scenario(model=ModelSpec(name=label, architecture=arch),
                    precision=PrecisionSpec(dtype=DType(dtype), optimizer=Optimizer(optimizer)),
                    training=TrainingSpec(micro_batch=finetune.micro_batch, seq_len=finetune.seq_len,
                                          recompute=finetune.recompute),
                    parallel=ParallelSpec(num_gpus=num_gpus), hardware=HardwareSpec(gpu_memory=memory, reserve=reserve),
                    finetune=ft)
    out: list[dict[str, Any]] = []
    table = [["Strategy", "Largest model", "Parameters"]]
    for name, stage in (("DDP", 0), ("ZeRO-1", 1), ("ZeRO-2", 2), ("ZeRO-3", 3)):
        result = max_params_result(replace(base, parallel=replace(base.parallel, zero_stage=stage)))
        row_label = f"{'QLoRA' if ft.method == 'qlora' else 'LoRA'} {name}"
        out.append({"strategy": row_label, "zero_stage": stage, "max_params": result.answer,
                    "max_params_b": result.answer / 1e9, "at_bound": result.at_bound})
        table.append([row_label, f"{result.answer / 1e9:.2f}B", f"{result.answer:,}"])
    head = (f"{ft.method} (rank {ft.lora_rank} on {ft.lora_targets}, {ft.adapter_dtype} adapters, base "
            f"{'nf4' if ft.method == 'qlora' else ft.base_dtype}): largest model by the step peak, {label}'s "
            f"geometry scaled, micro-batch {finetune.micro_batch} x {finetune.seq_len} tokens, recompute "
            f"{finetune.recompute}:")
    return out, head + "\n" + _table(table, {1, 2})


def presets_output() -> tuple[dict[str, Any], str]:
    """Model presets with the exact count (from the architecture) beside the official rounded figure."""
    try:
        from vramgui.io import presets
    except ImportError:  # the presets module is not part of this build
        return {"models": [], "gpus": []}, "No presets available."
    models = presets.model_presets()
    gpus = presets.gpu_presets()
    data = {
        "models": [{"key": k, "name": m.name, "family": m.family, "params": m.params,
                    "active_params": m.active_params if _is_moe(m) else None,
                    "official_params": m.official_params, "official_label": m.official_label,
                    "official_active": m.official_active, "official_active_label": m.official_active_label or None,
                    "source": m.source, "official_source": m.official_source} for k, m in models.items()],
        "gpus": [{"key": k, "name": g.name, "memory": g.memory, "vendor_label": g.memory_label or None,
                  "source": g.source} for k, g in gpus.items()],
    }
    rows = [["Model preset", "Name", "Parameters (exact)", "Official", "MoE: active per token (official)"]]
    rows += [[k, m.name, f"{m.params:,}", m.official_label,
              (f"{m.active_params:,}" + (f" ({m.official_active_label})" if m.official_active_label else ""))
              if _is_moe(m) else ""] for k, m in models.items()]
    grows = [["GPU preset", "Name", "Memory", "Vendor quotes"]]
    grows += [[k, g.name, f"{format_bytes(g.memory, 'GB')} ({format_bytes(g.memory, 'GiB')})", g.memory_label]
              for k, g in gpus.items()]
    note = ("Parameters (exact): what the framework builds from the architecture, counted to the parameter; "
            "Official: the model's published (rounded) figure.")
    return data, _table(rows, {2}) + "\n" + note + "\n\n" + _table(grows, set())


def _is_moe(preset: Any) -> bool:
    arch = preset.spec.architecture
    return arch is not None and arch.is_moe


def inspect_output(result: Any) -> tuple[dict[str, Any], str]:
    """``vramgui inspect``: a ``model_folder.ModelImport`` as text and JSON (mismatch is a WARNING, not an error)."""
    from dataclasses import asdict

    from vramgui.core.scenario import architecture as am

    arch = result.spec.architecture
    w = result.weights
    active = am.count_active_params(arch) if arch.is_moe else None
    largest = am.largest_layer_params(arch)
    data: dict[str, Any] = {
        "path": result.path, "name": result.spec.name, "model_type": arch.model_type,
        "architecture": asdict(arch),
        "params": {"config": result.config_params, "weights": result.weights_params, "active": active},
        "mismatch": result.mismatch, "difference": result.difference, "largest_layer": largest,
        "weights": None if w is None else {
            "total": w.total, "params": w.params, "tensors": w.tensors, "source": w.source, "exact": w.exact,
            "excluded": [{"reason": r, "params": n} for r, n in w.excluded], "dtypes": list(w.dtypes),
            "notes": [render(n) for n in w.notes]},
        "notes": [render(n) for n in result.notes],
    }
    lines = [f"{result.spec.name}  ({result.path})", "", "Architecture", *("  " + x for x in _arch_lines(arch)),
             f"  largest single layer (DeepSpeed ZeRO-3 term): {largest:,} parameters", "", "Parameters"]
    rows = [["config.json", f"{result.config_params:,}", format_count(result.config_params),
             "computed from the architecture"]]
    if active is not None:
        rows.append(["  active per token", f"{active:,}", format_count(active),
                     f"{arch.experts_per_token} of {arch.num_experts} routed experts per token"])
    if w is None:
        rows.append(["safetensors weights", "-", "", "no safetensors files beside config.json"])
    else:
        rows.append(["safetensors weights", f"{w.params:,}", format_count(w.params),
                     f"{'' if w.exact else 'about, '}{w.source}, {w.tensors:,} tensors"
                     + (f", {'/'.join(w.dtypes)}" if w.dtypes else "")])
        rows += [["  set aside", f"{n:,}", format_count(n), reason] for reason, n in w.excluded]
    lines.append(_indent(_table([["From", "Parameters", "", "How"], *rows], {1, 2})))
    if w is not None and result.mismatch:
        lines.append(f"WARNING: the weights hold {w.params:,} parameters but config.json describes "
                     f"{result.config_params:,} (weights - config = {result.difference:+,}): the folder's weights and "
                     "config do not match, or the model has layers vramgui does not know; "
                     "estimates use the config count.")
    elif w is not None:
        lines.append("Weights and config.json agree.")
    notes = list(result.notes) + ([] if w is None else list(w.notes))
    if notes:
        lines.append("Notes:\n" + "\n".join(f"  - {render(n)}" for n in notes))
    return data, "\n".join(lines)


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())


def _arch_lines(arch: Any) -> list[str]:
    style = ("GPT-style blocks (LayerNorm, two-matrix MLP)" if arch.family == "gpt"
             else f"Llama-style blocks ({'RMSNorm' if arch.norm == 'rmsnorm' else 'LayerNorm'}, gated MLP)")
    attention = (f"multi-head latent attention (q rank {arch.q_lora_rank}, kv rank {arch.kv_lora_rank})"
                 if arch.is_mla else "multi-head attention" if arch.kv_heads == arch.num_heads
                 else f"grouped-query attention ({arch.kv_heads} KV head{'s' if arch.kv_heads > 1 else ''})")
    lines = [f"model_type {arch.model_type or '?'}: {style}",
             f"{arch.num_layers} layers, hidden {arch.hidden_size:,}, {arch.num_heads} heads of {arch.head_size}, "
             f"{attention}",
             f"FFN {arch.ffn_size:,}, vocabulary {arch.vocab_size:,}, "
             f"{'tied' if arch.tied_embeddings else 'separate'} input/output embeddings"
             + (f", learned positions ({arch.max_position_embeddings:,})" if arch.learned_pos_embeddings else "")]
    if arch.is_moe:
        moe = (f"mixture of experts: {arch.num_experts} experts of FFN {arch.expert_ffn_size:,}, "
               f"{arch.experts_per_token} per token")
        if arch.shared_experts:
            moe += f", {arch.shared_experts} shared"
        if arch.dense_layers:
            moe += f", first {counted(arch.dense_layers, 'layer')} dense"
        if arch.moe_layer_step > 1:
            moe += f", MoE in every {arch.moe_layer_step} layers"
        lines.append(moe)
    return lines
