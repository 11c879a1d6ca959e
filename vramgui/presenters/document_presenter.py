"""The document: which scenario file the window shows, whether it has unsaved changes, recent files, open and save
(Mu's ``Editor`` role). The passive ``DocumentView`` only asks for paths and answers and shows messages; files are
read and written through ``vramgui.presenters.documents`` (``vramgui.io``: capped reads, atomic writes).

The document is *modified* while the editor's scenario differs from the one last opened or saved, or the form
holds an edit that is not valid yet. Strings moved here from the window keep their "MainWindow" context (and
their translations).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject

from vramgui.core.fields import paths
from vramgui.core.scenario.specs import Scenario
from vramgui.presenters.documents import SaveError, ScenarioError, dropped_kind, load_document, save_document
from vramgui.presenters.main_presenter import MainPresenter
from vramgui.presenters.messages import field_label, input_error_text, scenario_error_text
from vramgui.presenters.messages import text as msg_text
from vramgui.presenters.protocols import DocumentView
from vramgui.settings import Settings

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

log = logging.getLogger(__name__)

SCENARIO_SUFFIX = ".json"


class DocumentPresenter(QObject):
    def __init__(self, view: DocumentView, editor: MainPresenter, settings: Settings,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._view = view
        self._editor = editor
        self._settings = settings
        self._path: str | None = None
        self._clean: Scenario | None = None  # the scenario as last opened or saved
        self.ask_before_discarding = True  # False: closing drops unsaved changes (a rebuilt window takes them over)
        self.open_comparison: Callable[[str], bool] | None = None  # the Compare tab's opener, once it exists
        editor.result_changed.connect(self.refresh_title)
        editor.input_invalid.connect(self.refresh_title)

    # ----- state
    @property
    def path(self) -> str | None:
        """The scenario file shown (absolute), or None while untitled."""
        return self._path

    @property
    def clean_scenario(self) -> Scenario | None:
        return self._clean

    def name(self) -> str:
        return Path(self._path).name if self._path else translate("MainWindow", "Untitled")

    def is_modified(self) -> bool:
        """Unsaved: the draft differs from the file, or a field holds text that does not parse yet (a file cannot
        hold it). A draft the core refuses as a whole (TP 3 of 8 GPUs) is saved as it is, so it is not modified."""
        return bool(self._editor.pending_edits()) or self._editor.draft != self._clean

    def mark_clean(self) -> None:
        """The editor's scenario is the saved one (after opening, saving, or at start-up)."""
        self._clean = self._editor.draft
        self.refresh_title()

    def refresh_title(self, *_args: object) -> None:
        self._view.show_document(self.name(), self._path or "", self.is_modified())

    # ----- sessions
    def restore_session(self) -> None:
        """Reopen where the user left off: the last session's scenario (else the first-run one), and its file's
        name; the document is modified when the scenario differs from the file (closed with unsaved changes)."""
        self._editor.start(self._settings.last_scenario())
        self._clean = self._editor.draft
        path = self._settings.last_file()
        if path is not None:
            try:
                self._clean = load_document(path).scenario
                self._path = path
            except ScenarioError as err:
                log.info("not restoring the last file: %s", err)
        self.refresh_title()
        self.refresh_recent()

    def take_over(self, other: DocumentPresenter) -> None:
        """Continue ``other``'s document (the window rebuilt in another language): same file, same clean state."""
        self._path = other.path
        self._clean = other.clean_scenario
        self.refresh_title()

    def close_session(self) -> None:
        """Remember the scenario and its file for the next start."""
        try:
            self._settings.set_last_scenario(self._editor.draft)
        except (OSError, ValueError) as err:
            log.warning("the scenario was not kept for the next session: %s", err)
        self._settings.set_last_file(self._path)
        self._settings.sync()

    # ----- unsaved changes
    def maybe_save(self) -> bool:
        """Ask what to do with unsaved changes: True to go on (saved or discarded), False to stay (cancelled)."""
        if not self.ask_before_discarding or not self.is_modified():
            return True
        question = translate("MainWindow", "The scenario “{0}” has changes that are not saved. Save them?")
        answer = self._view.ask_save_changes(translate("MainWindow", "Unsaved changes"), question.format(self.name()))
        if answer == "save":
            return self.save()
        return answer == "discard"

    # ----- saving
    def save(self) -> bool:
        """Save to the current file (asks for a name the first time). True when saved."""
        if self._path is None:
            return self.save_as()
        return self._write(self._path)

    def save_as(self) -> bool:
        start = str(Path(self._settings.last_folder("save")) / Path(self._path or "scenario.json").name)
        path = self._view.ask_save_path(translate("MainWindow", "Save scenario"), start,
                                        translate("MainWindow", "vramgui scenarios (*.json)"))
        if not path:
            return False
        if not path.lower().endswith(SCENARIO_SUFFIX):
            path += SCENARIO_SUFFIX
        self._settings.set_last_folder("save", Path(path).parent)
        return self._write(path)

    def _write(self, path: str) -> bool:
        try:
            save_document(path, self._editor.draft, self._editor.preset_ref())
        except (SaveError, OSError, ValueError) as err:
            self._view.show_message("critical", translate("MainWindow", "Cannot save scenario"),
                                    translate("MainWindow", "{0} was not saved: {1}\nThe file on disk is unchanged.")
                                    .format(path, err))
            return False
        self._path = os.path.abspath(path)
        self._settings.add_recent_file(path)
        self.refresh_recent()
        self.mark_clean()
        self._view.show_status(translate("MainWindow", "Saved {0}").format(path))
        return True

    # ----- opening
    def open(self) -> bool:
        """File > Open: unsaved changes first, then a file from the dialog."""
        if not self.maybe_save():
            return False
        path = self._view.ask_open_path(translate("MainWindow", "Open scenario"), self._settings.last_folder("open"),
                                        translate("MainWindow", "vramgui scenarios (*.json);;All files (*)"))
        if not path:
            return False
        self._settings.set_last_folder("open", Path(path).parent)
        return self.open_path(path, ask=False)

    def open_path(self, path: str, ask: bool = True) -> bool:
        """Open a scenario file: validate it completely first; on any problem show them all and change nothing.
        ``ask``: ask about unsaved changes first."""
        try:
            document = load_document(path)
        except ScenarioError as err:
            if not Path(path).is_file():
                self._settings.remove_recent_file(path)
                self.refresh_recent()
            self._view.show_message("warning", translate("MainWindow", "Cannot open scenario"),
                                    scenario_error_text(err))
            return False
        if ask and not self.maybe_save():
            return False
        self._editor.load_scenario(document.scenario)
        self._path = os.path.abspath(path)
        self._settings.add_recent_file(path)
        self.refresh_recent()
        self.mark_clean()
        self._view.show_status(translate("MainWindow", "Opened {0}").format(path))
        return True

    def open_dropped(self, path: str) -> bool:
        """A folder or a Hugging Face config.json imports the model; a comparison file replaces the pinned set
        (``open_comparison``, set once the Compare tab exists); a training config (DeepSpeed, accelerate, axolotl,
        LLaMA-Factory, torchtune, TrainingArguments) is opened as the plan; any other .json opens as a scenario."""
        from vramgui.presenters.training_files import is_training_config

        if not Path(path).is_dir() and is_training_config(path):
            return self.open_training_config(path)
        kind = "model" if Path(path).is_dir() else dropped_kind(path)
        if kind == "model":
            return self._editor.import_model(path)
        if kind == "comparison" and self.open_comparison is not None:
            return self.open_comparison(path)
        return self.open_path(path)

    # ----- training configs (docs/training-configs.md)
    def ask_training_config(self) -> bool:
        """File > Open training config: unsaved changes first, then a file from the dialog."""
        if not self.maybe_save():
            return False
        path = self._view.ask_open_path(
            translate("MainWindow", "Open training config"), self._settings.last_folder("open"),
            translate("MainWindow", "Training configs (*.json *.yaml *.yml);;All files (*)"))
        if not path:
            return False
        self._settings.set_last_folder("open", Path(path).parent)
        return self.open_training_config(path, ask=False)

    def open_training_config(self, path: str, ask: bool = True) -> bool:
        """The plan a training config describes, over the current scenario (as ``estimate --training-config``
        applies it); the window stays untitled and modified (the file is not a scenario), and the summary lists
        what was taken, left unresolved and ignored."""
        from vramgui.presenters.training_files import open_training_config

        try:
            opened = open_training_config(path, self._editor.draft)
        except ValueError as err:  # InputError: the file, the line and the problem
            self._view.show_message("warning", translate("MainWindow", "Cannot open training config"),
                                    input_error_text(err))
            return False
        if ask and not self.maybe_save():
            return False
        self._editor.load_scenario(opened.scenario)
        self._path = None
        self.refresh_title()
        self._view.show_import_summary(translate("MainWindow", "Read from {0}").format(Path(path).name),
                                       *self._summary(opened.report))
        self._view.show_status(translate("MainWindow", "Opened the training config {0}").format(path))
        return True

    def _summary(self, report) -> tuple[str, list[tuple[str, list[tuple[str, str]]]]]:
        """(the line above the lists, [(heading, [(key, text)])]) in the user's language."""
        from vramgui.core.documents.training.detect import TOOLS
        from vramgui.presenters import scenario_inputs

        draft = self._editor.draft
        intro = translate("MainWindow", "{0} config: {1}").format(TOOLS[report.format], ", ".join(report.files))
        taken = []
        for e in report.taken:
            if e.path in (paths.MODEL_PRESET, "model.config"):  # the model, from a preset or a local folder
                line = translate("MainWindow", "{0} = {1}").format(translate("MainWindow", "Model"), e.value)
            else:  # as captions say it: "full recomputation", "Micro-batch: 2", in the user's language
                line = (scenario_inputs.text(e.path, e.value, draft, short=False)
                        or translate("MainWindow", "{0} = {1}").format(field_label(e.path), e.value))
            if e.note is not None:
                line += translate("MainWindow", " ({0})").format(msg_text(e.note))
            taken.append((e.key, line))
        sections = [(translate("MainWindow", "Taken ({0})").format(len(taken)), taken),
                    (translate("MainWindow", "Unresolved: changes memory, not read ({0})").format(
                        len(report.unresolved)),
                     [(x.key, translate("MainWindow", "{0}: {1}").format(x.value, msg_text(x.reason)))
                      for x in report.unresolved]),
                    (translate("MainWindow", "Ignored ({0})").format(len(report.ignored)),
                     [(x.key, msg_text(x.reason)) for x in report.ignored])]
        return intro, sections

    def export_plan(self) -> bool:
        """File > Export plan: the plan as a DeepSpeed JSON, an accelerate YAML or a torchrun command (by the
        file's suffix); what the target cannot hold is said in a message."""
        from vramgui.presenters.training_files import export_plan, export_target

        start = str(Path(self._settings.last_folder("export")) / "ds_config.json")
        path = self._view.ask_save_path(
            translate("MainWindow", "Export plan"), start,
            translate("MainWindow", "DeepSpeed config (*.json);;accelerate config (*.yaml);;torchrun command (*.sh)"))
        if not path:
            return False
        self._settings.set_last_folder("export", Path(path).parent)
        try:
            exported = export_plan(path, self._editor.draft, export_target(path))
        except (OSError, ValueError) as err:
            reason = input_error_text(err) if isinstance(err, ValueError) else (err.strerror or str(err))
            self._view.show_message("critical", translate("MainWindow", "Export failed"),
                                    translate("MainWindow", "Could not write {0}: {1}").format(path, reason))
            return False
        if exported.notes:
            self._view.show_message("warning", translate("MainWindow", "Plan exported"),
                                    translate("MainWindow", "Saved to {0}.").format(path) + "\n\n"
                                    + "\n".join(msg_text(n) for n in exported.notes))
        self._view.show_status(translate("MainWindow", "Plan exported to {0}").format(path))
        return True

    # ----- recent files
    def refresh_recent(self) -> None:
        """Show the recent files that still exist."""
        self._view.show_recent_files(self._settings.recent_files())

    def clear_recent(self) -> None:
        self._settings.clear_recent_files()
        self.refresh_recent()
