"""A size typed by a person needs its unit: "80" is 80 GB to them and 80 bytes to the parser (issue 13)."""

from __future__ import annotations

import pytest

from vramgui.core.text.errors import InputError
from vramgui.core.text.message import render
from vramgui.core.text.units import parse_bytes_exact, require_size_unit


@pytest.mark.parametrize("text", ["80", " 80 ", "24576"])
def test_a_bare_number_other_than_zero_is_asked_for_its_unit(text):
    with pytest.raises(InputError) as caught:
        require_size_unit(text, "hardware.gpu_memory")
    number = text.strip()
    assert caught.value.field == "hardware.gpu_memory"
    assert render(caught.value.msg) == f"'{number}' has no unit: write {number}GB or {number}GiB ({number}B for bytes)"


@pytest.mark.parametrize("text", ["0.5", "1e9", "0.0000001"])
def test_a_bare_number_that_is_no_whole_count_of_bytes_is_offered_gb_and_gib_only(text):
    with pytest.raises(InputError) as caught:  # "0.5B" or "1e9B" would be no size the parser takes
        require_size_unit(text, "hardware.gpu_memory")
    assert render(caught.value.msg) == f"'{text}' has no unit: write {text}GB or {text}GiB"


@pytest.mark.parametrize("text", ["0", "0.0", "00", "80GB", "80 GiB", "2048B", "", "  ", "abc", "80 potatoes", "-1"])
def test_zero_a_unit_or_text_that_is_no_bare_number_passes_to_the_parser(text):
    require_size_unit(text, "hardware.gpu_memory")  # the parser's own messages (syntax, unit, range) follow


def test_a_bare_number_is_still_bytes_to_the_parser_of_files():
    assert parse_bytes_exact("80") == 80  # scenario files hold bytes


def test_a_very_long_bare_number_is_asked_for_its_unit_without_repeating_it():
    with pytest.raises(InputError) as caught:
        require_size_unit("9" * 500, "overhead.extra")
    text = render(caught.value.msg)
    assert "has no unit" in text and len(text) < 150
