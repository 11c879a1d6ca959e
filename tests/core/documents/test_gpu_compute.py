"""The GPU presets' compute figures (resources/presets/gpus.json ``compute``, docs/catalog.md): dense peaks, never
the sparsity ones, each with its datasheet; applied to the hardware with the preset."""

from __future__ import annotations

import pytest

from vramgui.core.documents.catalog import PCIE_X16, hardware_with_gpu
from vramgui.core.scenario.specs import HardwareSpec
from vramgui.io.presets import gpu_presets

GPUS = gpu_presets()
WITH = [k for k, g in GPUS.items() if g.compute is not None]
# datasheet dense bf16/fp16 figures (the "with sparsity" figure on the same line is twice these)
DENSE_16BIT = {"a100-80gb": 312, "a100-40gb": 312, "h100-sxm": 989.4, "h200": 989.4, "h100-pcie": 756.5,
               "l40s": 362.05, "mi300x": 1307.4, "b200": 2250, "v100-32gb": 125, "rtx-4090": 165.2}
BANDWIDTH = {"a100-80gb": 2039 * 10**9, "h100-sxm": 3_350 * 10**9, "h200": 4_800 * 10**9, "mi300x": 5_300 * 10**9}


def test_most_presets_have_compute_figures_and_each_cites_a_source():
    assert len(WITH) >= 25
    for key in WITH:
        c = GPUS[key].compute
        assert c is not None and c.source and c.tflops_16bit > 0 and c.memory_bandwidth > 0, key


@pytest.mark.parametrize(("key", "tflops"), DENSE_16BIT.items())
def test_the_16bit_peak_is_the_dense_figure(key, tflops):
    assert GPUS[key].compute.tflops_16bit == pytest.approx(tflops)  # type: ignore[union-attr]


@pytest.mark.parametrize(("key", "rate"), BANDWIDTH.items())
def test_memory_bandwidth(key, rate):
    assert GPUS[key].compute.memory_bandwidth == rate  # type: ignore[union-attr]


def test_fp8_only_where_the_gpu_has_it_and_twice_the_16bit_rate_on_hopper():
    assert GPUS["a100-80gb"].compute.tflops_fp8 is None  # type: ignore[union-attr]
    h100 = GPUS["h100-sxm"].compute
    assert h100 is not None and h100.tflops_fp8 == pytest.approx(2 * h100.tflops_16bit, rel=1e-3)


def test_nvlink_per_direction_and_pcie_from_the_generation():
    a100, h100 = GPUS["a100-80gb"].compute, GPUS["h100-sxm"].compute
    assert a100 is not None and h100 is not None
    assert a100.link_bandwidth == 300 * 10**9 and h100.link_bandwidth == 450 * 10**9  # 600 and 900 GB/s both ways
    assert a100.host_bandwidth == PCIE_X16[4] and h100.host_bandwidth == PCIE_X16[5]
    assert PCIE_X16[4] == pytest.approx(16e9 * 16 * 128 / 130 / 8, rel=1e-3)
    assert GPUS["l4"].compute.link_bandwidth is None  # type: ignore[union-attr]  # PCIe only


def test_dgx_systems_give_the_network_port_per_gpu():
    assert GPUS["a100-80gb"].compute.network_bandwidth == 25 * 10**9  # type: ignore[union-attr]  # 200 Gb/s HDR
    assert GPUS["h100-sxm"].compute.network_bandwidth == 50 * 10**9  # type: ignore[union-attr]  # 400 Gb/s NDR
    assert GPUS["l4"].compute.network_bandwidth is None  # type: ignore[union-attr]  # no reference system


def test_a_preset_fills_the_hardware_and_one_without_figures_clears_them():
    hw = hardware_with_gpu(HardwareSpec(reserve=0.1, gpu_hour_price=2.0), GPUS["h100-sxm"])
    assert hw.tflops_16bit == pytest.approx(989.4) and hw.memory_bandwidth == 3_350 * 10**9
    assert hw.network_bandwidth == 50 * 10**9
    assert hw.reserve == 0.1 and hw.gpu_hour_price == 2.0  # the user's own inputs stay
    bare = next(g for g in GPUS.values() if g.compute is None)
    cleared = hardware_with_gpu(hw, bare)
    assert cleared.tflops_16bit is None and cleared.memory_bandwidth is None and cleared.gpu_memory == bare.memory


def test_docs_list_every_compute_figure():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[3] / "docs" / "catalog.md").read_text(encoding="utf-8")
    for key in WITH:
        c = GPUS[key].compute
        assert c is not None and f"| `{key}` | {c.tflops_16bit:g} |" in doc, key
    for key in set(GPUS) - set(WITH):
        assert f"`{key}`" in doc[doc.index("Not sourced"):], key
