"""Layout pieces the charts share so they degrade gracefully on small windows: axes that draw their end ticks, log
ticks that never crowd, x padding that keeps the edge labels inside the chart, wrapped legend and tick texts.

Everything here works in pixels and text (what fits where); no number of the scenario is computed.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence

from PySide6 import QtCore  # noqa: F401  (PySide6 before pyqtgraph, so pyqtgraph binds to it)

# isort: split
# (the import above must stay first: sorting would put pyqtgraph before PySide6)
import pyqtgraph as pg
from PySide6.QtGui import QFont, QFontMetricsF

LOG_STEPS = ((1,), (1, 3), (1, 2, 5), (1, 2, 3, 5, 7), (1, 2, 3, 4, 5, 6, 7, 8, 9))  # sparse to dense, per decade


def tick_metrics(axis: pg.AxisItem) -> QFontMetricsF:
    return QFontMetricsF(axis.style["tickFont"] or QFont())


def tick_font(points: float) -> QFont:
    font = QFont()
    font.setPointSizeF(points)
    return font


class ChartAxis(pg.AxisItem):
    """An axis that draws the ticks at its ends: pyqtgraph drops a tick text reaching past the axis' rectangle,
    which with a grid is the plot's own, so the 0 at the foot of a y axis (half a line below it) was never shown."""

    def boundingRect(self):  # noqa: N802 - pyqtgraph override
        rect = super().boundingRect()
        if self.orientation in ("left", "right"):
            half = tick_metrics(self).height() / 2 + 1
            rect = rect.adjusted(0, -half, 0, half)
        return rect

    def _updateWidth(self):  # noqa: N802 - pyqtgraph override
        """pyqtgraph counts 0.8 of the title's height (one line's overestimate); a title on two lines (a short plot)
        needs all of it, or its second line stands on the tick texts."""
        super()._updateWidth()
        if self.orientation in ("left", "right") and self.label.isVisible() and self.fixedWidth is None \
                and "<br>" in self.labelText:
            width = self.maximumWidth() + self.label.boundingRect().height() * 0.25
            self.setMaximumWidth(width)
            self.setMinimumWidth(width)

    def tickSpacing(self, minVal, maxVal, size):  # noqa: N802, N803 - pyqtgraph override
        """pyqtgraph's levels, less those whose texts would touch on a short y axis (it always draws its major
        level, ~log(size) ticks: four on a 33 px plot, each text 14 px tall); a coarser one where even that does."""
        levels = super().tickSpacing(minVal, maxVal, size)
        span = abs(maxVal - minVal)
        if self.orientation not in ("left", "right") or not levels or span <= 0 or size <= 0:
            return levels
        line = tick_metrics(self).height() * 1.3
        per_px = size / span
        kept = [level for level in levels if level[0] * per_px >= line]
        if kept:
            return kept
        spacing = levels[0][0]
        while spacing * per_px < line:
            spacing *= 2.5 if str(spacing).lstrip("0.").startswith("2") else 2  # 1, 2, 5, 10 ...
        return [(spacing, 0)]


class PlainLogAxis(ChartAxis):
    """A log axis labelled 1, 10, 100, 1,000 rather than powers of ten, with one level of ticks no denser than
    its text allows (pyqtgraph's minor ticks 2 ... 9 overlap on a short axis)."""

    def logTickValues(self, minVal, maxVal, size, stdTicks):  # noqa: N802, N803 - pyqtgraph override
        lo, hi = sorted((minVal, maxVal))
        room = max(size, 1.0) / max(hi - lo, 1e-9)  # pixels per decade
        line = tick_metrics(self).height() * 1.5
        best: list[float] = []
        decades = range(math.floor(lo), math.ceil(hi) + 1)
        every = 1  # a short axis: every second (third ...) decade, so their texts never touch
        while every < len(decades) and room * every < line:
            every += 1
        if every > 1:
            return [(None, [float(d) for d in decades if lo - 1e-9 <= d <= hi + 1e-9 and d % every == 0])]
        for steps in LOG_STEPS:
            values = [d + math.log10(s) for d in range(math.floor(lo) - 1, math.ceil(hi) + 1) for s in steps]
            values = [v for v in values if lo - 1e-9 <= v <= hi + 1e-9]
            gaps = [b - a for a, b in itertools.pairwise(values)]
            if len(best) >= 2 and gaps and min(gaps) * room < line:
                break
            best = values
        return [(None, best)]

    def logTickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph override
        out = []
        for v in values:
            x = 10 ** (v * scale)
            out.append(f"{x:,.0f}" if x >= 1 else f"{x:.2g}")
        return out


def edge_padding(span: float, plot_px: float, half_label_px: float, least: float) -> float:
    """The padding (in x units) on each side of ``span`` units so a tick text ``2 * half_label_px`` wide centred
    on the first or last value stays inside a plot ``plot_px`` wide."""
    need = half_label_px + 4
    if plot_px <= 2 * need:
        return max(least, span)
    return max(least, need * span / (plot_px - 2 * need))


def thinned(labels: Sequence[str], slot_px: float, metrics: QFontMetricsF) -> list[str]:
    """Tick texts for evenly spaced ticks ``slot_px`` apart: all of them when they fit side by side, else every
    second (then fourth ...) one, the others left blank (their tick and grid line stay)."""
    widest = max((metrics.horizontalAdvance(t) for t in labels), default=0.0) + 8
    step = 1
    while step < len(labels) and widest > slot_px * step:
        step *= 2
    last = len(labels) - 1
    return [t if (last - i) % step == 0 else "" for i, t in enumerate(labels)]  # the largest count always shown


def _tokens(paragraph: str) -> list[tuple[str, str]]:
    """(separator, word) pairs of a line: words split at spaces and before an opening parenthesis (Chinese text
    has no spaces: "卸载（优化器）" breaks before "（")."""
    out: list[tuple[str, str]] = []
    for i, word in enumerate(paragraph.split(" ")):
        parts = re.split(r"(?=[（(])", word) if len(word) > 1 else [word]
        parts = [p for p in parts if p] or [""]
        out += [(" " if i and j == 0 else "", part) for j, part in enumerate(parts)]
    return out


def wrap_words(text: str, max_px: float, metrics: QFontMetricsF, sep: str = "\n") -> str:
    """``text`` broken at spaces (and before parentheses) into lines no wider than ``max_px`` where a word allows
    (existing line breaks kept); ``sep`` joins the lines ("<br>" for rich text)."""
    out = []
    for paragraph in text.split("\n"):
        line = ""
        for space, word in _tokens(paragraph):
            candidate = line + space + word if line else word
            if line and metrics.horizontalAdvance(candidate) > max_px:
                out.append(line)
                line = word
            else:
                line = candidate
        out.append(line)
    return sep.join(out)


def text_width(text: str, metrics: QFontMetricsF) -> float:
    """The width of the widest line of ``text`` (lines split at "\\n" or "<br>")."""
    lines = text.replace("<br>", "\n").split("\n")
    return max((metrics.horizontalAdvance(line) for line in lines), default=0.0)


def split_axis_title(text: str, max_px: float, metrics: QFontMetricsF) -> str:
    """An axis title on two lines when one is longer than the axis: broken before its parenthesis, else at the
    space nearest the middle (rich text)."""
    if metrics.horizontalAdvance(text) <= max_px:
        return text
    for mark in (" (", "（", "("):
        at = text.find(mark)
        if at > 0:
            return text[:at].rstrip() + "<br>" + text[at:].lstrip()
    spaces = [i for i, c in enumerate(text) if c == " "]
    if not spaces:
        return text
    middle = min(spaces, key=lambda i: abs(i - len(text) / 2))
    return text[:middle] + "<br>" + text[middle + 1:]
