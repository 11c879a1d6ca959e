"""The model preset box: an editable combo box whose text searches the presets (names, CLI keys and repository ids,
whatever their separators), Return on a name that is one preset's choosing it. Its words stay in the "InputPanel"
context, where the form's are."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QComboBox

from vramgui.presenters import catalog_access
from vramgui.views.form.widgets import SEARCH_ROLE, SearchCompleter, WheelSafeComboBox

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for


class PresetBox(WheelSafeComboBox):
    def __init__(self) -> None:
        super().__init__()
        self.setEditable(True)
        self.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.setCompleter(SearchCompleter(self.model(), catalog_access.search_form, self))
        line = self.lineEdit()
        assert line is not None  # editable
        line.setPlaceholderText(translate("InputPanel", "Search presets…"))
        line.returnPressed.connect(self.choose_named)  # "llama-3-8b" + Return: that preset
        line.editingFinished.connect(self.show_chosen_text)  # a search that chose nothing

    def choose_named(self) -> None:
        """Return on a search that names one preset exactly (its key, name or repository id, separators aside)
        chooses it; Return on any other search leaves the choice to the list."""
        wanted = catalog_access.search_form(self.currentText())
        named = [i for i in range(self.count())
                 if wanted in str(self.itemData(i, SEARCH_ROLE) or "").split(catalog_access.SEARCH_SEPARATOR)]
        if wanted and len(named) == 1 and named[0] != self.currentIndex():
            self.setCurrentIndex(named[0])

    def show_chosen_text(self) -> None:
        """Leaving the search box shows the chosen preset again, not search text that matched nothing."""
        chosen = self.itemText(self.currentIndex())
        if self.currentText() != chosen:
            self.setEditText(chosen)
