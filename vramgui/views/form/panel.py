"""The input form (left side): Essentials open at the top (model, GPU, count, method, sequence, micro-batch), then
Model, Training, Fine-tuning, Hardware, Strategy, Time and cost, Overheads, Serving, each folded under its title
until opened (``sections.FormSection``; which are open is remembered, and an error opens its row's group).

Passive: the rows are built from the field registry's entries (``vramgui.presenters.form.groups.GROUPS`` and
``form_texts.field_info``: label, range, choices, unit, tooltip); each editor reports ``edited(key, value)`` with
the field's dotted path; values pushed by the presenter are shown with signals blocked. Every field has a label
with a mnemonic (or a check box text), a tooltip giving its meaning and range, and an inline message row that
appears when the presenter reports the field invalid. An input the scenario ignores is disabled, its tooltip
saying why. Labels live in grid layouts that grow with translated text. The preset box's search matches names,
CLI keys and repository ids whatever their separators; a number box keeps what was typed, and the presenter's
message under it says what is wrong (``field_messages``: errors, hints).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from vramgui.presenters import catalog_access
from vramgui.presenters.form.groups import (
    ARCH_DETAILS,
    ARCH_MAIN,
    FOLDING,
    GROUP_OF,
    GROUPS,
    HINTS,
    MODEL_MODE,
    MODEL_PRESET,
)
from vramgui.presenters.form.summaries import GROUP_OF_KEY as SUMMARIES
from vramgui.presenters.form.texts import FieldInfo, UiRowInfo, field_info, ui_rows
from vramgui.presenters.view_models import FieldError, GroupSummary
from vramgui.views.form import texts
from vramgui.views.form.messages import FieldMessages
from vramgui.views.form.preset_box import PresetBox
from vramgui.views.form.sections import INDENT, FormSection
from vramgui.views.form.widgets import (
    SEARCH_ROLE,
    NumberBox,
    NumberLineEdit,
    OpenChoiceComboBox,
    SearchCompleter,
    WheelSafeComboBox,
)
from vramgui.views.theme import error_colour


class InputPanel(QWidget):
    edited = Signal(str, object)  # (field key, raw value)
    edit_finished = Signal(str)  # a typed field was left (Return, Tab, focus elsewhere)
    import_requested = Signal()
    groups_toggled = Signal(list)  # the names of the groups now open (a group opened or closed)

    def __init__(self, parent: QWidget | None = None, open_groups: frozenset[str] = frozenset()) -> None:
        super().__init__(parent)
        self.setObjectName("InputPanel")
        self.editors: dict[str, QWidget] = {}
        self.labels: dict[str, QLabel] = {}
        self.groups: dict[str, FormSection] = {}
        self._messages = FieldMessages(self)  # the inline errors and the hints
        self.hints = self._messages.hints
        self._tips: dict[str, str] = {}  # each editor's own tooltip (a disabled one shows the reason first)
        self._enabled: dict[str, tuple[bool, str]] = {}  # each field's state and reason as shown
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        for name, paths in GROUPS.items():
            layout.addWidget(self._build_group(name, paths))
            self.groups[name].set_open(name in open_groups)
            self.groups[name].toggled.connect(lambda _shown: self.groups_toggled.emit(self.open_groups()))
        self.general_error = QLabel()
        self.general_error.setObjectName("general_error")
        self.general_error.setWordWrap(True)
        self.general_error.setTextFormat(Qt.TextFormat.PlainText)
        self.general_error.hide()
        layout.addWidget(self.general_error)
        layout.addStretch(1)

    # ----- building
    def _build_group(self, name: str, paths: Sequence[str]) -> FormSection:
        box = FormSection(texts.group_titles()[name], folding=name in FOLDING)
        box.setObjectName(f"group.{name}")
        box.header.setObjectName(f"group.{name}.header")
        grid = self._grid(box.body)
        grid.setContentsMargins(INDENT, 0, 0, 6)
        self.groups[name] = box
        for ui in ui_rows(name):  # the rows of UI state that open the group: the presets, "Defined by"
            if ui.key == MODEL_PRESET:
                self._preset_row(grid, ui)
                continue
            combo = WheelSafeComboBox()
            for value, text in ui.choices:
                combo.addItem(text, value)
            self._row(grid, ui.key, self._ui_label(ui), combo, "", self._ui_tip(ui))
        for path in paths:
            if path in ARCH_DETAILS:
                if path == ARCH_DETAILS[0]:
                    self._architecture_details(grid)
                continue
            if path in ARCH_MAIN[1:]:
                if path == ARCH_MAIN[1]:
                    self._pairs(grid, ARCH_MAIN[1:])
                continue
            self._field_row(grid, path)
            for hint, (under, _sources) in HINTS.items():
                if path == under:
                    self._hint(grid, hint)
        return box

    def _grid(self, parent: QWidget | None) -> QGridLayout:
        grid = QGridLayout(parent)
        grid.setColumnStretch(1, 1)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(4)
        return grid

    def _preset_row(self, grid: QGridLayout, ui: UiRowInfo) -> None:
        """The model preset: a searchable combo box, and the Import button beside it."""
        self._row(grid, ui.key, self._ui_label(ui), PresetBox(), "", self._ui_tip(ui), span=False)
        self.import_button = QPushButton(self.tr("Import…"))
        self.import_button.setToolTip(self.tr("Import a Hugging Face config.json, or a model folder containing one"))
        self.import_button.clicked.connect(self.import_requested)
        grid.addWidget(self.import_button, grid.rowCount() - 2, 2)

    @staticmethod
    def _ui_label(ui: UiRowInfo) -> str:
        return texts.with_mnemonic(ui.label, ui.mnemonic)

    @staticmethod
    def _ui_tip(ui: UiRowInfo) -> str:
        return ui.explanation or ui.label

    def _pairs(self, grid: QGridLayout, paths: Sequence[str]) -> QGridLayout:
        """Fields two to a row (the architecture): the form stays short."""
        pairs = QGridLayout()
        pairs.setHorizontalSpacing(6)
        pairs.setVerticalSpacing(4)
        pairs.setColumnStretch(1, 1)
        pairs.setColumnStretch(4, 1)
        pairs.setColumnMinimumWidth(2, 4)
        for i, path in enumerate(paths):
            self._field_row(pairs, path, row=(i // 2) * 2, col=(i % 2) * 3, pair=True)
        grid.addLayout(pairs, grid.rowCount(), 0, 1, 3)
        return pairs

    def _architecture_details(self, grid: QGridLayout) -> None:
        self.arch_details_button = QToolButton()
        self.arch_details_button.setObjectName("arch_details_button")
        self.arch_details_button.setText(self.tr("More architecture fields"))
        self.arch_details_button.setCheckable(True)
        self.arch_details_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.arch_details_button.setArrowType(Qt.ArrowType.RightArrow)
        self.arch_details_button.setAutoRaise(True)
        self.arch_details_button.toggled.connect(self.show_architecture_details)
        grid.addWidget(self.arch_details_button, grid.rowCount(), 0, 1, 3)
        self.arch_details = QWidget()
        self.arch_details.setObjectName("arch_details")
        box = QVBoxLayout(self.arch_details)
        box.setContentsMargins(0, 0, 0, 0)
        values = self._grid(None)  # numbers, choices and text one to a row (their labels are long) ...
        box.addLayout(values)
        for path in ARCH_DETAILS:
            if field_info(path).editor != "check":
                self._field_row(values, path)
        flags = QGridLayout()  # ... and the flags two to a row
        flags.setHorizontalSpacing(8)
        flags.setVerticalSpacing(2)
        box.addLayout(flags)
        checks = [path for path in ARCH_DETAILS if field_info(path).editor == "check"]
        for i, path in enumerate(checks):
            self._field_row(flags, path, row=(i // 2) * 2, col=(i % 2) * 3, pair=True)
        grid.addWidget(self.arch_details, grid.rowCount(), 0, 1, 3)
        self.arch_details.hide()

    def show_architecture_details(self, shown: bool = True) -> None:
        self.arch_details_button.blockSignals(True)
        self.arch_details_button.setChecked(shown)
        self.arch_details_button.blockSignals(False)
        self.arch_details_button.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self.arch_details.setVisible(shown)

    def _field_row(self, grid: QGridLayout, path: str, row: int | None = None, col: int = 0,
                   pair: bool = False) -> None:
        info = field_info(path)
        editor = self._editor(info)
        if info.editor == "check":
            label, unit = "", ""
        else:
            label = texts.with_mnemonic(info.label, info.mnemonic)
            unit = "%" if info.editor == "percent" else texts.unit_texts().get(info.unit, "")
            if info.editor != "spin" and info.editor != "percent":
                unit = ""
        self._row(grid, path, label, editor, unit, self._tip(path, info), row=row, col=col,
                  span=not pair and not unit)

    def _tip(self, key: str, info: FieldInfo) -> str:
        parts = [info.tooltip, info.explanation, info.allowed]
        unique = [p for i, p in enumerate(parts) if p and p not in parts[:i]]
        return "\n".join(unique) or info.label

    def _editor(self, info: FieldInfo) -> QWidget:
        if info.editor == "spin":
            return NumberBox(int(info.low or 0), int(info.high or 0))
        if info.editor == "percent":  # the registry's 0 <= fraction < 1, as a percentage; the arrows stop at 99.99
            return NumberBox(0.0, 99.99, step=5.0, percent=True)
        if info.editor == "combo":
            combo = WheelSafeComboBox()
            for value, shown in zip(info.choices, info.choice_texts, strict=True):
                combo.addItem(shown, value)
            return combo
        if info.editor == "open":  # the choices, or typed text of the same form (a list of module names)
            open_combo = OpenChoiceComboBox()
            for value in info.choices:
                open_combo.addItem(value, value)
            return open_combo
        if info.editor == "check":
            return QCheckBox(info.check_text or info.label)
        line = NumberLineEdit() if info.low is not None else QLineEdit()
        line.setPlaceholderText(info.placeholder)
        return line

    def _row(self, grid: QGridLayout, key: str, label: str, editor: QWidget, unit: str, tip: str,
             row: int | None = None, col: int = 0, span: bool = True) -> None:
        """label | editor | unit at (row, col..col+2), and the inline error message below the editor."""
        row = grid.rowCount() if row is None else row
        lab = QLabel(label)
        lab.setBuddy(editor)
        lab.setToolTip(tip)
        editor.setToolTip(tip)
        editor.setObjectName(key)
        grid.addWidget(lab, row, col)
        if unit or not span:
            grid.addWidget(editor, row, col + 1)
        else:
            grid.addWidget(editor, row, col + 1, 1, 2)
        if unit:
            unit_label = QLabel(unit)
            unit_label.setObjectName(key + ".unit")
            grid.addWidget(unit_label, row, col + 2)
        grid.addWidget(self._messages.error_label(key), row + 1, col, 1, 3)
        self.editors[key] = editor
        self.labels[key] = lab
        self._tips[key] = tip
        self._enabled[key] = (True, "")
        self._connect(key, editor)

    def _hint(self, grid: QGridLayout, key: str) -> None:
        """A read-only text under the editor just added (not beside it: a line edit spans to the form's edge, and a
        hint in its column would cover the end of what is typed and squeeze the rows above as it grows)."""
        grid.addWidget(self._messages.hint_label(key), grid.rowCount(), 1, 1, 2)

    def _connect(self, key: str, editor: QWidget) -> None:
        if isinstance(editor, OpenChoiceComboBox):  # typed text, or an item picked (the same item again too)
            line = editor.lineEdit()
            assert line is not None  # editable
            line.textEdited.connect(lambda text, k=key: self.edited.emit(k, text))
            editor.activated.connect(lambda i, k=key, e=editor: self.edited.emit(k, e.itemData(i)))
        elif isinstance(editor, QComboBox):
            editor.currentIndexChanged.connect(lambda _i, k=key, e=editor: self._combo_changed(k, e))
        elif isinstance(editor, QLineEdit):
            editor.textEdited.connect(lambda text, k=key: self.edited.emit(k, text))
            editor.editingFinished.connect(lambda k=key: self.edit_finished.emit(k))
        elif isinstance(editor, NumberBox):  # the text as typed: the presenter parses it and says what is wrong
            editor.text_edited.connect(lambda text, k=key: self.edited.emit(k, text))
            editor.editingFinished.connect(lambda k=key: self.edit_finished.emit(k))
        elif isinstance(editor, QCheckBox):
            editor.toggled.connect(lambda on, k=key: self.edited.emit(k, on))

    def _combo_changed(self, key: str, combo: QComboBox) -> None:
        value = combo.currentData()
        if key == MODEL_PRESET and value == "":  # no preset: the count or the architecture is typed under Model
            self.groups[GROUP_OF[MODEL_MODE]].set_open(True)
        if value is not None:
            self.edited.emit(key, value)

    # ----- the view's half of MainView
    def set_choices(self, key: str, choices: Sequence[tuple[str, str]]) -> None:
        combo = self.editors[key]
        assert isinstance(combo, QComboBox)
        current = combo.currentData()
        combo.blockSignals(True)
        combo.clear()
        for value, text in choices:
            combo.addItem(text, value)
            if isinstance(combo.completer(), SearchCompleter):
                combo.setItemData(combo.count() - 1, catalog_access.model_search_text(value, text), SEARCH_ROLE)
        index = combo.findData(current)
        combo.setCurrentIndex(max(index, 0))
        combo.blockSignals(False)

    def set_form_values(self, values: Mapping[str, object]) -> None:
        for key, value in values.items():
            if key in SUMMARIES:  # what a folded group holds, after its title
                assert isinstance(value, GroupSummary)
                self.groups[SUMMARIES[key]].set_summary(value)
                continue
            if key in self.hints:
                self._messages.set_hint(key, str(value))
                continue
            editor = self.editors.get(key)
            if editor is None:
                continue
            editor.blockSignals(True)
            try:
                if isinstance(editor, OpenChoiceComboBox):
                    editor.show_value(str(value))
                elif isinstance(editor, QComboBox):
                    index = editor.findData(str(value))
                    if index >= 0:
                        editor.setCurrentIndex(index)
                elif isinstance(editor, QLineEdit):
                    if editor.text() != str(value):
                        editor.setText(str(value))
                elif isinstance(editor, NumberBox):
                    editor.show_value(value)
                elif isinstance(editor, QCheckBox):
                    editor.setChecked(bool(value))
            finally:
                editor.blockSignals(False)

    def set_fields_enabled(self, states: Mapping[str, bool], reasons: Mapping[str, str] | None = None) -> None:
        """Enable or disable fields; a disabled one's tooltip starts with ``reasons[key]`` (why it does nothing).
        Only a field whose state or reason differs from what it shows is touched (an edit changes few or none)."""
        reasons = reasons or {}
        for key, enabled in states.items():
            reason = reasons.get(key, "") if not enabled else ""
            if key not in self.editors or self._enabled[key] == (enabled, reason):
                continue
            self._enabled[key] = (enabled, reason)
            tip = f"{reason}\n\n{self._tips[key]}" if reason else self._tips[key]
            for widget in (self.editors[key], self.labels[key]):
                widget.setEnabled(enabled)
                widget.setToolTip(tip)

    def inactive_reason(self, key: str) -> str:
        """Why the field ``key`` is disabled ("" when it is enabled), as its tooltip says."""
        editor = self.editors[key]
        if editor.isEnabled():
            return ""
        return editor.toolTip().split("\n\n", 1)[0] if "\n\n" in editor.toolTip() else ""

    def open_groups(self) -> list[str]:
        """The names of the groups that fold and are open, top to bottom."""
        return [name for name in FOLDING if self.groups[name].is_open()]

    def show_field_errors(self, errors: Sequence[FieldError]) -> None:
        """Each error under its field, its group opened (an error is never hidden in a folded group)."""
        for err in errors:
            if err.key in GROUP_OF:
                self.groups[GROUP_OF[err.key]].set_open(True)
        if any(err.key in ARCH_DETAILS for err in errors):
            self.show_architecture_details(True)
        general = self._messages.show_errors(errors, self.editors)
        self.general_error.setText("⚠ " + "\n".join(general) if general else "")
        self.general_error.setStyleSheet(f"color: {error_colour(self)};")
        self.general_error.setVisible(bool(general))

    def error_text(self, key: str) -> str:
        """The inline message shown for ``key`` ("" when none)."""
        if key in self._messages.errors:
            return self._messages.text(key)
        return "" if self.general_error.isHidden() else self.general_error.text().removeprefix("⚠ ")
