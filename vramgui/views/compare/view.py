"""The comparison panel: stacked per-GPU bars of every pinned scenario and a table of headline figures.

Passive: it places ``CompareVM`` values on widgets and reports the user's actions as signals; the presenter
(``vramgui.presenters.compare.presenter``) does everything else. Chart items are created once and updated. The plot
follows the palette (dark included) like the other charts; its PNG is white with dark text at the width asked,
the whole scene scaled to it. A bar whose step peak does not fit is outlined in red and its label starts with "✕".
"""

from __future__ import annotations

import pyqtgraph as pg
from pyqtgraph.exporters import ImageExporter
from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QColor, QFontMetricsF, QImage
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from vramgui.presenters.compare.presenter import MAX_PINNED, STACK_KEYS, ComparePresenter, CompareVM
from vramgui.presenters.image_files import save_png
from vramgui.views.charts.fit import fit_legend
from vramgui.views.charts.frame import CAPACITY_COLOUR, COMPACT_PX, COMPACT_TICK_PT, EXPORT_BG, EXPORT_FG, USABLE_COLOUR
from vramgui.views.charts.layout import ChartAxis, split_axis_title, tick_font, tick_metrics
from vramgui.views.charts.peak_marks import PeakMarks, top_for
from vramgui.views.compare.image import compose_export, tick_text
from vramgui.views.compare.table import COLUMNS, ID_ROLE, PinActions, PinnedTable
from vramgui.views.elided_label import ElidedLabel
from vramgui.views.theme import component_colour, error_colour

__all__ = ["EXPORT_WIDTH", "CompareWidget", "compose_export", "connect_compare"]

BAR_WIDTH = 0.6
EXPORT_WIDTH = 1600  # px of the exported chart unless the presenter says (File > PNG export width)
STATUS_MS = 6000
TWO_LINES_PX = 150  # the plot's height from which each bar's label shows the sum under the peak


class CompareWidget(QWidget):
    pin_requested = Signal()
    rename_requested = Signal(int, str)
    remove_requested = Signal(int)
    load_requested = Signal(int)
    clear_requested = Signal()
    export_png_requested = Signal()
    export_csv_requested = Signal()

    COLUMNS = COLUMNS

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._vm: CompareVM | None = None
        self._legend_columns = 1
        self._axis_title: tuple[str, str] = ("", "")  # the y axis' title as shown (maybe on two lines), its colour
        self._fg, self._bg = EXPORT_FG, EXPORT_BG  # the palette's text and base colours (apply_palette)
        self._build()
        self.retranslate()
        self._update_buttons()

    # --- construction ---------------------------------------------------------------------------------
    def _build(self) -> None:
        self.action_bar = PinActions(self)  # wraps onto a second row where the tab is narrow
        (self.pin_button, self.rename_button, self.remove_button, self.load_button, self.clear_button,
         self.export_png_button, self.export_csv_button) = self.action_bar.buttons

        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.hide()
        self.hint = QLabel(self)
        self.hint.setWordWrap(True)
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.common = ElidedLabel(self)  # the inputs every pin shares (the names say what differs), on one line
        self.common.hide()

        self.plot = pg.PlotWidget(self, axisItems={"left": ChartAxis("left")})  # its end ticks drawn: the 0 too
        self.plot.setMinimumHeight(200)  # bars, their labels and a 3-row legend at 1,024 px wide
        item = self.plot.getPlotItem()
        item.setMenuEnabled(False)
        item.setMouseEnabled(x=False, y=False)
        item.hideButtons()
        item.layout.setContentsMargins(6, 2, 2, 2)  # the y axis' title stands 5 px left of the axis (pyqtgraph)
        item.showGrid(y=True, alpha=0.25)
        # above the plot, in the title's row (inside it would take the bars' room): wraps to the width
        self.legend = pg.LegendItem(offset=None, labelTextSize="8pt", horSpacing=10, frame=False)
        self.legend.setFlag(self.legend.GraphicsItemFlag.ItemIgnoresTransformations, False)
        item.layout.removeItem(item.titleLabel)
        item.titleLabel.setVisible(False)
        item.layout.addItem(self.legend, 0, 0, 1, 3)  # the whole width: over the y axis too (fewer rows)
        item.layout.setAlignment(self.legend, Qt.AlignmentFlag.AlignHCenter)
        item.vb.sigResized.connect(self._plot_resized)
        self.bars: dict[str, pg.BarGraphItem] = {}
        for i, key in enumerate(STACK_KEYS):
            bar = pg.BarGraphItem(x=[], height=[], y0=[], width=BAR_WIDTH, brush=pg.mkBrush(component_colour(key, i)),
                                  pen=pg.mkPen(self._bg, width=0.5))
            item.addItem(bar)
            self.bars[key] = bar
        # a bar whose step peak is above the usable memory: outlined in red, its label marked "✕"
        self.over_bars = pg.BarGraphItem(x=[], height=[], y0=[], width=BAR_WIDTH + 0.06, brush=QColor(0, 0, 0, 0),
                                         pen=pg.mkPen(CAPACITY_COLOUR, width=2.5))
        self.over_bars.setZValue(40)
        item.addItem(self.over_bars)
        # usable GPU memory: one dashed segment across each bar (pairs of points)
        self.capacity = pg.PlotDataItem(x=[], y=[], connect="pairs",
                                        pen=pg.mkPen(USABLE_COLOUR, width=2.5, style=Qt.PenStyle.DashLine))
        item.addItem(self.capacity)
        # each bar's step peak (what decides the fit) as a dash, its label over it: peak, then the sum
        self.marks = PeakMarks(item, BAR_WIDTH / 2 + 0.08, labels=MAX_PINNED)
        self.total_labels = self.marks.labels

        self.table = PinnedTable(self)

        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.addWidget(self.plot)
        self.splitter.addWidget(self.table)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([420, 180])

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 4)  # tight: at 1,024 x 640 the tab has about 300 px for all of it
        layout.setSpacing(4)
        layout.addWidget(self.action_bar)
        layout.addWidget(self.message)
        layout.addWidget(self.hint)
        layout.addWidget(self.common)
        layout.addWidget(self.splitter, 1)
        self.apply_palette()

        self.pin_button.clicked.connect(self.pin_requested)
        self.rename_button.clicked.connect(self._edit_selected_name)
        self.remove_button.clicked.connect(lambda: self._emit_for_selected(self.remove_requested))
        self.load_button.clicked.connect(lambda: self._emit_for_selected(self.load_requested))
        self.clear_button.clicked.connect(self.clear_requested)
        self.export_png_button.clicked.connect(self.export_png_requested)
        self.export_csv_button.clicked.connect(self.export_csv_requested)
        self.table.itemChanged.connect(self._item_changed)
        self.table.itemDoubleClicked.connect(self._double_clicked)
        self.table.itemSelectionChanged.connect(self._update_buttons)

    def retranslate(self) -> None:
        self.pin_button.setText(self.tr("Pin current scenario"))
        self.pin_button.setToolTip(self.tr("Add the scenario in the editor to the comparison"))
        self.rename_button.setText(self.tr("Rename"))
        self.rename_button.setToolTip(self.tr("Rename the selected scenario (or double-click its name, or press F2)"))
        self.remove_button.setText(self.tr("Remove"))
        self.remove_button.setToolTip(self.tr("Remove the selected scenario from the comparison"))
        self.load_button.setText(self.tr("Load into editor"))
        self.load_button.setToolTip(self.tr("Open the selected scenario in the editor (or double-click a figure)"))
        self.clear_button.setText(self.tr("Clear all"))
        self.clear_button.setToolTip(self.tr("Remove every pinned scenario"))
        self.export_png_button.setText(self.tr("Export PNG…"))
        self.export_png_button.setToolTip(self.tr("Save the chart as a PNG image, with every input in its caption"))
        self.export_csv_button.setText(self.tr("Export CSV…"))
        self.export_csv_button.setToolTip(self.tr("Save the table as a CSV file, with every input in its columns"))
        self.table.setHorizontalHeaderLabels([
            self.tr("Scenario"), self.tr("Peak per GPU"), self.tr("Sum per GPU"), self.tr("Fits"),
            self.tr("Headroom"), self.tr("Max micro-batch"), self.tr("Accumulation steps"), self.tr("Step time"),
            self.tr("Throughput"), self.tr("Time to train"), self.tr("Cost"),
        ])
        tips = {1: self.tr("The peak of one training step: it decides the fit"),
                2: self.tr("The per-GPU sum of components, as the conventions publish it (the stacked bar)"),
                **self.table.time_tips()}
        for column, tip in tips.items():
            header_item = self.table.horizontalHeaderItem(column)
            if header_item is not None:
                header_item.setToolTip(tip)
        self.table.setToolTip(self.tr("Double-click a name to rename it, or a figure to load the scenario"))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange) and hasattr(
                self, "marks"):
            self.apply_palette()
        super().changeEvent(event)

    # --- theme: the plot follows the palette (like the other charts); exports are always white ----------------
    def apply_palette(self) -> None:
        pal = self.palette()
        self.apply_colours(pal.color(pal.ColorRole.Base).name(), pal.color(pal.ColorRole.Text).name())

    def apply_colours(self, bg: str, fg: str) -> None:
        self._bg, self._fg = bg, fg
        self.plot.setBackground(bg)
        item = self.plot.getPlotItem()
        for axis in ("left", "bottom"):
            item.getAxis(axis).setPen(pg.mkPen(fg))
            item.getAxis(axis).setTextPen(pg.mkPen(fg))
        self.legend.setLabelTextColor(fg)
        self.marks.recolour(fg, bg)
        for bar in self.bars.values():
            bar.setOpts(pen=pg.mkPen(bg, width=0.5))
        if self._vm is not None:
            self._update_chart(self._vm)  # the legend's and the axis' texts are drawn in the new colour

    # --- CompareView protocol -------------------------------------------------------------------------
    def show_comparison(self, vm: CompareVM) -> None:
        self._vm = vm
        self.table.fill(vm.rows)
        self._update_chart(vm)
        self.hint.setText(vm.empty_hint)
        self.hint.setVisible(bool(vm.empty_hint))
        self.common.set_full_text(vm.common_text)
        self.common.setVisible(bool(vm.common_text))
        self._update_buttons()

    def show_message(self, text: str) -> None:
        self.message.setText(text)
        self.message.setStyleSheet(f"color: {error_colour(self)};")
        self.message.setVisible(bool(text))

    def show_status(self, text: str) -> None:
        window = self.window()
        if isinstance(window, QMainWindow):
            window.statusBar().showMessage(text, STATUS_MS)

    def show_error(self, title: str, text: str) -> None:
        QMessageBox.warning(self, title, text)

    def ask_export_path(self, title: str, start_path: str, file_filter: str) -> str | None:
        path, _ = QFileDialog.getSaveFileName(self, title, start_path, file_filter)
        return path or None

    def ask_open_path(self, title: str, folder: str, file_filter: str) -> str | None:
        path, _ = QFileDialog.getOpenFileName(self, title, folder, file_filter)
        return path or None

    def ask_replace(self, title: str, text: str) -> bool:
        buttons = QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel
        return QMessageBox.question(self, title, text, buttons) == QMessageBox.StandardButton.Yes

    def export_chart_png(self, path: str, title: str, caption: str, width: int = EXPORT_WIDTH) -> None:
        """The chart ``width`` pixels wide with a title above and a caption below, written atomically."""
        save_png(path, self.chart_image(width, title, caption))  # SaveError (an OSError) names the reason

    def chart_image(self, width: int, title: str, caption: str) -> QImage:
        """Chart (white background, dark text whatever the theme, legend) with a title above and a caption below.
        The widget must have been shown: pyqtgraph exports a never-shown widget at 640x480. The scene is scaled
        to ``width``, its legend and labels with it."""
        self.apply_colours(EXPORT_BG, EXPORT_FG)
        try:
            exporter = ImageExporter(self.plot.getPlotItem())
            exporter.parameters()["background"] = QColor(EXPORT_BG)
            exporter.parameters()["width"] = int(width)
            chart = exporter.export(toBytes=True)
        finally:
            self.apply_palette()
        if not isinstance(chart, QImage) or chart.isNull():
            raise OSError("the chart could not be rendered")
        return compose_export(chart, title, caption, self.font())

    # --- internals ------------------------------------------------------------------------------------
    def _update_chart(self, vm: CompareVM) -> None:
        item = self.plot.getPlotItem()
        n = len(vm.names)
        xs = list(range(n))
        for series in vm.series:
            self.bars[series.key].setOpts(x=xs, height=list(series.heights), y0=list(series.bottoms),
                                          width=BAR_WIDTH)
        # the legend lists each component once, in the current language
        self.legend.clear()
        for series in vm.series:
            if any(h > 0 for h in series.heights) or n == 0:
                self.legend.addItem(self.bars[series.key], series.label)
        caps = [(x, c) for x, c in zip(xs, vm.capacities, strict=True) if c is not None]
        half = BAR_WIDTH / 2 + 0.08
        self.capacity.setData(x=[x + d for x, _ in caps for d in (-half, half)], y=[c for _, c in caps for _ in (0, 1)])
        components = len(self.legend.items)
        if caps:
            self.legend.addItem(self.capacity, self.tr("Usable GPU memory"))
        fits = vm.fits if vm.label_tops else (None,) * n
        over = [x for x, fit in zip(xs, fits, strict=True) if fit is False]
        self.over_bars.setOpts(x=over, y0=[0.0] * len(over), height=[vm.totals[x] for x in over],
                               width=BAR_WIDTH + 0.06)
        if vm.label_tops:
            for sample, label in self.marks.legend_entries(vm.fits):
                # "✕ does not fit": its sample the red outline the bars carry (the dash at the peak is red too)
                self.legend.addItem(self.over_bars if sample is self.marks.over_line else sample, label)
            self.marks.show(xs, vm.peaks, vm.fits, vm.peak_texts, vm.sum_texts, vm.label_tops)
        else:  # a view-model without the peaks: the sums alone
            self.marks.show(xs, (None,) * n, (None,) * n, ("",) * n, [f"{t:,.1f}" for t in vm.totals], vm.totals)
        self._fit_legend(max(components, len(self.legend.items) - components))
        self._update_ticks()
        self._show_axis_title()
        item.setXRange(-0.6, max(n, 1) - 0.4, padding=0)
        self._fit_range()

    def _fit_legend(self, columns: int | None = None) -> None:
        """The components on a row, the marks (usable memory, step peak) on the next where the plot is wide, else in
        as few rows as its width holds (``chart_fit.fit_legend``: layout, not numbers)."""
        if columns is not None:
            self._legend_columns = columns
        item, compact = self.plot.getPlotItem(), self.plot.height() < COMPACT_PX  # a short plot: smaller texts
        for axis in (item.getAxis("left"), item.getAxis("bottom")):
            if (axis.style["tickFont"] is not None) != compact:
                axis.setTickFont(tick_font(COMPACT_TICK_PT) if compact else None)
        if self.legend.items:
            fit_legend(self.legend, self.plot.width() - 12, self._legend_columns, compact)
        height = self.legend.maximumHeight() if self.legend.items else 0
        self.legend.setMinimumHeight(height)
        self.legend.setMaximumHeight(height)
        item.layout.setRowFixedHeight(0, height)
        self.legend.layout.activate()  # entries placed now: an export right after a change must not find them at 0,0

    def _fit_range(self) -> None:
        """The y range leaves the labels over the bars their height in pixels."""
        vm = self._vm
        if vm is None:
            return
        caps = [c for c in vm.capacities if c is not None]
        vb = self.plot.getPlotItem().vb
        two_lines = vb.height() >= TWO_LINES_PX  # else the peak alone over each bar (the table has the sums)
        slot = vb.width() / max(len(vm.names), 1) - 6  # narrow bars: smaller labels, then the peak's word over it
        shown = vm.label_tops and self.plot.isVisible()  # a hidden plot has no width yet: fitted when shown
        resized = self.marks.fit_to(slot, vm.peak_texts, vm.sum_texts, vm.fits) if shown else False
        if two_lines != self.marks.two_lines or resized:
            self.marks.two_lines = two_lines
            self._update_chart(vm)  # the labels' text, then this range again
            return
        top = top_for(vm.label_tops or vm.totals, max(caps, default=None), vb.height(), self.marks.label_height())
        self.plot.getPlotItem().setYRange(0, max(top, 1.0), padding=0)

    def _update_ticks(self) -> None:
        """Each bar's name under it, wrapped to the room a bar has (layout, not numbers)."""
        vm = self._vm
        if vm is None:
            return
        fits = vm.fits if vm.label_tops else (None,) * len(vm.names)
        room = self.plot.getPlotItem().vb.width() / max(len(vm.names), 1)
        char = max(1.0, self.fontMetrics().horizontalAdvance("abcdefghij") / 10)
        limit = max(10, min(30, int(room * 0.82 / char))) if room > 0 else 26  # a gap between neighbours
        times = vm.time_texts if len(vm.time_texts) == len(vm.names) else ("",) * len(vm.names)
        ticks = [(i, tick_text(name, fit is False, limit) + (f"\n{time}" if time else ""))
                 for i, (name, fit, time) in enumerate(zip(vm.names, fits, times, strict=True))]
        axis = self.plot.getPlotItem().getAxis("bottom")
        lines = max((text.count("\n") + 1 for _, text in ticks), default=1)
        axis.setHeight(int(tick_metrics(axis).lineSpacing() * lines + 16))  # as tall as the names' lines
        axis.setTicks([ticks])

    def _show_axis_title(self) -> None:
        """The y axis' title on two lines where one is longer than the plot is tall (``split_axis_title``)."""
        item = self.plot.getPlotItem()
        if self._vm is None:
            return
        metrics = QFontMetricsF(item.getAxis("left").label.font())
        shown = (split_axis_title(self._vm.axis_label, item.vb.height() - 8, metrics), self._fg)
        if shown != self._axis_title:
            self._axis_title = shown
            item.setLabel("left", shown[0], color=self._fg)

    def _plot_resized(self) -> None:
        if self._vm is not None:
            self._show_axis_title()
            self._fit_legend()
            self._fit_range()
            self._update_ticks()

    def selected_id(self) -> int | None:
        return self.table.selected_id()

    def _emit_for_selected(self, signal) -> None:
        pin_id = self.selected_id()
        if pin_id is not None:
            signal.emit(pin_id)

    def _edit_selected_name(self) -> None:
        item = self.table.selected_name_item()
        if item is not None:
            self.table.editItem(item)

    def _item_changed(self, item: QTableWidgetItem) -> None:
        if not self.table.filling and item.column() == 0:
            self.rename_requested.emit(item.data(ID_ROLE), item.text())

    def _double_clicked(self, item: QTableWidgetItem) -> None:
        if item.column() != 0:
            self.load_requested.emit(item.data(ID_ROLE))

    def _update_buttons(self) -> None:
        self.action_bar.update_state(self.selected_id() is not None, self.table.rowCount() > 0,
                                     self._vm.can_pin if self._vm is not None else True)


def connect_compare(view: CompareWidget, presenter: ComparePresenter) -> None:
    """Wire the view's actions to the presenter (called once, from the main window / app.py). Pinning needs the
    editor's current scenario, so ``pin_requested`` is connected by the main window itself."""
    view.rename_requested.connect(presenter.rename)
    view.remove_requested.connect(presenter.remove)
    view.load_requested.connect(presenter.load)
    view.clear_requested.connect(presenter.clear)
    view.export_png_requested.connect(presenter.export_png)
    view.export_csv_requested.connect(presenter.export_csv)
