"""The Compare tab on laptop screens (issue 13): at 1024 x 640 and 1366 x 768, in English and in Chinese, with three
pins, the tab needs no sideways scrolling (its buttons wrap), and its plot passes ``layout_check.chart_problems``
as the other charts do (tests/views/test_chart_layout.py): no tick, legend entry or value label cut, dropped or
overlapping, and the y axis draws its 0."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox, QScrollArea

from bench.layout_check import chart_problems
from tests.views.helpers import edit, settle
from vramgui.app import create_main_window
from vramgui.views.main_window import COMPARE_TAB

SIZES = ((1024, 640), (1366, 768))
MOST_PX = 540  # the tab's width at 1,024 px with the input form beside it


class ComparePlot:
    """The comparison's plot as ``chart_problems`` reads a chart (a ``chart_frame.ChartView``): its view, plot item,
    legend and (absent: it has none) title."""

    class _NoTitle:
        class item:  # noqa: N801 - mirrors pyqtgraph's LabelItem.item
            @staticmethod
            def toPlainText() -> str:  # noqa: N802
                return ""

    title_item = _NoTitle

    def __init__(self, view) -> None:
        self.widget = view.plot
        self.plot = view.plot.getPlotItem()
        self.legend = view.legend

    def viewport(self):
        return self.widget.viewport()

    def mapToScene(self, rect):  # noqa: N802 - the QGraphicsView method chart_problems calls
        return self.widget.mapToScene(rect)






@pytest.fixture(scope="module", params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def compare(request, language, tmp_path_factory):
    """A first start at a laptop's size, three pins (bench/screenshots.py's: Llama-3-8B ZeRO-2 and ZeRO-3 on 8 x A100
    80GB, and Mixtral 8x7B, which does not fit), the Compare tab shown."""
    settings = QSettings(str(tmp_path_factory.mktemp("compare") / "s.ini"), QSettings.Format.IniFormat)
    window = create_main_window(settings)
    window.resize(*request.param)
    window.show()
    window.ensure_charts()
    edit(window, "model.preset", "llama-3-8b")
    edit(window, "hardware.gpu", "a100-80gb")
    window.pin_current()
    edit(window, "parallel.zero_stage", "3")
    window.pin_current()
    edit(window, "model.preset", "mixtral-8x7b")
    window.pin_current()
    window.chart_tabs.setCurrentIndex(COMPARE_TAB)
    settle()
    settle()  # the summary folds to the Compare page's need once the tab is shown (results_column), then it settles
    yield window
    original = QMessageBox.question
    QMessageBox.question = staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard)
    try:
        window.close()
    finally:
        QMessageBox.question = original
    window.deleteLater()


def _scroll_area(widget) -> QScrollArea:
    parent = widget.parentWidget()
    while not isinstance(parent, QScrollArea):
        parent = parent.parentWidget()
    return parent


def test_the_compare_tab_needs_no_sideways_scrolling(compare):
    view = compare.compare_view
    assert len(compare.compare_presenter.pinned) == 3
    assert view.minimumSizeHint().width() <= MOST_PX
    box = _scroll_area(view)
    assert not box.horizontalScrollBar().isVisible()
    assert view.width() <= box.viewport().width()
    for button in view.action_bar.buttons:  # every action on screen, inside the tab
        rect = button.geometry().translated(button.parentWidget().mapTo(view, button.parentWidget().rect().topLeft()))
        assert view.rect().contains(rect), button.text()


def test_no_compare_chart_text_is_cut_dropped_or_overlapping(compare):
    assert chart_problems(ComparePlot(compare.compare_view)) == []


def test_the_compare_y_axis_starts_at_0_and_draws_it(compare):
    plot = ComparePlot(compare.compare_view)
    assert plot.plot.vb.viewRange()[1][0] == 0
    assert not [p for p in chart_problems(plot) if "no 0" in p]
    assert all(label.isVisible() for label in compare.compare_view.marks.labels[:3]), "every bar's peak labelled"


def test_the_three_pins_are_visible_in_the_table_and_the_editors_breakdown_steps_aside(compare):
    """Issue 23: at 1,024 x 640 the pins table showed only its header, and the editor's breakdown under the Compare
    tab read as the comparison's. The table now keeps room for its header and three rows, and the breakdown is
    hidden while Compare is shown (back when another tab is)."""
    table = compare.compare_view.table
    assert table.rowCount() == 3
    shown = [r for r in range(3) if table.visualRect(table.model().index(r, 0)).bottom() <= table.viewport().height()]
    assert shown == [0, 1, 2], (table.height(), [table.rowViewportPosition(r) for r in range(3)])
    assert not compare.breakdown_panel.isVisible()
    compare.chart_tabs.setCurrentIndex(0)
    settle()
    assert compare.breakdown_panel.isVisible()
    compare.chart_tabs.setCurrentIndex(COMPARE_TAB)
    settle()
