"""The main window's Serve mode: while the scenario plans serving (``serve.active``) the Serving tab shows memory
against the context length, the summary and the table show ``vramgui serve``'s answer, and the training tabs are
hidden; Compare stays. The presenter decides the mode (``MainPresenter.serving``); this mixin only places it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

from vramgui.presenters.view_models import ServeResultVM
from vramgui.views.plan_tab import PLANS_TAB

if TYPE_CHECKING:
    from PySide6.QtWidgets import QTabWidget

    from vramgui.views.breakdown_table import BreakdownPanel
    from vramgui.views.summary_panel import SummaryPanel

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for (the window's context)

TRAINING_TABS = (0, 1, 2, 3, 4, PLANS_TAB)  # by strategy, one step, time and cost, by GPU count, largest model, plans
SERVE_TAB = 5  # before Compare (the last tab)


class ServeModeMixin:
    """For ``MainWindow``: its ``chart_tabs``, ``summary``, ``breakdown_panel``, ``_redraw`` and ``comparing``."""

    serve_result: ServeResultVM | None = None  # the Serve mode's result (None while training is planned)
    if TYPE_CHECKING:  # what MainWindow provides; declared for mypy only
        chart_tabs: QTabWidget
        summary: SummaryPanel
        breakdown_panel: BreakdownPanel
        _redraw: Callable[..., None]
        comparing: Callable[[], bool]

    def serve_chart(self):
        """The Serving tab's chart (built with the others)."""
        from vramgui.views.charts.panels import SweepChart

        return SweepChart(translate("MainWindow", "Memory per GPU against the context length"),
                          translate("MainWindow", "Memory per GPU (GB)"),
                          x_label=translate("MainWindow", "Context length, tokens (log₂ scale)"),
                          point_text=translate("MainWindow", "{0:,} tokens"))

    def show_serve_result(self, result: ServeResultVM) -> None:
        """Serve mode: its summary and parts in place of training's; its chart on the Serving tab, now the one shown."""
        was_serving, self.serve_result = self.serve_result is not None, result
        if not was_serving:
            self._show_mode(serving=True)
        self.summary.show_summary(result.summary)
        self.breakdown_panel.show_rows(result.breakdown, result.breakdown)  # serving's parts are its peak
        self._redraw(SERVE_TAB, True)

    def leave_serve_mode(self) -> None:
        """A training result arrives: the training tabs back (the Serving tab hidden)."""
        if self.serve_result is not None:
            self.serve_result = None
            self._show_mode(serving=False)

    def draw_serve(self, chart) -> None:
        if self.serve_result is not None:
            chart.set_subtitle(self.serve_result.title)
            unit = self.serve_result.unit
            chart.show_sweep(self.serve_result.chart, translate("MainWindow", "Memory per GPU ({0})").format(unit))

    def _show_mode(self, serving: bool) -> None:
        """The training tabs while training is planned, the Serving tab while serving is (Compare always)."""
        shown, hidden = ((SERVE_TAB,), TRAINING_TABS) if serving else (TRAINING_TABS, (SERVE_TAB,))
        for index in shown:  # shown first: Qt moves off a hidden current tab to the next shown one
            self.chart_tabs.setTabVisible(index, True)
        if not self.comparing():
            self.chart_tabs.setCurrentIndex(shown[0])
        for index in hidden:
            self.chart_tabs.setTabVisible(index, False)
