"""The moments a large root sets (vramgui.core.step.root): FSDP2's root all-gather and reduce-scatter and the tied
weight's gradient sum, each pinned to the bytes measured in bench/validate (docs/accuracy.md, the llama-v* cases:
tests/fixtures/measured_peaks.json) and absent, with its reason, where the moment does not occur."""

from __future__ import annotations

from dataclasses import replace

from vramgui.core.estimate import estimate
from vramgui.core.fields import registry as fields
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.specs import ModelSpec, OverheadSpec, ParallelSpec, PrecisionSpec, Scenario, TrainingSpec
from vramgui.core.text.message import render

# the harness's llama-v8192h64 shapes: vocabulary = 128 x hidden, llama-mha's block at hidden 64 (FFN 172)
V8192H64 = Architecture(num_layers=2, hidden_size=64, num_heads=4, num_kv_heads=4, ffn_size=172, vocab_size=8192,
                        max_position_embeddings=4096)
V8192H64_TIED = replace(V8192H64, tied_embeddings=True)
ROOT = 2 * 8192 * 64 + 64  # embedding + LM head + final norm
LAYER = 4 * 64 * 64 + 3 * 64 * 172 + 2 * 64


def _scenario(arch: Architecture, *, gpus: int = 2, stage: int = 3, accumulation: int = 1, dtype: str = "fp32",
              **parallel: object) -> Scenario:
    return Scenario(model=ModelSpec(architecture=arch),
                    precision=PrecisionSpec(dtype=dtype, recipe="pure", optimizer="adamw", optimizer_impl="foreach"),
                    training=TrainingSpec(micro_batch=1, seq_len=32,
                                          global_batch=gpus * accumulation if accumulation > 1 else None),
                    parallel=ParallelSpec(num_gpus=gpus, zero_stage=stage, **parallel),  # type: ignore[arg-type]
                    overhead=OverheadSpec(cuda_context=0))


def test_fsdp2_root_all_gather_holds_two_copies_of_the_root_and_of_the_first_layer():
    peak = estimate(_scenario(V8192H64)).peak
    assert peak.term("root_all_gather").bytes == 2 * 4 * ROOT + 2 * 4 * LAYER
    # measured 15,684,652 (forward, steady, rank 0 and 1 alike); predicted at the root all-gather
    assert peak.phase == "root_all_gather" and abs(peak.bytes / 15_684_652 - 1) < 0.002


def test_fsdp2_root_reduce_scatter_holds_its_input_the_embedding_gradient_and_the_previous_input():
    peak = estimate(_scenario(V8192H64)).peak
    assert peak.term("root_reduce_scatter").bytes == 4 * ROOT + 4 * 8192 * 64 + 4 * LAYER
    moment = next(p for p in peak.phases if p.name == "root_reduce_scatter" and p.step == "steady")
    assert abs(moment.bytes / 15_680_308 - 1) < 0.02  # the measured maximum of the steady backward


def test_tied_sum_under_fsdp2_has_three_matrices_beside_the_gathered_root():
    peak = estimate(_scenario(V8192H64_TIED)).peak
    assert peak.term("tied_gradient_sum").bytes == 3 * 4 * 8192 * 64
    assert peak.phase == "tied_gradient_sum"
    assert abs(peak.bytes / 12_526_384 - 1) < 0.001  # measured: EmbeddingBackward0, aten.add


def test_tied_sum_on_one_gpu_counts_the_new_gradient_once():
    one = estimate(_scenario(V8192H64_TIED, gpus=1, stage=0, dtype="bf16")).peak
    assert one.term("tied_gradient_sum").bytes == 2 * 2 * 8192 * 64  # the sum is the gradient (under G)
    acc = estimate(_scenario(V8192H64_TIED, gpus=1, stage=0, dtype="bf16", accumulation=2)).peak
    assert acc.term("tied_gradient_sum").bytes == 3 * 2 * 8192 * 64  # the sum accumulates into an existing one
    zero2 = estimate(_scenario(V8192H64_TIED, gpus=4, stage=2, dtype="bf16")).peak
    assert zero2.term("tied_gradient_sum").bytes == 3 * 2 * 8192 * 64  # the gradient is a partition elsewhere


def test_moments_that_do_not_occur_are_zero_with_their_reason():
    untied = estimate(_scenario(V8192H64, gpus=1, stage=0)).peak
    assert untied.term("tied_gradient_sum").bytes == 0
    assert "untied" in render(untied.term("tied_gradient_sum").deriv.note)
    assert untied.term("root_all_gather").bytes == untied.term("root_reduce_scatter").bytes == 0
    assert "FSDP2" in render(untied.term("root_all_gather").deriv.note)
    names = {p.name for p in untied.phases}
    assert not names & {"root_all_gather", "tied_gradient_sum", "root_reduce_scatter"}
    piped = estimate(_scenario(V8192H64_TIED, gpus=2, stage=0, pp=2)).peak
    assert piped.term("tied_gradient_sum").bytes == 0
    assert "pipeline" in render(piped.term("tied_gradient_sum").deriv.note)
    lora = fields.with_value(_scenario(V8192H64_TIED, gpus=1, stage=0, dtype="bf16"), "finetune.method", "lora")
    assert estimate(lora).peak.term("tied_gradient_sum").bytes == 0  # a frozen embedding has no gradient


def test_ddp_bucket_views_under_no_sync_hold_the_gradients_beside_the_buckets():
    base = _scenario(V8192H64, gpus=2, stage=0, dtype="bf16", accumulation=2)
    view = estimate(fields.with_value(base, "parallel.ddp_bucket_view", True)).peak
    later = next(p for p in view.phases if p.name == "loss_backward_accum" and p.step == "steady")
    assert later.get("gradients") == later.get("comm_buffers") > 0  # the no_sync gradients and the buckets
    end = next(p for p in view.phases if p.name == "backward" and p.step == "steady")
    assert end.get("gradients") == 0  # copied into the bucket views by the synced backward
