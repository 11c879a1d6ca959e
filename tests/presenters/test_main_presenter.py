"""The main presenter against a fake view (MagicMock(spec=MainView)): no window, numbers from the core."""

from __future__ import annotations

import csv
import json
from dataclasses import replace
from unittest.mock import MagicMock

import pytest

from vramgui.core.estimate import estimate
from vramgui.core.scenario.architecture import count_params
from vramgui.core.scenario.specs import HardwareSpec, ModelSpec, ParallelSpec, PrecisionSpec, Scenario, TrainingSpec
from vramgui.core.solve import questions as solve
from vramgui.core.text.units import format_bytes
from vramgui.io.presets import find_gpu, find_model
from vramgui.presenters.form.groups import CUSTOM, IMPORTED, default_scenario, first_scenario
from vramgui.presenters.main_presenter import MainPresenter
from vramgui.presenters.protocols import MainView

GB = 10**9


@pytest.fixture
def view():
    return MagicMock(spec=MainView)


@pytest.fixture
def presenter(qapp, view):
    """Started on the seed's worked example (7B, 8 x 80 GB, ZeRO-2: 26.25 GB), the numbers these tests check; the
    window's own first screen (Llama-3-8B) is ``test_start_with_no_scenario_shows_llama_3_8b_on_eight_h100s``."""
    p = MainPresenter(view)
    p.start(default_scenario())
    yield p
    p.finish_sweeps()


def seed_scenario(stage: int = 2) -> Scenario:
    return Scenario(
        model=ModelSpec(name="custom", params=7 * GB),
        precision=PrecisionSpec(dtype="fp16", recipe="mixed", optimizer="adam"),
        parallel=ParallelSpec(num_gpus=8, gpus_per_node=8, zero_stage=stage),
        hardware=HardwareSpec(gpu_memory=80 * GB, reserve=0.2),
    )


@pytest.fixture
def seeded(presenter):
    """The seed's own example, with its 20 % reserve (the window starts with the registry's 10 %)."""
    presenter.load_scenario(seed_scenario())
    return presenter


def last_result(view):
    return view.show_result.call_args.args[0]


def test_start_with_no_scenario_shows_llama_3_8b_on_eight_h100s(qapp, view):
    p = MainPresenter(view)
    p.start()
    keys = {call.args[0] for call in view.set_choices.call_args_list}
    assert keys == {"model.preset", "hardware.gpu"}
    gpus = dict(view.set_choices.call_args_list[-1].args[1])
    assert "a100-80gb" in gpus and CUSTOM in gpus
    assert p.scenario == first_scenario() and p.form_value("model.preset") == "llama-3-8b"
    assert p.form_value("hardware.gpu") == "h100-sxm"
    est = estimate(first_scenario())
    assert est.activation_detail is not None and est.fits  # the architecture sizes the activations; it fits
    assert last_result(view).summary.total_bytes == est.per_gpu_total
    assert p.scenario.hardware.reserve == HardwareSpec().reserve == 0.1  # the registry's default, as the CLI
    p.finish_sweeps()


def test_start_with_the_seed_example_shows_its_26_25_gb(presenter, view):
    result = last_result(view)
    assert result.summary.total_bytes == 26_250_000_000 == estimate(seed_scenario()).per_gpu_total
    assert result.summary.fits is True
    assert result.summary.strategy == "ZeRO-2"
    assert presenter.scenario == replace(seed_scenario(), hardware=HardwareSpec(gpu_memory=80 * GB))  # 10 % reserve
    assert presenter.scenario.hardware.reserve == HardwareSpec().reserve == 0.1  # the registry's default, as the CLI


def test_strategy_bars_reproduce_the_seed_table(seeded, view):
    bars = last_result(view).bars
    totals = dict(zip(bars.strategies, bars.totals, strict=True))
    assert totals["DDP"] == pytest.approx(112.0)
    assert totals["ZeRO-1"] == pytest.approx(38.5)
    assert totals["ZeRO-2"] == pytest.approx(26.25)
    assert totals["ZeRO-3"] == pytest.approx(14.0)
    assert bars.strategies[bars.chosen] == "ZeRO-2"
    assert bars.capacity == pytest.approx(80.0) and bars.usable == pytest.approx(64.0)
    # each bar is stacked: bottoms of a segment are the tops of the previous one, and the stack is the total
    for i, total in enumerate(bars.totals):
        assert sum(seg.heights[i] for seg in bars.segments) == pytest.approx(total)


def test_segment_tooltips_give_exact_bytes(presenter, view):
    bars = last_result(view).bars
    params = next(seg for seg in bars.segments if seg.key == "parameters")
    assert "14,000,000,000 B" in params.tooltips[bars.strategies.index("DDP")]


def test_largest_model_sweep_is_the_seeds_reverse_solve(seeded, view):
    seeded.finish_sweeps()
    sweep = view.show_max_model.call_args.args[0]
    series = {s.label: s.values for s in sweep.series}
    at8 = sweep.counts.index(8)
    # the core's reverse solve, judged by the step peak (the seed's 4 B for DDP and 32 B for ZeRO-3 are the
    # boundary of the per-GPU sum; the peak adds the CUDA context, buckets and optimizer temporaries: smaller)
    variants = {str(st): v for st, v in solve.strategy_variants(seed_scenario())}
    for name, seed_answer in (("DDP", 4.0), ("ZeRO-1", None), ("ZeRO-3", 32.0)):
        assert series[name][at8] * 1e9 == pytest.approx(solve.max_params(variants[name]))
        if seed_answer is not None:
            assert series[name][at8] < seed_answer


def test_per_gpu_sweep_matches_the_core_at_every_count(presenter, view):
    presenter.finish_sweeps()
    sweep = view.show_sweep.call_args.args[0]
    zero3 = next(s for s in sweep.series if s.label == "ZeRO-3")
    for count, value in zip(sweep.counts, zero3.values, strict=True):
        scenario = seed_scenario(3)
        scenario = replace(scenario, parallel=replace(scenario.parallel, num_gpus=count,
                                                      gpus_per_node=min(8, count)))
        assert value * GB == pytest.approx(estimate(scenario).peak.bytes)  # the step peak, what decides fits


def test_sweeps_arrive_after_the_immediate_result(qtbot, presenter, view):
    view.show_sweep.reset_mock()
    presenter.on_field_edited("model.params", "13B")
    assert presenter.sweeps_pending
    with qtbot.waitSignal(presenter.sweeps_done, timeout=20_000):
        pass
    assert view.show_sweep.called and view.show_max_model.called
    assert not presenter.sweeps_pending


def test_invalid_count_keeps_the_last_result_and_marks_it_stale(presenter, view):
    before = presenter.scenario
    shown = view.show_result.call_count
    presenter.on_field_edited("model.params", "seven billion")
    errors = view.show_field_errors.call_args.args[0]
    assert [e.key for e in errors] == ["model.params"]
    assert "seven billion" in errors[0].message and "K, M, B" in errors[0].message  # what was typed, what fits
    reason = view.show_stale.call_args.args[0]
    assert reason and "seven billion" in reason
    assert view.show_result.call_count == shown
    assert presenter.scenario == before and presenter.is_stale


def test_fixing_the_input_clears_the_message_and_the_stale_mark(presenter, view):
    presenter.on_field_edited("model.params", "x")
    presenter.on_field_edited("model.params", "13B")
    view.show_field_errors.assert_called_with([])
    view.show_stale.assert_called_with(None)
    assert last_result(view).summary.total_bytes == estimate(
        replace(seed_scenario(), model=ModelSpec(name="custom", params=13 * GB))).per_gpu_total
    assert not presenter.is_stale


def test_core_input_error_lands_on_the_field_the_core_names(presenter, view):
    presenter.on_field_edited("parallel.tp", 3)  # 8 GPUs do not divide into TP 3: the core names parallel.num_gpus
    errors = view.show_field_errors.call_args.args[0]
    assert [e.key for e in errors] == ["parallel.num_gpus"]
    assert "divide" in errors[0].message
    presenter.on_field_edited("parallel.tp", 1)
    presenter.on_field_edited("training.global_batch", "7")  # not a multiple of micro-batch × N_d
    assert [e.key for e in view.show_field_errors.call_args.args[0]] == ["training.global_batch"]


def test_several_bad_fields_are_all_reported(presenter, view):
    presenter.on_field_edited("hardware.gpu_memory", "lots")
    presenter.on_field_edited("training.global_batch", "-4")
    keys = {e.key for e in view.show_field_errors.call_args.args[0]}
    assert keys == {"hardware.gpu_memory", "training.global_batch"}


def test_choosing_a_model_preset_uses_its_exact_parameter_count(presenter, view):
    preset = find_model("llama-3-8b")
    presenter.on_field_edited("model.preset", preset.key)
    pushed = {}
    for call in view.set_form_values.call_args_list:
        pushed.update(call.args[0])
    assert pushed["model.mode"] == "preset"
    assert pushed["model.architecture.num_layers"] == preset.spec.architecture.num_layers
    assert presenter.scenario.model == preset.spec
    result = last_result(view)
    assert result.summary.total_bytes == estimate(presenter.scenario).per_gpu_total
    assert pushed["model.params"] == str(estimate(presenter.scenario).params)
    assert result.summary.max_micro_batch_text.startswith(str(solve.max_micro_batch(presenter.scenario)))


def test_editing_the_architecture_recounts_parameters(presenter, view):
    presenter.on_field_edited("model.preset", "llama-3-8b")
    presenter.on_field_edited("model.mode", "architecture")
    states = view.set_fields_enabled.call_args.args[0]
    assert states["model.architecture.num_layers"] and not states["model.params"]
    presenter.on_field_edited("model.architecture.num_layers", 16)
    arch = presenter.scenario.model.architecture
    assert arch.num_layers == 16
    assert estimate(presenter.scenario).params == count_params(arch)
    assert count_params(arch) < find_model("llama-3-8b").spec.params
    before = len(view.set_form_values.call_args_list)
    presenter.on_field_edited("model.mode", "preset")  # back to the preset: its own numbers again
    assert presenter.scenario.model == find_model("llama-3-8b").spec
    shown = {}
    for call in view.set_form_values.call_args_list[before:]:
        shown.update(call.args[0])
    assert shown["model.architecture.num_layers"] == 32


def test_gpu_preset_fills_memory_and_editing_memory_makes_it_custom(presenter, view):
    gpu = find_gpu("h100-sxm")
    presenter.on_field_edited("hardware.gpu", gpu.key)
    assert presenter.scenario.hardware.gpu_memory == gpu.memory
    assert presenter.scenario.hardware.gpu_name == gpu.name
    presenter.on_field_edited("hardware.gpu_memory", "80 GiB" if gpu.memory == 80 * 2**30 else f"{gpu.memory} B")
    assert presenter.form_value("hardware.gpu") == gpu.key  # the same bytes written another way
    presenter.on_field_edited("hardware.gpu_memory", "96GB")
    assert presenter.form_value("hardware.gpu") == CUSTOM
    assert presenter.scenario.hardware.gpu_memory == 96 * GB
    assert presenter.scenario.hardware.gpu_name is None


def test_gpu_count_and_global_batch_give_accumulation_steps(presenter, view):
    presenter.on_field_edited("parallel.num_gpus", 16)
    presenter.on_field_edited("training.global_batch", "512")
    assert presenter.scenario.parallel.num_gpus == 16 and presenter.scenario.parallel.gpus_per_node == 8
    est = estimate(presenter.scenario)
    assert est.accumulation_steps == 32
    assert last_result(view).summary.accumulation_text.startswith("32 ")


def test_offload_reports_host_memory(presenter, view):
    presenter.on_field_edited("offload.optimizer", True)
    est = estimate(presenter.scenario)
    assert est.host_per_node
    assert format_bytes(est.host_per_node) in last_result(view).summary.host_text


def test_unit_switch_formats_in_gib(presenter, view):
    presenter.set_unit("GiB")
    result = last_result(view)
    assert result.summary.total_text.startswith(format_bytes(26_250_000_000, "GiB"))
    assert result.bars.unit == "GiB"


def test_breakdown_rows_carry_formulas_and_sum_to_the_total(presenter, view):
    rows = {r.key: r for r in last_result(view).breakdown}
    derivation = estimate(seed_scenario()).component("parameters").derivation
    assert rows["parameters"].formula == derivation and "14.00 GB" in derivation
    assert rows["total"].bytes == 26_250_000_000
    assert rows["activations"].bytes is None  # no architecture: not estimated, and said so


def test_csv_rows_round_trip_the_core_bytes(tmp_path, seeded):
    path = tmp_path / "data.csv"
    seeded.finish_sweeps()
    seeded.write_csv(str(path))
    with open(path, newline="", encoding="utf-8-sig") as fh:
        rows = list(csv.DictReader(fh))
    est = estimate(seed_scenario())
    breakdown = {r["component"]: r for r in rows if r["table"] == "breakdown"}
    assert int(breakdown["total"]["bytes"]) == est.per_gpu_total
    assert int(breakdown["optimizer_states"]["bytes"]) == est.bytes_of("optimizer_states")
    ddp8 = [r for r in rows
            if r["table"] == "largest_model_vs_gpus" and r["strategy"] == "DDP" and r["num_gpus"] == "8"]
    assert int(ddp8[0]["params"]) == solve.max_params(solve.strategy_variants(seed_scenario())[0][1])  # DDP
    tables = {r["table"] for r in rows}
    assert tables == {"breakdown", "strategies", "per_gpu_vs_gpus", "largest_model_vs_gpus"}


def test_import_of_a_missing_file_is_an_inline_message(presenter, view, tmp_path):
    assert presenter.import_model(str(tmp_path / "nope" / "config.json")) is False
    errors = view.show_field_errors.call_args.args[0]
    assert errors[0].key == "model.preset" and "config.json" in errors[0].message


def test_import_of_a_config_json_becomes_the_model(presenter, view, tmp_path):
    config = {
        "model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 1024,
        "intermediate_size": 2816, "num_attention_heads": 16, "num_key_value_heads": 4,
        "num_hidden_layers": 8, "vocab_size": 32000, "tie_word_embeddings": False,
        "max_position_embeddings": 2048, "rms_norm_eps": 1e-5,
    }
    folder = tmp_path / "tiny-llama"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    assert presenter.import_model(str(folder)) is True
    choices = view.set_choices.call_args.args[1]
    assert choices[1][0] == IMPORTED
    arch = presenter.scenario.model.architecture
    assert (arch.num_layers, arch.hidden_size, arch.kv_heads) == (8, 1024, 4)
    assert last_result(view).summary.total_bytes == estimate(presenter.scenario).per_gpu_total


def test_loading_a_scenario_shows_exactly_that_scenario(presenter, view):
    scenario = Scenario(
        model=find_model("qwen2.5-7b").spec,
        precision=PrecisionSpec(dtype="bf16", recipe="mixed", optimizer="adamw"),
        training=TrainingSpec(micro_batch=2, seq_len=4096, global_batch=256, recompute="full"),
        parallel=ParallelSpec(num_gpus=16, gpus_per_node=8, zero_stage=3, tp=2),
        hardware=HardwareSpec(gpu_name=find_gpu("a100-80gb").name, gpu_memory=find_gpu("a100-80gb").memory,
                              reserve=0.1),
        convention="deepspeed",
    )
    presenter.load_scenario(scenario)
    assert presenter.scenario == scenario
    assert presenter.form_value("hardware.gpu") == "a100-80gb"
    assert last_result(view).summary.total_bytes == estimate(scenario).per_gpu_total


def test_an_error_naming_no_form_field_is_a_general_message(presenter, view):
    presenter.on_field_edited("model.params", "")  # no count and no architecture: the core names model.params
    assert [e.key for e in view.show_field_errors.call_args.args[0]] == ["model.params"]
    presenter.on_field_edited("no.such.field", "1")  # ignored, never an error
    assert [e.key for e in presenter.errors] == ["model.params"]

