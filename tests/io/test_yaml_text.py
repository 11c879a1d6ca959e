"""YAML is read as plain data within the JSON reader's caps; every failure names the document, line and problem."""

from __future__ import annotations

import time

import pytest

from vramgui.io.yaml_text import YamlError, loads_yaml


def test_plain_data_as_pyyaml_safe_load_reads_it():
    assert loads_yaml("a: 1\nb: [x, 2.5]\nc: no\nd: null\n") == {"a": 1, "b": ["x", 2.5], "c": False, "d": None}


@pytest.mark.parametrize(("text", "words"), [
    ("a: 1\na: 2\n", "the field 'a' appears twice"),
    ("a: [1,\n  b: 2\n", "not valid YAML at line 3, column 1"),
    ("a: !!python/object/apply:os.system [ls]\n", "is not plain YAML data"),
    ("x: !include other.yaml\n", "the tag '!include'"),
    ("---\na: 1\n---\nb: 2\n", "more than one YAML document"),
    ("[" * 100 + "]" * 100, "nested more than 64 levels deep"),
    ("? [1, 2]\n: x\n", "a key that is not text or a number"),
])
def test_refusals_name_the_file_and_what_is_wrong(text, words):
    with pytest.raises(YamlError) as info:
        loads_yaml(text, what="cfg.yaml")
    assert str(info.value).startswith("cfg.yaml: ") and words in str(info.value)
    assert "\n" not in str(info.value)


def test_a_billion_laughs_is_refused_while_it_is_read():
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)]
    start = time.perf_counter()
    with pytest.raises(YamlError, match="aliases expand to more than"):
        loads_yaml("\n".join(lines), max_items=100_000)
    assert time.perf_counter() - start < 2


def test_aliases_within_the_cap_and_merge_keys_are_read():
    doc = loads_yaml("base: &b {x: 1, y: 2}\nother:\n  <<: *b\n  y: 3\n")
    assert doc["other"] == {"x": 1, "y": 3}


def test_element_cap():
    with pytest.raises(YamlError, match="more than 10 elements"):
        loads_yaml("[" + ", ".join("1" * 1 for _ in range(20)) + "]", max_items=10)
