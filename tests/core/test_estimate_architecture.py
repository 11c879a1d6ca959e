"""Estimates from an architecture: exact counts from the catalog, activations from the activation model,
PyTorch's step counters under the pure recipe, and the most loaded pipeline stage."""

from __future__ import annotations

from dataclasses import replace

from vramgui.core.activations.estimate import estimate_activations
from vramgui.core.estimate import estimate
from vramgui.core.scenario import architecture as am
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.specs import ModelSpec, ParallelSpec, PrecisionSpec, Scenario, TrainingSpec

LLAMA_7B = Architecture()  # the defaults are Llama-2-7B's shape
MOE = Architecture(num_layers=4, hidden_size=256, num_heads=8, ffn_size=512, vocab_size=1000, num_experts=8,
                   experts_per_token=2)


def test_parameter_count_comes_from_the_architecture():
    est = estimate(Scenario(model=ModelSpec(architecture=LLAMA_7B)))
    assert est.params == am.count_params(LLAMA_7B) == 6_738_415_616


def test_activations_are_the_activation_models_total():
    s = Scenario(model=ModelSpec(architecture=LLAMA_7B), training=TrainingSpec(micro_batch=2, seq_len=1024),
                 parallel=ParallelSpec(num_gpus=8, zero_stage=2))
    est = estimate(s)
    expected = estimate_activations(LLAMA_7B, s.training, s.parallel, "bf16").total
    assert est.bytes_of("activations") == expected > 0
    assert est.per_gpu_total == est.model_states + expected


def test_activations_do_not_depend_on_data_parallel_size():
    base = Scenario(model=ModelSpec(architecture=LLAMA_7B), parallel=ParallelSpec(num_gpus=1))
    many = replace(base, parallel=ParallelSpec(num_gpus=64, zero_stage=3))
    assert estimate(base).bytes_of("activations") == estimate(many).bytes_of("activations")


def test_pure_adamw_counts_one_fp32_step_tensor_per_parameter_tensor():
    s = Scenario(model=ModelSpec(architecture=LLAMA_7B), precision=PrecisionSpec(dtype="bf16", recipe="pure",
                 optimizer="adamw"))
    est = estimate(s)
    phi = am.count_params(LLAMA_7B)
    assert est.bytes_of("parameters") == 2 * phi
    assert est.bytes_of("gradients") == 2 * phi
    assert est.bytes_of("optimizer_states") == 2 * 2 * phi + 4 * am.count_param_tensors(LLAMA_7B)
    assert est.bytes_of("master_weights") == 0


def test_pure_sgd_has_no_step_tensors():
    s = Scenario(model=ModelSpec(architecture=LLAMA_7B), precision=PrecisionSpec(recipe="pure", optimizer="sgd"))
    assert estimate(s).bytes_of("optimizer_states") == 0


def test_most_loaded_pipeline_stage_counts_embeddings_or_head():
    s = Scenario(model=ModelSpec(architecture=LLAMA_7B), parallel=ParallelSpec(num_gpus=4, pp=4))
    est = estimate(s)
    per_layer = am.layer_params(LLAMA_7B)[0]
    first = am.embedding_params(LLAMA_7B) + 8 * per_layer
    last = 8 * per_layer + am.head_params(LLAMA_7B, include_tied=True)
    assert est.stage_params == max(first, last)
    assert est.stage_params > est.params // 4
    assert any("pipeline stage" in n for n in map(str, est.notes))


def test_tensor_parallel_divides_the_stage_but_the_norms():
    # Megatron-Core keeps RMSNorm weights whole on every TP rank: the last stage of 8 layers holds 2 norms each plus
    # the final norm, 17·h parameters that tp = 2 does not halve
    s = Scenario(model=ModelSpec(architecture=LLAMA_7B), parallel=ParallelSpec(num_gpus=8, tp=2, pp=4))
    one = estimate(replace(s, parallel=ParallelSpec(num_gpus=4, pp=4)))
    norms = 17 * LLAMA_7B.hidden_size
    assert estimate(s).stage_params == (one.stage_params - norms) // 2 + norms
    flat = Scenario(model=ModelSpec(architecture=LLAMA_7B), parallel=ParallelSpec(num_gpus=2, tp=2))
    whole = (2 * LLAMA_7B.num_layers + 1) * LLAMA_7B.hidden_size
    assert estimate(flat).stage_params == (am.count_params(LLAMA_7B) - whole) // 2 + whole


def test_moe_reports_active_params_and_holds_all_experts():
    est = estimate(Scenario(model=ModelSpec(architecture=MOE)))
    assert est.active_params == am.count_active_params(MOE) < est.params
    assert est.to_dict()["model"]["active_params"] == est.active_params


def test_deepspeed_largest_layer_comes_from_the_architecture():
    s = Scenario(model=ModelSpec(architecture=LLAMA_7B), convention="deepspeed",
                 parallel=ParallelSpec(num_gpus=8, zero_stage=3))
    assert estimate(s).bytes_of("other") == 4 * am.largest_layer_params(LLAMA_7B)


def test_pipeline_in_flight_micro_batches_follow_the_data_parallel_size():
    # 1F1B: with a global batch, micro-batches per step (and so those held in flight) depend on N_d.
    arch = Architecture(num_layers=8, hidden_size=256, num_heads=8, ffn_size=512, vocab_size=1000)
    def act(gpus: int) -> int:
        s = Scenario(model=ModelSpec(architecture=arch), training=TrainingSpec(micro_batch=1, global_batch=8),
                     parallel=ParallelSpec(num_gpus=gpus, pp=4))
        return estimate(s).bytes_of("activations")
    direct = estimate_activations(arch, TrainingSpec(micro_batch=1, global_batch=8), ParallelSpec(num_gpus=16, pp=4),
                                  "bf16").total
    assert act(4) > act(16) == direct  # N_d = 4 leaves 2 micro-batches per step, fewer than pp
