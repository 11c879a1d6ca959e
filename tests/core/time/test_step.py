"""The step time's terms (vramgui.core.time.step): they add up, each moves the way its cause does, and the run's
days, GPU-hours and cost follow from them."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from vramgui.core.documents.catalog import hardware_with_gpu
from vramgui.core.estimate import estimate
from vramgui.core.scenario.choices import Convention, FinetuneMethod, Fp8Recipe, Implementation, Offload, Recompute
from vramgui.core.scenario.specs import HardwareSpec, ModelSpec, ParallelSpec, Scenario, TrainingSpec
from vramgui.core.time import comm
from vramgui.core.time.components import TIME_KEYS, label
from vramgui.core.time.rates import DEFAULT_NETWORK, MATRIX_CURVE, efficiency
from vramgui.core.time.result import StepTime
from vramgui.io.presets import find_gpu, find_model


def scenario(gpu: str = "h100-sxm", **parallel: object) -> Scenario:
    s = Scenario(model=find_model("llama-3-8b").spec, training=TrainingSpec(micro_batch=1, seq_len=4096),
                 parallel=ParallelSpec(**{"num_gpus": 8, **parallel}))  # type: ignore[arg-type]
    return replace(s, hardware=hardware_with_gpu(s.hardware, find_gpu(gpu)))


def time_of(s: Scenario) -> StepTime:
    t = estimate(s).time
    assert t is not None
    return t


def test_the_components_are_the_interfaces_in_order_and_add_up_to_the_step():
    t = time_of(scenario(num_gpus=64, tp=2, pp=2, zero_stage=1))
    assert tuple(c.key for c in t.components) == TIME_KEYS
    assert sum(c.seconds for c in t.components) == pytest.approx(t.step_seconds, rel=1e-12)
    assert all(c.seconds >= 0 for c in t.components)
    assert [label(k).code for k in TIME_KEYS] == [f"time.{k}" for k in TIME_KEYS]


def test_json_time_has_exactly_the_interface_keys():
    data = estimate(scenario()).to_dict()["time"]
    assert {"step_seconds", "tokens_per_second", "tokens_per_second_per_gpu", "model_flops_per_step",
            "hardware_flops_per_step", "model_tflops_per_gpu", "mfu", "hfu", "components", "formulas",
            "derivations", "sources", "train_seconds", "gpu_hours", "cost"} <= set(data)
    assert list(data["components"]) == list(TIME_KEYS)
    assert data["train_seconds"] is None and data["gpu_hours"] is None and data["cost"] is None


def test_no_compute_figures_no_time_and_a_note_that_says_so():
    est = estimate(Scenario(model=ModelSpec(params=7 * 10**9), hardware=HardwareSpec(gpu_memory=80 * 10**9)))
    assert est.time is None and est.time_note is not None and est.time_note.code == "time.note_no_figures"
    assert est.to_dict()["time"] is None and "compute figures" in est.to_dict()["time_note"]
    assert all(n.code != "time.note_no_figures" for n in est.notes)  # the memory answer's notes are unchanged


def test_a_parameter_count_alone_gives_6_phi_per_token():
    s = replace(scenario(), model=ModelSpec(params=7 * 10**9))
    t = time_of(s)
    assert t.model_flops_per_step == 6 * 7 * 10**9 * 8 * 4096
    assert any(n.code == "time.note_params_only" for n in t.notes)


def test_accumulation_multiplies_the_micro_batch_work_not_the_optimizer_step():
    one = time_of(replace(scenario(), training=TrainingSpec(micro_batch=1, seq_len=4096, global_batch=8)))
    four = time_of(replace(scenario(), training=TrainingSpec(micro_batch=1, seq_len=4096, global_batch=32)))
    # four micro-batches, plus adding each one's weight gradients into .grad (4 bytes a weight) once there are several
    assert 4 * one.seconds_of("compute") < four.seconds_of("compute") < 4.2 * one.seconds_of("compute")
    assert four.seconds_of("optimizer") == pytest.approx(one.seconds_of("optimizer"), rel=1e-9)
    assert four.model_flops_per_step == 4 * one.model_flops_per_step


def test_recomputation_adds_hardware_flops_not_model_flops():
    base = scenario()
    none, sel, full = (time_of(replace(base, training=replace(base.training, recompute=r))) for r in Recompute)
    assert none.model_flops_per_step == sel.model_flops_per_step == full.model_flops_per_step
    assert none.hardware_flops_per_step < sel.hardware_flops_per_step < full.hardware_flops_per_step
    assert none.seconds_of("recompute") == 0 < sel.seconds_of("recompute") < full.seconds_of("recompute")
    assert full.hfu > full.mfu


def test_tensor_parallel_traffic_moves_to_the_network_across_nodes():
    inside = time_of(scenario(num_gpus=8, tp=8, gpus_per_node=8)).seconds_of("tp_comm")
    across = time_of(scenario(num_gpus=8, tp=8, gpus_per_node=4)).seconds_of("tp_comm")
    assert across > 3 * inside > 0  # the DGX H100 port (400 Gb/s: 50 GB/s) against 450 GB/s of NVLink


def test_zero3_moves_one_and_a_half_times_ddps_bytes():
    """ZeRO paper §7: all-gather in the forward and the backward plus a reduce-scatter, against one all-reduce."""
    n, size = 64, 10**9
    zero3 = 2 * comm.collective_volume("all_gather", size, n) + comm.collective_volume("reduce_scatter", size, n)
    assert zero3 == pytest.approx(1.5 * comm.collective_volume("all_reduce", size, n))
    assert comm.collective_volume("all_reduce", size, 8) == pytest.approx(2 * 7 / 8 * size)


def test_data_parallel_communication_megatron_waits_deepspeed_zero3_overlaps():
    mega = time_of(replace(scenario(num_gpus=16, gpus_per_node=8), convention=Convention.MEGATRON))
    ddp = time_of(scenario(num_gpus=16, gpus_per_node=8))
    assert mega.seconds_of("dp_comm") > ddp.seconds_of("dp_comm")  # PyTorch DDP hides its buckets in the backward
    assert "hidden behind the backward" in ddp.component("dp_comm").derivation


def test_the_pipeline_bubble_is_p_minus_1_over_m_v():
    s = replace(scenario(num_gpus=4, pp=4), training=TrainingSpec(micro_batch=1, seq_len=4096, global_batch=16))
    t = time_of(s)
    per_mb = (t.seconds_of("compute") + t.seconds_of("recompute") + t.seconds_of("tp_comm")) / 16
    assert t.seconds_of("pp_bubble") == pytest.approx(3 * per_mb, rel=1e-6)  # whole nanoseconds
    interleaved = time_of(replace(s, parallel=replace(s.parallel, vpp=2)))
    assert interleaved.seconds_of("pp_bubble") == pytest.approx(t.seconds_of("pp_bubble") / 2, rel=0.02)
    assert t.seconds_of("pp_comm") > 0


def test_context_and_expert_parallelism_have_their_own_terms():
    assert time_of(scenario(num_gpus=8, cp=4)).seconds_of("cp_comm") >= 0
    moe = Scenario(model=find_model("mixtral-8x7b").spec, training=TrainingSpec(seq_len=4096),
                   parallel=ParallelSpec(num_gpus=8, ep=8, zero_stage=1))
    moe = replace(moe, hardware=hardware_with_gpu(moe.hardware, find_gpu("h100-sxm")))
    assert time_of(moe).seconds_of("ep_comm") > 0


def test_lora_forms_no_weight_gradients_for_the_frozen_base():
    full = time_of(scenario())
    lora = time_of(replace(scenario(), finetune=replace(scenario().finetune, method=FinetuneMethod.LORA)))
    assert 0.6 < lora.model_flops_per_step / full.model_flops_per_step < 0.75  # 2× the base instead of 3×
    assert lora.seconds_of("compute") < full.seconds_of("compute")
    qlora = time_of(replace(scenario(), finetune=replace(scenario().finetune, method=FinetuneMethod.QLORA)))
    assert qlora.seconds_of("compute") > lora.seconds_of("compute")  # the NF4 weights are dequantised per product


def test_fp8_linears_run_on_the_fp8_peak():
    base = replace(scenario(), training=replace(scenario().training, implementation=Implementation.FUSED))
    fp8 = replace(base, precision=replace(base.precision, fp8=Fp8Recipe.DELAYED))
    assert time_of(fp8).seconds_of("compute") < time_of(base).seconds_of("compute")
    assert time_of(fp8).peak_name == "fp8" and time_of(fp8).peak_tflops == pytest.approx(1978.9)


def test_offload_goes_over_pcie_and_the_cpu_optimizer():
    s = replace(scenario(num_gpus=8, zero_stage=2), offload=replace(scenario().offload, optimizer=Offload.CPU))
    t = time_of(s)
    assert t.seconds_of("offload") > 0 and t.seconds_of("optimizer") == 0
    assert "PCIe" in t.component("offload").derivation and "CPU optimizer" in t.component("offload").derivation


def test_achieved_tflops_replaces_the_prediction():
    s = replace(scenario(), hardware=replace(scenario().hardware, achieved_tflops=400.0))
    t = time_of(s)
    assert t.step_seconds == pytest.approx(t.hardware_flops_per_step / (8 * 400e12), rel=1e-9)
    assert t.step_seconds == t.seconds_of("compute")


def test_days_gpu_hours_and_cost():
    s = replace(scenario(), training=replace(scenario().training, train_tokens=10**12),
                hardware=replace(scenario().hardware, gpu_hour_price=2.5))
    t = time_of(s)
    assert t.train_seconds == pytest.approx(10**12 / t.tokens_per_second, rel=1e-12)
    assert t.gpu_hours == pytest.approx(t.train_seconds * 8 / 3600, rel=1e-12)
    assert t.cost == pytest.approx(t.gpu_hours * 2.5, rel=1e-12)
    assert t.tokens_per_second == pytest.approx(8 * 4096 / t.step_seconds, rel=1e-12)


def test_the_users_links_replace_the_presets_and_the_default_network_is_hdr():
    base = scenario(num_gpus=16)  # H100 SXM: the DGX H100's 400 Gb/s port per GPU
    fast = replace(base, hardware=replace(base.hardware, inter_node_bandwidth=100 * 10**9))
    slow = replace(base, hardware=replace(base.hardware, network_bandwidth=None))
    assert time_of(fast).seconds_of("dp_comm") < time_of(base).seconds_of("dp_comm") < time_of(slow).seconds_of(
        "dp_comm")
    assert DEFAULT_NETWORK == 25 * 10**9  # 200 Gb/s


def test_the_efficiency_curve_is_calculons_at_its_points_and_rises_between_them():
    for size, eff in MATRIX_CURVE[1:]:
        assert efficiency(size) == pytest.approx(eff)
    sizes = [10**k for k in range(6, 14)]
    assert all(efficiency(a) <= efficiency(b) for a, b in itertools.pairwise(sizes))


def test_hugging_face_kernels_read_as_a_lower_bound_and_fused_ones_do_not():
    """The efficiency curves are Calculon's, fitted on Megatron-LM's fused kernels (A100): under the Hugging Face
    profile the time says it is a lower bound (MFU an upper one); the fused profile has no such note."""
    hf = scenario()
    fused = replace(hf, training=replace(hf.training, implementation=Implementation.FUSED))
    codes = {s: [n.code for n in time_of(s).notes] for s in (hf, fused)}
    assert "time.note_hf_kernels" in codes[hf]
    assert "time.note_hf_kernels" not in codes[fused]
