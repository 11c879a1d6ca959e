"""A short screen (issue 23): at 1,024 x 640 a scenario that does not fit folds its ways out to one line whose link
lists them in a menu, so the chart tabs keep their minimum and the strategy chart a plot; where the room is there,
every way out is a link again."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from tests.views.helpers import settle
from vramgui.views.charts.modes import MIN_PLOT_PX
from vramgui.views.results_column import MIN_CHART_PX

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "tests" / "fixtures" / "scenarios_v1" / "count_13b_fp16_zero1.json"


def _at(qtbot, window, width: int, height: int):
    window.resize(width, height)
    window.show()
    qtbot.waitExposed(window)
    window.results_splitter.setSizes([10_000, 1])  # the table its minimum: the room a short screen has
    window.document.open_path(str(SCENARIO))
    settle()
    QApplication.processEvents()
    return window


def test_on_a_short_screen_the_ways_out_fold_and_the_chart_keeps_a_plot(qtbot, window):
    _at(qtbot, window, 1024, 640)
    box = window.summary.advice
    assert window.summary.fits_kind == "bad" and box.isVisibleTo(window)
    assert box.compact and box.more.isVisibleTo(window) and box.more.text() == "show 4…"
    assert not any(link.isVisibleTo(window) for link in box.links)
    column = window.results_column
    # the charts take all the column leaves under the folded summary, up to their minimum; the summary's rows fold
    # to a line each too, so the strategy chart keeps its plot (it was ~8 px with the time rows in the summary)
    assert window.chart_tabs.height() >= min(MIN_CHART_PX, column.height() - window.summary.height() - 12)
    assert window.chart_tabs.height() >= 220 and window.summary.compact
    assert window.strategy_chart.plot.vb.sceneBoundingRect().height() >= MIN_PLOT_PX
    assert column.geometry().bottom() <= window.results_splitter.widget(1).geometry().top()  # not cut by the table


def test_the_folded_ways_out_are_a_menu_whose_entry_applies_the_suggestion(qtbot, window):
    _at(qtbot, window, 1024, 640)
    box = window.summary.advice
    actions = box.menu.actions()
    assert [a.text() for a in actions] == [link.text()[2:] for link in box.links[:len(actions)]]
    first = window.presenter.computed.suggestions[0]
    with qtbot.waitSignal(box.suggestion_clicked, check_params_cb=lambda i: i == 0):
        actions[0].trigger()
    settle()
    assert window.presenter.scenario == first.scenario


def test_with_room_every_way_out_is_a_link(qtbot, window):
    _at(qtbot, window, 1600, 1200)
    box = window.summary.advice
    assert not box.compact and not box.more.isVisibleTo(window)
    assert sum(link.isVisibleTo(window) for link in box.links) == 4
