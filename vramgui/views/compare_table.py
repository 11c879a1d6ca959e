"""The comparison's table: one row per pinned scenario (name, step peak, sum, fit, headroom, max micro-batch,
accumulation). The name is edited in place; every figure arrives formatted in a ``CompareRowVM``."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem, QWidget

from vramgui.presenters.compare_presenter import CompareRowVM
from vramgui.views.theme import error_colour, ok_colour, status_icon

ID_ROLE = Qt.ItemDataRole.UserRole
FITS_COLUMN = 3
COLUMNS = 7  # name, step peak, sum of components, fits (by the peak), headroom, max micro-batch, accumulation


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

    def fill(self, rows: Sequence[CompareRowVM]) -> None:
        """One row per pin, the selection kept on the same pin."""
        selected = self.selected_id()
        self.filling = True
        try:
            self.setRowCount(len(rows))
            for r, row in enumerate(rows):
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
                    self.setItem(r, c, item)
                if row.id == selected:
                    self.selectRow(r)
        finally:
            self.filling = False

    def selected_id(self) -> int | None:
        rows = self.selectionModel().selectedRows()
        if not rows:
            return None
        item = self.item(rows[0].row(), 0)
        return None if item is None else item.data(ID_ROLE)

    def selected_name_item(self) -> QTableWidgetItem | None:
        rows = self.selectionModel().selectedRows()
        return self.item(rows[0].row(), 0) if rows else None
