"""The one capped JSON reader: deep, wide, duplicate-keyed, NaN-holding, non-UTF-8 or broken texts are refused fast
with a message fit for a user, never a RecursionError or a huge structure."""

from __future__ import annotations

import json
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vramgui.core.documents.json_text import check_json_shape, loads_json
from vramgui.io.files import FileReadError, FileTooLargeError, JsonError, read_json


def test_reads_json_from_a_path_bytes_or_text(tmp_path):
    path = tmp_path / "a.json"
    path.write_text('{"a": [1, 2.5, "x"]}', encoding="utf-8")
    expected = {"a": [1, 2.5, "x"]}
    assert read_json(path, max_bytes=100) == expected
    assert read_json(path.read_bytes(), max_bytes=100) == expected
    assert read_json(path.read_text(encoding="utf-8"), max_bytes=100) == expected


def test_a_utf8_byte_order_mark_is_tolerated(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf[1]")
    assert read_json(path, max_bytes=100) == [1]
    assert read_json(b"\xef\xbb\xbf[1]", max_bytes=100) == [1]


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, "[" * 100_000, '{"a":' * 100_000,
                                  "[" * 2_000_000])
def test_deep_nesting_is_refused_with_a_message_not_a_recursion_error(text):
    start = time.monotonic()
    with pytest.raises(JsonError) as err:
        read_json(text.encode(), max_bytes=10**7, what="model config")
    assert "nested more than 64 levels deep" in str(err.value) and "model config" in str(err.value)
    assert time.monotonic() - start < 5


def test_nesting_up_to_the_limit_is_read():
    assert read_json("[" * 64 + "]" * 64, max_bytes=1000) is not None
    with pytest.raises(JsonError, match="nested more than 64"):
        read_json("[" * 65 + "]" * 65, max_bytes=1000)
    assert read_json("[[[1]]]", max_bytes=100, max_depth=3) == [[[1]]]
    with pytest.raises(JsonError, match="nested more than 2 levels"):
        read_json("[[[1]]]", max_bytes=100, max_depth=2)


def test_a_deep_document_beyond_the_interpreter_limit_is_still_a_json_error():
    depth = sys.getrecursionlimit() * 4
    with pytest.raises(JsonError, match="nested"):
        loads_json("[" * depth + "]" * depth, max_depth=depth + 1)


def test_brackets_and_commas_inside_strings_do_not_count():
    text = json.dumps(["[[[[{{{{" * 100, ",,,,," * 100, 'a "quoted" \\ [ backslash'])
    assert read_json(text, max_bytes=10**6, max_depth=1, max_items=3) == json.loads(text)


def test_too_many_elements_are_refused_before_anything_is_built():
    assert read_json("[1, 2, 3]", max_bytes=100, max_items=3) == [1, 2, 3]
    assert read_json('{"a": [1, 2]}', max_bytes=100, max_items=3) == {"a": [1, 2]}
    with pytest.raises(JsonError, match="more than 3 elements"):
        read_json("[1, 2, 3, 4]", max_bytes=100, max_items=3)
    with pytest.raises(JsonError, match="more than 3 elements"):
        read_json('{"a": [1, 2], "b": 3}', max_bytes=100, max_items=3)
    with pytest.raises(JsonError, match="more than 3 elements"):
        read_json("[[], [], [], []]", max_bytes=100, max_items=3)


def test_a_million_element_list_is_refused_fast():
    text = "[" + "0," * 3_000_000 + "0]"
    start = time.monotonic()
    with pytest.raises(JsonError, match="more than 1,000,000 elements"):
        read_json(text, max_bytes=10**8)
    assert time.monotonic() - start < 5


def test_many_empty_containers_are_refused_fast():
    start = time.monotonic()
    with pytest.raises(JsonError, match="elements"):
        check_json_shape("[]" * 5_000_000)
    assert time.monotonic() - start < 5


def test_an_unterminated_string_full_of_escaped_quotes_is_scanned_in_linear_time():
    text = '"' + '\\"' * 2_000_000
    start = time.monotonic()
    with pytest.raises(JsonError, match="not valid JSON"):
        read_json(text, max_bytes=10**8)
    assert time.monotonic() - start < 5


def test_duplicate_keys_are_refused_at_any_depth():
    with pytest.raises(JsonError, match="'a' appears twice"):
        read_json('{"a": 1, "a": 2}', max_bytes=100)
    with pytest.raises(JsonError, match="'b' appears twice"):
        read_json('{"a": [{"b": 1, "b": 1}]}', max_bytes=100)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused_unless_allowed(constant):
    with pytest.raises(JsonError, match=f"{constant} is not allowed"):
        read_json(f"[{constant}]", max_bytes=100)
    (value,) = read_json(f"[{constant}]", max_bytes=100, allow_nan=True)
    assert value != value or abs(value) == float("inf")


def test_non_utf8_bytes_are_refused(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes('{"name": "café"}'.encode("latin-1"))
    with pytest.raises(JsonError) as err:
        read_json(path, max_bytes=100, what="scenario file")
    assert "not UTF-8 text" in str(err.value) and "scenario file" in str(err.value) and str(path) in str(err.value)


def test_invalid_json_names_line_and_column():
    with pytest.raises(JsonError) as err:
        read_json(b'{\n  "a": 1,\n  "b": }', max_bytes=100, what="the index")
    assert str(err.value).startswith("the index: not valid JSON: Expecting value at line 3, column 8")
    assert err.value.what == "the index" and err.value.reason.startswith("not valid JSON")


def test_an_integer_too_long_to_convert_is_a_json_error():
    with pytest.raises(JsonError, match="a value cannot be read"):
        read_json("[" + "9" * 5000 + "]", max_bytes=10_000)


def test_json_content_over_the_cap_is_refused():
    with pytest.raises(JsonError, match="read at most"):
        read_json(b"[1, 2, 3]", max_bytes=5)
    with pytest.raises(JsonError, match="read at most"):
        read_json("[1, 2, 3]", max_bytes=5)


def test_file_problems_stay_file_errors(tmp_path):
    with pytest.raises(FileReadError, match="not a regular file"):
        read_json(tmp_path, max_bytes=100)
    (tmp_path / "big.json").write_bytes(b"[" + b" " * 200 + b"]")
    with pytest.raises(FileTooLargeError):
        read_json(tmp_path / "big.json", max_bytes=100)


@pytest.mark.parametrize("text", ["[1e999]", '{"a": -1e400}', "[2e308]"])
def test_a_float_literal_too_large_for_a_float_is_refused_like_infinity(text):
    """json.loads turns 1e999 into inf without calling parse_constant: "numbers must be finite" holds for it too."""
    with pytest.raises(JsonError, match="not allowed"):
        loads_json(text)
    assert loads_json("[1e308]") == [1e308]


def test_a_syntax_error_reads_as_one_sentence():
    with pytest.raises(JsonError) as info:
        loads_json('{"a": "unterminated')
    assert "at at" not in str(info.value) and "line 1, column 7" in str(info.value)


_JSON_ISH = st.text(alphabet='[]{},:"0a \\', max_size=60)


@settings(max_examples=400, deadline=None)
@given(_JSON_ISH)
def test_the_split_scan_of_string_literals_agrees_with_the_regex(text):
    """Without a backslash the literals are every other piece between quotes; the regex is the reference."""
    from vramgui.core.documents import json_text

    assert json_text._outside_strings(text) == json_text._STRING.sub("0", text)


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.none() | st.integers() | st.text(alphabet='[]{},:"a\\'),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
                    max_leaves=30))
def test_depth_and_element_counts_are_exact_on_any_document(value):
    def depth(v):
        return 1 + max(map(depth, v.values() if isinstance(v, dict) else v), default=0) \
            if isinstance(v, (dict, list)) else 0

    def items(v):
        inner = list(v.values()) if isinstance(v, dict) else v if isinstance(v, list) else []
        return len(inner) + sum(map(items, inner))

    text = json.dumps(value)
    check_json_shape(text, max_depth=depth(value), max_items=items(value))
    if depth(value) > 0:
        with pytest.raises(JsonError, match="levels deep"):
            check_json_shape(text, max_depth=depth(value) - 1, max_items=items(value))
    if items(value) > 0:
        with pytest.raises(JsonError, match="elements"):
            check_json_shape(text, max_depth=depth(value), max_items=items(value) - 1)
