"""``vramgui solve QUESTION``: the core's reverse solves as a readable answer or JSON. Stdlib only, no Qt.

Every answer is judged by the peak of one training step (``Estimate.peak``, vramgui.core.step.peak), as ``fits`` is:
it is checked by the estimate at the answer (its peak fits) and, where there is one, at the next value (its
peak does not), and both are printed so the boundary can be seen; the per-GPU sum of the conventions
(``per_gpu_total``) is printed beside it for reference. When nothing fits the reason is printed and the exit code
is 1 (bad input stays 2).
"""

from __future__ import annotations

from typing import Any

from vramgui.core.estimate import Estimate, estimate
from vramgui.core.fields import paths
from vramgui.core.fields import registry as fields
from vramgui.core.fields.finetune import MAX_LORA_RANK
from vramgui.core.fields.registry import MAX_BATCH, MAX_GPUS, MAX_SEQ
from vramgui.core.parallel import world
from vramgui.core.scenario.choices import FinetuneMethod
from vramgui.core.scenario.specs import Scenario
from vramgui.core.solve.questions import (
    QUESTION_FIELDS,
    cheapest_strategy,
    max_lora_rank,
    max_micro_batch,
    max_seq_len,
    min_gpus,
    seq_len_step,
    solve_base,
    strategy_variants,
    with_value,
)
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg, render
from vramgui.core.text.units import counted, format_bytes, format_count

EXIT_NOTHING_FITS = 1
DEFAULT_MAX_GPUS = 65536

_HELP = {  # name -> one-line help
    "max-micro-batch": "largest micro-batch that fits (needs an architecture: --preset or --config)",
    "max-seq-len": "longest sequence that fits (needs an architecture: --preset or --config)",
    "min-gpus": "fewest GPUs that fit (a multiple of tp × cp × pp and, with experts, of etp × ep × pp), "
                "searched up to --max-gpus",
    "cheapest-strategy": "lowest ZeRO stage that fits without offload, then with CPU offload",
    "max-lora-rank": "largest LoRA rank that fits (needs --finetune lora or qlora and --preset or --config)",
}
# name -> (one-line help, what is solved for, the flag that sets it): the core's questions, their fields' flags
QUESTIONS = {name: (_HELP[name], path, str(fields.flag_of(path))) for name, path in QUESTION_FIELDS.items()}
LARGEST = {  # the questions _largest answers: (solver, vramgui's bound, what is solved for, in words)
    "max-micro-batch": (max_micro_batch, MAX_BATCH, "micro-batch"),
    "max-seq-len": (max_seq_len, MAX_SEQ, "sequence length"),
    "max-lora-rank": (max_lora_rank, MAX_LORA_RANK, "LoRA rank"),
}


def _context(s: Scenario, est: Estimate, unit: str) -> str:
    p, t, hw = s.parallel, s.training, s.hardware
    size = format_bytes(hw.gpu_memory, unit)
    gpu = f"{hw.gpu_name} ({size})" if hw.gpu_name else size
    ft = s.finetune
    tuned = "" if ft.method == FinetuneMethod.FULL else (
        f"\n{ft.method} rank {ft.lora_rank:,} on {ft.lora_targets}, base "
        f"{'nf4' if ft.method == FinetuneMethod.QLORA else ft.base_dtype}, {ft.adapter_dtype} "
        f"adapters: {format_count(est.trainable_params)} trainable parameters")
    return (f"{s.model.name}: {format_count(est.params)} parameters | {est.strategy} | {s.precision.dtype} "
            f"{s.precision.recipe}, {s.precision.optimizer} | {s.convention} convention\n"
            f"{counted(p.num_gpus, 'GPU')} of {gpu}, {hw.reserve:.0%} reserved -> usable "
            f"{format_bytes(est.usable, unit)}"
            f" | micro-batch {t.micro_batch:,}, sequence {t.seq_len:,}{tuned}")


BASIS = "Judged by the peak of one training step; the per-GPU sum is shown for reference."


def _peak(est: Estimate) -> int:
    """The step peak: what ``fits`` and every solver judge by."""
    assert est.peak is not None  # estimate() always computes it
    return est.peak.bytes


def _over(est: Estimate) -> int:
    """Bytes by which the step peak of ``est`` misses (negative: its headroom). The solvers need the GPU memory,
    so it is known."""
    assert est.usable is not None
    return _peak(est) - est.usable


def _side(value: int, est: Estimate) -> dict[str, Any]:
    """The value beside the answer (one above, one group fewer) as JSON: its peak decides, its sum for reference."""
    assert est.peak is not None
    return {"value": value, "peak": est.peak.bytes, "peak_phase": est.peak.phase, "per_gpu_total": est.per_gpu_total,
            "fits": est.fits}


def _amount(n: int, unit: str) -> str:
    """A size that stays readable when it is tiny (a boundary can be a few bytes away)."""
    return format_bytes(n, unit) if abs(n) >= 10**7 else f"{n:,} byte{'' if abs(n) == 1 else 's'}"


def _two(a: int, b: int, unit: str) -> tuple[str, str]:
    """Two totals either side of a boundary, with enough digits to tell them apart."""
    for digits in (2, 4, 6):
        fa, fb = format_bytes(a, unit, digits), format_bytes(b, unit, digits)
        if fa != fb:
            return fa, fb
    return f"{a:,} bytes", f"{b:,} bytes"


def _breakdown(est: Estimate, unit: str) -> str:
    """Where the peak is, then the per-GPU sum and its parts (for reference)."""
    assert est.peak is not None
    act = est.bytes_of("activations")
    activations = format_bytes(act, unit) if act is not None else "n/a"
    return (f"{render(est.peak.at_msg)}; per-GPU sum {format_bytes(est.per_gpu_total, unit)}: model states "
            f"{format_bytes(est.model_states, unit)}, activations {activations}, "
            f"other {format_bytes(est.bytes_of('other'), unit)}")


def _largest(question: str, s: Scenario, unit: str) -> tuple[dict[str, Any], list[str], int]:
    _, path, _ = QUESTIONS[question]
    solver, bound, what = LARGEST[question]
    n = solver(s)
    base = solve_base(s, path)
    step = seq_len_step(s.parallel) if path == paths.SEQ_LEN else 1  # the next value the scenario accepts
    bound = bound // step * step
    if n == 0:
        one = estimate(with_value(base, path, step))
        lines = [_context(with_value(base, path, step), one, unit),
                 f"Nothing fits: even {what} {step:,} needs {format_bytes(_peak(one), unit)} per GPU at the peak of a "
                 f"step ({_breakdown(one, unit)}), more than the usable {format_bytes(one.usable, unit)}.", BASIS]
        data = {"answer": None, "found": False, "bound": bound, "at_bound": False, "estimate": one.to_dict()}
        return data, lines, EXIT_NOTHING_FITS
    at = estimate(with_value(base, path, n))
    nxt = estimate(with_value(base, path, n + step)) if n < bound else None
    here, there = _two(_peak(at), _peak(nxt) if nxt else _peak(at), unit)
    lines = [_context(with_value(base, path, n), at, unit), f"Largest {what} that fits: {n:,}",
             f"  {what} {n:,}: step peak {here} per GPU ({_breakdown(at, unit)}), "
             f"headroom {_amount(-_over(at), unit)}"]
    if nxt is not None:
        lines.append(f"  {what} {n + step:,}: step peak {there} per GPU, does not fit "
                     f"(over by {_amount(_over(nxt), unit)})")
    else:
        lines.append(f"  every {what} up to vramgui's limit of {bound:,} fits; the search stops there")
    lines.append(BASIS)
    data = {"answer": n, "found": True, "bound": bound, "at_bound": n == bound, "estimate": at.to_dict(),
            "next": None if nxt is None else _side(n + step, nxt)}
    return data, lines, 0


def _min_gpus(s: Scenario, unit: str, max_gpus: int) -> tuple[dict[str, Any], list[str], int]:
    group, terms = world.group_size(s), world.group_terms(s)  # the counts the layout accepts: multiples of group
    if not group <= max_gpus <= MAX_GPUS:
        allowed = (Msg.of("allowed.group_to", group=group, high=f"{MAX_GPUS:,}")
                   if group == world.model_grid(s.parallel) else
                   Msg.of("allowed.range", low=f"{group:,}", high=f"{MAX_GPUS:,}"))
        raise InputError("--max-gpus", Msg.of("error.out_of_range", value=f"{max_gpus:,}"), allowed)
    bound = world.accepted_counts(s, max_gpus)[-1]
    n = min_gpus(s, limit=max_gpus)
    base = solve_base(s, paths.NUM_GPUS)
    step = f" (multiples of {terms} = {group})" if group > 1 else ""
    if n is None:
        top = estimate(with_value(base, paths.NUM_GPUS, bound))
        lines = [_context(top.scenario, top, unit),
                 f"Nothing fits with up to {bound:,} GPUs{step}, the bound set by --max-gpus: at {bound:,} GPUs "
                 f"each still needs {format_bytes(_peak(top), unit)} at the peak of a step ({_breakdown(top, unit)}), "
                 f"more than the usable {format_bytes(top.usable, unit)}."]
        fewest = estimate(with_value(base, paths.NUM_GPUS, group))
        if _peak(fewest) <= _peak(top):
            lines.append(f"Per-GPU memory does not shrink with more GPUs under {top.strategy}: shard the model "
                         "states (--stage 1-3), split the model (--tp, --pp), "
                         "or try `vramgui solve cheapest-strategy`.")
        lines.append(BASIS)
        data = {"answer": None, "found": False, "bound": bound, "step": group, "estimate": top.to_dict()}
        return data, lines, EXIT_NOTHING_FITS
    at = estimate(with_value(base, paths.NUM_GPUS, n))
    prev = estimate(with_value(base, paths.NUM_GPUS, n - group)) if n > group else None
    here, there = _two(_peak(at), _peak(prev) if prev else _peak(at), unit)
    lines = [_context(at.scenario, at, unit), f"Fewest GPUs that fit: {n:,}{step}",
             f"  {counted(n, 'GPU')}: step peak {here} per GPU ({_breakdown(at, unit)}), "
             f"headroom {_amount(-_over(at), unit)}"]
    if prev is not None:
        lines.append(f"  {counted(n - group, 'GPU')}: step peak {there} per GPU, does not fit "
                     f"(over by {_amount(_over(prev), unit)})")
    if at.host_per_node is not None:
        lines.append(f"  host (CPU) memory per node: {format_bytes(at.host_per_node, unit)}")
    lines.append(BASIS)
    data = {"answer": n, "found": True, "bound": bound, "step": group, "estimate": at.to_dict(),
            "previous": None if prev is None else _side(n - group, prev)}
    return data, lines, 0


def _cheapest(s: Scenario, unit: str) -> tuple[dict[str, Any], list[str], int]:
    from vramgui.cli.tables import _table

    found = cheapest_strategy(s)
    rows = [["Strategy", "Step peak", "Per-GPU sum", "Host per node", "Fits"]]
    strategies = []
    for strategy, variant in strategy_variants(s):
        est = estimate(variant)
        rows.append([strategy.label(), format_bytes(_peak(est), unit), format_bytes(est.per_gpu_total, unit),
                     format_bytes(est.host_per_node, unit) if est.host_per_node else "-", "yes" if est.fits else "no"])
        strategies.append({"strategy": strategy.label(), "strategy_key": strategy.key,
                           "zero_stage": variant.parallel.zero_stage,
                           "offload_optimizer": variant.offload.optimizer, "offload_params": variant.offload.params,
                           "peak": _peak(est), "per_gpu_total": est.per_gpu_total, "host_per_node": est.host_per_node,
                           "fits": est.fits})
    first = estimate(strategy_variants(s)[0][1]) if found is None else found[2]
    lines = [_context(first.scenario, first, unit)]
    if found is None:
        lines.append(f"Nothing fits: no strategy brings the step peak under the usable "
                     f"{format_bytes(first.usable, unit)}; add GPUs (`vramgui solve min-gpus --stage 3`), "
                     "split the model (--tp, --pp) or shorten the micro-batch or sequence.")
    else:
        strategy, _, est = found
        lines.append(f"Cheapest strategy that fits: {strategy} ({est.fsdp}), step peak "
                     f"{format_bytes(_peak(est), unit)} per GPU ({render(est.peak.at_msg) if est.peak else ''}), "
                     f"headroom {_amount(-_over(est), unit)}")
    lines += [BASIS, "", _table(rows, {1, 2, 3})]
    data = {"answer": None if found is None else found[0].label(), "found": found is not None,
            "estimate": first.to_dict(), "strategies": strategies}
    return data, lines, 0 if found else EXIT_NOTHING_FITS


def max_params_output(s: Scenario, unit: str = "GB") -> tuple[dict[str, Any], str]:
    """``vramgui max-params``: the largest count, with the estimate at it (its peak decides, its sum for reference)."""
    from dataclasses import replace

    from vramgui.core.solve.questions import max_params_result

    result = max_params_result(s)
    n = result.answer
    base = solve_base(s, paths.PARAMS)
    at = None
    if n:
        largest = None if base.model.largest_layer is None else min(base.model.largest_layer, n)
        at = estimate(replace(base, model=replace(base.model, params=n, largest_layer=largest)))
    data = {"max_params": n, "convention": s.convention, "zero_stage": s.parallel.zero_stage,
            "num_gpus": s.parallel.num_gpus, "gpu_memory": s.hardware.gpu_memory, "reserve": s.hardware.reserve,
            "found": result.found, "bound": result.bound, "at_bound": result.at_bound,
            "peak": None if at is None or at.peak is None else at.peak.to_dict(),
            "per_gpu_total": None if at is None else at.per_gpu_total}
    lines = [f"Largest trainable model: {format_count(n)} parameters ({n:,})",
             f"  {counted(s.parallel.num_gpus, 'GPU')} of {format_bytes(s.hardware.gpu_memory, unit)}, "
             f"{s.hardware.reserve:.0%} reserved, ZeRO stage {s.parallel.zero_stage}, {s.convention} convention"]
    if at is not None:
        lines.append(f"  at {format_count(n)}: step peak {format_bytes(_peak(at), unit)} per GPU "
                     f"({_breakdown(at, unit)}), headroom {_amount(-_over(at), unit)}")
    lines.append(BASIS)
    return data, "\n".join(lines)


def solve_output(question: str, s: Scenario, unit: str = "GB", max_gpus: int = DEFAULT_MAX_GPUS,
                 notes: tuple[Msg, ...] = ()) -> tuple[dict[str, Any], str, int]:
    """(JSON data, text, exit code) for one question about one scenario; ``notes`` are rendered in English."""
    if question == "cheapest-strategy":
        data, lines, code = _cheapest(s, unit)
    elif question == "min-gpus":
        data, lines, code = _min_gpus(s, unit, max_gpus)
    else:
        data, lines, code = _largest(question, s, unit)
    if s.training.global_batch is not None:
        notes += (Msg.of("note.global_batch_dropped"),)
    texts = [render(n) for n in notes]
    if texts:
        lines.append("Notes:\n" + "\n".join(f"  - {n}" for n in texts))
    return {"question": question, **data, "notes": texts}, "\n".join(lines), code
