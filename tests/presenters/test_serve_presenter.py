"""The Serve mode against a fake view: the presenter shows ``vramgui serve``'s answer, disables the training-only
inputs with the reason (the registry's rules) and exports the serving parts as CSV."""

from __future__ import annotations

import csv
from dataclasses import replace
from itertools import pairwise
from unittest.mock import MagicMock

import pytest

from vramgui.core.scenario.choices import Engine, KvDType, WeightFormat
from vramgui.core.scenario.specs import HardwareSpec, Scenario, ServeSpec
from vramgui.core.serve.estimate import serve_estimate
from vramgui.io.presets import find_gpu, find_model
from vramgui.presenters.main_presenter import MainPresenter
from vramgui.presenters.protocols import MainView
from vramgui.presenters.serve_results import compute_serve, contexts
from vramgui.presenters.view_models import ServeResultVM


def issue_scenario(**serve) -> Scenario:
    """The issue's example: Llama 3 8B, 16 × 8,192 tokens, AWQ int4, fp8 KV cache, vLLM on an RTX 4090."""
    gpu = find_gpu("rtx-4090")
    spec = ServeSpec(context=8192, batch=16, weights=WeightFormat.AWQ_INT4, kv_dtype=KvDType.FP8,
                     engine=Engine.VLLM, active=True)
    return Scenario(model=find_model("llama-3-8b").spec, hardware=HardwareSpec(gpu_memory=gpu.memory,
                                                                                 gpu_name=gpu.name),
                    serve=replace(spec, **serve))


@pytest.fixture
def view():
    return MagicMock(spec=MainView)


@pytest.fixture
def presenter(qapp, view):
    p = MainPresenter(view)
    p.start()
    yield p
    p.finish_sweeps()


def test_serve_mode_shows_the_cli_answer(presenter, view):
    s = issue_scenario()
    presenter.finish_sweeps()
    view.reset_mock()
    presenter.load_scenario(s)
    presenter.finish_sweeps()
    vm = view.show_serve_result.call_args.args[0]
    assert isinstance(vm, ServeResultVM)
    e = serve_estimate(s)
    assert presenter.served is not None and presenter.served.to_dict() == e.to_dict()
    assert vm.summary.peak_bytes == e.peak_bytes
    assert vm.summary.fits is True
    # vLLM's own figures for this scenario (vramgui serve --json): 16,405 blocks, 262,480 tokens, 32.04x
    assert "262,480" in vm.summary.max_micro_batch_text and "16,405" in vm.summary.max_micro_batch_text
    assert "32.04" in vm.summary.host_text
    rows = {r.key: r for r in vm.breakdown}
    assert rows["total"].bytes == e.peak_bytes
    assert rows["kv_pool"].bytes == 16_405 * 32_768 * 32  # num_blocks × page × layers
    assert rows["kv_cache"].bytes == 16 * 512 * 32_768 * 32  # 16 requests × 512 blocks
    assert "=" in rows["weights"].formula  # the derivation, as in training
    assert not view.show_sweep.called  # no training sweeps in Serve mode


def test_context_chart_marks_the_context_and_the_concurrency(presenter, view):
    presenter.load_scenario(issue_scenario())
    chart = view.show_serve_result.call_args.args[0].chart
    assert chart.counts == contexts(8192) and chart.current == 8192
    i = chart.counts.index(8192)
    assert "32.04" in chart.point_notes[i]  # what vLLM would log at that context
    kv = next(s for s in chart.series if s.key == "kv_cache").values
    assert all(b > a for a, b in pairwise(kv))  # the cache grows with the context
    assert chart.capacity == pytest.approx(find_gpu("rtx-4090").memory / 1e9)


def test_contexts_reach_past_a_long_context():
    assert contexts(1000)[0] == 256 and contexts(1000)[-1] == 131_072
    assert contexts(300_000)[-1] == 524_288


def test_training_only_inputs_are_disabled_with_the_reason(presenter, view):
    presenter.load_scenario(issue_scenario())
    states, reasons = view.set_fields_enabled.call_args.args
    assert states["serve.engine"] and states["serve.context"] and states["parallel.tp"]
    assert not states["training.micro_batch"] and not states["parallel.zero_stage"]
    assert "Serve mode" in reasons["training.micro_batch"]
    presenter.load_scenario(replace(issue_scenario(), serve=replace(issue_scenario().serve, active=False)))
    states, reasons = view.set_fields_enabled.call_args.args
    assert states["training.micro_batch"] and not states["serve.engine"]
    assert view.show_result.called and presenter.served is None


def test_double_quant_applies_to_served_nf4_weights_only(presenter, view):
    presenter.load_scenario(issue_scenario(weights=WeightFormat.NF4, kv_dtype=KvDType.AUTO))
    states, _ = view.set_fields_enabled.call_args.args
    assert states["finetune.double_quant"]
    presenter.load_scenario(issue_scenario())
    states, _ = view.set_fields_enabled.call_args.args
    assert not states["finetune.double_quant"]


def test_a_refused_serving_input_is_named(presenter, view):
    presenter.load_scenario(issue_scenario(engine=Engine.LLAMA_CPP))  # llama.cpp has no fp8 KV cache
    errors = view.show_field_errors.call_args.args[0]
    assert [e.key for e in errors] == ["serve.kv_dtype"]
    assert presenter.is_stale


def test_llama_cpp_cells_in_the_summary():
    s = issue_scenario(engine=Engine.LLAMA_CPP, weights=WeightFormat.GGUF_Q4_K_M, kv_dtype=KvDType.Q8_0, batch=1)
    served = compute_serve(s, "GB")
    cells = serve_estimate(s).llama_cpp
    assert cells is not None and f"{cells.cells:,}" in served.result.summary.max_micro_batch_text


def test_csv_holds_the_parts_and_the_context_sweep(presenter, tmp_path):
    presenter.load_scenario(issue_scenario())
    path = tmp_path / "serve.csv"
    presenter.write_csv(str(path))
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    e = serve_estimate(issue_scenario())
    total = next(r for r in rows if r["table"] == "serve_breakdown" and r["component"] == "total")
    assert int(total["bytes"]) == e.peak_bytes
    swept = [r for r in rows if r["table"] == "serve_vs_context" and r["component"] == "kv_cache"]
    assert [int(r["context"]) for r in swept] == list(contexts(8192))


def test_the_count_beside_the_model_follows_the_served_model(presenter, view):
    presenter.load_scenario(issue_scenario())
    gemma = find_model("gemma-2-9b")
    presenter.load_scenario(replace(issue_scenario(), model=gemma.spec))
    shown = {k: v for call in view.set_form_values.call_args_list for k, v in call.args[0].items()}
    assert shown["model.params"] == str(gemma.params)


def test_each_engine_s_own_knobs_apply_to_it_only(presenter, view):
    presenter.load_scenario(issue_scenario())  # vLLM
    states, reasons = view.set_fields_enabled.call_args.args
    assert states["serve.block_size"] and states["serve.gpu_memory_utilization"] and not states["serve.ubatch"]
    assert not states["hardware.reserve"] and "utilization" in reasons["hardware.reserve"]
    presenter.load_scenario(issue_scenario(kv_cache_memory_bytes=8 * 2**30))  # the pool given: no profiling
    states, reasons = view.set_fields_enabled.call_args.args
    assert not states["serve.gpu_memory_utilization"] and "KV cache memory" in reasons["serve.gpu_memory_utilization"]
    presenter.load_scenario(issue_scenario(engine=Engine.LLAMA_CPP, weights=WeightFormat.GGUF_Q4_K_M,
                                           kv_dtype=KvDType.Q8_0))
    states, reasons = view.set_fields_enabled.call_args.args
    assert states["serve.ubatch"] and states["hardware.reserve"] and not states["serve.block_size"]
    assert "vLLM" in reasons["serve.block_size"]
