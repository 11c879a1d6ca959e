"""The comparison's table: one row per pinned scenario (name, step peak, sum, fit, headroom, max micro-batch,
accumulation, step time, throughput, time to train, cost), and the buttons above it. The name is edited in place;
every figure arrives formatted in a ``CompareRowVM``. The buttons stand in a row that wraps (``FlowLayout``): in a
narrow window (1,024 px, the input form beside the tab) the exports move to a second row instead of the tab
scrolling sideways."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLayout,
    QLayoutItem,
    QPushButton,
    QStyle,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from vramgui.presenters.compare.presenter import CompareRowVM
from vramgui.views.theme import error_colour, ok_colour, status_icon

ID_ROLE = Qt.ItemDataRole.UserRole
FITS_COLUMN = 3
# name, step peak, sum of components, fits (by the peak), headroom, max micro-batch, accumulation, then the time:
# step time, throughput, time to train, cost
COLUMNS = 11
NAME_MIN_PX = 170  # the scenario's name is never squeezed below this: the table scrolls sideways instead


class PinnedTable(QTableWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, COLUMNS, parent)
        self.filling = False  # True while rows are (re)placed: edits then are not the user's
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.verticalHeader().hide()
        self.setTabKeyNavigation(False)  # Tab leaves the table (arrow keys move between cells): no keyboard trap
        header = self.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in range(1, COLUMNS):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        # the header and three pins always show (at 1,024 x 640 the splitter left the header alone); more rows scroll
        rows = self.verticalHeader().defaultSectionSize()
        scroll = self.horizontalScrollBar().sizeHint().height()  # the name column may make it scroll sideways
        self.setMinimumHeight(header.sizeHint().height() + 3 * rows + scroll + 2 * self.frameWidth() + 2)

    def time_tips(self) -> dict[int, str]:
        """The hover texts of the time columns' headers (the comparison panel sets them with the others)."""
        return {7: self.tr("The time of one optimizer step over the whole global batch"),
                8: self.tr("Tokens per second of the whole job"),
                9: self.tr("The training tokens given, at this throughput"),
                10: self.tr("GPU-hours times the GPU-hour price given")}

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._fit_name_column()

    def _fit_name_column(self) -> None:
        """The name takes the room the figures leave, but at least ``NAME_MIN_PX`` (then the table scrolls)."""
        header = self.horizontalHeader()
        figures = sum(self.columnWidth(c) for c in range(1, COLUMNS))
        squeezed = self.viewport().width() - figures < NAME_MIN_PX
        mode = QHeaderView.ResizeMode.Interactive if squeezed else QHeaderView.ResizeMode.Stretch
        if header.sectionResizeMode(0) != mode:
            header.setSectionResizeMode(0, mode)
        if squeezed and self.columnWidth(0) != NAME_MIN_PX:
            self.setColumnWidth(0, NAME_MIN_PX)

    def fill(self, rows: Sequence[CompareRowVM]) -> None:
        """One row per pin, the selection kept on the same pin."""
        selected = self.selected_id()
        self.filling = True
        try:
            self.setRowCount(len(rows))
            for r, row in enumerate(rows):
                texts = (row.name, row.peak_text or "—", row.total_text, row.fits_text, row.headroom_text,
                         row.max_micro_batch_text, row.accumulation_text, row.step_time_text or "—",
                         row.throughput_text or "—", row.training_text or "—", row.cost_text or "—")
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
                    self.setItem(r, c, item)
                if row.id == selected:
                    self.selectRow(r)
        finally:
            self.filling = False
        self._fit_name_column()

    def selected_id(self) -> int | None:
        rows = self.selectionModel().selectedRows()
        if not rows:
            return None
        item = self.item(rows[0].row(), 0)
        return None if item is None else item.data(ID_ROLE)

    def selected_name_item(self) -> QTableWidgetItem | None:
        rows = self.selectionModel().selectedRows()
        return self.item(rows[0].row(), 0) if rows else None


class FlowLayout(QLayout):
    """Items left to right in rows that wrap where the width is short (after Qt's flow layout example), so the
    widest item, not the sum, sets the minimum width. The items from ``trailing`` on stand at the right end of their
    row (a stretch before them) and move to the next row together while they fit on one.

    Its height follows the width it was last given (``height_for``), not Qt's height-for-width: a scroll area
    resizes a height-for-width widget to its preferred height, so the whole tab would scroll at any window size."""

    def __init__(self, parent: QWidget | None = None, trailing: int | None = None) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._width: int | None = None  # the width of the last geometry: the rows' height follows it
        self.trailing = trailing

    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 - Qt override
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt override
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt override
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802 - Qt override
        return Qt.Orientation(0)

    def height_for(self, width: int) -> int:
        return self._arrange(QRect(0, 0, width, 0), apply=False)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 - Qt override
        super().setGeometry(rect)
        if rect.width() != self._width:
            before = self.sizeHint().height()
            self._width = rect.width()
            widget = self.parentWidget()
            if widget is not None and self.sizeHint().height() != before:
                widget.updateGeometry()  # more or fewer rows: the panel lays itself out again (posted, not now)
        self._arrange(rect, apply=True)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        """Everything on one row, as tall as the rows at the width last given."""
        sizes = [item.sizeHint() for item in self._shown()]
        margins = self.contentsMargins()
        width = sum(s.width() for s in sizes) + self._gap() * max(len(sizes) - 1, 0) + margins.left() + margins.right()
        return QSize(width, self.height_for(self._width or width))

    def minimumSize(self) -> QSize:  # noqa: N802 - Qt override
        """The widest item on a row of its own."""
        width = max((item.minimumSize().width() for item in self._shown()), default=0)
        margins = self.contentsMargins()
        return QSize(width + margins.left() + margins.right(), self.sizeHint().height())

    def _shown(self) -> list[QLayoutItem]:
        return [item for item in self._items if not item.isEmpty()]

    def _gap(self) -> int:
        gap = self.spacing()
        if gap < 0:
            widget = self.parentWidget()
            style = widget.style() if widget is not None else None
            gap = style.pixelMetric(QStyle.PixelMetric.PM_LayoutHorizontalSpacing) if style is not None else 6
        return max(gap, 0)

    def _rows(self, width: int) -> list[list[tuple[int, QLayoutItem, QSize]]]:
        gap, used = self._gap(), 0
        rows: list[list[tuple[int, QLayoutItem, QSize]]] = [[]]
        entries = [(i, item, item.sizeHint()) for i, item in enumerate(self._items) if not item.isEmpty()]
        trailing = [e for e in entries if self.trailing is not None and e[0] >= self.trailing]
        group = sum(s.width() for _, _, s in trailing) + gap * max(len(trailing) - 1, 0)
        for entry in entries:
            need = group if trailing and entry is trailing[0] and group <= width else entry[2].width()
            if rows[-1] and used + gap + need > width:
                rows.append([])
                used = 0
            used += (gap if rows[-1] else 0) + entry[2].width()
            rows[-1].append(entry)
        return rows

    def _arrange(self, rect: QRect, apply: bool) -> int:
        """Place the items in ``rect`` (``apply``), or only measure; the height the rows take."""
        margins = self.contentsMargins()
        area = rect.adjusted(margins.left(), margins.top(), -margins.right(), -margins.bottom())
        gap, y = self._gap(), area.y()
        for row in self._rows(area.width()):
            height = max((s.height() for _, _, s in row), default=0)
            x = area.x()
            for index, item, size in row:
                if self.trailing is not None and index >= self.trailing:  # the rest right-aligned
                    x = max(x, area.right() + 1 - sum(s.width() + gap for i, _, s in row if i >= index) + gap)
                if apply:
                    item.setGeometry(QRect(QPoint(x, y + (height - size.height()) // 2), size))
                x += size.width() + gap
            y += height + gap
        return y - gap - rect.y() + margins.bottom() if self._items else 0


class PinActions(QWidget):
    """The comparison's buttons (their texts and tooltips set by the comparison panel, which connects them): the
    pin and the selected row's actions, then the exports at the right end, wrapping onto a second row."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.buttons = [QPushButton(self) for _ in range(7)]  # the tab order: left to right
        (self.pin, self.rename, self.remove, self.load, self.clear, self.export_png,
         self.export_csv) = self.buttons
        layout = FlowLayout(self, trailing=5)
        layout.setContentsMargins(0, 0, 0, 0)
        for button in self.buttons:
            layout.addWidget(button)

    def update_state(self, has_selection: bool, has_rows: bool, can_pin: bool) -> None:
        for button in (self.rename, self.remove, self.load):
            button.setEnabled(has_selection)
        for button in (self.clear, self.export_png, self.export_csv):
            button.setEnabled(has_rows)
        self.pin.setEnabled(can_pin)
