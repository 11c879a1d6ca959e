"""How the window writes times, rates and counts (``vramgui.presenters.time_results``): a step in ms or s, a run in
minutes, hours or days with the noun's plural form (English's rule; Chinese's one form), throughput in three
figures."""

from __future__ import annotations

import pytest

from vramgui.presenters.time_results import (
    DAYS,
    GPU_HOURS,
    compact,
    cost_text,
    counted,
    duration_text,
    gpu_hours_text,
    rate_text,
    seconds_text,
)


@pytest.mark.parametrize(("seconds", "shown"), [(0.0123, "12.3 ms"), (0.842, "842 ms"), (1.0, "1 s"),
                                                (1.234, "1.23 s"), (12.34, "12.3 s"), (123.4, "123 s"),
                                                (4321.0, "4,321 s")])
def test_a_step_in_ms_below_a_second_else_in_three_figures(qapp, seconds, shown):
    assert seconds_text(seconds) == shown


@pytest.mark.parametrize(("seconds", "shown"), [
    (60, "1 minute"), (42 * 60, "42 minutes"), (90, "1.5 minutes"), (3600, "1 hour"), (5.25 * 3600, "5.2 hours"),
    (30 * 3600, "30 hours"), (2 * 86400, "2 days"), (8.66 * 86400, "8.7 days"), (34.2 * 86400, "34 days"),
    (1234.4 * 86400, "1,234 days")])
def test_a_run_in_minutes_hours_or_days_with_the_plural_of_the_number_shown(qapp, seconds, shown):
    assert duration_text(seconds) == shown


def test_counts_take_english_singular_only_for_one(qapp):
    assert counted(DAYS, 1, "1") == "1 day"
    assert counted(DAYS, 1.5, "1.5") == "1.5 days"
    assert counted(GPU_HOURS, 13_400, "13,400") == "13,400 GPU-hours"
    assert gpu_hours_text(1.0) == "1 GPU-hour" and gpu_hours_text(0.25) == "0.2 GPU-hours"


def test_chinese_has_one_form_and_keeps_the_number_as_written(chinese):
    assert counted(DAYS, 1, "1") == "1 天"
    assert counted(DAYS, 34, "34") == "34 天"
    assert counted(DAYS, 8.7, "8.7") == "8.7 天"
    assert counted(GPU_HOURS, 13_400, "13,400") == "13,400 GPU 小时"


def test_throughput_and_cost_in_a_few_figures(qapp):
    assert compact(1_334_567) == "1.33M" and compact(20_800) == "20.8k" and compact(950) == "950"
    assert rate_text(1_334_567) == "1.33M tokens/s"
    assert cost_text(33_512.4) == "33,512" and cost_text(12.5) == "12.50"
