"""The main window's menus, actions and shortcuts (a mixin of ``MainWindow``, kept apart so files stay short).

Strings use the "MainWindow" translation context explicitly, so pyside6-lupdate and the runtime agree. Within one
menu no two entries share an "&" mnemonic, in either language (tests/views/test_menu_mnemonics.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu

if TYPE_CHECKING:
    from PySide6.QtCore import Signal
    from PySide6.QtWidgets import QMainWindow, QTabWidget

    from vramgui.settings import Settings
    from vramgui.views.form.panel import InputPanel

    _WindowBase = QMainWindow
else:
    _WindowBase = object

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

EXPORT_WIDTHS = (800, 1200, 1600, 2400, 3200)
DEFAULT_EXPORT_WIDTH = 1600


class MenusMixin(_WindowBase):
    """Builds File, View and Help; needs the window's slots (``_on_open``, ``copy_chart``, ...)."""

    if TYPE_CHECKING:  # what the window (MainWindow and its FileActionsMixin) provides; declared for mypy only
        settings: Settings
        inputs: InputPanel
        chart_tabs: QTabWidget
        language_requested: Signal
        _on_open: Callable[[], object]
        _on_save: Callable[[], object]
        _on_save_as: Callable[[], object]
        _on_open_training_config: Callable[[], object]
        _on_export_plan: Callable[[], object]
        _on_import_file: Callable[[], object]
        _on_import_folder: Callable[[], object]
        _on_export_png: Callable[[], object]
        _on_export_csv: Callable[[], object]
        _on_open_comparison: Callable[[], object]
        _on_save_comparison: Callable[[], object]
        copy_chart: Callable[[], object]
        pin_current: Callable[[], object]
        _on_unit: Callable[[str], object]
        show_formulas: Callable[[], object]
        show_about: Callable[[], object]

    def _action(self, text: str, slot: Callable[..., object], shortcut: QKeySequence | QKeySequence.StandardKey | str |
                None = None, tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
        action.triggered.connect(slot)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu(translate("MainWindow", "&File"))
        act = self._action
        self.open_action = act(translate("MainWindow", "&Open scenario…"), self._on_open,
                               QKeySequence.StandardKey.Open)
        self.save_action = act(translate("MainWindow", "&Save scenario"), self._on_save, QKeySequence.StandardKey.Save)
        self.save_as_action = act(translate("MainWindow", "Save scenario &as…"), self._on_save_as, "Ctrl+Shift+S")
        self.open_training_action = act(
            translate("MainWindow", "Open &training config…"), self._on_open_training_config, "Ctrl+Shift+O",
            translate("MainWindow", "Plan the run a DeepSpeed, accelerate, axolotl, LLaMA-Factory, torchtune or "
                                    "TrainingArguments config describes"))
        self.export_plan_action = act(
            translate("MainWindow", "E&xport plan…"), self._on_export_plan, "Ctrl+Shift+X",
            translate("MainWindow", "Write the plan as a DeepSpeed JSON, an accelerate YAML or a torchrun command"))
        self.import_config_action = act(
            translate("MainWindow", "&Import config.json…"), self._on_import_file, "Ctrl+I",
            translate("MainWindow", "Read the model from a Hugging Face config.json"))
        self.import_folder_action = act(translate("MainWindow", "Import model &folder…"), self._on_import_folder)
        self.export_png_action = act(translate("MainWindow", "&Export chart as PNG…"), self._on_export_png, "Ctrl+E")
        self.export_csv_action = act(translate("MainWindow", "Export &data as CSV…"), self._on_export_csv,
                                     "Ctrl+Shift+E")
        self.copy_chart_action = act(translate("MainWindow", "&Copy chart to clipboard"), self.copy_chart,
                                     "Ctrl+Shift+C")
        self.pin_action = act(translate("MainWindow", "&Pin scenario for comparison"), self.pin_current, "Ctrl+P",
                              translate("MainWindow", "Add the current scenario to the Compare tab"))
        self.open_comparison_action = act(translate("MainWindow", "Open co&mparison…"), self._on_open_comparison,
                                          tip=translate("MainWindow", "Replace the pinned scenarios with a saved "
                                                                      "comparison"))
        self.save_comparison_action = act(translate("MainWindow", "Save compariso&n…"), self._on_save_comparison,
                                          tip=translate("MainWindow", "Save the pinned scenarios in one file"))
        self.save_comparison_action.setEnabled(False)  # until something is pinned (app.py wires it)
        self.quit_action = act(translate("MainWindow", "&Quit"), self.close, "Ctrl+Q")
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)
        file_menu.addAction(self.open_action)
        self.recent_menu = file_menu.addMenu(translate("MainWindow", "Open &recent"))  # filled by the document
        for item in (self.open_training_action, self.save_action, self.save_as_action, None,
                     self.import_config_action, self.import_folder_action,
                     None, self.pin_action, self.open_comparison_action, self.save_comparison_action, None,
                     self.export_png_action, self.export_csv_action, self.export_plan_action,
                     self.copy_chart_action):
            file_menu.addSeparator() if item is None else file_menu.addAction(item)
        width_menu = file_menu.addMenu(translate("MainWindow", "PNG export &width"))
        group = QActionGroup(self)
        self.width_actions: dict[int, QAction] = {}
        current = self.export_width()
        for width in EXPORT_WIDTHS:
            action = QAction(translate("MainWindow", "{0} px").format(width), self, checkable=True)
            action.setChecked(width == current)
            action.triggered.connect(lambda _=False, w=width: self.set_export_width(w))
            group.addAction(action)
            width_menu.addAction(action)
            self.width_actions[width] = action
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)

        view_menu = bar.addMenu(translate("MainWindow", "&View"))
        units = QActionGroup(self)
        self.unit_actions: dict[str, QAction] = {}
        for unit, text in (("GB", translate("MainWindow", "Units: &GB (10⁹ bytes)")),
                           ("GiB", translate("MainWindow", "Units: G&iB (2³⁰ bytes)"))):
            action = QAction(text, self, checkable=True)
            action.triggered.connect(lambda _=False, u=unit: self._on_unit(u))
            units.addAction(action)
            view_menu.addAction(action)
            self.unit_actions[unit] = action
        self.unit_actions.get(self.settings.unit(), self.unit_actions["GB"]).setChecked(True)
        view_menu.addSeparator()
        self._build_language_menu(view_menu)
        view_menu.addSeparator()
        tabs = (translate("MainWindow", "Chart: by &strategy"), translate("MainWindow", "Chart: one training s&tep"),
                translate("MainWindow", "Chart: time &and cost"), translate("MainWindow", "Chart: by GPU &count"),
                translate("MainWindow", "Chart: largest &model"), translate("MainWindow", "Chart: ser&ving"),
                translate("MainWindow", "Chart: &plans that fit"), translate("MainWindow", "C&ompare pinned scenarios"))
        for i, text in enumerate(tabs):
            view_menu.addAction(self._action(text, lambda _=False, i=i: self.chart_tabs.setCurrentIndex(i),
                                             f"Ctrl+{i + 1}"))

        help_menu = bar.addMenu(translate("MainWindow", "&Help"))
        self.formulas_action = self._action(translate("MainWindow", "&Formulas and sources"), self.show_formulas,
                                            "F1")
        self.about_action = self._action(translate("MainWindow", "&About vramgui"), self.show_about)
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)
        help_menu.addAction(self.formulas_action)
        help_menu.addAction(self.about_action)

        import_menu = QMenu(self)
        import_menu.addAction(self.import_config_action)
        import_menu.addAction(self.import_folder_action)
        self.inputs.import_button.setMenu(import_menu)

    def _build_language_menu(self, view_menu: QMenu) -> None:
        try:
            from vramgui.i18n import available_languages
        except ImportError:
            return
        menu = view_menu.addMenu(translate("MainWindow", "&Language"))
        group = QActionGroup(self)
        current = self.settings.language()
        self.language_actions: dict[str, QAction] = {}
        # each language in its own name and script (never translated), after "follow the system"
        for code, name in (("", translate("MainWindow", "System default")), *available_languages().items()):
            action = QAction(name, self, checkable=True)
            action.setChecked(code == current)
            action.triggered.connect(lambda _=False, c=code: self.language_requested.emit(c))
            group.addAction(action)
            menu.addAction(action)
            self.language_actions[code] = action

    # ----- the exported chart's width (View > Export width), kept in the settings
    def export_width(self) -> int:
        raw = self.settings.qsettings.value("export/width")
        try:
            width = int(raw)
        except (TypeError, ValueError):
            return DEFAULT_EXPORT_WIDTH
        return width if 100 <= width <= 10000 else DEFAULT_EXPORT_WIDTH

    def set_export_width(self, width: int) -> None:
        self.settings.qsettings.setValue("export/width", int(width))
        if width in self.width_actions:
            self.width_actions[width].setChecked(True)
