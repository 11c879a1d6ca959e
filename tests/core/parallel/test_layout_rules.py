"""Expert, context and pipeline layouts: Megatron-Core's placement rules, the world-size errors naming valid
sizes, the per-GPU shards the step peak uses, MoE routing inputs and the solvers that honour them."""

from __future__ import annotations

import dataclasses

import pytest

from vramgui.core.activations.estimate import _chunk_flights
from vramgui.core.estimate import estimate
from vramgui.core.fields import registry as fields
from vramgui.core.parallel.layout import expert_data_parallel_size, rank_chunks, stage_layer_counts
from vramgui.core.scenario.specs import HardwareSpec, ParallelSpec, PrecisionSpec, Scenario, TrainingSpec
from vramgui.core.solve.questions import max_seq_len, min_gpus
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import render
from vramgui.io.presets import find_model

MIXTRAL = find_model("mixtral-8x7b").spec
LLAMA = find_model("llama-3-8b").spec


def mixtral(**par: object) -> Scenario:
    return Scenario(model=MIXTRAL, parallel=ParallelSpec(**par))  # type: ignore[arg-type]


def error(s: Scenario) -> InputError:
    with pytest.raises(InputError) as info:
        estimate(s)
    return info.value


def test_interleaved_chunks_follow_megatrons_example():
    # parallel_state.initialize_model_parallel's docstring: 16 layers, pp 4, vpp 2 -> GPU 0: [1, 2] [9, 10]
    assert rank_chunks(16, ParallelSpec(num_gpus=4, pp=4, vpp=2))[0] == [(0, 2), (8, 10)]
    assert rank_chunks(16, ParallelSpec(num_gpus=4, pp=4, vpp=2))[3] == [(6, 8), (14, 16)]


def test_uneven_stages_split_the_rest_evenly():
    par = ParallelSpec(num_gpus=4, pp=4, first_stage_layers=6, last_stage_layers=8)
    assert stage_layer_counts(30, par) == [6, 8, 8, 8]
    assert stage_layer_counts(30, dataclasses.replace(par, last_stage_layers=None)) == [6, 8, 8, 8]


def test_one_f_one_b_in_flight_is_unchanged_and_interleaving_adds_megatrons_warmup():
    t = TrainingSpec(micro_batch=1, global_batch=64)
    assert _chunk_flights(t, ParallelSpec(num_gpus=4, pp=4)) == [[4], [3], [2], [1]]
    assert _chunk_flights(TrainingSpec(micro_batch=1, global_batch=2), ParallelSpec(num_gpus=4, pp=4)) == [
        [2], [2], [2], [1]]
    flights = _chunk_flights(t, ParallelSpec(num_gpus=4, pp=4, vpp=2))
    assert [sum(c) for c in flights] == [11, 9, 7, 5]  # (pp - r - 1)·2 + (vpp - 1)·pp + 1
    assert flights[0] == [7, 4] and flights[3] == [4, 1]


def test_defaults_keep_todays_numbers():
    base = mixtral(num_gpus=16, tp=2, pp=2)
    same = mixtral(num_gpus=16, tp=2, pp=2, ep=1, etp=2, cp=1, vpp=1)
    assert estimate(base).to_dict() == estimate(same).to_dict()


def test_experts_shard_over_ep_and_their_states_over_expert_data_parallel():
    s = dataclasses.replace(mixtral(num_gpus=64, tp=2, ep=8, pp=4), convention="megatron")
    assert expert_data_parallel_size(s.parallel) == 1
    e = estimate(s)
    assert any(n.code == "note.expert_shard" for n in e.notes)
    assert e.component("optimizer_states").formula == "12·Φ_d/N_d + 12·Φ_e/N_e"
    assert e.stage_params < estimate(dataclasses.replace(s, parallel=ParallelSpec(num_gpus=64, tp=2, pp=4))
                                     ).stage_params


def test_world_size_errors_name_valid_sizes():
    err = error(mixtral(num_gpus=24, tp=2, ep=8))
    assert err.field == "parallel.num_gpus" and "16" in render(err.msg)
    assert "16, 32" in render(err.allowed_msg)
    err = error(mixtral(num_gpus=8, ep=3))
    assert err.field == "parallel.ep" and render(err.allowed_msg) == "one of 1, 2, 4, 8"
    err = error(Scenario(model=LLAMA, parallel=ParallelSpec(num_gpus=8, ep=2)))
    assert err.field == "parallel.ep"
    err = error(mixtral(num_gpus=12, tp=2, cp=4))
    assert err.field == "parallel.num_gpus" and "tp × cp × pp = 8" in render(err.msg)


def test_context_parallel_rules():
    err = error(dataclasses.replace(mixtral(num_gpus=4, cp=4), training=TrainingSpec(seq_len=2052)))
    assert err.field == "training.seq_len" and "2,048, 2,056" in render(err.allowed_msg)
    err = error(dataclasses.replace(mixtral(num_gpus=2, cp=2), training=TrainingSpec(attention="eager")))
    assert err.field == "training.attention"


def test_pipeline_layout_rules():
    assert error(mixtral(num_gpus=2, vpp=2)).field == "parallel.vpp"
    assert error(mixtral(num_gpus=4, pp=4, vpp=3)).field == "parallel.vpp"  # 8 layers per stage
    assert error(mixtral(num_gpus=4, pp=4, first_stage_layers=6)).field == "parallel.first_stage_layers"
    assert error(mixtral(num_gpus=2, pp=2, first_stage_layers=10, last_stage_layers=10)).field.endswith("layers")
    assert error(Scenario(model=MIXTRAL, parallel=ParallelSpec(num_gpus=1, first_stage_layers=4))).field == (
        "parallel.first_stage_layers")


def test_uneven_stage_is_found_over_all_stages():
    even = estimate(mixtral(num_gpus=4, pp=4))
    heavy = estimate(mixtral(num_gpus=4, pp=4, first_stage_layers=2, last_stage_layers=2))  # 14 layers in the middle
    assert heavy.stage_params > even.stage_params
    assert any(n.code == "note.pipeline_stage" and n.kwargs["stage"] == 2 for n in heavy.notes)


def test_context_parallel_divides_activations_and_the_loss_gradient():
    one = estimate(Scenario(model=LLAMA, training=TrainingSpec(seq_len=8192), parallel=ParallelSpec(num_gpus=2)))
    two = estimate(Scenario(model=LLAMA, training=TrainingSpec(seq_len=8192), parallel=ParallelSpec(num_gpus=2, cp=2)))
    a1, a2 = one.bytes_of("activations"), two.bytes_of("activations")
    assert a1 is not None and a2 is not None and a2 < a1 * 0.51
    assert one.peak is not None and two.peak is not None
    lg1, lg2 = one.peak.term("loss_gradient"), two.peak.term("loss_gradient")
    assert lg1 is not None and lg2 is not None and lg1.bytes == 2 * lg2.bytes
    assert one.model_states == two.model_states  # cp ranks replicate the weights; N_d = dp·cp = 2 either way


def test_optimizer_temporaries_cover_what_this_gpu_updates():
    s = Scenario(model=MIXTRAL, precision=PrecisionSpec(optimizer_impl="foreach"),
                 parallel=ParallelSpec(num_gpus=16, zero_stage=1, ep=8))
    e = estimate(s)
    assert e.peak is not None
    opt = e.peak.term("optimizer_temporaries")
    assert opt is not None
    # foreach exp_avg_sq-sized temporary (4 bytes) + the fp32 cast of the gradient partition (4 bytes)
    experts = 32 * 8 * 3 * 4096 * 14336 // 8
    dense = e.stage_params - experts
    assert opt.bytes == 2 * (4 * -(-dense // 16) + 4 * -(-experts // 2))


def test_routing_imbalance_and_capacity_scale_the_experts_tokens():
    base = mixtral(num_gpus=8, ep=8)
    skew = dataclasses.replace(base, training=TrainingSpec(moe_imbalance_percent=150))
    capped = dataclasses.replace(base, training=TrainingSpec(moe_imbalance_percent=150, moe_capacity_percent=125))
    a = [estimate(x).bytes_of("activations") or 0 for x in (base, skew, capped)]
    assert a[0] < a[2] < a[1]
    assert fields.inactive_reason(mixtral(num_gpus=8), "training.moe_imbalance_percent") is not None
    assert fields.inactive_reason(base, "training.moe_imbalance_percent") is None
    assert fields.inactive_reason(Scenario(model=LLAMA), "parallel.ep") is not None


def test_solvers_honour_expert_and_context_grids():
    s = Scenario(model=MIXTRAL, parallel=ParallelSpec(num_gpus=8, tp=2, ep=8),
                 hardware=HardwareSpec(gpu_memory=80 * 10**9), convention="megatron")
    n = min_gpus(s)
    assert n is not None and n % 16 == 0
    long = Scenario(model=LLAMA, parallel=ParallelSpec(num_gpus=8, tp=2, cp=4, sp=True),
                    hardware=HardwareSpec(gpu_memory=80 * 10**9), convention="megatron")
    seq = max_seq_len(long)
    assert seq > 0 and seq % 8 == 0
    assert max_seq_len(dataclasses.replace(long, parallel=ParallelSpec(num_gpus=8, tp=2))) < seq
