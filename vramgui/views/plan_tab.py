"""The main window's Plans tab: the plan chart and the bar above it (``views/charts/plan_panel.py``), shown to the
Plans presenter (``presenters/plan_presenter.py``), which searches while the tab is visible and applies a clicked
plan through the editor. This mixin only builds the panel and connects the signals."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QTabBar

if TYPE_CHECKING:
    from PySide6.QtWidgets import QTabWidget

    from vramgui.presenters.main_presenter import MainPresenter
    from vramgui.presenters.plan_presenter import PlanPresenter
    from vramgui.views.charts.plan_panel import PlanPanel

WHOLE_CHARS = 6  # a tab title this short keeps every letter ("Plans", "计划")
PLANS_TAB = 6  # after Serving (hidden while training is planned: then it follows "Largest model"), before Compare


class PlanTabMixin:
    """For ``MainWindow``: its ``chart_tabs``."""

    plan_panel: PlanPanel | None = None
    plans_presenter: PlanPresenter | None = None
    if TYPE_CHECKING:  # what MainWindow provides; declared for mypy only
        chart_tabs: QTabWidget

    def plan_chart(self):
        """The Plans tab's chart, inside its panel (the panel is what the tab holds)."""
        from vramgui.views.charts.plan_panel import PlanPanel

        self.plan_panel = PlanPanel()
        return self.plan_panel.chart

    def attach_plans(self, plans: PlanPresenter, editor: MainPresenter) -> None:
        """The Plans presenter shows the editor's scenario in the panel; a clicked plan becomes the editor's edit."""
        panel = self.plan_panel
        assert panel is not None  # built with the charts, before charts_ready
        self.plans_presenter = plans
        panel.plan_clicked.connect(plans.apply_point)
        panel.cancel_clicked.connect(plans.cancel)
        panel.search_clicked.connect(plans.search_now)
        plans.follow(editor)
        self.chart_tabs.currentChanged.connect(lambda index: plans.set_visible(index == PLANS_TAB))
        plans.set_visible(self.chart_tabs.currentIndex() == PLANS_TAB)


class CompactTabBar(QTabBar):
    """The chart tabs' bar: a tab's least width is its first letter and "…" (Qt's own keeps two letters and "..."),
    a short title's its whole title.

    The least width of the bar is the sum of its tabs' (the tabs are elided, never scrolled out of sight): the Plans
    tab added 46 px to it, and the window no longer fitted an 800-pixel screen (816 px at least, against 798). Only
    how far a tab may shrink changes: the text Qt measures is swapped for the shorter one in the same size hint."""

    def minimumTabSizeHint(self, index: int) -> QSize:  # noqa: N802 - Qt override
        text = self.tabText(index).replace("&", "")
        if len(text) <= WHOLE_CHARS:  # a short title is never elided: Qt shrinks tabs to their least width in
            return self.tabSizeHint(index)  # turn, and "Plans" read "..." at 1,024 px while the long ones kept words
        hint = super().minimumTabSizeHint(index)
        metrics = self.fontMetrics()
        saved = metrics.horizontalAdvance(text[:2] + "...") - metrics.horizontalAdvance(text[:1] + "…")
        return QSize(max(hint.width() - max(saved, 0), 1), hint.height())
