"""The main window's file side: the ``DocumentView`` half (file dialogs, the unsaved-changes question, messages, the
title and the Open recent menu, the summary of an opened training config), drag and drop, model import, comparison
files and the PNG/CSV exports.

A mixin of ``MainWindow`` (kept apart so each file stays short). It decides nothing about documents: which file is
shown, whether it is modified, opening and saving are the ``DocumentPresenter``'s (``self.document``, attached by
``vramgui.app``). Dialogs are the static ``QFileDialog`` and ``QMessageBox`` functions, which tests replace with
monkeypatch. Strings use the "MainWindow" context.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QMessageBox

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDialog, QMainWindow, QMenu, QTabWidget

    from vramgui.presenters.compare.presenter import ComparePresenter
    from vramgui.presenters.document_presenter import DocumentPresenter
    from vramgui.presenters.main_presenter import MainPresenter
    from vramgui.settings import Settings

    _WindowBase = QMainWindow
else:
    _WindowBase = object

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

SCENARIO_SUFFIX = ".json"
STATUS_MS = 6000
_ANSWERS = {QMessageBox.StandardButton.Save: "save", QMessageBox.StandardButton.Discard: "discard"}


class FileActionsMixin(_WindowBase):
    """Needs ``settings``, ``document``, ``presenter``, ``chart_tabs``, ``export_chart``, ``export_csv``."""

    if TYPE_CHECKING:  # what the window (MainWindow and its MenusMixin) provides; declared for mypy only
        settings: Settings
        presenter: MainPresenter | None  # attached by app.py
        document: DocumentPresenter | None
        compare_presenter: ComparePresenter | None
        chart_tabs: QTabWidget
        recent_menu: QMenu
        comparing: Callable[[], bool]
        ensure_charts: Callable[[], tuple]
        export_chart: Callable[[str, int], None]
        export_csv: Callable[[str], None]
        export_width: Callable[[], int]
        import_summary: QDialog | None

    def _document(self) -> DocumentPresenter:
        assert self.document is not None, "attach() the presenters first (vramgui.app does)"
        return self.document

    def _editor(self) -> MainPresenter:
        assert self.presenter is not None, "attach() the presenters first (vramgui.app does)"
        return self.presenter

    # ----- DocumentView
    def ask_open_path(self, title: str, folder: str, file_filter: str) -> str | None:
        path, _ = QFileDialog.getOpenFileName(self, title, folder, file_filter)
        return path or None

    def ask_save_path(self, title: str, start: str, file_filter: str) -> str | None:
        path, _ = QFileDialog.getSaveFileName(self, title, start, file_filter)
        return path or None

    def ask_save_changes(self, title: str, text: str) -> str:
        buttons = (QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                   | QMessageBox.StandardButton.Cancel)
        answer = QMessageBox.question(self, title, text, buttons, QMessageBox.StandardButton.Save)
        return _ANSWERS.get(answer, "cancel")

    def show_message(self, kind: str, title: str, text: str) -> None:
        from vramgui.views.window_geometry import fit_message

        shown = fit_message(text, self.screen())  # never taller than the screen
        (QMessageBox.critical if kind == "critical" else QMessageBox.warning)(self, title, shown)

    def show_status(self, text: str) -> None:
        self.statusBar().showMessage(text, STATUS_MS)

    def show_document(self, name: str, path: str, modified: bool) -> None:
        self.setWindowFilePath(path)
        self.setWindowTitle(translate("MainWindow", "{0}[*] - vramgui").format(name))
        self.setWindowModified(modified)

    def show_import_summary(self, title: str, intro: str,
                            sections: Sequence[tuple[str, Sequence[tuple[str, str]]]]) -> None:
        from vramgui.views.import_summary import ImportSummaryDialog

        previous = getattr(self, "import_summary", None)
        if previous is not None:
            previous.close()
        dialog = ImportSummaryDialog(title, intro, sections, self)
        self.import_summary = dialog
        dialog.show()  # not modal: the plan stays in view beside it

    def show_recent_files(self, paths: Sequence[str]) -> None:
        menu = self.recent_menu
        menu.clear()
        for i, path in enumerate(paths):
            name = Path(path).name.replace("&", "&&")  # a literal & in a file name, not a mnemonic
            action = menu.addAction(f"&{i + 1} {name}")
            action.setToolTip(path)
            action.setStatusTip(path)
            action.triggered.connect(lambda _=False, p=path: self._document().open_path(p))
        if paths:
            menu.addSeparator()
        clear = menu.addAction(translate("MainWindow", "&Clear list"))
        clear.triggered.connect(lambda _=False: self._document().clear_recent())
        clear.setEnabled(bool(paths))
        menu.setEnabled(True)

    # ----- menu slots (File > Open, Save, Save as)
    def _on_open(self) -> None:
        self._document().open()

    def _on_save(self) -> None:
        self._document().save()

    def _on_save_as(self) -> None:
        self._document().save_as()

    def _on_open_training_config(self) -> None:
        self._document().ask_training_config()

    def _on_export_plan(self) -> None:
        self._document().export_plan()

    # ----- drag and drop: a scenario, a Hugging Face config.json, a model folder, or a training config
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
        self._document().open_dropped(path)

    @staticmethod
    def _dropped_path(mime) -> str | None:
        urls = mime.urls() if mime is not None and mime.hasUrls() else []
        if len(urls) != 1 or not urls[0].isLocalFile():
            return None
        path = urls[0].toLocalFile()
        if Path(path).is_dir() or path.lower().endswith((SCENARIO_SUFFIX, ".yaml", ".yml")):
            return path
        return None

    # ----- model import
    def _on_import_file(self) -> None:
        file_filter = translate("MainWindow", "Model configs (config.json *.json);;All files (*)")
        path, _ = QFileDialog.getOpenFileName(self, translate("MainWindow", "Import model config"),
                                              self.settings.last_folder("open"), file_filter)
        if path:
            self.settings.set_last_folder("open", Path(path).parent)
            self._editor().import_model(path)

    def _on_import_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, translate("MainWindow", "Import model folder"),
                                                self.settings.last_folder("open"))
        if path:
            self.settings.set_last_folder("open", path)
            self._editor().import_model(path)

    # ----- comparison files (File > Open comparison, Save comparison): the Compare tab's presenter does the work
    def _on_open_comparison(self) -> None:
        self.ensure_charts()  # the Compare tab and its presenter exist from here on
        if self.compare_presenter is not None and self.compare_presenter.open_comparison():
            self.chart_tabs.setCurrentIndex(self.chart_tabs.count() - 1)  # the Compare tab is the last

    def _on_save_comparison(self) -> None:
        self.ensure_charts()
        if self.compare_presenter is not None:
            self.compare_presenter.save_comparison()

    # ----- exports
    def _ask_export_path(self, title: str, name: str, file_filter: str, suffix: str) -> str | None:
        start = str(Path(self.settings.last_folder("export")) / name)
        path, _ = QFileDialog.getSaveFileName(self, title, start, file_filter)
        if not path:
            return None
        if not path.lower().endswith(suffix):
            path += suffix
        self.settings.set_last_folder("export", Path(path).parent)
        return path

    def _on_export_png(self) -> None:
        if self.comparing() and self.compare_presenter is not None:
            self.compare_presenter.export_png()
            return
        names = ("vramgui-strategies.png", "vramgui-training-step.png", "vramgui-gpu-count.png",
                 "vramgui-largest-model.png")
        path = self._ask_export_path(translate("MainWindow", "Export chart as PNG"),
                                     names[self.chart_tabs.currentIndex()],
                                     translate("MainWindow", "PNG images (*.png)"), ".png")
        if path is None:
            return
        try:
            self.export_chart(path, self.export_width())
        except OSError as err:
            QMessageBox.critical(self, translate("MainWindow", "Export failed"),
                                 translate("MainWindow", "Could not write {0}: {1}").format(path, err))
            return
        self.show_status(translate("MainWindow", "Chart saved to {0}").format(path))

    def _on_export_csv(self) -> None:
        if self.comparing() and self.compare_presenter is not None:
            self.compare_presenter.export_csv()
            return
        path = self._ask_export_path(translate("MainWindow", "Export data as CSV"), "vramgui-data.csv",
                                     translate("MainWindow", "CSV files (*.csv)"), ".csv")
        if path is None:
            return
        try:
            self.export_csv(path)
        except OSError as err:
            QMessageBox.critical(self, translate("MainWindow", "Export failed"),
                                 translate("MainWindow", "Could not write {0}: {1}").format(path, err.strerror or err))
            return
        self.show_status(translate("MainWindow", "Data saved to {0}").format(path))

