"""The core's messages in the user's language.

The core returns message ids with parameters (``vramgui.core.text.message.Msg``: notes, errors, words inside
derivations, strategy and component names), never prose to parse. Here they are rendered once, with Qt's
catalogue as the translator (context "Core", the catalogue's English as the source text). An ``InputError``
becomes "{field label}: {message} (allowed: {range})", the label taken from the field registry (context
"Fields"); a path the registry does not know (``config.x``, ``weights``, ``--max-gpus``) is shown as it is.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from vramgui.core.fields import registry as fields
from vramgui.core.text.message import Msg, render

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for (literal strings only)
_qt_translate = QCoreApplication.translate  # for texts that come from the catalogue and the registry


def qt_translate(context: str, text: str, n: int = -1, /) -> str:
    """The translator the core's renderers take (``render(msg, qt_translate)``): the current language's catalogue;
    ``n`` picks a counted message's numerus form (Qt's ``%n``)."""
    return _qt_translate(context, text, None, n)


def text(msg: Msg | str | None) -> str:
    """A core message (or a plain string, shown as it is) in the user's language."""
    return render(msg, qt_translate)


def field_label(path: str) -> str:
    """The translated label of a field path (``parallel.tp`` -> "Tensor parallel"); the path itself when the
    field registry does not know it."""
    f = fields.registry().get(path)
    return path if f is None else qt_translate("Fields", f.label)


def input_error_text(err: Exception) -> str:
    """``InputError`` as the user reads it: "{label}: {message} (allowed: {range})", translated."""
    path = getattr(err, "field", "")
    message = getattr(err, "msg", None)
    allowed = getattr(err, "allowed_msg", None)
    if message is None:  # not an InputError: its text as it is
        return str(err)
    out = translate("Fields", "{0}: {1}").format(field_label(path), text(message))
    if allowed is not None and render(allowed):
        out += translate("Fields", " (allowed: {0})").format(text(allowed))
    return out


MAX_PROBLEMS_SHOWN = 8  # lines of problems in the "cannot open" dialog; the rest are counted


def scenario_error_text(err: Exception) -> str:
    """A ``ScenarioError`` (opening a scenario file) for a dialog: every problem with its field path, each
    message (a core ``Msg``, or plain text from the JSON reader) in the user's language."""
    problems = list(getattr(err, "problems", ()))
    source = getattr(err, "source", None) or ""
    if not problems:
        return str(err)
    if len(problems) == 1:
        head = translate("Fields", "{0} cannot be opened:").format(source) if source else ""
    else:
        head = translate("Fields", "{0}: {1} problems in the scenario:").format(source, len(problems))
    lines = [head] if head else []
    document = translate("Fields", "(document)")
    lines += [f"  {path or document}: {text(message)}" for path, message in problems[:MAX_PROBLEMS_SHOWN]]
    if len(problems) > MAX_PROBLEMS_SHOWN:  # the dialog stays shorter than a 640-pixel screen
        lines.append("  " + text(Msg.of("error.more_problems", count=len(problems) - MAX_PROBLEMS_SHOWN)))
    lines.append(translate("Fields", "Nothing was changed."))
    return "\n".join(lines)
