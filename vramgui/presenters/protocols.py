"""The passive views the presenter talks to, declared as protocols (Mu's shape).

The presenter only ever calls these methods; tests pass ``MagicMock(spec=MainView)``. The real window
(``vramgui.views.main_window.MainWindow``) implements them by placing values on widgets, nothing more.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from vramgui.presenters.view_models import FieldError, ResultVM, SweepVM


class MainView(Protocol):
    def set_choices(self, key: str, choices: Sequence[tuple[str, str]]) -> None:
        """Fill a choice field (combo box) with ``(value, display text)`` pairs."""

    def set_form_values(self, values: Mapping[str, object]) -> None:
        """Show these values in their fields without reporting them back as edits."""

    def set_fields_enabled(self, states: Mapping[str, bool]) -> None:
        """Enable or disable fields (e.g. architecture fields only when the model is defined by them)."""

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
