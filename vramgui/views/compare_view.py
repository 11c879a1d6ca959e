"""The comparison panel: stacked per-GPU bars of every pinned scenario and a table of headline figures.

Passive: it places ``CompareVM`` values on widgets and reports the user's actions as signals; the presenter
(``vramgui.presenters.compare_presenter``) does everything else. Chart items are created once and updated.
"""

from __future__ import annotations

import pyqtgraph as pg
from pyqtgraph.exporters import ImageExporter
from PySide6.QtCore import QEvent, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from vramgui.presenters.compare_presenter import MAX_PINNED, STACK_KEYS, ComparePresenter, CompareVM
from vramgui.presenters.image_files import save_png
from vramgui.views.chart_frame import USABLE_COLOUR
from vramgui.views.peak_marks import PeakMarks, top_for
from vramgui.views.theme import component_colour, error_colour, ok_colour, status_icon

BAR_WIDTH = 0.6
EXPORT_WIDTH = 1400  # px of the exported chart: sharp in documents and slides
ID_ROLE = Qt.ItemDataRole.UserRole
FITS_COLUMN = 3
TWO_LINES_PX = 150  # the plot's height from which each bar's label shows the sum under the peak


class CompareWidget(QWidget):
    pin_requested = Signal()
    rename_requested = Signal(int, str)
    remove_requested = Signal(int)
    load_requested = Signal(int)
    clear_requested = Signal()
    export_png_requested = Signal()
    export_csv_requested = Signal()

    COLUMNS = 7  # name, step peak, sum of components, fits (by the peak), headroom, max micro-batch, accumulation

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._vm: CompareVM | None = None
        self._legend_columns = 1
        self._filling = False
        self._build()
        self.retranslate()
        self._update_buttons()

    # --- construction ---------------------------------------------------------------------------------
    def _build(self) -> None:
        self.pin_button = QPushButton(self)
        self.rename_button = QPushButton(self)
        self.remove_button = QPushButton(self)
        self.load_button = QPushButton(self)
        self.clear_button = QPushButton(self)
        self.export_png_button = QPushButton(self)
        self.export_csv_button = QPushButton(self)
        buttons = QHBoxLayout()
        for b in (self.pin_button, self.rename_button, self.remove_button, self.load_button, self.clear_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.export_png_button)
        buttons.addWidget(self.export_csv_button)

        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.hide()
        self.hint = QLabel(self)
        self.hint.setWordWrap(True)
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)

        self.plot = pg.PlotWidget(self, background="w")
        self.plot.setMinimumHeight(160)  # with the rest of the tab, leaves the breakdown table its rows at 720 px
        item = self.plot.getPlotItem()
        item.setMenuEnabled(False)
        item.setMouseEnabled(x=False, y=False)
        item.hideButtons()
        item.showGrid(y=True, alpha=0.25)
        for axis in ("left", "bottom"):
            item.getAxis(axis).setPen(pg.mkPen("#444444"))
            item.getAxis(axis).setTextPen(pg.mkPen("#222222"))
        # above the plot, in the title's row (inside it would take the bars' room): wraps to the width
        self.legend = pg.LegendItem(offset=None, labelTextColor="#222222", labelTextSize="8pt", horSpacing=10,
                                    frame=False)
        self.legend.setFlag(self.legend.GraphicsItemFlag.ItemIgnoresTransformations, False)
        item.layout.removeItem(item.titleLabel)
        item.titleLabel.setVisible(False)
        item.layout.addItem(self.legend, 0, 1)
        item.layout.setAlignment(self.legend, Qt.AlignmentFlag.AlignHCenter)
        item.vb.sigResized.connect(self._plot_resized)
        self.bars: dict[str, pg.BarGraphItem] = {}
        for i, key in enumerate(STACK_KEYS):
            bar = pg.BarGraphItem(x=[], height=[], y0=[], width=BAR_WIDTH, brush=pg.mkBrush(component_colour(key, i)),
                                  pen=pg.mkPen("w", width=0.5))
            item.addItem(bar)
            self.bars[key] = bar
        # usable GPU memory: one dashed segment across each bar (pairs of points)
        self.capacity = pg.PlotDataItem(x=[], y=[], connect="pairs",
                                        pen=pg.mkPen(USABLE_COLOUR, width=2.5, style=Qt.PenStyle.DashLine))
        item.addItem(self.capacity)
        # each bar's step peak (what decides the fit) as a dash, its label over it: peak, then the sum
        self.marks = PeakMarks(item, BAR_WIDTH / 2 + 0.08, labels=MAX_PINNED)
        self.marks.recolour("#222222", "#ffffff")
        self.total_labels = self.marks.labels

        self.table = QTableWidget(0, self.COLUMNS, self)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                   | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.table.verticalHeader().hide()
        self.table.setTabKeyNavigation(False)  # Tab leaves the table (arrow keys move between cells): no keyboard trap
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in range(1, self.COLUMNS):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)

        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.addWidget(self.plot)
        self.splitter.addWidget(self.table)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([420, 180])
        item.getAxis("bottom").setHeight(58)  # room for three-line bar labels

        layout = QVBoxLayout(self)
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        layout.addWidget(self.hint)
        layout.addWidget(self.splitter, 1)

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
        self.remove_button.setText(self.tr("Remove"))
        self.load_button.setText(self.tr("Load into editor"))
        self.clear_button.setText(self.tr("Clear all"))
        self.export_png_button.setText(self.tr("Export PNG…"))
        self.export_csv_button.setText(self.tr("Export CSV…"))
        self.table.setHorizontalHeaderLabels([
            self.tr("Scenario"), self.tr("Peak per GPU"), self.tr("Sum per GPU"), self.tr("Fits"),
            self.tr("Headroom"), self.tr("Max micro-batch"), self.tr("Accumulation steps"),
        ])
        tips = {1: self.tr("The peak of one training step: it decides the fit"),
                2: self.tr("The per-GPU sum of components, as the conventions publish it (the stacked bar)")}
        for column, tip in tips.items():
            header_item = self.table.horizontalHeaderItem(column)
            if header_item is not None:
                header_item.setToolTip(tip)
        self.table.setToolTip(self.tr("Double-click a name to rename it, or a figure to load the scenario"))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # --- CompareView protocol -------------------------------------------------------------------------
    def show_comparison(self, vm: CompareVM) -> None:
        self._vm = vm
        self._fill_table(vm)
        self._update_chart(vm)
        self.hint.setText(vm.empty_hint)
        self.hint.setVisible(bool(vm.empty_hint))
        self._update_buttons()

    def show_message(self, text: str) -> None:
        self.message.setText(text)
        self.message.setStyleSheet(f"color: {error_colour(self)};")
        self.message.setVisible(bool(text))

    def ask_export_path(self, title: str, start_path: str, file_filter: str) -> str | None:
        path, _ = QFileDialog.getSaveFileName(self, title, start_path, file_filter)
        return path or None

    def export_chart_png(self, path: str, title: str, caption: str) -> None:
        """Chart (white background, legend) with a title above and a caption below. The widget must have been
        shown: pyqtgraph exports a never-shown widget at 640x480."""
        exporter = ImageExporter(self.plot.getPlotItem())
        exporter.parameters()["background"] = QColor("white")
        exporter.parameters()["width"] = EXPORT_WIDTH
        chart = exporter.export(toBytes=True)
        if not isinstance(chart, QImage) or chart.isNull():
            raise OSError("the chart could not be rendered")
        save_png(path, compose_export(chart, title, caption, self.font()))  # atomic; SaveError names the reason

    # --- internals ------------------------------------------------------------------------------------
    def _fill_table(self, vm: CompareVM) -> None:
        selected = self.selected_id()
        self._filling = True
        try:
            self.table.setRowCount(len(vm.rows))
            for r, row in enumerate(vm.rows):
                texts = (row.name, row.peak_text or "—", row.total_text, row.fits_text, row.headroom_text,
                         row.max_micro_batch_text, row.accumulation_text)
                for c, text in enumerate(texts):
                    item = QTableWidgetItem(text)
                    item.setData(ID_ROLE, row.id)
                    item.setToolTip(row.tooltip)
                    flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                    if c == 0:
                        flags |= Qt.ItemFlag.ItemIsEditable
                    else:
                        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                    if c == FITS_COLUMN:  # a shape as well as a colour
                        item.setIcon(status_icon("unknown" if row.fits is None else "ok" if row.fits else "bad"))
                        if row.fits is not None:
                            item.setForeground(QBrush(QColor(ok_colour(self) if row.fits else error_colour(self))))
                    item.setFlags(flags)
                    self.table.setItem(r, c, item)
                if row.id == selected:
                    self.table.selectRow(r)
        finally:
            self._filling = False

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
        if vm.label_tops:
            for sample, label in self.marks.legend_entries(vm.fits):
                self.legend.addItem(sample, label)
            self.marks.show(xs, vm.peaks, vm.fits, vm.peak_texts, vm.sum_texts, vm.label_tops)
        else:  # a view-model without the peaks: the sums alone
            self.marks.show(xs, (None,) * n, (None,) * n, ("",) * n, [f"{t:,.1f}" for t in vm.totals], vm.totals)
        self._fit_legend(max(components, len(self.legend.items) - components))
        item.getAxis("bottom").setTicks([[(i, _tick_text(name)) for i, name in enumerate(vm.names)]])
        item.setLabel("left", vm.axis_label)
        item.setXRange(-0.6, max(n, 1) - 0.4, padding=0)
        self._fit_range()

    def _fit_legend(self, columns: int | None = None) -> None:
        """The components on a row, the marks (usable memory, step peak) on the next, in as many columns as the
        plot's width holds (layout, not numbers)."""
        if columns is not None:
            self._legend_columns = columns
        room = self.plot.getPlotItem().vb.width() - 10
        self.legend.columnCount = 0  # lay every entry out again
        for columns in range(max(1, self._legend_columns), 0, -1):
            self.legend.setColumnCount(columns)
            self.legend.layout.invalidate()
            hint = self.legend.layout.effectiveSizeHint(Qt.SizeHint.PreferredSize)
            if hint.width() <= room or columns == 1:
                break
        height = hint.height() if self.legend.items else 0
        self.legend.setMinimumHeight(height)
        self.legend.setMaximumHeight(height)
        self.plot.getPlotItem().layout.setRowFixedHeight(0, height)

    def _fit_range(self) -> None:
        """The y range leaves the labels over the bars their height in pixels."""
        vm = self._vm
        if vm is None:
            return
        caps = [c for c in vm.capacities if c is not None]
        vb = self.plot.getPlotItem().vb
        two_lines = vb.height() >= TWO_LINES_PX  # else the peak alone over each bar (the table has the sums)
        if two_lines != self.marks.two_lines:
            self.marks.two_lines = two_lines
            self._update_chart(vm)  # the labels' text, then this range again
            return
        top = top_for(vm.label_tops or vm.totals, max(caps, default=None), vb.height(), self.marks.label_height())
        self.plot.getPlotItem().setYRange(0, max(top, 1.0), padding=0)

    def _plot_resized(self) -> None:
        if self._vm is not None:
            self._fit_legend()
            self._fit_range()

    def selected_id(self) -> int | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return None
        item = self.table.item(rows[0].row(), 0)
        return None if item is None else item.data(ID_ROLE)

    def _emit_for_selected(self, signal) -> None:
        pin_id = self.selected_id()
        if pin_id is not None:
            signal.emit(pin_id)

    def _edit_selected_name(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        item = self.table.item(rows[0].row(), 0) if rows else None
        if item is not None:
            self.table.editItem(item)

    def _item_changed(self, item: QTableWidgetItem) -> None:
        if not self._filling and item.column() == 0:
            self.rename_requested.emit(item.data(ID_ROLE), item.text())

    def _double_clicked(self, item: QTableWidgetItem) -> None:
        if item.column() != 0:
            self.load_requested.emit(item.data(ID_ROLE))

    def _update_buttons(self) -> None:
        has_selection = self.selected_id() is not None
        has_rows = self.table.rowCount() > 0
        for b in (self.rename_button, self.remove_button, self.load_button):
            b.setEnabled(has_selection)
        for b in (self.clear_button, self.export_png_button, self.export_csv_button):
            b.setEnabled(has_rows)
        self.pin_button.setEnabled(self._vm.can_pin if self._vm is not None else True)


def _tick_text(name: str, limit: int = 26) -> str:
    """Bar label: an automatic name "model · GPUs · strategy" goes on up to three lines."""
    lines = [part if len(part) <= limit else part[: limit - 1] + "…" for part in name.split(" · ")][:3]
    return "\n".join(lines)


def compose_export(chart: QImage, title: str, caption: str, font: QFont) -> QImage:
    """White image: ``title`` above the chart, ``caption`` (wrapped) below it."""
    width = chart.width()
    margin = max(16, width // 60)
    title_font = QFont(font)
    title_font.setPixelSize(max(18, width // 45))
    title_font.setBold(True)
    caption_font = QFont(font)
    caption_font.setPixelSize(max(12, width // 85))
    flags = int(Qt.AlignmentFlag.AlignLeft) | int(Qt.TextFlag.TextWordWrap)
    probe = QImage(1, 1, QImage.Format.Format_ARGB32)
    painter = QPainter(probe)
    painter.setFont(title_font)
    title_rect = painter.boundingRect(QRectF(0, 0, width - 2 * margin, 10_000), flags, title)
    painter.setFont(caption_font)
    caption_rect = painter.boundingRect(QRectF(0, 0, width - 2 * margin, 10_000), flags, caption)
    painter.end()
    height = int(margin + title_rect.height() + margin / 2 + chart.height() + margin / 2 + caption_rect.height()
                 + margin)
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    painter.setPen(QColor("#111111"))
    painter.setFont(title_font)
    painter.drawText(QRectF(margin, margin, width - 2 * margin, title_rect.height()), flags, title)
    top = margin + title_rect.height() + margin / 2
    painter.drawImage(0, int(top), chart)
    painter.setPen(QColor("#444444"))
    painter.setFont(caption_font)
    painter.drawText(QRectF(margin, top + chart.height() + margin / 2, width - 2 * margin, caption_rect.height()),
                     flags, caption)
    painter.end()
    return image


def connect_compare(view: CompareWidget, presenter: ComparePresenter) -> None:
    """Wire the view's actions to the presenter (called once, from the main window / app.py). Pinning needs the
    editor's current scenario, so ``pin_requested`` is connected by the main window itself."""
    view.rename_requested.connect(presenter.rename)
    view.remove_requested.connect(presenter.remove)
    view.load_requested.connect(presenter.load)
    view.clear_requested.connect(presenter.clear)
    view.export_png_requested.connect(presenter.export_png)
    view.export_csv_requested.connect(presenter.export_csv)
