"""What a GPU and its links achieve: peak rates from the scenario's hardware figures, and the fraction of a peak
an operation of a given size reaches.

Efficiency curves are Calculon's (Isaev et al., SC'23, "Calculon: a methodology and tool for high-level co-design
of systems and large language models"; ``systems/a100_80g.json`` of github.com/calculon-ai/calculon, which
reproduces Korthikanti et al. 2022 Table 5 within 3.65 % on average): a matrix product of at least 128 GFLOP runs at
95 % of the tensor-core peak, 16 GFLOP at 90 %, 1 GFLOP at 60 %, a tiny one at 10 %; a memory-bound pass over at
least 100 MB at 90 % of the memory bandwidth, 10 MB at 75 %, 1 MB at 60 %. Calculon takes the step between two
points; this module interpolates in log(size) between them, so the time never jumps when a size crosses one. The
curve is the same for every GPU: what differs is the peak it multiplies.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from vramgui.core.scenario.choices import DType, Fp8Recipe, Recipe
from vramgui.core.scenario.specs import HardwareSpec, Scenario

CALCULON = "Calculon (Isaev et al. SC'23), systems/a100_80e.json efficiency tables"
# (operation size, efficiency), ascending: GEMM FLOPs; memory-bound bytes
MATRIX_CURVE = ((0.0, 0.10), (1e9, 0.60), (16e9, 0.90), (128e9, 0.99))
MEMORY_CURVE = ((0.0, 0.30), (1e6, 0.70), (10e6, 0.90), (100e6, 0.95))

# Links (Calculon's network entries in systems/a100_80e.json): NVLink reaches 65 % of its figure and InfiniBand 90 %,
# after a latency of 10 µs and 20 µs per message (here: per ring step, comm.collective_seconds).
NVLINK_EFFICIENCY, NETWORK_EFFICIENCY = 0.65, 0.90
NVLINK_LATENCY, NETWORK_LATENCY = 10e-6, 20e-6
# The network between nodes when the user gives none: one 200 Gb/s HDR InfiniBand port per GPU, as in the DGX A100
# (NVIDIA DGX A100 User Guide, "Network ports": eight ConnectX-6 200 Gb/s compute ports, one per GPU) on which
# Narayanan et al. 2021 and Korthikanti et al. 2022 measured (Selene).
DEFAULT_NETWORK = 25 * 10**9
DEFAULT_NETWORK_SOURCE = "NVIDIA DGX A100 User Guide: 8 x 200 Gb/s HDR InfiniBand per node, one per GPU (25 GB/s)"
# Host memory for the CPU optimizer step when offloading: one socket of eight DDR4-3200 channels, 204.8 GB/s
# (8 × 25.6 GB/s, JEDEC DDR4-3200), shared by the node's GPUs; DeepSpeed's CPU-Adam streams p, g, m, v in fp32
# (ZeRO-Offload, Ren et al. 2021, §4.1 and Table 2).
HOST_MEMORY_BANDWIDTH = 204_800_000_000


def efficiency(size: float, curve: tuple[tuple[float, float], ...] = MATRIX_CURVE) -> float:
    """The fraction of the peak an operation of ``size`` (FLOPs, or bytes for MEMORY_CURVE) reaches."""
    if size <= curve[0][0]:
        return curve[0][1]
    segments = _SEGMENTS.get(curve)
    if segments is None:
        if len(_SEGMENTS) >= 64:
            _SEGMENTS.clear()
        segments = _SEGMENTS[curve] = _segments(curve)
    for x0, y0, x1, rise, span in segments:
        if size < x1:
            if x0 <= 0:
                return y0 + rise * size / x1
            return y0 + rise * math.log(size / x0) / span
    return curve[-1][1]


def _segments(curve: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float, float, float, float], ...]:
    """Each step of ``curve`` as (x0, y0, x1, y1 − y0, log(x1/x0)): the logarithm of a fixed curve taken once."""
    return tuple((x0, y0, x1, y1 - y0, math.log(x1 / x0) if x0 > 0 else 0.0)
                 for (x0, y0), (x1, y1) in itertools.pairwise(curve))


_SEGMENTS: dict[tuple[tuple[float, float], ...], tuple[tuple[float, float, float, float, float], ...]] = {}


@dataclass(frozen=True)
class Rates:
    """The figures a step time is computed from (FLOP/s, bytes/s), each with where it comes from."""

    matrix: float  # dense tensor-core peak for the GEMMs' dtype
    matrix_name: str  # "bf16/fp16", "fp8", "tf32", "fp32"
    scores: float  # the attention products' peak (never FP8: TransformerEngine keeps them in 16 bits)
    memory: float
    intra: float  # per GPU, one direction, inside a node
    inter: float  # per GPU, one direction, between nodes
    pcie: float | None
    intra_source: str
    inter_source: str


def compute_figures_known(hw: HardwareSpec) -> bool:
    """A step time needs the GEMM peak and the memory bandwidth (a bare ``--gpu-memory`` has neither)."""
    return hw.tflops_16bit is not None and hw.memory_bandwidth is not None


_KEPT: dict[tuple[object, ...], tuple[HardwareSpec, Rates]] = {}  # (id(hardware), precision) -> its rates


def rates_of(s: Scenario) -> Rates:
    """The peaks this scenario runs at: 16-bit training (and autocast) on the bf16/fp16 tensor cores, FP8 Linears
    (TransformerEngine) on the FP8 ones where the GPU has them, fp32 on plain fp32 (PyTorch's default:
    ``torch.backends.cuda.matmul.allow_tf32`` is False), or TF32 where only that is known. Kept per hardware
    section (by identity: a search hands the same one on) and the precision fields read here."""
    pr = s.precision
    key = (id(s.hardware), pr.dtype, pr.recipe, pr.fp8)
    hit = _KEPT.get(key)
    if hit is not None and hit[0] is s.hardware:
        return hit[1]
    rates = _rates(s)
    if len(_KEPT) >= 256:
        _KEPT.clear()
    _KEPT[key] = (s.hardware, rates)
    return rates


def clear_cache() -> None:
    """Forget the rates kept per hardware section."""
    _KEPT.clear()


def _rates(s: Scenario) -> Rates:
    hw = s.hardware
    assert hw.tflops_16bit is not None and hw.memory_bandwidth is not None  # compute_figures_known
    half = hw.tflops_16bit * 1e12
    if s.precision.dtype == DType.FP32 and s.precision.recipe != Recipe.AMP:
        if hw.tflops_fp32 is not None:
            matrix, name = hw.tflops_fp32 * 1e12, "fp32"
        elif hw.tflops_tf32 is not None:
            matrix, name = hw.tflops_tf32 * 1e12, "tf32"
        else:
            matrix, name = half / 4, "fp32 (≈ bf16/4)"
        scores = matrix
    elif s.precision.fp8 != Fp8Recipe.NONE and hw.tflops_fp8 is not None:
        matrix, name, scores = hw.tflops_fp8 * 1e12, "fp8", half
    else:
        matrix, name, scores = half, "bf16/fp16", half
    if hw.intra_node_bandwidth is not None:
        intra, intra_source = float(hw.intra_node_bandwidth), "--intra-node-bandwidth"
    elif hw.link_bandwidth is not None:
        intra, intra_source = float(hw.link_bandwidth), "the GPU preset's link (docs/catalog.md)"
    else:
        intra = float(hw.pcie_bandwidth or DEFAULT_NETWORK)
        intra_source = "PCIe (the GPU preset has no NVLink)" if hw.pcie_bandwidth else DEFAULT_NETWORK_SOURCE
    if hw.inter_node_bandwidth is not None:
        inter, inter_source = float(hw.inter_node_bandwidth), "--inter-node-bandwidth"
    elif hw.network_bandwidth is not None:
        inter, inter_source = float(hw.network_bandwidth), "the GPU preset's reference system (docs/catalog.md)"
    else:
        inter, inter_source = float(DEFAULT_NETWORK), DEFAULT_NETWORK_SOURCE
    pcie = None if hw.pcie_bandwidth is None else float(hw.pcie_bandwidth)
    return Rates(matrix, name, scores, float(hw.memory_bandwidth), intra, inter, pcie, intra_source, inter_source)
