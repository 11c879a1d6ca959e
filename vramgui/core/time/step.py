"""Step time per GPU as named terms: ``step_time(inputs) -> StepTime`` (the estimate's ``time``).

The step is m micro-batches of pipelined work plus what happens once per optimizer step (Narayanan et al. 2021 §2,
§3.3): gradient accumulation multiplies the micro-batch work, never the optimizer step. On the slowest GPU:

* compute: m × (forward + backward) of one micro-batch (``vramgui.core.time.work``);
* recompute: m × the forward work recomputation repeats (full: every block; selective: QKᵀ, softmax, PV;
  Korthikanti et al. 2022 §5);
* tp_comm: per block and micro-batch two all-reduces forward and two backward of b·s·h activations (Shoeybi et
  al. 2019 §3, Fig. 4), or with sequence parallelism the same volume as all-gathers and reduce-scatters
  (Korthikanti §4.2.2); full recomputation repeats the forward's; not overlapped (Megatron-LM's default);
* cp_comm: the ring passes K and V around the cp ranks (Megatron-Core context parallelism, Liu et al. 2023 ring
  attention), forward and (twice, with dK/dV) backward, hidden behind the attention products where they are longer;
* ep_comm: four all-to-alls per MoE block and micro-batch (dispatch, combine; forward and backward) of the routed
  token copies (Lepikhin et al. 2020 GShard §2; Megatron-Core ``MoEAlltoAllTokenDispatcher``);
* dp_comm: the gradient reduction over the data-parallel group once per step (DDP: all-reduce, 2(n − 1)/n; ZeRO-1/2
  and Megatron's distributed optimizer: reduce-scatter + all-gather of the parameters, the same volume; ZeRO-3/FSDP:
  all-gather forward and backward + reduce-scatter for every micro-batch, 1.5× a step's all-reduce; Rajbhandari
  et al. 2020 §7), minus the overlap the framework does by default: PyTorch DDP overlaps with the backward
  (buckets), DeepSpeed ZeRO-1/2 and Megatron-LM do not (``overlap_comm`` false; ``--overlap-grad-reduce`` off);
  ZeRO-3 hides only the share of its gathers it prefetches (``vramgui.core.time.overlap``: FSDP all of them,
  DeepSpeed within ``stage3_max_live_parameters`` and ``stage3_prefetch_bucket_size``), the rest is waited for;
* pp_bubble: (p − 1)/(m·v) of the pipelined work (Narayanan eq. 1 and §2.2.2), pp_comm: the blocking sends of
  activations and their gradients at the stage boundaries, 2·m·v per rank (1/tp of them with the scatter/gather
  optimisation, Narayanan §4.1);
* optimizer: the optimizer step reads the parameters, gradients and states and writes parameters and states,
  2(P + O) + G bytes per GPU (the estimate's own), at the memory bandwidth;
* offload: gradients down and parameters up over PCIe once per step, the CPU optimizer over the node's host memory
  (ZeRO-Offload, Ren et al. 2021 §4), and offloaded ZeRO-3 parameters brought up for every micro-batch's forward and
  backward (ZeRO-Infinity, Rajbhandari et al. 2021).
"""

from __future__ import annotations

from dataclasses import dataclass

from vramgui.core.parallel.layout import ranks_per_node
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.choices import Convention, FinetuneMethod, Implementation, Offload, Recompute
from vramgui.core.scenario.convention import convention_of
from vramgui.core.scenario.specs import DTYPE_BYTES, Scenario
from vramgui.core.terms import NS, amount
from vramgui.core.text.message import Msg
from vramgui.core.text.units import format_rate, format_seconds
from vramgui.core.time import comm, overlap
from vramgui.core.time.components import TIME_KEYS
from vramgui.core.time.flops import model_flops
from vramgui.core.time.rates import CALCULON, HOST_MEMORY_BANDWIDTH, MEMORY_CURVE, Rates, efficiency, rates_of
from vramgui.core.time.result import StepTime, TimeComponent
from vramgui.core.time.words import Later, Raw, Words, component, raw_seconds
from vramgui.core.time.words import later_term as _s
from vramgui.core.time.work import ACT_BYTES, Work, micro_batch_work, params_only_work

SRC_FLOPS = "Narayanan et al. 2021 eq. 3; Megatron-LM training.py num_floating_point_operations; " + CALCULON
SRC_TP = "Shoeybi et al. 2019 §3; Korthikanti et al. 2022 §4.2.2; ring volumes (n−1)/n; " + CALCULON
SRC_DP = "Rajbhandari et al. 2020 (ZeRO) §7; PyTorch DDP/FSDP overlap; DeepSpeed overlap_comm; " + CALCULON
SRC_DP_PREFETCH = SRC_DP + "; " + overlap.SRC_PREFETCH
SRC_PP = "Narayanan et al. 2021 eq. 1, §2.2.2, §4.1"
SRC_OPT = "2(P + O) + G bytes of the estimate at the memory bandwidth; " + CALCULON
SRC_OFFLOAD = "Ren et al. 2021 (ZeRO-Offload) §4; Rajbhandari et al. 2021 (ZeRO-Infinity); JEDEC DDR4-3200 × 8"
SRC_CP = "Megatron-Core context parallelism (ring attention, Liu et al. 2023), overlapped with attention"
SRC_EP = "Lepikhin et al. 2020 §2; Megatron-Core MoEAlltoAllTokenDispatcher"
SRC_ACHIEVED = "--achieved-tflops: hardware FLOPs / (GPUs × achieved rate), Narayanan et al. 2021 §5.1"


@dataclass(frozen=True)
class TimeInputs:
    """What the estimate knows that the time needs (all per GPU of the most loaded stage unless said)."""

    scenario: Scenario  # validated
    arch: Architecture | None  # None: a parameter count alone (6Φ FLOPs per token, Kaplan et al. 2020 §2.1)
    params: int
    data_parallel: int  # N_d: the group gradients reduce over
    batch_parallel: int  # dp: the ranks that take different samples
    micro_batches: int  # m, per optimizer step
    tokens_per_step: int
    stage_params: int  # parameters one GPU holds before data-parallel sharding
    parameter_bytes: int  # P, G, O: the estimate's per-GPU model states
    gradient_bytes: int
    optimizer_bytes: int
    trainable_params: int | None  # LoRA: the adapters (whole model); None: everything trains


_NOTES = {code: Msg.of(code) for code in ("time.note_params_only", "time.note_achieved", "time.note_hf_kernels")}


def _size(nbytes: float, unit: str = "GB") -> str:
    """A message's or a pass's bytes: GB, or MB with a decimal below a GB (67.1 MB, not 0.07 GB)."""
    return amount(round(nbytes), unit, fine=True)


def _tflops(rate: float) -> str:
    return f"{rate / 1e12:,.1f}"


def _link_name(link: comm.Link) -> Msg:
    return Msg.of("time.link_intra" if link.inside_node else "time.link_inter")


def _collective(kind: str, count: float, nbytes: float, ranks: int, link: comm.Link, symbol: str
                ) -> Later | None:
    each = comm.collective_seconds(kind, nbytes, ranks, link)
    if each <= 0 or count <= 0:
        return None
    return _s(count * each, symbol, "time.d_collective", lambda: dict(
        count=f"{count:,.0f}", kind=kind.replace("_", "-"), size=_size(nbytes, "GB"), ranks=ranks,
        link=_link_name(link), rate=format_rate(link.rate)))


def step_time(inp: TimeInputs) -> StepTime:
    raw, model_total, hardware_total, rates, notes = _components(inp)
    words = Words(inp, _raw)
    components = tuple(component(k, raw.get(k, ([], SRC_FLOPS)), words) for k in TIME_KEYS)
    step = sum(c.seconds for c in components)
    return _result(inp.scenario, components, step, inp.tokens_per_step, model_total, hardware_total, rates, notes)


def _raw(inp: TimeInputs) -> dict[str, Raw]:
    """Each component's terms, run again for the words (``vramgui.core.time.words``)."""
    return _components(inp)[0]


def _components(inp: TimeInputs) -> tuple[dict[str, Raw], int, int, Rates, list[Msg]]:
    """Each component's terms (words not yet written), the model and hardware FLOPs, the rates, the notes."""
    s, arch = inp.scenario, inp.arch
    p, tr = s.parallel, s.training
    rates = rates_of(s)
    notes: list[Msg] = []
    seq, tokens = tr.seq_len, inp.tokens_per_step
    frozen = s.finetune.method != FinetuneMethod.FULL
    adapter = 2 * (inp.trainable_params or 0) if frozen else 0
    if arch is None:
        work = params_only_work(s, inp.params, rates)
        notes.append(_NOTES["time.note_params_only"])
        model_total = 6 * inp.params * tokens
        hardware_total = model_total + (2 * inp.params * tokens if tr.recompute == Recompute.FULL else 0)
    else:
        flops = model_flops(arch)
        dequant = 0.0
        if s.finetune.method == FinetuneMethod.QLORA:  # bitsandbytes dequantises every NF4 weight per product
            dequant = 2.5 * inp.stage_params  # read 0.5 byte, write 2 bytes per weight
        rules = convention_of(s)
        grad_bytes = 6.0 if rules.main_grad_buffers else (4.0 if inp.micro_batches > 1 else 0.0)
        work = micro_batch_work(arch, s, flops, rates, frozen, adapter, dequant, grad_bytes)
        fwd_tok = flops.forward_per_token(seq)
        model_total = 3 * fwd_tok * tokens
        if frozen:  # the frozen base forms no weight gradient: 2× its products, 3× the attention and the adapters
            scores = flops.scores_per_token(seq)
            model_total = (2 * (fwd_tok - scores) + 3 * scores + 3 * adapter) * tokens
        extra = {Recompute.FULL: flops.layers_per_token(seq), Recompute.SELECTIVE: flops.scores_per_token(seq)}
        hardware_total = model_total + extra.get(tr.recompute, 0) * tokens
    gpus = p.num_gpus
    if s.hardware.achieved_tflops is not None:
        rate = s.hardware.achieved_tflops * 1e12
        seconds = hardware_total / (gpus * rate)
        term = _s(seconds, "F_hw/(N·X)", "time.d_achieved", lambda: dict(
            flops=f"{hardware_total:.3e}", gpus=f"{gpus:,}", rate=_tflops(rate)))
        comps: dict[str, Raw] = {k: ([], SRC_ACHIEVED) for k in TIME_KEYS}
        comps["compute"] = ([term], SRC_ACHIEVED)
        notes.append(_NOTES["time.note_achieved"])
    else:
        comps = _predicted(inp, rates, work)
        if tr.implementation == Implementation.HF:  # the efficiency curves are fitted on Megatron's fused kernels
            notes.append(_NOTES["time.note_hf_kernels"])
    return comps, int(model_total), int(hardware_total), rates, notes


def _predicted(inp: TimeInputs, rates: Rates, work: Work) -> dict[str, Raw]:
    s, arch = inp.scenario, inp.arch
    p, tr = s.parallel, s.training
    m, v, t = inp.micro_batches, p.vpp, p.tp
    gpn = p.gpus_per_node
    out: dict[str, Raw] = {}
    mb = f"{m:,}"
    out["compute"] = ([
        _s(m * (work.forward), "m·t_fwd", "time.d_forward", lambda: dict(
            mb=m, flops=f"{work.gemm_flops:.3e}", rate=_tflops(work.gemm_rate), size=_size(work.memory_bytes, "GB"))),
        _s(m * work.backward, "m·t_bwd", "time.d_backward", lambda: dict(mb=mb, each=format_seconds(work.backward))),
    ], SRC_FLOPS)
    rec = []
    if work.recompute > 0:
        rec.append(_s(m * work.recompute, "m·t_re", "time.d_recompute_" + tr.recompute, lambda: dict(
            mb=mb, flops=f"{work.recompute_flops:.3e}")))
    out["recompute"] = (rec, SRC_FLOPS)
    if arch is None:  # no activation shape: no TP, CP, EP or pipeline messages to size
        return _once_per_step(inp, rates, work, out)
    # tensor parallelism: per block 2 collectives forward, 2 backward (and 2 again under full recompute)
    tokens = tr.micro_batch * tr.seq_len / p.cp
    act = tokens * arch.hidden_size * ACT_BYTES
    tp_link = comm.link_for(rates, 1, t, gpn)
    per_block = 4 + (2 if tr.recompute == Recompute.FULL else 0)
    count = m * work.layers * per_block
    tp_terms = []
    if p.sp:  # the backward all-gathers each column-parallel input again for its weight gradient (Megatron-LM
        # tensor_parallel/layers.py LinearWithGradAccumulationAndAsyncCommunication.backward; Calculon seq_par_ag_redo)
        for kind, k in (("all_gather", per_block + 2), ("reduce_scatter", per_block)):
            term = _collective(kind, m * work.layers * k, act, t, tp_link,
                               f"{k}·m·L_s·t_" + ("ag" if kind[4] == "g" else "rs"))
            tp_terms += [term] if term else []
    else:
        term = _collective("all_reduce", count, act, t, tp_link, f"{per_block}·m·L_s·t_ar")
        tp_terms += [term] if term else []
    out["tp_comm"] = (tp_terms, SRC_TP)
    # context parallelism: K, V passed cp − 1 times per block forward, K, V and their gradients backward
    cp_terms = []
    if p.cp > 1:
        kv = tokens * work_kv(arch) / t * ACT_BYTES
        cp_link = comm.link_for(rates, t, p.cp, gpn)
        ring = (p.cp - 1) * (comm.transfer_seconds(kv, cp_link) * 3)  # forward 1×, backward 2×
        hidden = min(ring, 3 * work.scores_forward / max(work.layers, 1))
        per = ring - hidden
        if per > 0:
            cp_terms.append(_s(m * work.layers * per, "m·L_s·max(0, t_ring − t_attn)", "time.d_ring", lambda: dict(
                mb=mb, layers=work.layers, size=_size(kv, "GB"), ranks=p.cp, link=_link_name(cp_link),
                hidden=format_seconds(hidden))))
    out["cp_comm"] = (cp_terms, SRC_CP)
    # expert parallelism: 4 all-to-alls per MoE block of tokens·k copies
    ep_terms = []
    fl = model_flops(arch)
    if fl.moe is not None and p.ep > 1:
        moe_blocks = fl.moe_layers * work.layers / max(arch.num_layers, 1)
        sent = tokens / t * arch.experts_per_token * arch.hidden_size * ACT_BYTES
        ep_link = comm.link_for(rates, t, p.ep, gpn)
        term = _collective("all_to_all", m * moe_blocks * 4, sent, p.ep, ep_link, "4·m·L_moe·t_a2a")
        ep_terms += [term] if term else []
    out["ep_comm"] = (ep_terms, SRC_EP)
    p2p = []
    if p.pp > 1:
        pp_link = comm.link_for(rates, t * p.cp * inp.batch_parallel, 2, gpn)
        msg = act / t  # Megatron sends 1/tp of the activation and all-gathers it (or SP holds 1/tp already)
        each = comm.transfer_seconds(msg, pp_link)
        p2p.append(_s(2 * m * v * each, "2·m·v·t_p2p", "time.d_p2p", lambda: dict(
            count=f"{2 * m * v:,}", size=_size(msg, "GB"), link=_link_name(pp_link), rate=format_rate(pp_link.rate))))
    out["pp_comm"] = (p2p, SRC_PP)
    return _once_per_step(inp, rates, work, out)


def _once_per_step(inp: TimeInputs, rates: Rates, work: Work, out: dict[str, Raw]) -> dict[str, Raw]:
    """The bubble, the data-parallel reduction, the optimizer and the offload (what the micro-batches share)."""
    p, m, v = inp.scenario.parallel, inp.micro_batches, inp.scenario.parallel.vpp
    mb = f"{m:,}"
    per_mb = work.forward + work.backward + work.recompute + sum(
        raw_seconds(out[k]) for k in ("tp_comm", "cp_comm", "ep_comm") if k in out) / m
    bubble = []
    if p.pp > 1:
        bubble.append(_s((p.pp - 1) / v * per_mb, "(p−1)/(m·v)·m·t_mb", "time.d_bubble", lambda: dict(
            stages=p.pp - 1, v=v, mb=mb, each=format_seconds(per_mb))))
    out["pp_bubble"] = (bubble, SRC_PP)
    out["dp_comm"] = _data_parallel(inp, rates, work)
    out["optimizer"], out["offload"] = _optimizer(inp, rates)
    return out


def work_kv(arch: Architecture) -> int:
    """K and V values per token a context-parallel ring passes on."""
    return model_flops(arch).dense.kv_width


def _data_parallel(inp: TimeInputs, rates: Rates, work: Work) -> Raw:
    s = inp.scenario
    p, n = s.parallel, inp.data_parallel
    if n <= 1 or (inp.trainable_params is not None and inp.trainable_params == 0):
        return ([], SRC_DP)
    wb = DTYPE_BYTES[s.precision.dtype]
    reduced = inp.trainable_params / max(p.tp * p.pp, 1) if inp.trainable_params is not None else inp.stage_params
    link = comm.link_for(rates, p.tp * p.cp if p.cp > 1 else p.tp, n, p.gpus_per_node)
    rules = convention_of(s)
    stage = p.zero_stage if rules.uses_zero_stage else (1 if p.distributed_optimizer else 0)
    m = inp.micro_batches
    terms: list[Later] = []
    grads = reduced * wb
    share = 1.0
    if stage == 3:
        for kind, count, what in (("all_gather", 2 * m, "t_ag"), ("reduce_scatter", m, "t_rs")):
            term = _collective(kind, count, inp.stage_params * wb if kind == "all_gather" else grads, n, link,
                               f"{'2' if count == 2 * m else ''}m·{what}")
            terms += [term] if term else []
        overlap_with = m * (work.forward + work.backward + work.recompute)
        share = overlap.prefetched_share(s, inp.arch)  # gathers issued ahead of their compute; the rest is waited for
    elif stage in (1, 2):
        for kind, nbytes in (("reduce_scatter", grads), ("all_gather", reduced * wb)):
            term = _collective(kind, 1, nbytes, n, link, "t_" + ("rs" if kind[0] == "r" else "ag"))
            terms += [term] if term else []
        # FSDP SHARD_GRAD_OP (stage 2) reduce-scatters in the backward; DeepSpeed ZeRO-1/2 (overlap_comm false) and
        # Megatron's distributed optimizer (--overlap-grad-reduce off) wait for it
        overlap_with = work.backward if stage == 2 and s.convention == Convention.PAPER else 0.0
    else:
        term = _collective("all_reduce", 1, grads, n, link, "t_ar")
        terms += [term] if term else []
        overlap_with = 0.0 if s.convention == Convention.MEGATRON else work.backward
    total = sum(t.ns for t in terms) / NS
    if stage == 3 and terms:  # only what was prefetched hides; the first block's gathers never do
        hidden = min(total * share, overlap_with) * (1 - 1 / max(work.layers, 1))
        terms.append(Later(-round(hidden * NS), "min(s·t_dp, m·t_mb)·(1 − 1/L)", "time.d_prefetch",
                            lambda: dict(share=f"{share:.0%}"), sign=-1))
        return (terms, SRC_DP_PREFETCH)
    hidden = min(total, overlap_with) * (1 - 1 / max(work.layers, 1)) if overlap_with else 0.0
    if hidden > 0:
        terms.append(Later(-round(hidden * NS), "", "time.d_overlap", dict, sign=-1))
    return (terms, SRC_DP)


def _optimizer(inp: TimeInputs, rates: Rates) -> tuple[Raw, Raw]:
    s = inp.scenario
    moved = 2 * (inp.parameter_bytes + inp.optimizer_bytes) + inp.gradient_bytes
    opt = []
    if moved > 0 and s.offload.optimizer == Offload.NONE:
        eta = efficiency(moved, MEMORY_CURVE)
        opt.append(_s(moved / (rates.memory * eta), "(2(P + O) + G)/(B_mem·η)", "time.d_optimizer", lambda: dict(
            size=_size(moved, "GB"), rate=format_rate(rates.memory * eta))))
    off: list[Later] = []
    if s.offload.optimizer != Offload.NONE or s.offload.params != Offload.NONE:
        pcie = rates.pcie or rates.intra
        shard = inp.stage_params / max(inp.data_parallel, 1)
        host_link = comm.Link(pcie, 0.9, 2e-6, True)
        if s.offload.optimizer != Offload.NONE:
            down_up = 4 * shard  # 16-bit gradients down, 16-bit parameters up
            off.append(_s(comm.transfer_seconds(down_up, host_link), "4Φ_shard/B_pcie", "time.d_pcie", lambda: dict(
                size=_size(down_up, "GB"), rate=format_rate(host_link.rate))))
            host = 30 * shard * ranks_per_node(s.parallel)  # fp32 p, g, m, v read; p, m, v written; 16-bit p out
            off.append(_s(host / (HOST_MEMORY_BANDWIDTH * 0.9), "30Φ_shard·G_node/B_host", "time.d_cpu_adam",
                          lambda: dict(size=_size(host, "GB"), rate=format_rate(HOST_MEMORY_BANDWIDTH * 0.9))))
        if s.offload.params != Offload.NONE:
            gathered = 2 * 2 * shard * inp.micro_batches  # forward and backward, every micro-batch
            off.append(_s(comm.transfer_seconds(gathered, host_link), "4m·Φ_shard/B_pcie", "time.d_pcie",
                          lambda: dict(size=_size(gathered, "GB"), rate=format_rate(host_link.rate))))
    return (opt, SRC_OPT), (off, SRC_OFFLOAD)


def _result(s: Scenario, components: tuple[TimeComponent, ...], step: float, tokens: int, model_total: int,
            hardware_total: int, rates: Rates, notes: list[Msg]) -> StepTime:
    gpus = s.parallel.num_gpus
    tps = tokens / step if step > 0 else 0.0
    per_gpu = model_total / step / gpus if step > 0 else 0.0
    peak = rates.matrix
    train = gpu_hours = cost = None
    if s.training.train_tokens is not None and tps > 0:
        train = s.training.train_tokens / tps
        gpu_hours = train * gpus / 3600
        if s.hardware.gpu_hour_price is not None:
            cost = gpu_hours * s.hardware.gpu_hour_price
    return StepTime(
        step_seconds=step, tokens_per_second=tps, tokens_per_second_per_gpu=tps / gpus,
        model_flops_per_step=model_total, hardware_flops_per_step=hardware_total,
        model_tflops_per_gpu=per_gpu / 1e12, mfu=per_gpu / peak if peak else 0.0,
        hfu=hardware_total / step / gpus / peak if step > 0 and peak else 0.0, components=components,
        train_seconds=train, gpu_hours=gpu_hours, cost=cost, peak_tflops=peak / 1e12, peak_name=rates.matrix_name,
        notes=tuple(notes))

