"""The results column's upper half: the summary over the chart tabs, where the chart keeps a plot on any screen.

The chart tabs get at least ``MIN_CHART_PX`` where the breakdown table below can spare it; when the summary, with
every way out as a link, would leave the charts less than that, the adviser's box folds to one line, its heading and
a link to a menu of the ways out (issue 23: at 1,024 x 640 the four links left the strategy chart its title and half
a legend row). Pixels only: no number of the scenario is read here.
"""

from __future__ import annotations

from PySide6.QtWidgets import QSplitter, QTabWidget, QVBoxLayout, QWidget

from vramgui.views.summary_panel import SummaryPanel

MIN_CHART_PX = 240  # the chart tabs: tab bar ~28, title ~24, legend rows ~54, x axis ~44, and the plot


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
        summary.advice_changed.connect(self.fit_advice)

    def expanded_summary_height(self) -> int:
        """The summary's height at its width with every way out shown as a link."""
        advice = self.summary.advice
        width = self.summary.width()
        height = self.summary.heightForWidth(width)
        if advice.compact:
            height += advice.saved_height(advice.width() or width)
        return height

    def fit_advice(self) -> None:
        layout = self.layout()
        spacing = max(layout.spacing(), 0) if layout is not None else 0
        advice = self.summary.advice
        expanded = self.expanded_summary_height()
        folded = expanded - advice.saved_height(advice.width() or self.summary.width())
        advice.set_compact(self.height() - expanded - spacing < MIN_CHART_PX)
        # the splitter above gives this column the folded summary and the chart's minimum where its other panes
        # (the breakdown table) can spare it; never a widget minimum, which would keep the window from shrinking
        least = min(folded + spacing + MIN_CHART_PX, self._room())
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
        self.fit_advice()
