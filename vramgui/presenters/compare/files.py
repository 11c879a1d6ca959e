"""Comparison files for the Compare tab, through ``vramgui.io.comparison_files``: what to call them in dialogs and
every problem in the user's language (the io layer says which by a code; the field paths and the scenario
reader's messages come with it)."""

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
    """The problem ``err.code`` names, translated, with its parameters."""
    p = {k: str(v) for k, v in err.params.items()}
    templates = {
        "too_large": translate("ComparePresenter", "the file is larger than %1 bytes: not a comparison"),
        "unreadable": translate("ComparePresenter", "cannot read the file: %1"),
        "not_utf8": translate("ComparePresenter", "the file is not UTF-8 text: not a comparison"),
        "not_json": translate("ComparePresenter", "not valid JSON: %1"),
        "not_object": translate("ComparePresenter", "a comparison must be a JSON object"),
        "scenario_file": translate("ComparePresenter",
                                   "this is a scenario file, not a comparison: open it with File > Open scenario"),
        "schema": translate("ComparePresenter", "the schema is %1, not %2"),
        "unknown_keys": translate("ComparePresenter", "unknown field %1 (known fields here: %2)"),
        "newer": translate("ComparePresenter",
                           "written by a newer vramgui (comparison version %1; this version reads up to %2)"),
        "bad_version": translate("ComparePresenter", "schema_version must be a whole number of at least 1"),
        "no_list": translate("ComparePresenter", "\u201cpinned\u201d must be a list of scenarios"),
        "too_many": translate("ComparePresenter", "it holds %1 scenarios; at most %2 can be compared"),
        "entries": translate("ComparePresenter", "%1 of its scenarios cannot be used:"),
    }
    args = {
        "too_large": [p.get("limit", "")], "unreadable": [p.get("reason", "")], "not_json": [p.get("reason", "")],
        "schema": [p.get("found", ""), p.get("expected", "")],
        "unknown_keys": [p.get("names", ""), p.get("known", "")],
        "newer": [p.get("version", ""), p.get("supported", "")],
        "too_many": [p.get("count", ""), p.get("limit", "")], "entries": [p.get("count", "")],
    }.get(err.code, [])
    out = templates.get(err.code, str(err))
    for i, arg in enumerate(args, start=1):
        out = out.replace(f"%{i}", arg)
    return out


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
