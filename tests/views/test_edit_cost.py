"""An edit touches only the widgets whose content changed (issue 11: edit -> chart under 16 ms), and the form and
the breakdown table are still exactly right after edits that change states and restore them: the breakdown table
sets only the cells that differ and tells its view once; the form enables, disables and re-tips only the fields
whose state or reason changed. The speed itself is measured by ``make bench``, not here."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication

from tests.views.helpers import choose, type_into
from vramgui.presenters.form.texts import enabled_states
from vramgui.presenters.view_models import BreakdownRow
from vramgui.views.breakdown_table import BreakdownTable
from vramgui.views.form.panel import InputPanel


class EventCounter(QObject):
    """Counts the enabled-state and tooltip changes of the widgets it watches (by object name)."""

    KINDS = (QEvent.Type.EnabledChange, QEvent.Type.ToolTipChange)

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, QEvent.Type]] = []

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        if event.type() in self.KINDS:
            self.seen.append((watched.objectName() or repr(watched), event.type()))
        return False


def watch_form(inputs: InputPanel) -> EventCounter:
    counter = EventCounter()
    for key, editor in inputs.editors.items():
        editor.installEventFilter(counter)
        inputs.labels[key].installEventFilter(counter)
    return counter


def cells(table: BreakdownTable) -> list[tuple]:
    return [tuple((table.item(r, c).text(), table.item(r, c).toolTip(), table.item(r, c).font().bold())
                  for c in range(3)) for r in range(table.rowCount())]


def assert_table_right(window) -> None:
    """The table shows the presenter's rows as a table given only those rows shows them, heights included."""
    table, result = window.breakdown, window.presenter.result
    rows = result.peak_breakdown if window.breakdown_panel.section == "peak" else result.breakdown
    assert table.rows == tuple(rows or result.breakdown)
    fresh = BreakdownTable()
    fresh.show_rows(table.rows)
    assert cells(table) == cells(fresh)
    for r, row in enumerate(table.rows):
        assert table.item(r, 1).toolTip() == ("" if row.bytes is None else f"{row.bytes:,} B")
    heights = [table.rowHeight(r) for r in range(table.rowCount())]
    table.resizeRowsToContents()  # what measuring every row again gives
    assert heights == [table.rowHeight(r) for r in range(table.rowCount())]


def assert_enabled_right(window) -> None:
    """Each field is enabled, and tipped, as the presenter's scenario says, as a form given only that says."""
    presenter, inputs = window.presenter, window.inputs
    states, reasons = enabled_states(presenter.draft, presenter.model_choice_state()[0],
                                     {e.key for e in presenter.errors})
    fresh = InputPanel()
    fresh.set_fields_enabled(states, reasons)
    for key, enabled in states.items():
        editor, label = inputs.editors[key], inputs.labels[key]
        assert editor.isEnabledTo(inputs) is enabled and label.isEnabledTo(inputs) is enabled, key
        assert inputs.inactive_reason(key) == reasons.get(key, ""), key
        assert editor.toolTip() == label.toolTip() == fresh.editors[key].toolTip(), key
    fresh.deleteLater()


def check(window) -> None:
    QApplication.processEvents()
    assert_table_right(window)
    assert_enabled_right(window)


def test_the_table_and_the_enabled_fields_stay_right_through_edits_that_change_and_restore_them(qtbot, seed_window):
    window = seed_window  # the seed's worked example, every group open
    inputs = window.inputs.editors
    check(window)
    choose(inputs["model.preset"], "llama-3-8b")
    check(window)
    assert not inputs["offload.params"].isEnabled()  # ZeRO-2: offloading parameters needs stage 3
    choose(inputs["parallel.zero_stage"], "3")
    check(window)
    assert inputs["offload.params"].isEnabled() and window.inputs.inactive_reason("offload.params") == ""
    choose(inputs["parallel.zero_stage"], "2")
    check(window)
    assert not inputs["offload.params"].isEnabled() and window.inputs.inactive_reason("offload.params")
    choose(inputs["convention"], "megatron")
    check(window)
    assert not inputs["parallel.zero_stage"].isEnabled()
    choose(inputs["convention"], "paper")
    check(window)
    assert inputs["parallel.zero_stage"].isEnabled()
    choose(inputs["model.preset"], "mixtral-8x7b")  # other rows (MoE), other formulas, wider texts
    check(window)
    choose(inputs["model.preset"], "llama-3-8b")
    check(window)
    shown = cells(window.breakdown)
    type_into(qtbot, inputs["overhead.cuda_context"], "lots")  # invalid: the result goes stale, the table stays
    assert window.presenter.is_stale
    check(window)
    assert cells(window.breakdown) == shown
    type_into(qtbot, inputs["overhead.cuda_context"], "1 GiB")
    assert not window.presenter.is_stale
    check(window)
    for seq_len in (4096, 8192, 2048):
        inputs["training.seq_len"].setValue(seq_len)
        check(window)
    choose(window.breakdown_panel.choice, "sum")
    check(window)
    choose(window.breakdown_panel.choice, "peak")
    check(window)


def test_showing_the_same_rows_again_touches_no_cell(window):
    table = window.breakdown
    told: list[tuple] = []
    table.model().dataChanged.connect(lambda first, last, roles=(): told.append((first.row(), last.row())))
    items = [[table.item(r, c) for c in range(3)] for r in range(table.rowCount())]
    before = cells(table)
    table.show_rows(list(table.rows))  # equal rows, another sequence
    assert told == [] and cells(table) == before
    assert [[table.item(r, c) for c in range(3)] for r in range(table.rowCount())] == items
    for r, row in enumerate(items):
        assert all(table.item(r, c) is row[c] for c in range(3))

    rows = list(table.rows)
    rows[1] = replace(rows[1], value_text="123.45 GB")
    table.show_rows(rows)
    assert told == [(1, 1)]  # once, for the one changed cell
    assert table.item(1, 1).text() == "123.45 GB" and all(table.item(1, c) is items[1][c] for c in range(3))
    assert cells(table)[0] == before[0] and cells(table)[2:] == before[2:]


def test_a_formula_that_grows_to_wrap_makes_only_its_row_taller_and_back(qtbot):
    table = BreakdownTable()
    qtbot.addWidget(table)
    table.resize(600, 400)
    table.show()
    qtbot.waitExposed(table)
    rows = [BreakdownRow(key, key, 10**9, "1.00 GB", "2Φ") for key in ("params", "grads", "optimizer")]
    table.show_rows(rows)
    QApplication.processEvents()
    rows[0] = replace(rows[0], formula="2 × Φ")  # the column widths as laid out are the ones measured with
    table.show_rows(rows)
    heights = [table.rowHeight(r) for r in range(3)]
    rows[1] = replace(rows[1], formula="2Φ = 2 × 8,030,261,248 (bf16 gradients of every parameter) " * 6)
    table.show_rows(rows)
    assert table.rowHeight(1) > heights[1] and [table.rowHeight(r) for r in (0, 2)] == [heights[0], heights[2]]
    rows[1] = replace(rows[1], formula="2Φ")
    table.show_rows(rows)
    assert [table.rowHeight(r) for r in range(3)] == heights


def test_an_edit_that_changes_no_state_sets_no_enabled_state_or_tooltip(window):
    choose(window.inputs.editors["model.preset"], "llama-3-8b")
    QApplication.processEvents()
    counter = watch_form(window.inputs)
    window.inputs.editors["training.seq_len"].setValue(4096)
    assert counter.seen == []
    states, reasons = enabled_states(window.presenter.draft, "preset", set())
    window.inputs.set_fields_enabled(states, reasons)  # the same states pushed again
    assert counter.seen == []
    choose(window.inputs.editors["parallel.zero_stage"], "3")  # offloading parameters becomes possible
    changed = {name for name, _ in counter.seen}
    assert "offload.params" in changed
    assert len(changed) < len(window.inputs.editors) // 4, changed  # only the fields whose state changed
    assert_enabled_right(window)
