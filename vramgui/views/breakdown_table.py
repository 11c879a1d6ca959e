"""The breakdown table: each component, its bytes, and its formula with the numbers filled in. Copyable.

``BreakdownPanel`` puts it under a title with a choice of what it lists: what is live at the training step's peak
(the fit's figure, shown first), the sum of components the conventions publish, or the parts of the step's time
(chosen by itself while the "Time and cost" tab is shown).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFont, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QMenu,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from vramgui.presenters.view_models import BreakdownRow

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for


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
        self.rows: tuple[BreakdownRow, ...] = ()  # as shown
        self._font = QFont(self.font())  # the font the rows were shown in
        self._sized_for: tuple[int, ...] = ()  # the column widths the row heights were measured with

    def show_rows(self, rows: Sequence[BreakdownRow]) -> None:
        """Show ``rows``, touching only the cells that differ from the rows shown (an edit changes a few figures;
        the same rows again change nothing). The model tells the view once, not once a cell (each change of a
        column sized to its contents measures the whole column), and only the changed rows' heights are measured
        again unless the column widths or the font changed."""
        rows = tuple(rows)
        font = self.font()
        shown = self.rows if font == self._font else ()  # another font: every cell again
        if rows == shown:
            return
        self.rows, self._font = rows, QFont(font)
        recount = self.rowCount() != len(rows)
        if recount:
            self.setRowCount(len(rows))
        changed: set[tuple[int, int]] = set()  # (row, column)
        model = self.model()
        model.blockSignals(True)
        try:
            for r, row in enumerate(rows):
                before = shown[r] if r < len(shown) else None
                if row != before:
                    changed.update((r, c) for c in self._show_row(r, row, before))
        finally:
            model.blockSignals(False)
        changed_rows, columns = sorted({r for r, _ in changed}), sorted({c for _, c in changed})
        if changed:
            model.dataChanged.emit(model.index(changed_rows[0], columns[0]), model.index(changed_rows[-1], columns[-1]))
        widths = tuple(self.columnWidth(c) for c in range(self.columnCount()))  # just fitted to the new texts
        if recount or widths != self._sized_for or len(changed_rows) == len(rows):
            self._sized_for = widths
            self.resizeRowsToContents()
        else:  # the other rows' texts, font and column widths are those their heights were measured with
            for r in changed_rows:
                self.resizeRowToContents(r)

    def _show_row(self, r: int, row: BreakdownRow, before: BreakdownRow | None) -> list[int]:
        """Set what differs between ``before`` (the row shown at ``r``, None: none) and ``row``; returns the columns
        whose cells changed."""
        texts = (row.label, row.value_text, row.formula)
        tips = ("", self._bytes_tip(row), self._formula_tip(row))
        if before is None:
            old_texts: tuple[str | None, ...] = (None, None, None)
            old_tips: tuple[str | None, ...] = (None, None, None)
        else:
            old_texts = (before.label, before.value_text, before.formula)
            old_tips = ("", self._bytes_tip(before), self._formula_tip(before))
        new_font = before is None or before.total != row.total
        changed = []
        for c in range(3):
            item = self.item(r, c)
            old_text, old_tip, font = old_texts[c], old_tips[c], new_font
            if item is None:
                item = QTableWidgetItem()
                if c == 1:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.setItem(r, c, item)
                old_text, old_tip, font = "", "", True  # a new item: empty, the table's font to set
            if texts[c] != old_text:
                item.setText(texts[c])
            if tips[c] != old_tip:
                item.setToolTip(tips[c])
            if font:
                bold = QFont(self.font())
                bold.setBold(row.total)
                item.setFont(bold)
            if font or texts[c] != old_text or tips[c] != old_tip:
                changed.append(c)
        return changed

    @staticmethod
    def _bytes_tip(row: BreakdownRow) -> str:
        return row.value_tip or ("" if row.bytes is None else f"{row.bytes:,} B")

    def _formula_tip(self, row: BreakdownRow) -> str:
        return row.tip or (self.tr("Source: {0}").format(row.source) if row.source else "")

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


class BreakdownPanel(QWidget):
    """The choice between the peak's rows and the sum's (the title), the Copy table button, the table."""

    SECTIONS = ("peak", "sum", "time")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        # the choice is the table's title (no label, no radio buttons: the row fits an 800 px wide window)
        self.choice = QComboBox()
        self.choice.setObjectName("breakdown_choice")
        self.choice.setAccessibleName(translate("MainWindow", "Breakdown of the chosen strategy"))
        self.choice.setToolTip(self.tr("Breakdown of the chosen strategy: what is live at the step's peak, or the "
                                       "sum of components"))
        bold = self.choice.font()
        bold.setBold(True)
        self.choice.setFont(bold)
        self.choice.addItem(self.tr("Live at the peak"), "peak")
        self.choice.addItem(self.tr("Sum of components"), "sum")
        self.choice.addItem(self.tr("Step time"), "time")
        self.choice.setItemData(0, self.tr("What one GPU holds at the moment of the training step that sets the peak, "
                                           "each term with its formula"), Qt.ItemDataRole.ToolTipRole)
        self.choice.setItemData(1, self.tr("The per-GPU sum P + G + O + A + fixed terms that the conventions "
                                           "publish"), Qt.ItemDataRole.ToolTipRole)
        self.choice.setItemData(2, self.tr("The parts of one training step's time, each with its formula and source"),
                                Qt.ItemDataRole.ToolTipRole)
        self.choice.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.choice.setMinimumContentsLength(18)
        self.choice.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.choice.currentIndexChanged.connect(lambda _i: self._show())
        head.addWidget(self.choice)
        head.addStretch(1)
        # moved here from the main window: the same texts in the same translation context
        self.copy_button = QPushButton(translate("MainWindow", "Copy table"))
        self.copy_button.setToolTip(translate("MainWindow",
                                              "Copy the table as tab-separated text (pastes into a spreadsheet)"))
        head.addWidget(self.copy_button)
        layout.addLayout(head)
        self.table = BreakdownTable()
        layout.addWidget(self.table)
        self._rows: dict[str, tuple[BreakdownRow, ...]] = {"peak": (), "sum": (), "time": ()}
        self._before_time: str | None = None  # the section chosen before the time tab chose "time"

    @property
    def section(self) -> str:
        """What the table lists: "peak" (what is live at the step's peak) or "sum" (the conventions' sum)."""
        return str(self.choice.currentData() or "peak")

    def set_section(self, section: str) -> None:
        self.choice.setCurrentIndex(max(self.choice.findData(section), 0))

    def show_rows(self, peak: Sequence[BreakdownRow], total: Sequence[BreakdownRow],
                  time: Sequence[BreakdownRow] = ()) -> None:
        self._rows = {"peak": tuple(peak), "sum": tuple(total), "time": tuple(time)}
        self._show()

    def follow_tab(self, time_shown: bool) -> None:
        """The time tab shows the time's rows; leaving it gives back the section chosen before."""
        if time_shown and self.section != "time":
            self._before_time = self.section
            self.set_section("time")
        elif not time_shown and self._before_time is not None:
            if self.section == "time":
                self.set_section(self._before_time)
            self._before_time = None

    def _show(self) -> None:
        rows = self._rows[self.section] or self._rows["sum"]
        if self.table.rows != rows:
            self.table.show_rows(rows)
