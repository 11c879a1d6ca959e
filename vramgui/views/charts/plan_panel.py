"""The Plans tab: a line saying what was searched (or how far the search is, with a progress bar and Cancel), then the
plan chart. Implements ``presenters.plan_models.PlanView``: it only places what the presenter decided."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from vramgui.presenters.plan_models import PlanChartVM, PlanStatusVM
from vramgui.views.charts.plan_chart import PlanChart

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

BAR_WIDTH_PX = 140
TEXT_SCALE = 0.9


class PlanPanel(QWidget):
    cancel_clicked = Signal()
    search_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("plan_panel")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 0)
        layout.setSpacing(2)
        row = QHBoxLayout()
        row.setSpacing(6)
        self.text = QLabel()  # what was searched and the plan chosen; while searching, how far it is
        self.text.setObjectName("plan_text")
        self.text.setTextFormat(Qt.TextFormat.PlainText)  # the model's name is the user's text
        self.text.setWordWrap(True)
        self.text.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)  # never widens the tab
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = self.text.font()  # a caption's size: at 1,024 x 640 the plot below needs every line it can get
        font.setPointSizeF(font.pointSizeF() * TEXT_SCALE)
        self.text.setFont(font)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)
        self.progress.setFixedWidth(BAR_WIDTH_PX)
        self.cancel_button = QPushButton(translate("PlanPanel", "Cancel"))
        self.cancel_button.setToolTip(translate("PlanPanel", "Stop the search; the plans are not searched again "
                                                "until you ask"))
        self.search_button = QPushButton(translate("PlanPanel", "Search plans"))
        self.search_button.setToolTip(translate("PlanPanel", "Search every layout, ZeRO stage, recomputation, "
                                                "micro-batch and offload for the plans that fit"))
        self.cancel_button.clicked.connect(self.cancel_clicked)
        self.search_button.clicked.connect(self.search_clicked)
        row.addWidget(self.text, 1)
        for widget in (self.progress, self.cancel_button, self.search_button):
            row.addWidget(widget, 0, Qt.AlignmentFlag.AlignVCenter)
            widget.setVisible(False)
        layout.addLayout(row)
        self.chart = PlanChart()
        self.plan_clicked = self.chart.plan_clicked
        layout.addWidget(self.chart, 1)
        self._summary = ""
        self._status = PlanStatusVM("", busy=False, progress=0, stale=True, can_search=False)

    # ----- PlanView
    def show_plans(self, vm: PlanChartVM | None) -> None:
        self._summary = vm.summary if vm is not None else ""
        self.chart.show_plans(vm)
        self._show_text()

    def show_plan_status(self, status: PlanStatusVM) -> None:
        self._status = status
        self.progress.setVisible(status.busy)
        if status.busy:
            if status.progress < 0:
                self.progress.setRange(0, 0)  # busy, no fraction known yet
            else:
                self.progress.setRange(0, 1000)
                self.progress.setValue(status.progress)
        self.cancel_button.setVisible(status.busy)
        self.search_button.setVisible(status.can_search)
        self.chart.set_plans_stale(status.stale)
        self._show_text()

    def _show_text(self) -> None:
        said = self._status.text or self._summary
        self.text.setText(said)
        self.text.setVisible(bool(said))
