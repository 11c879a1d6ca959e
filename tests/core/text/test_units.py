"""Sizes and counts parse as written and format with their unit."""

from __future__ import annotations

import pytest

from vramgui.core.text.errors import InputError
from vramgui.core.text.units import (
    format_bytes,
    format_count,
    parse_bytes_exact,
    parse_count_exact,
    without_digit_separators,
)


@pytest.mark.parametrize(("text", "expected"), [
    ("80GB", 80 * 10**9), ("80GiB", 80 * 2**30), ("24576MiB", 24576 * 2**20), ("80 gb", 80 * 10**9),
    ("1.5TB", 1_500_000_000_000), ("512", 512), ("40e9", 40 * 10**9),
])
def test_parse_bytes_reads_decimal_and_binary_units(text, expected):
    assert parse_bytes_exact(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("7B", 7 * 10**9), ("124M", 124 * 10**6), ("7.5e9", 7_500_000_000), ("350K", 350_000), ("1.3b", 1_300_000_000),
    ("125000000", 125_000_000), ("1T", 10**12),
])
def test_parse_count_reads_suffixes_and_scientific_notation(text, expected):
    assert parse_count_exact(text) == expected


@pytest.mark.parametrize("text", ["80XB", "lots", "-5GB", "nan", "inf GB", ""])
def test_parse_bytes_rejects_garbage_naming_the_field(text):
    with pytest.raises(InputError) as err:
        parse_bytes_exact(text, field="gpu_memory")
    assert err.value.field == "gpu_memory"


def test_format_bytes_labels_the_unit():
    assert format_bytes(112 * 10**9) == "112.00 GB"
    assert format_bytes(2**30, "GiB") == "1.00 GiB"
    assert format_bytes(None) == "n/a"
    with pytest.raises(InputError):
        format_bytes(1, "MB")


def test_format_count_uses_decimal_billions():
    assert format_count(7_000_000_000) == "7.00B"
    assert format_count(124_000_000) == "124.00M"


@pytest.mark.parametrize(("text", "expected"), [
    ("1,000", "1000"), ("12,345,678", "12345678"), ("1_000", "1000"), ("1,000.5K", "1000.5K"), ("7B", "7B"),
    (" 1,000 ", " 1000 "), ("1,5", None), ("7,5B", None), ("1,0000", None), ("1,000_000", None), ("_1", None),
    ("1_", None), ("1__0", None), ("1.5,0", None),
])
def test_digit_separators_group_thousands_only(text, expected):
    assert without_digit_separators(text) == expected


@pytest.mark.parametrize("text", ["1,5", "7,5B", "1,5K"])
def test_a_decimal_comma_is_not_read_as_a_thousands_separator(text):
    with pytest.raises(InputError):
        parse_count_exact(text)


def test_rates_are_bytes_or_bits_per_second_with_their_unit():
    from vramgui.core.text.errors import InputError
    from vramgui.core.text.units import parse_rate_exact, rate_text

    assert parse_rate_exact("300GB/s") == 300 * 10**9
    assert parse_rate_exact("200Gb/s") == 25 * 10**9  # a 200 Gb/s port moves 25 GB/s
    assert parse_rate_exact("3.35TB/s") == 3_350 * 10**9
    assert parse_rate_exact("1GiB/s") == 2**30
    assert parse_rate_exact(12) == 12  # scenario files hold bytes per second
    for bad in ("300", "300GB", "fast", "-1GB/s", "1e99GB/s"):
        with pytest.raises(InputError):
            parse_rate_exact(bad, "hardware.inter_node_bandwidth")
    for n in (300 * 10**9, 25 * 10**9, 123):
        assert parse_rate_exact(rate_text(n)) == n
