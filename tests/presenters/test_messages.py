"""Core messages in the user's language: codes rendered through Qt's catalogue, no English parsed back."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vramgui.core.documents.scenario import ScenarioError
from vramgui.core.estimate import estimate
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.specs import HardwareSpec, ModelSpec, OffloadSpec, ParallelSpec, Scenario, TrainingSpec
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import CATALOGUE, Msg
from vramgui.presenters import messages, results

BASE = Scenario(model=ModelSpec(params=7 * 10**9), parallel=ParallelSpec(num_gpus=8, zero_stage=2),
                hardware=HardwareSpec(gpu_memory=80 * 10**9, reserve=0.2))
ARCH = ModelSpec(architecture=Architecture(num_layers=4, hidden_size=512, num_heads=8, ffn_size=1376,
                                           vocab_size=32000))

BAD = {
    "gpus not divisible": replace(BASE, parallel=replace(BASE.parallel, tp=3)),
    "global batch": replace(BASE, training=TrainingSpec(global_batch=7)),
    "micro-batch range": replace(BASE, training=TrainingSpec(micro_batch=0)),
    "reserve range": replace(BASE, hardware=HardwareSpec(gpu_memory=10**9, reserve=1.5)),
    "param offload stage": replace(BASE, offload=OffloadSpec(params="cpu")),
    "optimizer offload stage 0": replace(BASE, parallel=replace(BASE.parallel, zero_stage=0),
                                         offload=OffloadSpec(optimizer="cpu")),
    "unknown dtype": replace(BASE, precision=replace(BASE.precision, dtype="fp8")),
    "pipeline stages": replace(BASE, model=ARCH, parallel=replace(BASE.parallel, pp=8)),
    "tp divides heads": replace(BASE, model=replace(ARCH, architecture=replace(ARCH.architecture, num_heads=6,
                                                                                 hidden_size=516)),
                                parallel=replace(BASE.parallel, num_gpus=16, tp=16)),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_core_errors_are_message_codes_from_the_catalogue(case):
    with pytest.raises(InputError) as info:
        estimate(BAD[case])
    err = info.value
    assert isinstance(err.msg, Msg) and err.msg.code in CATALOGUE
    assert err.allowed_msg is None or (isinstance(err.allowed_msg, Msg) and err.allowed_msg.code in CATALOGUE)
    label = messages.field_label(err.field)
    assert messages.input_error_text(err) == f"{label}: {err.message}" + (
        f" (allowed: {err.allowed})" if err.allowed else "")


def test_error_text_names_the_field_by_its_registry_label_and_keeps_the_range():
    err = InputError("parallel.num_gpus", Msg.of("error.gpus_not_divisible", gpus=8, group=3),
                     Msg.of("allowed.multiple_of_group", nearest="6, 9"))
    assert messages.input_error_text(err) == \
        "Number of GPUs: 8 GPUs do not divide into tp × pp = 3 (allowed: a multiple of tp × pp: 6, 9)"


def test_a_path_the_registry_does_not_know_is_shown_as_it_is():
    assert messages.input_error_text(InputError("weights", "model.safetensors: truncated")) == \
        "weights: model.safetensors: truncated"
    assert messages.input_error_text(InputError("--max-gpus", Msg.of("error.out_of_range", value="0"))) == \
        "--max-gpus: 0 is out of range"
    assert messages.field_label("overhead.unknown_field") == "overhead.unknown_field"
    assert messages.input_error_text(ValueError("plain")) == "plain"


def test_scenario_problems_keep_their_field_paths():
    err = ScenarioError([("precision.dtype", "'fp8' is not one of fp32, fp16, bf16"),
                         ("training.micro_batch", "must be at least 1, not 0")], "plan.json")
    text = messages.scenario_error_text(err)
    assert text.splitlines()[0] == "plan.json: 2 problems in the scenario:"
    assert "  precision.dtype: 'fp8' is not one of fp32, fp16, bf16" in text
    assert text.endswith("Nothing was changed.")


def test_notes_are_messages_rendered_for_the_summary(qapp):
    s = replace(BASE, convention="deepspeed", parallel=replace(BASE.parallel, zero_stage=0))
    est = estimate(s)
    assert all(isinstance(n, Msg) for n in est.notes)
    shown = results.compute(s).result.summary.notes
    assert shown == tuple(str(n) for n in est.notes)
    assert "DeepSpeed publishes no stage-0 estimator: its stage-1/2 bytes, nothing partitioned" in shown


def test_breakdown_rows_are_in_the_display_unit_all_the_way(qapp):
    rows = {r.key: r for r in results.compute(BASE, "GiB").result.breakdown}
    assert rows["gradients"].formula == "2 × 7.00e9 / 8 = 1.63 GiB"
    assert rows["gradients"].value_text == "1.63 GiB"
    assert not any(" GB" in r.formula for r in rows.values())


def test_under_megatron_the_window_names_the_strategy_the_core_computes(qapp):
    s = replace(BASE, convention="megatron", parallel=replace(BASE.parallel, distributed_optimizer=False))
    vm = results.compute(s).result
    assert vm.summary.strategy == "Megatron (no distributed optimizer)"
    assert vm.bars.strategies[vm.bars.chosen] == vm.summary.strategy
    assert vm.bars.keys == ("megatron", "megatron+distopt")


# ------------------------------------------------------------------------------------------------ in Chinese




def test_an_input_error_reads_in_chinese(chinese):
    with pytest.raises(InputError) as info:
        estimate(BAD["gpus not divisible"])
    assert messages.input_error_text(info.value) == \
        "GPU 数量：8 张 GPU 无法按 TP × PP = 3 整除（允许：TP × PP 的倍数：6, 9）"


def test_derivations_notes_and_strategies_read_in_chinese(chinese):
    s = replace(BASE, parallel=replace(BASE.parallel, zero_stage=3), offload=OffloadSpec(optimizer="cpu"))
    vm = results.compute(s, "GiB").result
    rows = {r.key: r for r in vm.breakdown}
    assert rows["gradients"].label == "梯度"
    assert rows["gradients"].formula == "0：梯度分片已卸载到主机内存"
    assert rows["parameters"].formula == "2 × 7.00e9 / 8 = 1.63 GiB"
    assert rows["activations"].formula == "无法估算：模型结构未知"
    assert vm.summary.strategy == "ZeRO-3 + 优化器 CPU 卸载"
    assert "未估算激活值：模型结构未知" in vm.summary.notes
    assert vm.bars.short_labels[-1] == "ZeRO-3\n+ 卸载（全部）"
    assert [seg.label for seg in vm.bars.segments][:3] == ["参数", "梯度", "优化器状态"]


def test_a_comparison_file_problem_is_shown_in_the_reader_s_language(chinese, tmp_path):
    from vramgui.presenters.compare import files

    bad = tmp_path / "bad.json"
    bad.write_text('{"pinned": [{"training": {"micro_batch": 0}}]}', encoding="utf-8")
    with pytest.raises(files.ComparisonError) as info:
        files.load_comparison(bad, max_entries=6)
    shown = files.error_text(info.value).splitlines()
    assert shown[:3] == [f"无法打开 {bad}：", "  其中 1 个方案无法使用", "  固定的方案 1："]
    assert str(info.value).splitlines()[0] == f"{bad}: 1 of its scenarios cannot be used"


@pytest.mark.parametrize(("rest", "english"), [
    (1, "1 layer is left over, and no other pipeline stage takes it"),
    (2, "2 layers are left over, and no other pipeline stage takes them"),
])
def test_a_count_in_the_window_reads_one_layer_or_layers_in_english(qapp, rest, english):
    assert messages.text(Msg.of("error.middle_layers_left", rest=rest)) == english


@pytest.mark.parametrize("rest", [1, 2])
def test_a_count_in_the_window_takes_qt_s_chinese_numerus_form(chinese, rest):
    assert messages.text(Msg.of("error.middle_layers_left", rest=rest)) == f"剩下 {rest} 层，没有其他流水线阶段接收"
