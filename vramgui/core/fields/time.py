"""The field registry's table for the time and cost of a run (``vramgui.core.time``): the GPU's compute figures a
preset fills (dense peak TFLOP/s per dtype, memory and link bandwidths), the links and the achieved rate a user
may set instead, and the run's length and price.

Bandwidths are per GPU and per direction, as datasheets quote NVLink ("900 GB/s" on an H100 is both directions
together: 450 GB/s each way) and as network cards are sold (a 200 Gb/s HDR InfiniBand port moves 25 GB/s each way).
"""

from __future__ import annotations

from vramgui.core.fields.table import MAX_RATE, MAX_TFLOPS, Field
from vramgui.core.fields.table import field_entry as _f
from vramgui.core.text.message import QT_TRANSLATE_NOOP

MAX_TOKENS = 10**18  # a quintillion tokens: far above any corpus
MAX_PRICE = 10**6  # per GPU-hour

_PRESET = QT_TRANSLATE_NOOP("Fields", "from the GPU preset")

TIME_TABLE: tuple[Field, ...] = (
    _f(
        "hardware.tflops_16bit",
        "number",
        QT_TRANSLATE_NOOP("Fields", "Peak BF16/FP16 TFLOP/s"),
        QT_TRANSLATE_NOOP("Fields", "Dense bf16/fp16 tensor-core peak, TFLOP/s (not the sparsity figure)"),
        low=0.001, high=MAX_TFLOPS, flag="--peak-tflops", metavar="TFLOPS", unit="TFLOP/s",
        form="hardware", order=60, placeholder=_PRESET,
    ),
    _f(
        "hardware.tflops_fp8",
        "number",
        QT_TRANSLATE_NOOP("Fields", "Peak FP8 TFLOP/s"),
        QT_TRANSLATE_NOOP("Fields", "Dense FP8 tensor-core peak, TFLOP/s; empty: the GPU has none"),
        low=0.001, high=MAX_TFLOPS, flag="--peak-tflops-fp8", metavar="TFLOPS", unit="TFLOP/s",
        form="hardware", order=61, placeholder=_PRESET,
    ),
    _f(
        "hardware.tflops_tf32",
        "number",
        QT_TRANSLATE_NOOP("Fields", "Peak TF32 TFLOP/s"),
        QT_TRANSLATE_NOOP("Fields", "Dense TF32 tensor-core peak, TFLOP/s (fp32 training's matrix products)"),
        low=0.001, high=MAX_TFLOPS, flag="--peak-tflops-tf32", metavar="TFLOPS", unit="TFLOP/s",
        form="hardware", order=62, placeholder=_PRESET,
    ),
    _f(
        "hardware.tflops_fp32",
        "number",
        QT_TRANSLATE_NOOP("Fields", "Peak FP32 TFLOP/s"),
        QT_TRANSLATE_NOOP("Fields", "Plain fp32 peak (no tensor cores), TFLOP/s"),
        low=0.001, high=MAX_TFLOPS, flag="--peak-tflops-fp32", metavar="TFLOPS", unit="TFLOP/s",
        form="hardware", order=63, placeholder=_PRESET,
    ),
    _f(
        "hardware.memory_bandwidth",
        "rate",
        QT_TRANSLATE_NOOP("Fields", "Memory bandwidth"),
        QT_TRANSLATE_NOOP("Fields", "GPU memory bandwidth: 3.35TB/s, 2039GB/s"),
        low=1, high=MAX_RATE, flag="--memory-bandwidth", metavar="RATE", unit="bytes/s",
        form="hardware", order=64, placeholder=_PRESET,
    ),
    _f(
        "hardware.link_bandwidth",
        "rate",
        QT_TRANSLATE_NOOP("Fields", "GPU link"),
        QT_TRANSLATE_NOOP("Fields", "The preset's GPU-to-GPU link inside a node, per GPU and direction (NVLink, else "
                          "PCIe): 450GB/s"),
        low=1, high=MAX_RATE, flag="--link-bandwidth", metavar="RATE", unit="bytes/s",
        form="hardware", order=65, placeholder=_PRESET,
    ),
    _f(
        "hardware.pcie_bandwidth",
        "rate",
        QT_TRANSLATE_NOOP("Fields", "Host link"),
        QT_TRANSLATE_NOOP("Fields", "PCIe between the GPU and the host, per direction (offload): 63GB/s for PCIe 5.0 "
                          "x16"),
        low=1, high=MAX_RATE, flag="--pcie-bandwidth", metavar="RATE", unit="bytes/s",
        form="hardware", order=66, placeholder=_PRESET,
    ),
    _f(
        "hardware.network_bandwidth",
        "rate",
        QT_TRANSLATE_NOOP("Fields", "Network port"),
        QT_TRANSLATE_NOOP("Fields", "The network port per GPU of the preset's reference system (DGX H100: 400 Gb/s "
                          "InfiniBand), per direction; empty: 200 Gb/s HDR"),
        low=1, high=MAX_RATE, flag="--network-bandwidth", metavar="RATE", unit="bytes/s",
        form="hardware", order=67, placeholder=_PRESET,
    ),
    _f(
        "training.train_tokens",
        "count",
        QT_TRANSLATE_NOOP("Fields", "Training tokens"),
        QT_TRANSLATE_NOOP("Fields", "Tokens of the whole run (300B, 1T): days to train, GPU-hours and cost"),
        low=1, high=MAX_TOKENS, flag="--train-tokens", metavar="COUNT", unit="tokens",
        form="time", order=10, placeholder=QT_TRANSLATE_NOOP("Fields", "optional"),
    ),
    _f(
        "hardware.gpu_hour_price",
        "number",
        QT_TRANSLATE_NOOP("Fields", "Price per GPU-hour"),
        QT_TRANSLATE_NOOP("Fields", "What one GPU costs for one hour, in any currency: the run's cost"),
        low=0.0, high=MAX_PRICE, flag="--gpu-hour-price", metavar="AMOUNT",
        form="time", order=20, placeholder=QT_TRANSLATE_NOOP("Fields", "optional"),
    ),
    _f(
        "hardware.achieved_tflops",
        "number",
        QT_TRANSLATE_NOOP("Fields", "Achieved TFLOP/s"),
        QT_TRANSLATE_NOOP("Fields", "TFLOP/s per GPU a run reached, recomputation included (as Narayanan "
                          "et al. 2021 count them), in place of the predicted step time"),
        low=0.001, high=MAX_TFLOPS, flag="--achieved-tflops", metavar="N", unit="TFLOP/s",
        form="time", order=30, placeholder=QT_TRANSLATE_NOOP("Fields", "predicted"),
    ),
    _f(
        "hardware.intra_node_bandwidth",
        "rate",
        QT_TRANSLATE_NOOP("Fields", "Bandwidth inside a node"),
        QT_TRANSLATE_NOOP("Fields", "GPU-to-GPU bandwidth inside a node, per GPU and direction: 300GB/s; empty: the "
                          "GPU preset's link"),
        low=1, high=MAX_RATE, flag="--intra-node-bandwidth", metavar="RATE", unit="bytes/s",
        form="time", order=40, placeholder=_PRESET,
    ),
    _f(
        "hardware.inter_node_bandwidth",
        "rate",
        QT_TRANSLATE_NOOP("Fields", "Bandwidth between nodes"),
        QT_TRANSLATE_NOOP("Fields", "Network bandwidth per GPU and direction between nodes: 200Gb/s, 50GB/s; empty: "
                          "the GPU preset's network port, else one 200 Gb/s InfiniBand HDR port per GPU (25 GB/s)"),
        low=1, high=MAX_RATE, flag="--inter-node-bandwidth", metavar="RATE", unit="bytes/s",
        form="time", order=50, placeholder=_PRESET,
    ),
)

