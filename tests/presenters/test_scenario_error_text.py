"""A scenario file that cannot be opened: its problems are message ids, shown in the user's language in the
dialog and in English on stderr (``str()``), from the same ``ScenarioError``."""

from __future__ import annotations

import pytest

from vramgui.core.documents import scenario as scenario_doc
from vramgui.core.documents.scenario import ScenarioError
from vramgui.presenters import messages

BAD = {"schema": "vramgui.scenario", "schema_version": 1,
       "model": {"architecture": {"hiden_size": 1}}, "training": {"micro_batch": None}, "colour": "blue"}




def _error() -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        scenario_doc.document_from_dict(BAD, "plan.json")
    return info.value


def test_unknown_fields_suggest_the_near_name_or_list_the_known_ones():
    problems = {path: str(message) for path, message in _error().problems}
    assert problems["model.architecture.hiden_size"] == "unknown field (did you mean 'hidden_size'?)"
    assert problems["colour"].startswith("unknown field (known fields here: model, precision, training,")
    assert problems["training.micro_batch"] == "must be an integer, not null"


def test_str_is_the_english_text_for_stderr():
    text = str(_error())
    assert text.splitlines()[0] == "plan.json: 3 problems in the scenario:"
    assert "  model.architecture.hiden_size: unknown field (did you mean 'hidden_size'?)" in text


def test_the_dialog_text_renders_every_problem_in_chinese(chinese):
    text = messages.scenario_error_text(_error())
    assert text.splitlines()[0] == "plan.json：方案中有 3 个问题："
    assert "  model.architecture.hiden_size: 未知字段（是否想输入 'hidden_size'？）" in text
    assert "  training.micro_batch: 应为整数，而不是 null" in text
    assert "unknown" not in text and "must be" not in text


def test_a_newer_file_names_its_writer_in_chinese(chinese):
    with pytest.raises(ScenarioError) as info:
        scenario_doc.document_from_dict({"schema": "vramgui.scenario", "schema_version": 99, "app_version": "9.0"})
    assert "please update" in str(info.value)
    assert "此文件由 vramgui 9.0 使用方案格式 99 写入" in messages.scenario_error_text(info.value)


def test_a_file_that_is_not_json_is_explained_in_chinese(chinese):
    with pytest.raises(ScenarioError) as info:
        scenario_doc.loads_document('{"model": {"params": 7e9,}}', "plan.json")
    assert str(info.value).startswith("plan.json: not valid JSON: ")
    assert "不是有效的 JSON：第 1 行第 " in messages.scenario_error_text(info.value)


def _estimate_json() -> dict:
    """What `vramgui estimate --json` (and the self-test's OUT.json) writes for the seed's example."""
    import json

    from vramgui.core.estimate import estimate
    from vramgui.presenters.form.groups import default_scenario

    return json.loads(json.dumps(estimate(default_scenario()).to_dict()))


def test_an_estimate_opened_as_a_scenario_is_named_in_one_line(chinese):
    with pytest.raises(ScenarioError) as info:
        scenario_doc.document_from_dict(_estimate_json(), "run.estimate.json")
    assert len(info.value.problems) == 1  # it used to list about 20 "unknown field" lines
    english = str(info.value)
    assert "this is a vramgui estimate" in english and "open the scenario it was computed from" in english
    text = messages.scenario_error_text(info.value)
    assert "这是 vramgui 的估算结果" in text and len(text.splitlines()) == 3


def test_json_with_no_scenario_section_at_all_is_one_line():
    with pytest.raises(ScenarioError) as info:
        scenario_doc.document_from_dict({"zero_optimization": {"stage": 2}, "train_batch_size": 32, "fp16": {}})
    ((path, message),) = info.value.problems
    assert path == "" and str(message).startswith("this JSON object has none of a scenario's sections (model, ")


def test_a_partial_scenario_still_names_each_unknown_field():
    with pytest.raises(ScenarioError) as info:
        scenario_doc.document_from_dict({"model": {"params": 7 * 10**9}, "colour": "blue"})
    assert [path for path, _ in info.value.problems] == ["colour"]


def test_the_dialog_shows_at_most_eight_problems_and_counts_the_rest(chinese):
    many = {"schema": "vramgui.scenario", "model": {f"typo_{i}": 1 for i in range(12)}}
    with pytest.raises(ScenarioError) as info:
        scenario_doc.document_from_dict(many, "plan.json")
    lines = messages.scenario_error_text(info.value).splitlines()
    assert len(info.value.problems) == 12 and len(lines) == 1 + messages.MAX_PROBLEMS_SHOWN + 2
    assert lines[-2] == "  ……另有 4 个问题"


def test_the_count_of_the_rest_is_english_and_plural_without_a_catalogue():
    many = {"schema": "vramgui.scenario", "model": {f"typo_{i}": 1 for i in range(messages.MAX_PROBLEMS_SHOWN + 1)}}
    with pytest.raises(ScenarioError) as info:
        scenario_doc.document_from_dict(many, "plan.json")
    assert messages.scenario_error_text(info.value).splitlines()[-2] == "  … and 1 more problem"
