"""The main window's file actions: scenario files (open, save, save as, recent files, drag and drop, the
unsaved-changes prompt), model import, and PNG/CSV exports via dialogs.

A mixin of ``MainWindow`` (kept apart so each file stays short). Dialogs are the static ``QFileDialog`` and
``QMessageBox`` functions, which tests replace with monkeypatch. Strings use the "MainWindow" context.

Scenario files are written through ``QSaveFile``: the text goes to a temporary file that replaces the target
only when everything was written, so a failed write (full disk, no permission, a crash) leaves the old file
byte for byte as it was (docs/scenarios.md).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QSaveFile
from PySide6.QtWidgets import QFileDialog, QMessageBox

from vramgui.presenters.messages import scenario_error_text

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

SCENARIO_SUFFIX = ".json"


class SaveError(OSError):
    """A scenario file could not be written; the old file (if any) is untouched."""


def write_text_atomically(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` with ``QSaveFile``; raises ``SaveError`` and leaves ``path`` as it
    was when anything fails."""
    handle = QSaveFile(path)
    if not handle.open(QSaveFile.OpenModeFlag.WriteOnly):
        raise SaveError(handle.errorString())
    data = text.encode("utf-8")
    if handle.write(data) != len(data):
        message = handle.errorString()
        handle.cancelWriting()
        handle.commit()  # discards the temporary file
        raise SaveError(message)
    if not handle.commit():
        raise SaveError(handle.errorString() or "the file could not be replaced")


def hf_config_like(path: str) -> bool:
    """Whether a dropped .json looks like a Hugging Face ``config.json`` (import it as a model) rather than a
    scenario: an object with ``model_type``/``architectures`` and no vramgui ``schema``."""
    try:
        with open(path, "rb") as fh:
            data = json.loads(fh.read(1_000_001).decode("utf-8-sig"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and "schema" not in data and ("model_type" in data or "architectures" in data)


class FileActionsMixin:
    """Needs ``settings``, ``presenter``, ``chart_tabs``, ``export_chart``, ``export_csv``, ``statusBar``.

    State: ``current_path`` (the scenario file shown, or None) and ``_clean_scenario`` (the scenario as last
    opened or saved); the window is *modified* while the editor's scenario differs from it or the form holds an
    edit that is not valid yet."""

    current_path: str | None = None
    _clean_scenario = None
    _skip_unsaved_prompt = False

    # ----- modified state and title
    def is_modified(self) -> bool:
        if self.presenter is None:
            return False
        return self.presenter.is_stale or self.presenter.scenario != self._clean_scenario

    def mark_clean(self) -> None:
        """The editor's scenario is the saved one (after opening, saving, or at start-up)."""
        self._clean_scenario = None if self.presenter is None else self.presenter.scenario
        self.update_title()

    def update_title(self, *_args) -> None:
        name = Path(self.current_path).name if self.current_path else translate("MainWindow", "Untitled")
        self.setWindowFilePath(self.current_path or "")
        self.setWindowTitle(translate("MainWindow", "{0}[*] - vramgui").format(name))
        self.setWindowModified(self.is_modified())

    def maybe_save(self) -> bool:
        """Ask what to do with unsaved changes: True to go on (saved or discarded), False to stay (cancelled)."""
        if self._skip_unsaved_prompt or not self.is_modified():
            return True
        buttons = (QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                   | QMessageBox.StandardButton.Cancel)
        name = Path(self.current_path).name if self.current_path else translate("MainWindow", "Untitled")
        answer = QMessageBox.question(
            self, translate("MainWindow", "Unsaved changes"),
            translate("MainWindow", "The scenario “{0}” has changes that are not saved. Save them?").format(name),
            buttons, QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    # ----- saving
    def save(self) -> bool:
        """Save to the current file (asks for a name the first time). True when saved."""
        if self.current_path is None:
            return self.save_as()
        return self._write_scenario(self.current_path)

    def save_as(self) -> bool:
        if self.presenter is None or self.presenter.scenario is None:
            return False
        start = self.current_path or "scenario.json"
        path = self._ask_save_path(translate("MainWindow", "Save scenario"), Path(start).name,
                                   translate("MainWindow", "vramgui scenarios (*.json)"), SCENARIO_SUFFIX, "save")
        if path is None:
            return False
        return self._write_scenario(path)

    def _write_scenario(self, path: str) -> bool:
        from vramgui.core import scenario_io

        scenario = self.presenter.scenario
        if scenario is None:
            return False
        try:
            text = scenario_io.dumps(scenario, name=None, preset=self._preset_ref())
            write_text_atomically(path, text)
        except (OSError, ValueError) as err:
            QMessageBox.critical(self, translate("MainWindow", "Cannot save scenario"),
                                 translate("MainWindow", "{0} was not saved: {1}\nThe file on disk is unchanged.")
                                 .format(path, err))
            return False
        self.current_path = os.path.abspath(path)
        self.settings.add_recent_file(path)
        self._refresh_recent_menu()
        self.mark_clean()
        self.statusBar().showMessage(translate("MainWindow", "Saved {0}").format(path), 6000)
        return True

    def _preset_ref(self):
        from vramgui.core.scenario_io import PresetRef
        from vramgui.presenters.form import CUSTOM, IMPORTED

        model = str(self.presenter.form_value("model.preset") or "")
        gpu = str(self.presenter.form_value("hardware.gpu") or "")
        ref = PresetRef(model=model if model and model != IMPORTED and
                        self.presenter.form_value("model.mode") == "preset" else None,
                        gpu=gpu if gpu and gpu != CUSTOM else None)
        return ref if ref.model or ref.gpu else None

    # ----- opening
    def _on_open(self) -> None:
        if not self.maybe_save():
            return
        path, _ = QFileDialog.getOpenFileName(self, translate("MainWindow", "Open scenario"),
                                              self.settings.last_folder("open"),
                                              translate("MainWindow", "vramgui scenarios (*.json);;All files (*)"))
        if path:
            self.settings.set_last_folder("open", Path(path).parent)
            self.open_path(path, ask=False)

    def open_path(self, path: str, ask: bool = True) -> bool:
        """Open a scenario file: validate it completely first; on any problem show them all and change
        nothing. ``ask``: ask about unsaved changes first."""
        from vramgui.core import scenario_io

        try:
            document = scenario_io.load_document(path)
        except scenario_io.ScenarioError as err:
            if not Path(path).is_file():
                self.settings.remove_recent_file(path)
                self._refresh_recent_menu()
            QMessageBox.warning(self, translate("MainWindow", "Cannot open scenario"), scenario_error_text(err))
            return False
        if ask and not self.maybe_save():
            return False
        self.presenter.load_scenario(document.scenario)
        self.current_path = os.path.abspath(path)
        self.settings.add_recent_file(path)
        self._refresh_recent_menu()
        self.mark_clean()
        self.statusBar().showMessage(translate("MainWindow", "Opened {0}").format(path), 6000)
        return True

    # ----- recent files
    def _refresh_recent_menu(self) -> None:
        menu = getattr(self, "recent_menu", None)
        if menu is None:
            return
        menu.clear()
        files = self.settings.recent_files()
        for i, path in enumerate(files):
            name = Path(path).name.replace("&", "&&")  # a literal & in a file name, not a mnemonic
            action = menu.addAction(f"&{i + 1} {name}")
            action.setToolTip(path)
            action.setStatusTip(path)
            action.triggered.connect(lambda _=False, p=path: self.open_path(p))
        if files:
            menu.addSeparator()
        clear = menu.addAction(translate("MainWindow", "&Clear list"))
        clear.triggered.connect(self._clear_recent)
        clear.setEnabled(bool(files))
        menu.setEnabled(True)

    def _clear_recent(self) -> None:
        self.settings.clear_recent_files()
        self._refresh_recent_menu()

    # ----- drag and drop: a scenario, a Hugging Face config.json, or a model folder
    def dragEnterEvent(self, event) -> None:  # noqa: N802 - Qt override
        if self._dropped_path(event.mimeData()) is not None:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event) -> None:  # noqa: N802 - Qt override
        path = self._dropped_path(event.mimeData())
        if path is None:
            event.ignore()
            return
        event.acceptProposedAction()
        self.open_dropped(path)

    @staticmethod
    def _dropped_path(mime) -> str | None:
        urls = mime.urls() if mime is not None and mime.hasUrls() else []
        if len(urls) != 1 or not urls[0].isLocalFile():
            return None
        path = urls[0].toLocalFile()
        if Path(path).is_dir() or path.lower().endswith(SCENARIO_SUFFIX):
            return path
        return None

    def open_dropped(self, path: str) -> bool:
        """A folder or a Hugging Face config.json imports the model; any other .json opens as a scenario."""
        if Path(path).is_dir() or hf_config_like(path):
            return self.presenter.import_model(path)
        return self.open_path(path)

    # ----- model import
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

    # ----- exports
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
