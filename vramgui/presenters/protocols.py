"""The passive views the presenter talks to, declared as protocols (Mu's shape).

The presenter only ever calls these methods; tests pass ``MagicMock(spec=MainView)``. The real window
(``vramgui.views.main_window.MainWindow``) implements them by placing values on widgets, nothing more.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from vramgui.presenters.view_models import FieldError, ResultVM, ServeResultVM, SweepVM


class MainView(Protocol):
    def set_choices(self, key: str, choices: Sequence[tuple[str, str]]) -> None:
        """Fill a choice field (combo box) with ``(value, display text)`` pairs."""

    def set_form_values(self, values: Mapping[str, object]) -> None:
        """Show these values in their fields without reporting them back as edits; a hint's key gets its text, a
        folded group's summary key (``form.summaries.KEYS``) a ``GroupSummary`` for its header."""

    def set_fields_enabled(self, states: Mapping[str, bool], reasons: Mapping[str, str]) -> None:
        """Enable or disable fields; ``reasons[key]`` says why a disabled one does nothing (its tooltip), e.g. the
        ZeRO stage under the megatron convention, or the architecture while the model is a parameter count."""

    def show_field_errors(self, errors: Sequence[FieldError]) -> None:
        """Show each error inline beside its field; an empty sequence clears every message."""

    def show_result(self, result: ResultVM) -> None:
        """Show a fresh, valid result: summary, charts, breakdown table."""

    def show_sweep(self, sweep: SweepVM) -> None:
        """Chart 2: per-GPU memory against the number of GPUs (arrives after ``show_result``)."""

    def show_max_model(self, sweep: SweepVM) -> None:
        """Chart 3: largest trainable model against the number of GPUs (arrives last)."""

    def show_stale(self, reason: str | None) -> None:
        """Mark the shown result as stale because of ``reason``; ``None`` clears the mark."""

    def show_serve_result(self, result: ServeResultVM) -> None:
        """Serve mode: show the serving summary, breakdown and memory-against-context chart in place of training's."""


class DocumentView(Protocol):
    """What the document presenter asks of the window: paths from file dialogs, answers, messages, the title."""

    def ask_open_path(self, title: str, folder: str, file_filter: str) -> str | None:
        """A file to open (``QFileDialog.getOpenFileName``), or None when cancelled."""

    def ask_save_path(self, title: str, start: str, file_filter: str) -> str | None:
        """A file to save to, or None when cancelled."""

    def ask_save_changes(self, title: str, text: str) -> str:
        """Unsaved changes: "save", "discard" or "cancel"."""

    def show_message(self, kind: str, title: str, text: str) -> None:
        """A message box: ``kind`` is "warning" or "critical"."""

    def show_status(self, text: str) -> None:
        """A passing note in the status bar."""

    def show_document(self, name: str, path: str, modified: bool) -> None:
        """The file shown (its name for the title, "" path when untitled) and whether it has unsaved changes."""

    def show_recent_files(self, paths: Sequence[str]) -> None:
        """The Open recent menu, newest first."""

    def show_import_summary(self, title: str, intro: str,
                            sections: Sequence[tuple[str, Sequence[tuple[str, str]]]]) -> None:
        """What an opened training config gave: a line, then each (heading, [(key, text)]) list."""
