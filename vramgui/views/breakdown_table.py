"""The breakdown table: each component, its bytes, and its formula with the numbers filled in. Copyable."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QTableWidget, QTableWidgetItem, QWidget

from vramgui.presenters.view_models import BreakdownRow


class BreakdownTable(QTableWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, 3, parent)
        self.setObjectName("BreakdownTable")
        self.setHorizontalHeaderLabels(
            [self.tr("Component"), self.tr("Per GPU"), self.tr("Formula (numbers filled in)")])
        self.verticalHeader().hide()
        header = self.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.setWordWrap(True)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setAlternatingRowColors(True)
        self.setTabKeyNavigation(False)  # Tab leaves the table (arrow keys move between cells): no keyboard trap
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._context_menu)
        self.rows: tuple[BreakdownRow, ...] = ()

    def show_rows(self, rows: Sequence[BreakdownRow]) -> None:
        self.rows = tuple(rows)
        self.setRowCount(len(rows))
        bold = QFont(self.font())
        bold.setBold(True)
        for r, row in enumerate(rows):
            cells = (row.label, row.value_text, row.formula)
            for c, text in enumerate(cells):
                item = self.item(r, c)
                if item is None:
                    item = QTableWidgetItem()
                    self.setItem(r, c, item)
                item.setText(text)
                if c == 1:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                    item.setToolTip("" if row.bytes is None else f"{row.bytes:,} B")
                elif c == 2 and row.source:
                    item.setToolTip(self.tr("Source: {0}").format(row.source))
                item.setFont(bold if row.key == "total" else self.font())
        self.resizeRowsToContents()

    def as_text(self, selected_only: bool = False) -> str:
        """Tab-separated text (header + rows), exact bytes in a fourth column: pastes into a spreadsheet."""
        header = [self._cell_text(self.horizontalHeaderItem(c)) for c in range(3)] + [self.tr("Bytes")]
        rows: list[int] = list(range(self.rowCount()))
        if selected_only and self.selectionModel().hasSelection():
            rows = sorted({i.row() for i in self.selectionModel().selectedRows()})
        lines = ["\t".join(header)]
        for r in rows:
            exact = "" if self.rows[r].bytes is None else str(self.rows[r].bytes)
            lines.append("\t".join([self._cell_text(self.item(r, c)) for c in range(3)] + [exact]))
        return "\n".join(lines) + "\n"

    @staticmethod
    def _cell_text(item: QTableWidgetItem | None) -> str:
        return "" if item is None else item.text()

    def copy_to_clipboard(self) -> None:
        QGuiApplication.clipboard().setText(self.as_text(selected_only=True))

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt override
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy_to_clipboard()
            return
        super().keyPressEvent(event)

    def _context_menu(self, pos) -> None:
        menu = QMenu(self)
        menu.addAction(self.tr("&Copy"), self.copy_to_clipboard)
        menu.addAction(self.tr("Copy &all"), lambda: QGuiApplication.clipboard().setText(self.as_text()))
        menu.exec(self.viewport().mapToGlobal(pos))
