"""The one component table: every client's keys, order and names come from its rows."""

from __future__ import annotations

from vramgui.core.step import components
from vramgui.core.step.peak import PEAK_KEYS
from vramgui.core.text.message import CATALOGUE, render


def test_the_step_peak_stacks_in_the_tables_order():
    assert PEAK_KEYS == ("parameters", "gradients", "optimizer_states", "activations", "loss_gradient",
                         "backward_transient", "optimizer_temporaries", "comm_buffers", "zero3_working_set",
                         "root_all_gather", "tied_gradient_sum", "root_reduce_scatter", "cuda_context", "other")
    assert components.PEAK_KEYS is PEAK_KEYS


def test_the_sum_rows_and_the_stacked_segments_are_derived_from_the_rows():
    assert components.COMPONENT_KEYS == ("parameters", "gradients", "optimizer_states", "master_weights",
                                         "activations", "other")
    assert components.STACK_KEYS == ("parameters", "gradients", "optimizer_states", "activations", "other")
    assert set(components.STEP_KEYS) == set(PEAK_KEYS) - set(components.COMPONENT_KEYS)


def test_every_row_has_a_name_in_the_catalogue_and_an_unknown_key_has_none():
    for kind in components.KINDS:
        assert f"component.{kind.key}" in CATALOGUE
        assert render(components.label_of(kind.key)) == render(kind.label) != ""
    assert components.label_of("gpu_hours") is None


def test_stacking_adds_the_segments_in_order_and_counts_a_missing_one_as_zero():
    bars = [{"parameters": 2, "gradients": 3, "activations": None, "other": 1}, {"optimizer_states": 5}]
    out = components.stack(bars)
    assert [k for k, _, _ in out] == list(components.STACK_KEYS)
    tops = [b + h for b, h in zip(out[-1][1], out[-1][2], strict=True)]
    assert tops == [6, 5]
