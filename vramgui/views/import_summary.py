"""What an opened training config gave (docs/training-configs.md): taken, unresolved and ignored keys, one list each
(a tree: the lists as branches, a key and its text per row). Widgets only: the presenter writes every word."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from vramgui.views.window_geometry import fit_dialog


class ImportSummaryDialog(QDialog):
    def __init__(self, title: str, intro: str, sections: Sequence[tuple[str, Sequence[tuple[str, str]]]],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        fit_dialog(self, QSize(900, 560))  # no larger than the screen (960 x 540 at 200 % on 1920 x 1080)
        layout = QVBoxLayout(self)
        self.intro = QLabel(intro)
        self.intro.setTextFormat(Qt.TextFormat.PlainText)  # a file name is user data, never markup
        self.intro.setWordWrap(True)
        layout.addWidget(self.intro)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels([self.tr("Key"), self.tr("What vramgui did with it")])
        self.tree.setAlternatingRowColors(True)
        self.tree.setWordWrap(True)
        for i, (heading, rows) in enumerate(sections):
            branch = QTreeWidgetItem([heading])
            branch.setFirstColumnSpanned(True)
            font = branch.font(0)
            font.setBold(True)
            branch.setFont(0, font)
            for key, text in rows:
                row = QTreeWidgetItem([key, text])
                row.setToolTip(1, text)
                branch.addChild(row)
            self.tree.addTopLevelItem(branch)
            branch.setExpanded(i < 2)  # taken and unresolved open; the ignored list folded
        self.tree.setColumnWidth(0, 330)
        layout.addWidget(self.tree)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
