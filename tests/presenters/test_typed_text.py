"""Text typed in a field that is not a value (issue 23 item 6), against a fake view: the draft keeps no half-typed
value, the stale result is the draft's, a percentage box speaks in percent, and a size typed without its unit is
answered with proposals inside the field's range only."""

from __future__ import annotations

import re
from unittest.mock import MagicMock

import pytest

from vramgui.core.estimate import estimate
from vramgui.core.fields import paths
from vramgui.core.fields import registry as fields
from vramgui.core.scenario.specs import HardwareSpec, ModelSpec, ParallelSpec, PrecisionSpec, Scenario
from vramgui.core.text.errors import InputError
from vramgui.presenters.form.groups import parse_input
from vramgui.presenters.main_presenter import MainPresenter
from vramgui.presenters.messages import input_error_text
from vramgui.presenters.protocols import MainView
from vramgui.presenters.results import scenario_title

GB = 10**9
CUSTOM_7B = Scenario(model=ModelSpec(name="custom", params=7 * GB), precision=PrecisionSpec(),
                     parallel=ParallelSpec(num_gpus=8, gpus_per_node=8, zero_stage=2),
                     hardware=HardwareSpec(gpu_memory=80 * GB))


@pytest.fixture
def view():
    return MagicMock(spec=MainView)


@pytest.fixture
def presenter(qapp, view):
    p = MainPresenter(view)
    p.start(CUSTOM_7B)
    yield p
    p.finish_sweeps()


def shown_title(view) -> str:
    return view.show_result.call_args.args[0].title


def test_a_half_typed_count_never_titles_the_stale_result(presenter, view):
    """Typing 1e400 as Φ: "1e4" is a value (10,000 parameters), "1e40" is not. The result left greyed under the
    banner is the draft's, and the draft holds Φ from before the typing, not the 10.00K on the way."""
    typed = ""
    for key in "1e400":
        typed += key
        presenter.on_field_edited(paths.PARAMS, typed)
        if presenter.is_stale:
            assert presenter.draft.model.params == 7 * GB, typed
            assert presenter.scenario == presenter.draft, typed  # the greyed numbers are the draft's
            assert shown_title(view) == scenario_title(presenter.draft, estimate(presenter.draft)) == \
                "7.00B on 8 × 80 GB", typed
        else:
            assert presenter.draft.model.params == int(float(typed))
    assert presenter.is_stale and "10.00K" not in shown_title(view)
    assert view.show_stale.call_args.args[0]  # the banner says why
    assert presenter.form_value(paths.PARAMS) == "1e400"  # the field keeps what was typed


def test_text_left_invalid_keeps_the_value_committed_before_it(presenter, view):
    presenter.on_field_edited(paths.SEQ_LEN, "4096")
    presenter.on_edit_finished(paths.SEQ_LEN)  # Tab: 4,096 is the field's value now
    presenter.on_field_edited(paths.SEQ_LEN, "40960")
    presenter.on_field_edited(paths.SEQ_LEN, "40960x")
    assert presenter.draft.training.seq_len == 4096 and presenter.is_stale
    assert presenter.scenario == presenter.draft


def test_another_field_typed_while_one_is_invalid_is_shown_greyed_with_its_value(presenter, view):
    presenter.on_field_edited(paths.SEQ_LEN, "abc")
    presenter.on_field_edited(paths.MICRO_BATCH, "2")
    assert presenter.is_stale and presenter.draft.training.micro_batch == 2
    assert presenter.scenario == presenter.draft  # the greyed result uses the micro-batch shown
    reason = view.show_stale.call_args.args[0]
    assert "'abc'" in reason


@pytest.mark.parametrize(("typed", "message"), [
    ("0", "Sequence length: 0 is out of range (allowed: 1 to 100,000,000)"),
    ("-5", "Sequence length: -5 is out of range (allowed: 1 to 100,000,000)"),
    ("99999999999", "Sequence length: 99,999,999,999 is out of range (allowed: 1 to 100,000,000)"),
    ("abc", "Sequence length: expected a whole number, got 'abc' (allowed: 1 to 100,000,000)"),
])
def test_a_whole_number_field_names_what_was_typed_and_its_range(presenter, view, typed, message):
    presenter.on_field_edited(paths.SEQ_LEN, typed)
    errors = view.show_field_errors.call_args.args[0]
    assert [(e.key, e.message) for e in errors] == [(paths.SEQ_LEN, message)]
    assert presenter.draft.training.seq_len == CUSTOM_7B.training.seq_len


@pytest.mark.parametrize(("typed", "message"), [
    ("100", "Reserve: 100 % is out of range (allowed: 0 to 99.99 %)"),
    ("-5", "Reserve: -5 % is out of range (allowed: 0 to 99.99 %)"),
    ("abc", "Reserve: expected a percentage, got 'abc' (allowed: 0 to 99.99 %)"),
    ("1e400", "Reserve: expected a percentage, got '1e400' (allowed: 0 to 99.99 %)"),
])
def test_a_percentage_box_speaks_in_percent_not_in_the_registrys_fraction(presenter, view, typed, message):
    presenter.on_field_edited(paths.RESERVE, typed)
    errors = view.show_field_errors.call_args.args[0]
    assert [(e.key, e.message) for e in errors] == [(paths.RESERVE, message)]


_PROPOSED = re.compile(r"write (\S+) or (\S+?)(?: \((\S+) for bytes\))?$")


@pytest.mark.parametrize("path", [f.path for f in fields.fields() if f.kind == "bytes"])
@pytest.mark.parametrize("typed", ["80", "5", "1e400", "1e15", "999999999999", "0.5"])
def test_a_size_without_its_unit_is_offered_only_sizes_inside_the_range(qapp, path, typed):
    f = fields.field(path)
    with pytest.raises(InputError) as caught:
        parse_input(f, typed)
    message = input_error_text(caught.value)
    proposed = _PROPOSED.search(message)
    if proposed is None:
        assert "out of range" in message and "allowed" in message, message  # the range instead of a proposal
        return
    for size in filter(None, proposed.groups()):
        assert parse_input(f, size) is not None, (message, size)  # each proposal is taken as it is


def test_memory_per_gpu_typed_as_1e400_is_not_advised_as_1e400gb(qapp):
    f = fields.field(paths.GPU_MEMORY)
    with pytest.raises(InputError) as caught:
        parse_input(f, "1e400")
    message = input_error_text(caught.value)
    assert "1e400GB" not in message
    assert message == ("Memory per GPU: '1e400' has no unit, and in GB or GiB it is out of range "
                       "(allowed: 1 B to 1,000,000 TB)")


def test_a_draft_the_core_refuses_leaves_the_result_from_before_the_typing_not_a_half_typed_ones(presenter, view):
    """8 GPUs at TP 2: typing 63 passes through 6 (a valid layout, shown live), then 63, which TP 2 does not divide.
    The greyed result is the 8 GPUs' from before the typing, never the 6 typed on the way; the draft keeps 63 (it
    parses; the file can hold it) and the message names the layout."""
    presenter.on_field_edited(paths.TP, 2)
    presenter.on_edit_finished(paths.TP)
    presenter.on_field_edited(paths.NUM_GPUS, "6")
    assert not presenter.is_stale and presenter.scenario.parallel.num_gpus == 6
    presenter.on_field_edited(paths.NUM_GPUS, "63")
    assert presenter.is_stale and presenter.draft.parallel.num_gpus == 63
    assert presenter.scenario.parallel.num_gpus == 8 and "8 ×" in shown_title(view)
    assert view.show_stale.call_args.args[0]
