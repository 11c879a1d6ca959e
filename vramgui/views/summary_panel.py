"""The results summary: the peak per GPU and the moment of the step that sets it, fits / does not fit (mark and
text), the sum of components (the conventions' figure), headroom, accumulation, limits, the step's time and
throughput, and the days, GPU-hours and cost of the training run.

Also carries the stale banner: when the input is invalid the last valid numbers stay, greyed, under a banner
giving the reason.

On a short screen the results column makes it compact (``set_compact``): the verdict, the moment, the sum, every
row's value and the notes keep one line each, cut with "…" where they are longer (all of it in their tooltips), and
the moment and the sum stand beside the peak whatever the width, so the chart tabs under it keep their plot.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from vramgui.presenters.view_models import SummaryVM
from vramgui.views.advice_links import AdviceBox
from vramgui.views.folding_label import FoldingLabel
from vramgui.views.theme import status_pixmap, warning_colours

NARROW_PX = 680  # a summary narrower than this puts the moment and the sum under the headline


class SummaryPanel(QFrame):
    suggestion_clicked = Signal(int)  # the adviser's suggestion at this index was clicked
    advice_changed = Signal()  # new ways out: the results column folds or unfolds them to keep the chart's plot

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("SummaryPanel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(10, 5, 10, 5)  # tight: the time row must not take the charts' room at 1,024 x 640
        outer.setSpacing(2)

        self.stale_banner = QLabel()
        self.stale_banner.setObjectName("stale_banner")
        self.stale_banner.setWordWrap(True)
        self.stale_banner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.stale_banner.hide()
        outer.addWidget(self.stale_banner)

        top = QHBoxLayout()  # the strategy; the verdict on the right
        self.title = QLabel()
        self.title.setObjectName("summary_title")
        self.title.setWordWrap(True)
        title_font = QFont(self.title.font())
        title_font.setBold(True)
        self.title.setFont(title_font)
        self.fits_icon = QLabel()
        self.fits_icon.setObjectName("fits_icon")
        self.fits_text = FoldingLabel()
        self.fits_text.setObjectName("fits_text")
        self.fits_text.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        top.addWidget(self.title, 0)
        top.addSpacing(12)
        top.addWidget(self.fits_icon)
        top.addWidget(self.fits_text, 1)
        outer.addLayout(top)

        # the peak, big; beside it (under it in a narrow panel) the moment that sets it and the conventions' sum
        headline = self.headline = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        self.total = QLabel()
        self.total.setObjectName("summary_total")
        big = QFont(self.total.font())
        big.setPointSizeF(big.pointSizeF() * 1.7)
        big.setBold(True)
        self.total.setFont(big)
        self.total.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        side = QVBoxLayout()
        side.setSpacing(0)
        self.moment = FoldingLabel()
        self.moment.setObjectName("summary_moment")
        self.moment.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.sum = FoldingLabel()
        self.sum.setObjectName("summary_sum")
        self.sum.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        for label in (self.moment, self.sum):  # the leftover width: the headline keeps its line where it can
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            side.addWidget(label)
        headline.addWidget(self.total, 0, Qt.AlignmentFlag.AlignVCenter)
        headline.addLayout(side, 1)
        headline.setSpacing(16)
        outer.addLayout(headline)

        grid = QGridLayout()
        grid.setHorizontalSpacing(12)
        grid.setVerticalSpacing(2)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)
        self.values: dict[str, FoldingLabel] = {}
        rows = (
            ("headroom", self.tr("Headroom:")),
            ("accumulation", self.tr("Accumulation steps:")),
            ("micro_batch", self.tr("Largest micro-batch:")),
            ("host", self.tr("Host memory:")),
            ("step_time", self.tr("Step time:")),  # vramgui.core.time: the step and its MFU, or "unknown"
            ("throughput", self.tr("Throughput:")),  # tokens per second of the whole job
            ("trainable", self.tr("Trainable:")),  # LoRA / QLoRA only: the adapters' share of the parameters
            ("training", self.tr("Training:")),  # the training tokens given: days, GPU-hours and cost (whole row)
        )
        self.names: dict[str, QLabel] = {}
        self.row_names = tuple(text for _, text in rows[:4])  # the training rows' names
        for i, (key, text) in enumerate(rows):
            name = QLabel(text)
            value = FoldingLabel()
            value.setObjectName("summary_" + key)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            whole = key == "training"  # a row of its own, its value across the columns: one line where it can
            row, column = (len(rows) // 2 + 1, 0) if whole else (i // 2, (i % 2) * 2)
            grid.addWidget(name, row, column, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(value, row, column + 1, 1, 3 if whole else 1, Qt.AlignmentFlag.AlignTop)
            self.values[key] = value
            self.names[key] = name
        self.names["trainable"].hide()
        self.values["trainable"].hide()
        outer.addLayout(grid)

        self.advice = AdviceBox()  # the ways out when it does not fit (or fits with little headroom)
        self.advice.suggestion_clicked.connect(self.suggestion_clicked)
        outer.addWidget(self.advice)

        self.notes = FoldingLabel()
        self.notes.setObjectName("summary_notes")
        self.notes.hide()
        outer.addWidget(self.notes)
        self._fits_kind = "unknown"
        self._icon_key: tuple = ()
        self._compact = False
        self.folding = (self.fits_text, self.moment, self.sum, *self.values.values(), self.notes)
        # every text here can quote user data (a model or folder name, a typed value): never rendered as HTML
        for plain in (self.stale_banner, self.title, self.fits_text, self.total, self.moment, self.sum, self.notes,
                      *self.values.values()):
            plain.setTextFormat(Qt.TextFormat.PlainText)

    def show_summary(self, vm: SummaryVM) -> None:
        self.title.setText(vm.title_text or self.tr("Chosen strategy: {0}").format(vm.strategy))
        # on one line where it is short (a wrapping label would otherwise take a third of a narrow panel)
        self.title.setMinimumWidth(min(self.title.fontMetrics().horizontalAdvance(self.title.text()) + 4, 260))
        self.total.setText(vm.peak_text or vm.total_text)
        self.total.setToolTip("" if vm.peak_bytes is None else f"{vm.peak_bytes:,} B")
        self.moment.setText(vm.moment_text)
        self.moment.setVisible(bool(vm.moment_text))
        self.sum.setText(vm.sum_text)
        self.sum.setToolTip(vm.sum_tip)
        self._fits_kind = "unknown" if vm.fits is None else ("ok" if vm.fits else "bad")
        self._paint_icon()
        self.fits_text.setText(vm.fits_text)
        self.fits_icon.setToolTip(vm.fits_text)
        self.fits_icon.setAccessibleName(vm.fits_text)
        for key, name in zip(("headroom", "accumulation", "micro_batch", "host"), vm.row_names or self.row_names,
                             strict=True):  # Serve mode names its own rows
            self.names[key].setText(name)
        self.values["headroom"].setText(vm.headroom_text)
        self.values["accumulation"].setText(vm.accumulation_text)
        self.values["micro_batch"].setText(vm.max_micro_batch_text)
        self.values["host"].setText(vm.host_text)
        self.values["trainable"].setText(vm.trainable_text)
        texts = {"step_time": vm.step_time_text, "throughput": vm.throughput_text, "training": vm.training_text}
        for key, shown in texts.items():  # a view-model without the time (none of the core's): no time rows
            self.values[key].setText(shown)
            self.values[key].setToolTip(vm.time_tip)
            self.names[key].setVisible(bool(shown))
            self.values[key].setVisible(bool(shown))
        for label in (self.names["trainable"], self.values["trainable"]):
            label.setVisible(bool(vm.trainable_text))
        self.advice.show_advice(vm.advice_title, vm.suggestions, vm.advice_empty)
        self.advice_changed.emit()
        self.notes.setText("\n".join("• " + n for n in vm.notes))
        self.notes.setVisible(bool(vm.notes))

    @property
    def compact(self) -> bool:
        return self._compact

    def set_compact(self, compact: bool) -> None:
        """Every folding text on one line (cut with "…", whole in its tooltip), the moment beside the peak."""
        if compact == self._compact:
            return
        self._compact = compact
        for label in self.folding:
            label.set_one_line(compact)
        self._place_headline()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._place_headline()

    def _place_headline(self) -> None:
        """In a narrow panel the moment and the sum go under the headline: two full lines instead of four (in a
        compact one they stay beside it, a line each)."""
        narrow = self.width() < NARROW_PX and not self._compact
        direction = QBoxLayout.Direction.TopToBottom if narrow else QBoxLayout.Direction.LeftToRight
        if self.headline.direction() != direction:
            narrow = direction is QBoxLayout.Direction.TopToBottom
            self.headline.setDirection(direction)
            self.headline.setSpacing(0 if narrow else 16)
            align = Qt.AlignmentFlag.AlignLeft if narrow else Qt.AlignmentFlag.AlignVCenter
            self.headline.setAlignment(self.total, align)

    def _paint_icon(self) -> None:
        size = max(20, self.fontMetrics().height() + 6)
        key = (self._fits_kind, size, self.devicePixelRatioF())
        if key != self._icon_key:  # drawn again only when the verdict (or the screen) changes, not on every edit
            self._icon_key = key
            self.fits_icon.setPixmap(status_pixmap(self._fits_kind, size, self.devicePixelRatioF()))

    def show_stale(self, reason: str | None) -> None:
        if reason:
            bg, fg = warning_colours(self)
            self.stale_banner.setStyleSheet(f"background: {bg}; color: {fg}; padding: 4px; border-radius: 3px;")
            self.stale_banner.setText("⚠ " + reason)
            self.stale_banner.show()
        else:
            self.stale_banner.hide()
        for widget in (self.total, self.moment, self.sum, self.fits_text, self.fits_icon, self.advice,
                       *self.values.values()):
            widget.setEnabled(not reason)

    @property
    def fits_kind(self) -> str:
        return self._fits_kind
