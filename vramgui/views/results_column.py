"""The results column's upper half: the summary over the chart tabs, where the chart keeps a plot on any screen.

The chart tabs need the height their charts ask for (``ChartView.least_height``: a plot of ``charts.modes.MIN_PLOT_PX``
in the chart's most compact layout, plus the tab bar), ``MIN_CHART_PX`` before the charts exist. The column takes it
from the breakdown table below, down to the table's minimum; where that is not enough the summary folds, a step at a
time, until the charts get it: first the adviser's box to one line (its heading and a link to a menu of the ways out),
then the summary's rows to a line each (``SummaryPanel.set_compact``). Issue 23: at 1,024 x 640 the four links, then
the time rows, left the strategy chart's plot ~8 px. Pixels only: no number of the scenario is read here.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QScrollArea, QSplitter, QTabWidget, QVBoxLayout, QWidget

from vramgui.views.summary_panel import SummaryPanel

MIN_CHART_PX = 240  # the chart tabs before the charts exist: tab bar ~30, title ~22, x axis ~44, and the plot's 150
FOLDS = ((False, False), (True, False), (True, True))  # (the advice folded, the summary compact), tried in order
TAB_CHROME_GUESS_PX = 32  # the tab bar and the page's frame before the tabs are laid out


class ResultsColumn(QWidget):
    def __init__(self, summary: SummaryPanel, chart_tabs: QTabWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = summary
        self.chart_tabs = chart_tabs
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(summary)
        layout.addWidget(chart_tabs, 1)
        self._growing = False
        self._fit_pending = False
        summary.advice_changed.connect(self.fit_advice)
        # a tab shown the first time lays its chart out in this size: its need is known then (``least_height``)
        chart_tabs.currentChanged.connect(lambda _i: self._schedule_fit())

    def charts_need(self) -> int:
        """The chart tabs' least height: the tab bar and the tallest of the charts' least heights (a tab whose page
        holds a widget with ``least_height``: every ``ChartView``, so a new chart tab is counted without more code)."""
        tabs = self.chart_tabs
        current: QWidget | None = tabs.currentWidget()  # None while the tabs are empty
        shown = 0 if current is None else current.height()
        chrome = tabs.height() - shown if tabs.height() > shown > 0 else 0
        needs = []
        for i in range(tabs.count()):
            page = tabs.widget(i)
            layout = page.layout() if page is not None and tabs.isTabVisible(i) else None
            item = layout.itemAt(0) if layout is not None and layout.count() else None
            chart = item.widget() if item is not None else None
            if chart is not None and hasattr(chart, "least_height"):
                needs.append(chart.least_height())
            elif isinstance(chart, QScrollArea) and i == tabs.currentIndex():
                inner = chart.widget()  # a scrolling page (Compare): its content unscrolled
                if inner is not None:
                    needs.append(inner.minimumSizeHint().height())
        if not needs:
            return MIN_CHART_PX
        return max(needs) + (chrome or TAB_CHROME_GUESS_PX)

    def fit_advice(self) -> None:
        """Fold the summary as little as lets the chart tabs have ``charts_need`` in the most this column can get;
        then grow the column to that where the table below can spare it."""
        layout = self.layout()
        spacing = max(layout.spacing(), 0) if layout is not None else 0
        advice = self.summary.advice
        need = self.charts_need()
        room = max(self.height(), min(self._room(), 1 << 16)) if isinstance(self.parentWidget(), QSplitter) \
            else self.height()
        width = self.summary.width()
        height = 0
        for folded, compact in FOLDS:
            advice.set_compact(folded)
            self.summary.set_compact(compact)
            height = self.summary.heightForWidth(width) if width > 0 else self.summary.sizeHint().height()
            if room - height - spacing >= need:
                break
        # the splitter above gives this column the summary and the charts' need where its other panes (the
        # breakdown table) can spare it; never a widget minimum, which would keep the window from shrinking
        least = min(height + spacing + need, self._room())
        splitter = self.parentWidget()
        if isinstance(splitter, QSplitter) and self.height() < least and not self._growing:
            sizes = splitter.sizes()
            at = splitter.indexOf(self)
            grow = least - sizes[at]
            sizes[at] = least
            for i in range(len(sizes)):  # taken from the panes after it first, each down to its minimum
                if i != at and grow > 0:
                    pane = splitter.widget(i)
                    spare = max(sizes[i] - (pane.minimumSizeHint().height() if pane is not None else 0), 0)
                    sizes[i] -= min(spare, grow)
                    grow -= min(spare, grow)
            if sizes != splitter.sizes():
                self._growing = True  # setSizes resizes this column again: once is enough
                try:
                    splitter.setSizes(sizes)
                finally:
                    self._growing = False

    def _room(self) -> int:
        """The most a splitter holding this column can give it: its height less its other panes' minimum."""
        splitter = self.parentWidget()
        if not isinstance(splitter, QSplitter) or splitter.height() <= 0:
            return 1 << 20
        others = [w for w in (splitter.widget(i) for i in range(splitter.count())) if w is not None and w is not self]
        taken = sum(max(w.minimumSizeHint().height(), w.minimumHeight()) for w in others)
        return max(splitter.height() - taken - splitter.handleWidth() * len(others), 0)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        # after the resize that caused this one has finished: inside a splitter's setSizes its sizes are half
        # updated (setSizes([300, 300]) read back as [555, 327] in a 659-pixel splitter), and a window restoring
        # its saved split would be moved by the arithmetic on them
        self._schedule_fit()

    def _schedule_fit(self) -> None:
        if not self._fit_pending:
            self._fit_pending = True
            QTimer.singleShot(0, self, self._fit_later)  # dropped if this column is deleted first

    def _fit_later(self) -> None:
        self._fit_pending = False
        self.fit_advice()
