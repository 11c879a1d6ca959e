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
