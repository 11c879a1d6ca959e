"""The field registry: one entry per scenario field, values that round-trip, exact parsing, clear errors."""

from __future__ import annotations

import ast
import dataclasses
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vramgui.core.fields import registry as fields
from vramgui.core.fields import rules
from vramgui.core.fields.table import FORM_GROUPS, Words
from vramgui.core.scenario import specs
from vramgui.core.step.terms import DEFAULT_CUDA_CONTEXT, DS_PREFETCH_BUCKET, DS_REDUCE_BUCKET, MiB
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import CATALOGUE, Msg, render
from vramgui.paths import resource_path

FIELDS = fields.fields()


def _leaves(obj: object, prefix: str = "") -> list[str]:
    out = []
    for f in dataclasses.fields(obj):  # type: ignore[arg-type]
        value = getattr(obj, f.name)
        if dataclasses.is_dataclass(value):
            out += _leaves(value, f"{prefix}{f.name}.")
        else:
            out.append(prefix + f.name)
    return out


def test_every_dataclass_field_is_registered_once_in_declaration_order():
    from vramgui.core.scenario.architecture import Architecture

    scenario = specs.Scenario(model=specs.ModelSpec(architecture=Architecture()))
    assert [f.path for f in FIELDS] == _leaves(scenario)


def test_defaults_come_from_the_dataclasses_and_are_valid():
    s = specs.Scenario(model=specs.ModelSpec(params=7 * 10**9))
    for f in FIELDS:
        if f.group == "architecture":
            continue
        assert fields.get(s, f.path) == f.default or f.path == "model.params"
        if f.default is not None:
            assert fields.check(f, f.default) == f.default


def test_flags_are_unique_and_map_back():
    flags = [f.flag for f in FIELDS if f.flag]
    assert len(flags) == len(set(flags))
    for f in FIELDS:
        if f.flag:
            assert fields.flag_of(f.path) == f.flag


def test_labels_and_ranges_are_complete():
    for f in FIELDS:
        assert f.label, f.path
        if f.kind in ("int", "count", "bytes", "fraction"):
            assert f.low is not None and f.high is not None and f.low <= f.high, f.path
        if f.kind == "choice":
            assert f.choices, f.path
            assert f.default in f.choices, f.path


def _values(f: fields.Field) -> st.SearchStrategy:
    if f.kind == "bool":
        return st.booleans()
    if f.kind == "choice":
        return st.sampled_from(f.choices)
    if f.kind == "text":
        return st.text(max_size=20).filter(lambda t: t.strip() == t)
    if f.kind == "fraction":
        return st.floats(min_value=0.0, max_value=0.999999, allow_nan=False)
    if f.kind == "number":
        return st.floats(min_value=f.low, max_value=f.high, allow_nan=False)
    return st.integers(min_value=int(f.low), max_value=int(f.high))


@pytest.mark.parametrize("f", [f for f in FIELDS if f.kind != "text"], ids=lambda f: f.path)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_format_then_parse_gives_the_value_back(f, data):
    value = data.draw(_values(f))
    assert fields.parse(f, fields.format_value(f, value)) == value


def test_optional_fields_read_empty_text_as_not_given():
    assert fields.parse(fields.field("training.global_batch"), "  ") is None
    assert fields.parse(fields.field("hardware.gpu_memory"), "") is None
    with pytest.raises(InputError):
        fields.parse(fields.field("training.micro_batch"), "")


def test_sizes_and_counts_are_exact():
    mem = fields.field("hardware.gpu_memory")
    assert fields.parse(mem, "80GiB") == 80 * 2**30
    assert fields.parse(mem, "9007199254740993B") == 9007199254740993  # a float would give ...992
    assert fields.parse(mem, "0.5KiB") == 512
    assert fields.parse(fields.field("model.params"), "7.5e9") == 7_500_000_000
    assert fields.parse(fields.field("model.params"), "1_000") == 1000


@pytest.mark.parametrize(("path", "text"), [
    ("hardware.gpu_memory", "1e308GB"), ("hardware.gpu_memory", "1e300"), ("model.params", "1e300T"),
    ("overhead.extra", "1e308GB"), ("overhead.zero3_live_params", "1e308T"), ("model.params", "1e999999999"),
])
def test_huge_numbers_are_range_errors_after_the_unit(path, text):
    start = time.perf_counter()
    with pytest.raises(InputError) as info:
        fields.parse(fields.field(path), text)
    assert time.perf_counter() - start < 1.0
    err = info.value
    assert err.field == path
    assert err.allowed_msg is not None and "to" in err.allowed


def test_a_count_must_be_whole():
    with pytest.raises(InputError, match="not a whole number"):
        fields.parse(fields.field("model.params"), "1.5")
    with pytest.raises(InputError, match="not a whole number"):
        fields.parse(fields.field("model.largest_layer"), "0.4")


def test_errors_name_the_field_and_range_and_do_not_echo_huge_values():
    tp = fields.field("parallel.tp")
    with pytest.raises(InputError) as info:
        fields.check(tp, 10**4000)
    assert info.value.field == "parallel.tp"
    assert len(str(info.value)) < 200
    with pytest.raises(InputError, match=r"allowed: 1 to 1,000,000"):
        fields.parse(tp, "0")
    with pytest.raises(InputError, match="allowed: 0 <= value < 1"):
        fields.parse(fields.field("hardware.reserve"), "1")
    with pytest.raises(InputError, match="allowed: paper, deepspeed, megatron"):
        fields.parse(fields.field("convention"), "zero")


def test_choice_fields_parse_their_own_type():
    assert fields.parse(fields.field("parallel.zero_stage"), "3") == 3
    assert fields.parse(fields.field("parallel.sp"), "true") is True


def test_with_value_sets_nested_paths_and_starts_an_architecture():
    s = specs.Scenario(model=specs.ModelSpec(params=10**9))
    s2 = fields.with_value(s, "overhead.cuda_context", 2 * 10**9)
    assert s2.overhead.cuda_context == 2 * 10**9 and s.overhead.cuda_context is None  # None: not given
    s3 = fields.with_value(s, "model.architecture.num_layers", 12)
    assert s3.model.architecture is not None and s3.model.architecture.num_layers == 12


@pytest.mark.parametrize(("changes", "path", "inactive"), [
    ({"convention": "megatron"}, "parallel.zero_stage", True),
    ({"convention": "paper"}, "parallel.zero_stage", False),
    ({"convention": "paper"}, "parallel.distributed_optimizer", True),
    ({"convention": "megatron"}, "parallel.distributed_optimizer", False),
    ({"convention": "paper"}, "offload.zero_init", True),
    ({"convention": "deepspeed"}, "offload.zero_init", False),
    ({}, "offload.params", True),
    ({"parallel.zero_stage": 3}, "offload.params", False),
    ({}, "parallel.sp", True),
    ({"parallel.tp": 2, "parallel.num_gpus": 2}, "parallel.sp", False),
    ({"convention": "deepspeed"}, "precision.optimizer", True),
])
def test_inactive_reasons(changes, path, inactive):
    s = specs.Scenario(model=specs.ModelSpec(params=10**9))
    for key, value in changes.items():
        s = fields.with_value(s, key, value)
    reason = fields.inactive_reason(s, path)
    assert (reason is not None) == inactive
    if reason is not None:
        assert render(reason)


def test_message_ids_are_checked():
    with pytest.raises(KeyError):
        Msg.of("error.no_such_message")
    for code, template in CATALOGUE.items():
        assert template, code


def test_size_and_count_ranges_read_in_units():
    assert str(fields.field("hardware.gpu_memory").allowed()) == "1 B to 1,000,000 TB"
    assert str(fields.field("overhead.extra").allowed()) == "0 B to 1,000,000 TB"
    assert str(fields.field("model.params").allowed()) == "1 to 1,000T"
    assert str(fields.field("parallel.tp").allowed()) == "1 to 1,000,000"


@pytest.mark.parametrize(("path", "text", "expected"), [
    ("parallel.num_gpus", "1,000", 1000), ("parallel.num_gpus", "1_000", 1000), ("model.params", "1,000,000", 10**6),
    ("model.params", "1,000.5K", 1_000_500), ("training.global_batch", "12,288", 12288),
])
def test_digit_groups_are_read(path, text, expected):
    assert fields.parse(fields.field(path), text) == expected


@pytest.mark.parametrize(("path", "text"), [
    ("parallel.num_gpus", "1,5"), ("parallel.num_gpus", "1,00"), ("training.micro_batch", "12,34,567"),
    ("parallel.tp", "_2"), ("parallel.tp", "2_"), ("parallel.tp", "1__0"), ("model.params", "7,5B"),
    ("model.params", "1,5"), ("model.params", "_100"), ("model.params", "7.5,0B"),
])
def test_a_misplaced_separator_is_an_error_not_another_number(path, text):
    """"--gpus 1,5" was 15 GPUs and "7,5B" 75B parameters (1.5 and 7.5 where a comma is the decimal mark)."""
    with pytest.raises(InputError) as info:
        fields.parse(fields.field(path), text)
    assert info.value.field == path and info.value.allowed_msg is not None


@pytest.mark.parametrize(("path", "text", "allowed"), [
    ("overhead.cuda_context", "-1GB", "0 B to 1,000,000 TB"), ("hardware.gpu_memory", "-80GiB", "1 B to 1,000,000 TB"),
    ("model.params", "-7B", "1 to 1,000T"), ("overhead.zero3_live_params", "-1e9", "0 to 1,000T"),
    ("overhead.extra", "-1e300TB", "0 B to 1,000,000 TB"),
])
def test_a_negative_size_or_count_is_out_of_range_with_the_range(path, text, allowed):
    with pytest.raises(InputError) as info:
        fields.parse(fields.field(path), text)
    assert "out of range" in info.value.message and info.value.allowed == allowed


def test_minus_zero_is_zero():
    assert fields.parse(fields.field("overhead.cuda_context"), "-0GB") == 0
    reserve = fields.parse(fields.field("hardware.reserve"), "-0")
    assert reserve == 0 and str(reserve) == "0.0"  # not -0.0, which prints as "-0%"
    assert str(fields.check(fields.field("hardware.reserve"), -0.0)) == "0.0"


def test_whole_numbers_are_ascii_digits_like_sizes_and_counts():
    with pytest.raises(InputError, match="expected a whole number"):
        fields.parse(fields.field("parallel.tp"), "١٢")
    with pytest.raises(InputError):
        fields.parse(fields.field("model.params"), "١٢")


def test_a_config_and_a_scenario_share_the_registry_limits():
    from vramgui.core.documents import config_keys

    assert config_keys._LIMITS["layers"] == fields.MAX_LAYERS
    assert config_keys._LIMITS["width"] == fields.MAX_WIDTH


# ------------------------------------------------------------------------------- what a row says about its field


def test_every_field_has_a_form_group_and_a_place_of_its_own_in_it():
    assert {f.form for f in FIELDS} == set(FORM_GROUPS)
    places = [(f.form, f.order) for f in FIELDS]
    assert len(set(places)) == len(places)
    assert all(f.path.startswith("model.architecture.") for f in FIELDS if f.detail)


def test_words_check_texts_and_placeholders_sit_on_fields_whose_editor_shows_them():
    for f in FIELDS:
        assert {value for value, _ in f.words} <= set(f.choices), f.path
        assert not f.check_text or f.widget == "check", f.path
        assert f.ticked is None or (f.widget == "check" and f.ticked in f.choices and len(f.choices) == 2), f.path
        assert not f.placeholder or f.widget == "line", f.path
        assert not f.placeholder_value or "{0}" in f.placeholder, f.path


def test_a_choice_without_words_reads_as_its_value_and_one_with_words_as_them():
    assert fields.field("precision.fp8").words_of("mxfp8") == Words(said="MXFP8")
    assert fields.field("precision.fp8").words_of("delayed").shown == ""  # the combo box shows "delayed"
    assert fields.field("parallel.zero_stage").words_of(2).shown == "ZeRO-2 (+ gradients)"
    assert fields.field("parallel.zero_stage").words_of(2).said == ""  # said by the strategy's name instead


def test_the_overheads_placeholders_are_the_step_peaks_defaults():
    assert fields.field("overhead.cuda_context").placeholder_value == f"{DEFAULT_CUDA_CONTEXT // MiB} MiB"
    assert float(fields.field("overhead.zero3_prefetch").placeholder_value) == DS_PREFETCH_BUCKET
    assert float(fields.field("overhead.reduce_bucket").placeholder_value) == DS_REDUCE_BUCKET


def _marked_words() -> set[tuple[str, str]]:
    """(context, text) of every QT_TRANSLATE_NOOP in the registry's tables."""
    found = set()
    for module in Path(fields.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "QT_TRANSLATE_NOOP":
                found.add((node.args[0].value, node.args[1].value))
    return found


def test_every_word_a_row_marks_has_a_finished_chinese_translation_in_the_fields_context():
    root = ET.parse(resource_path("translations", "vramgui_zh_CN.ts")).getroot()
    finished = {(ctx.findtext("name"), msg.findtext("source")) for ctx in root.iter("context")
                for msg in ctx.iter("message")
                if msg.find("translation").get("type") is None and (msg.findtext("translation") or "").strip()}
    marked = _marked_words()
    assert len(marked) > 200 and {context for context, _ in marked} == {"Fields"}
    assert sorted(marked - finished) == []


def test_every_rule_is_a_function_of_the_scenario_that_leaves_the_defaults_counted_or_says_why():
    s = specs.Scenario(model=specs.ModelSpec(params=10**9))
    for f in FIELDS:
        reason = f.inactive(s)
        assert reason is None or render(reason), f.path
    assert fields.field("model.params").inactive is rules.always_applies
    assert fields.inactive_reason(s, "precision.fp8") == rules.fp8(s)


def test_the_inputs_every_exported_chart_lists_are_the_ones_every_scenario_has():
    essential = {f.path for f in FIELDS if f.essential}
    assert {"model.params", "training.seq_len", "parallel.num_gpus", "convention", "finetune.method"} <= essential
    assert not essential & {"model.name", "hardware.gpu_name", "parallel.zero_stage", "offload.params"}
