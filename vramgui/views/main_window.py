"""The main window: forms on the left, results (summary, three charts, breakdown table) on the right.

Implements the presenter's ``MainView`` protocol by delegating to its panels; owns menus, shortcuts, file
dialogs and exports. Holds no arithmetic: every number arrives formatted in a view-model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QGuiApplication, QImage
from PySide6.QtWidgets import QMainWindow, QSplitter, QStyle, QTabWidget, QVBoxLayout, QWidget

from vramgui.presenters.image_files import save_png
from vramgui.presenters.scenario_inputs import export_caption
from vramgui.presenters.view_models import FieldError, ResultVM, SweepVM
from vramgui.views.breakdown_table import BreakdownPanel
from vramgui.views.chart_freshness import ChartFreshness
from vramgui.views.dialogs import AboutDialog, FormulasDialog
from vramgui.views.file_actions import FileActionsMixin
from vramgui.views.form.panel import InputPanel
from vramgui.views.menus import DEFAULT_EXPORT_WIDTH, MenusMixin
from vramgui.views.plan_tab import PLANS_TAB, CompactTabBar, PlanTabMixin
from vramgui.views.results_column import ResultsColumn
from vramgui.views.serve_mode import SERVE_TAB, TRAINING_TABS, ServeModeMixin  # noqa: F401 - re-exported
from vramgui.views.summary_panel import SummaryPanel
from vramgui.views.window_geometry import restore_or_place, scroll_box

if TYPE_CHECKING:
    from vramgui.presenters.compare.presenter import ComparePresenter
    from vramgui.presenters.document_presenter import DocumentPresenter
    from vramgui.presenters.main_presenter import MainPresenter
    from vramgui.views.charts.panels import ChartView
    from vramgui.views.compare.view import CompareWidget

STEP_TAB, TIME_TAB, SWEEP_TAB, MAX_MODEL_TAB, COMPARE_TAB = 1, 2, 3, 4, 7  # Serving 5, Plans 6; Compare last
RESULTS_SPLIT = (590, 240)  # chart : breakdown table at first start, in proportion (a size restored wins)
CHART_SIDE_PX = 480  # the summary and the chart at least, where a short window leaves the table its minimum


class MainWindow(ServeModeMixin, PlanTabMixin, FileActionsMixin, MenusMixin, ChartFreshness, QMainWindow):
    """``defer_charts``: build the pyqtgraph charts after the window is first shown (pyqtgraph's import is
    most of the start-up time); ``charts_ready`` fires once they exist. Accessing a chart builds them."""

    charts_ready = Signal()
    language_requested = Signal(str)  # a language code, "" = follow the system; app.py rebuilds the window

    def __init__(self, settings, parent: QWidget | None = None, defer_charts: bool = False) -> None:
        super().__init__(parent)
        self.settings = settings
        # the MainPresenter, the DocumentPresenter and the ComparePresenter: attached by app.py
        self.presenter: MainPresenter | None = None
        self.document: DocumentPresenter | None = None
        self.compare_presenter: ComparePresenter | None = None
        self.compare_view: CompareWidget | None = None
        self.result: ResultVM | None = None
        self._charts: tuple | None = None
        self._sweep_vm: SweepVM | None = None
        self._max_model_vm: SweepVM | None = None
        self._stale = False
        self._dirty: set[int] = set()  # charts drawn when shown (or read): an edit redraws the visible chart only
        self._defer_charts = defer_charts
        self.setObjectName("MainWindow")
        self.setAcceptDrops(True)  # a scenario, a config.json or a model folder (FileActionsMixin.dropEvent)
        self._build()
        self._build_menus()
        self._restore_layout()
        if not defer_charts:
            self.ensure_charts()

    # ----- the charts (pyqtgraph), built on first need
    @property
    def charts_built(self) -> bool:
        return self._charts is not None

    def ensure_charts(self) -> tuple:
        if self._charts is not None:
            return self._charts
        from vramgui.views.charts.panels import StrategyChart, SweepChart
        from vramgui.views.charts.step import StepChart
        from vramgui.views.charts.time import TimeChart

        charts = (
            StrategyChart(), StepChart(), TimeChart(),
            SweepChart(self.tr("Peak memory per GPU against the number of GPUs"), self.tr("Memory per GPU (GB)")),
            SweepChart(self.tr("Largest trainable model against the number of GPUs"),
                       self.tr("Largest model (billion parameters)"), log_y=True),
            self.serve_chart(), self.plan_chart(),
        )
        for (_page, page_layout), chart in zip(self._chart_pages, charts, strict=False):
            page_layout.addWidget(chart.parentWidget() or chart)  # the plan chart is in its panel
            page_layout.activate()
        self._charts = charts
        self._build_compare_view()
        if self.result is not None:
            self._draw_bars()
        if self._sweep_vm is not None:
            self._draw_sweep()
        if self._max_model_vm is not None:
            self._draw_max_model()
        self._redraw(SERVE_TAB, self.serve_result is not None, now=True)
        self._show_charts_stale()
        self.charts_ready.emit()
        return charts

    def _build_compare_view(self) -> None:
        """The comparison panel (pinned scenarios side by side) as the last tab; app.py gives it its presenter when
        ``charts_ready`` fires (``attach_compare``)."""
        from vramgui.views.compare.view import CompareWidget

        view = CompareWidget()
        view.pin_requested.connect(self.pin_current)
        # scrolls in a narrow window instead of holding the whole window wider (its buttons need ~730 px)
        self._chart_pages[COMPARE_TAB][1].addWidget(scroll_box(view, horizontal=True))
        self.compare_view = view

    def attach_compare(self, presenter: ComparePresenter) -> None:
        from vramgui.views.compare.view import connect_compare

        assert self.compare_view is not None  # built with the charts, before charts_ready
        self.compare_presenter = presenter
        connect_compare(self.compare_view, presenter)
        presenter.pinned_changed.connect(lambda _n: self.pin_action.setEnabled(presenter.can_pin()))
        presenter.refresh()

    def pin_current(self) -> None:
        """Pin the shown (valid) scenario into the comparison and show it."""
        self.ensure_charts()
        if self.presenter is None or self.presenter.scenario is None or self.compare_presenter is None:
            return
        if self.compare_presenter.pin(self.presenter.scenario) is not None:  # named model · GPUs · strategy
            self.chart_tabs.setCurrentIndex(COMPARE_TAB)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if not self.settings.splitter_sizes("results") and not getattr(self, "_split_fitted", False):
            self._split_fitted = True  # a first start in a short window: the chart's side first, the table scrolls
            total, table = sum(self.results_splitter.sizes()), self.breakdown_panel.minimumSizeHint().height()
            if total - self.results_splitter.sizes()[1] < CHART_SIDE_PX and total >= CHART_SIDE_PX + table:
                self.results_splitter.setSizes([CHART_SIDE_PX, total - CHART_SIDE_PX])
        if self._charts is None:
            QTimer.singleShot(40, self, self.ensure_charts)  # after the first paint

    @property
    def strategy_chart(self):
        return self.ensure_charts()[0]

    @property
    def step_chart(self):
        return self.charts()[STEP_TAB]  # drawn with the current result (charts() draws what is behind)

    @property
    def time_chart(self):
        return self.charts()[TIME_TAB]

    @property
    def sweep_chart(self):
        return self.charts()[SWEEP_TAB]

    @property
    def max_model_chart(self):
        return self.charts()[MAX_MODEL_TAB]

    # ----- construction
    def _build(self) -> None:
        self.inputs = InputPanel(open_groups=self.settings.open_form_groups())  # the groups left open last time
        self.inputs.groups_toggled.connect(self.settings.set_open_form_groups)
        scroll = self.input_scroll = scroll_box(self.inputs, horizontal=False)
        bar = scroll.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        scroll.setMinimumWidth(self.inputs.minimumSizeHint().width() + bar + 4)  # the form and its scroll bar

        self.summary = SummaryPanel()
        self.chart_tabs = QTabWidget()
        self.chart_tabs.setTabBar(CompactTabBar())  # eight tabs: each may shrink to a letter (the window's minimum)
        self.chart_tabs.setObjectName("chart_tabs")
        self.chart_tabs.setElideMode(Qt.TextElideMode.ElideRight)  # six tabs at 1,024 px: titles shortened (in
        self.chart_tabs.setUsesScrollButtons(False)  # full in each tab's tooltip), never a tab scrolled out of sight
        self._chart_pages: list[tuple[QWidget, QVBoxLayout]] = []
        for tab_title in (self.tr("By strategy"), self.tr("One training step"), self.tr("Time and cost"),
                          self.tr("By GPU count"), self.tr("Largest model"), self.tr("Serving"), self.tr("Plans"),
                          self.tr("Compare")):
            page = QWidget()
            page_layout = QVBoxLayout(page)
            page_layout.setContentsMargins(0, 0, 0, 0)
            self._chart_pages.append((page, page_layout))
            self.chart_tabs.setTabToolTip(self.chart_tabs.addTab(page, tab_title), tab_title)
        self.chart_tabs.currentChanged.connect(self._flush)
        self.chart_tabs.setTabVisible(SERVE_TAB, False)  # until the scenario plans serving

        table_box = self.breakdown_panel = BreakdownPanel()
        self.chart_tabs.currentChanged.connect(lambda i: table_box.follow_tab(i == TIME_TAB))
        # Compare has its own table of the pins: the editor's breakdown under it would read as the comparison's; the
        # plans are many scenarios, not the editor's one (and their chart needs the height)
        self.chart_tabs.currentChanged.connect(lambda i: table_box.setVisible(i not in (COMPARE_TAB, PLANS_TAB)))
        self.breakdown = table_box.table
        self.copy_table_button = table_box.copy_button
        self.copy_table_button.clicked.connect(self._copy_table)

        results = QSplitter(Qt.Orientation.Vertical)
        results.setObjectName("results_splitter")
        self.results_column = ResultsColumn(self.summary, self.chart_tabs)  # the chart keeps a plot under the summary
        results.addWidget(self.results_column)
        results.addWidget(table_box)
        results.setStretchFactor(0, 3)
        results.setStretchFactor(1, 1)
        results.setChildrenCollapsible(False)
        self.results_splitter = results

        main = QSplitter(Qt.Orientation.Horizontal)
        main.setObjectName("main_splitter")
        main.addWidget(scroll)
        main.addWidget(results)
        main.setStretchFactor(0, 0)
        main.setStretchFactor(1, 1)
        main.setChildrenCollapsible(False)
        self.main_splitter = main
        self.setCentralWidget(main)
        self.statusBar()

    def _restore_layout(self) -> None:
        restore_or_place(self, self.settings.window_geometry())  # on a screen that still exists, else a first size
        self.main_splitter.setSizes([440, 960])
        # the chart gets the room; the table all its rows (a formula on two lines included) down to 1280 x 720
        self.results_splitter.setSizes(list(RESULTS_SPLIT))
        for name, splitter in (("main", self.main_splitter), ("results", self.results_splitter)):
            sizes = self.settings.splitter_sizes(name)
            if sizes and len(sizes) == splitter.count():
                splitter.setSizes(sizes)

    # ----- presenter wiring
    def attach(self, presenter: MainPresenter, document: DocumentPresenter) -> None:
        """The presenters this window shows (Mu's shape: they call the window's plain methods; the window forwards
        user actions to them)."""
        self.presenter = presenter
        self.document = document
        self.inputs.edited.connect(presenter.on_field_edited)
        self.inputs.edit_finished.connect(presenter.on_edit_finished)
        self.summary.suggestion_clicked.connect(presenter.apply_suggestion)  # the adviser's ways out, one click

    # ----- MainView protocol
    def set_choices(self, key: str, choices: Sequence[tuple[str, str]]) -> None:
        self.inputs.set_choices(key, choices)

    def set_form_values(self, values: Mapping[str, object]) -> None:
        self.inputs.set_form_values(values)

    def set_fields_enabled(self, states: Mapping[str, bool], reasons: Mapping[str, str] | None = None) -> None:
        self.inputs.set_fields_enabled(states, reasons)

    def show_field_errors(self, errors: Sequence[FieldError]) -> None:
        self.inputs.show_field_errors(errors)

    def show_result(self, result: ResultVM) -> None:
        self.result = result
        self.leave_serve_mode()
        self.summary.show_summary(result.summary)
        self.breakdown_panel.show_rows(result.peak_breakdown, result.breakdown, result.time_breakdown)
        if self._charts is not None:
            self._draw_bars()
        self._mark_behind(SWEEP_TAB, MAX_MODEL_TAB)  # the sweeps follow in idle time: faded until they arrive

    def show_sweep(self, sweep: SweepVM) -> None:
        self._sweep_vm = sweep
        if self._charts is not None:
            self._draw_sweep()
        self._arrived(SWEEP_TAB)

    def show_max_model(self, sweep: SweepVM) -> None:
        self._max_model_vm = sweep
        if self._charts is not None:
            self._draw_max_model()
        self._arrived(MAX_MODEL_TAB)

    def _draw_bars(self) -> None:
        if self._charts is None or self.result is None:
            return
        chart = self._charts[0]
        chart.set_subtitle(self.result.title)
        chart.show_bars(self.result.bars)
        self._redraw(STEP_TAB, self.result.step is not None)
        self._redraw(TIME_TAB, self.result.time_bars is not None)

    def _draw_sweep(self) -> None:  # the sweeps arrive after the edit, in slices: drawn at once, shown or not
        self._redraw(SWEEP_TAB, self._sweep_vm is not None, now=True)

    def _draw_max_model(self) -> None:
        self._redraw(MAX_MODEL_TAB, self._max_model_vm is not None, now=True)

    def _redraw(self, index: int, due: bool, now: bool = False) -> None:
        """Chart ``index`` is behind: drawn now if its tab is shown (or ``now``), else when it is shown (or read)."""
        (self._dirty.add if due else self._dirty.discard)(index)
        if now or self.chart_tabs.currentIndex() == index:
            self._flush(index)

    def _flush(self, *indexes: int) -> None:  # draw the charts (all: none named) that edits left behind
        for index in indexes or tuple(self._dirty):
            if index not in self._dirty or self._charts is None:
                continue
            self._dirty.discard(index)
            chart = self._charts[index]
            chart.set_subtitle(self.result.title if self.result else "")
            if index == STEP_TAB and self.result is not None and self.result.step is not None:
                chart.show_step(self.result.step)
            elif index == TIME_TAB and self.result is not None and self.result.time_bars is not None:
                chart.show_time(self.result.time_bars)
            elif index == SWEEP_TAB and self._sweep_vm is not None:
                chart.show_sweep(self._sweep_vm, self.tr("Memory per GPU ({0})").format(self._sweep_vm.unit))
            elif index == MAX_MODEL_TAB and self._max_model_vm is not None:
                chart.show_sweep(self._max_model_vm, self.tr("Largest model (billion parameters)"))
            elif index == SERVE_TAB:
                self.draw_serve(chart)

    def show_stale(self, reason: str | None) -> None:
        self._stale = bool(reason)
        self.summary.show_stale(reason)
        self.breakdown_panel.setEnabled(not reason)
        self._show_charts_stale()

    # ----- charts and exports
    def charts(self) -> tuple[ChartView, ...]:
        charts = self.ensure_charts()
        self._flush()
        return charts

    def current_chart(self) -> ChartView:
        """The chart on the visible tab (the strategy chart while the comparison tab is shown)."""
        index = self.chart_tabs.currentIndex()
        return self.charts()[index if index < len(self.charts()) else 0]

    def comparing(self) -> bool:
        return self.chart_tabs.currentIndex() == COMPARE_TAB

    def chart_image(self, width_px: int | None = None) -> QImage:
        """The visible chart as an image: white background, title, legend, axis labels, scenario caption."""
        if self.comparing():
            return self._compare_image(width_px or self.export_width())
        if self.presenter is not None:
            self.presenter.finish_sweeps()
        computed, scenario = (self.presenter.computed, self.presenter.scenario) if self.presenter else (None, None)
        caption = export_caption(scenario, computed.estimate) if computed and scenario else ""  # every input
        caption = self.serve_result.caption if self.serve_result is not None else caption
        return self.current_chart().render_image(width_px or self.export_width(), caption)

    def _compare_image(self, width_px: int) -> QImage:
        """The comparison chart as the comparison panel's own PNG export draws it, at ``width_px``."""
        view, presenter = self.compare_view, self.compare_presenter
        assert view is not None and presenter is not None  # the comparison tab is shown: the charts exist
        return view.chart_image(int(width_px), presenter.chart_title(), presenter.chart_caption())

    def export_chart(self, path: str, width_px: int = DEFAULT_EXPORT_WIDTH) -> None:
        save_png(path, self.chart_image(width_px))  # atomic; SaveError (an OSError) names the reason

    def export_csv(self, path: str) -> None:
        self._editor().write_csv(str(path))

    def copy_chart(self) -> None:
        QGuiApplication.clipboard().setImage(self.chart_image())
        self.statusBar().showMessage(self.tr("Chart copied to the clipboard"), 4000)

    def _copy_table(self) -> None:
        QGuiApplication.clipboard().setText(self.breakdown.as_text())
        self.statusBar().showMessage(self.tr("Table copied to the clipboard"), 4000)

    def _on_unit(self, unit: str) -> None:
        self.settings.set_unit(unit)
        if self.presenter is not None:
            self.presenter.set_unit(unit)
        if self.compare_presenter is not None:
            self.compare_presenter.set_unit(unit)

    # ----- help
    def show_formulas(self) -> None:
        dialog = FormulasDialog(self.result.formulas_html if self.result else "", self)
        dialog.setModal(False)
        dialog.show()
        self.formulas_dialog = dialog

    def show_about(self) -> None:
        dialog = AboutDialog(self)
        dialog.setModal(False)
        dialog.show()
        self.about_dialog = dialog

    # ----- lifetime
    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        if self.document is not None and not self.document.maybe_save():
            event.ignore()
            return
        self.settings.set_window_geometry(QByteArray(self.saveGeometry()))
        self.settings.set_splitter_sizes("main", self.main_splitter.sizes())
        self.settings.set_splitter_sizes("results", self.results_splitter.sizes())
        if self.document is not None:
            self.document.close_session()  # the scenario and its file, for the next start
        self.settings.sync()
        super().closeEvent(event)

