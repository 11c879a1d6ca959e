"""Which charts show the current result: the main window fades a chart while its numbers are not the input's.

Two reasons: the input is invalid (``_stale``: the numbers shown are the last valid ones), or the chart's data is
still being computed for the new result (``_behind``: the two sweeps follow an edit in idle time). A chart is
drawn unfaded only when neither holds, so an earlier result is never shown as current.
"""

from __future__ import annotations

from typing import Any


class ChartFreshness:
    """Mixed into ``MainWindow``: ``_charts`` are its charts by tab index."""

    _charts: tuple[Any, ...] | None
    _stale: bool = False
    _behind: frozenset[int] = frozenset()

    def _mark_behind(self, *indexes: int) -> None:
        """A new result: these charts still show the last one's numbers until theirs arrive."""
        self._behind = frozenset(indexes)
        self._show_charts_stale()

    def _arrived(self, index: int) -> None:
        self._behind = self._behind - {index}
        self._show_charts_stale()

    def _show_charts_stale(self) -> None:
        for index, chart in enumerate(self._charts or ()):
            chart.set_stale(self._stale or index in self._behind)

    def chart_is_current(self, index: int) -> bool:
        """Whether chart ``index`` is drawn unfaded: the input is valid and its own data has arrived."""
        return not self._stale and index not in self._behind
