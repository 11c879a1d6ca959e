"""The main window's file actions: open/save scenario, import a model config, export PNG/CSV via dialogs.

A mixin of ``MainWindow`` (kept apart so each file stays short). Dialogs are the static ``QFileDialog`` and
``QMessageBox`` functions, which tests replace with monkeypatch. Strings use the "MainWindow" context.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QMessageBox

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for


class FileActionsMixin:
    """Needs ``settings``, ``presenter``, ``chart_tabs``, ``export_chart``, ``export_csv``, ``statusBar``."""

    def _ask_save_path(self, title: str, name: str, file_filter: str, suffix: str, kind: str) -> str | None:
        start = str(Path(self.settings.last_folder(kind)) / name)
        path, _ = QFileDialog.getSaveFileName(self, title, start, file_filter)
        if not path:
            return None
        if not path.lower().endswith(suffix):
            path += suffix
        self.settings.set_last_folder(kind, Path(path).parent)
        return path

    def _on_export_png(self) -> None:
        if self.comparing():
            self.compare_presenter.export_png()
            return
        names = ("vramgui-strategies.png", "vramgui-gpu-count.png", "vramgui-largest-model.png")
        path = self._ask_save_path(translate("MainWindow", "Export chart as PNG"),
                                   names[self.chart_tabs.currentIndex()],
                                   translate("MainWindow", "PNG images (*.png)"), ".png", "export")
        if path is None:
            return
        try:
            self.export_chart(path, self.export_width())
        except OSError as err:
            QMessageBox.critical(self, translate("MainWindow", "Export failed"), str(err))
            return
        self.statusBar().showMessage(translate("MainWindow", "Chart saved to {0}").format(path), 6000)

    def _on_export_csv(self) -> None:
        if self.comparing():
            self.compare_presenter.export_csv()
            return
        path = self._ask_save_path(translate("MainWindow", "Export data as CSV"), "vramgui-data.csv",
                                   translate("MainWindow", "CSV files (*.csv)"), ".csv", "export")
        if path is None:
            return
        try:
            self.export_csv(path)
        except OSError as err:
            QMessageBox.critical(self, translate("MainWindow", "Export failed"), str(err))
            return
        self.statusBar().showMessage(translate("MainWindow", "Data saved to {0}").format(path), 6000)

    def _on_open(self) -> None:
        from vramgui.core import scenario_io

        path, _ = QFileDialog.getOpenFileName(self, translate("MainWindow", "Open scenario"),
                                              self.settings.last_folder("open"),
                                              translate("MainWindow", "vramgui scenarios (*.json);;All files (*)"))
        if not path:
            return
        self.settings.set_last_folder("open", Path(path).parent)
        try:
            scenario = scenario_io.load_scenario(path)
        except (OSError, ValueError) as err:
            QMessageBox.warning(self, translate("MainWindow", "Cannot open scenario"), str(err))
            return
        self.presenter.load_scenario(scenario)
        self.settings.add_recent_file(path)
        self.statusBar().showMessage(translate("MainWindow", "Opened {0}").format(path), 6000)

    def _on_save(self) -> None:
        from vramgui.core import scenario_io

        if self.presenter.scenario is None:
            return
        path = self._ask_save_path(translate("MainWindow", "Save scenario"), "scenario.json",
                                   translate("MainWindow", "vramgui scenarios (*.json)"), ".json", "save")
        if path is None:
            return
        try:
            scenario_io.save_scenario(path, self.presenter.scenario)
        except (OSError, ValueError) as err:
            QMessageBox.critical(self, translate("MainWindow", "Cannot save scenario"), str(err))
            return
        self.settings.add_recent_file(path)
        self.statusBar().showMessage(translate("MainWindow", "Saved {0}").format(path), 6000)

    def _on_import_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, translate("MainWindow", "Import model config"),
                                              self.settings.last_folder("open"),
                                              translate("MainWindow", "Model configs (config.json *.json);;All files (*)"))
        if path:
            self.settings.set_last_folder("open", Path(path).parent)
            self.presenter.import_model(path)

    def _on_import_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, translate("MainWindow", "Import model folder"),
                                                self.settings.last_folder("open"))
        if path:
            self.settings.set_last_folder("open", path)
            self.presenter.import_model(path)
