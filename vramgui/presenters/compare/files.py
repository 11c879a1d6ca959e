"""Comparison files for the Compare tab, through ``vramgui.io.comparison_files``: what to call them in dialogs and
every problem in the user's language (the io layer says which by a code of the core's catalogue; the field paths
and the scenario reader's messages come with it)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from vramgui.io.comparison_files import ComparisonEntry, ComparisonError, load_comparison, save_comparison
from vramgui.presenters.messages import text

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

__all__ = ["ComparisonEntry", "ComparisonError", "error_text", "file_filter", "load_comparison", "problem_text",
           "save_comparison"]


def file_filter() -> str:
    return translate("ComparePresenter", "vramgui comparisons (*.json);;All files (*)")


def problem_text(err: ComparisonError) -> str:
    """The file's problem in the user's language (the core's catalogue, context "Core")."""
    return text(err.msg)


def error_text(err: ComparisonError) -> str:
    """For a dialog: the file, the problem, each bad scenario's field problems, and that nothing changed."""
    head = translate("ComparePresenter", "%1 cannot be opened:").replace("%1", err.source or "")
    lines = [head, "  " + problem_text(err)]
    document = translate("Fields", "(document)")
    for index, scenario_err in err.entries:
        lines.append("  " + translate("ComparePresenter", "Pinned scenario %1:").replace("%1", str(index)))
        lines += [f"    {path or document}: {text(message)}" for path, message in scenario_err.problems]
    lines.append(translate("Fields", "Nothing was changed."))
    return "\n".join(lines)
