"""``--training-config FILE``: the report of what a training config gave, as text (the ``--json`` form is
``Report.to_dict``). Stdlib only, no Qt."""

from __future__ import annotations

from vramgui.core.documents.training.detect import TOOLS
from vramgui.core.documents.training.resolve import Report
from vramgui.core.fields import registry as fields
from vramgui.core.text.message import render


def _value(path: str, value: object) -> str:
    try:
        return fields.format_value(fields.field(path), value)
    except KeyError:  # model.preset, model.config
        return str(value)


def report_text(report: Report) -> str:
    """The three lists, each entry on one line: taken (field = value <- key), unresolved and ignored (key: value --
    why)."""
    head = f"Read from the {TOOLS[report.format]} config {report.files[0] if report.files else ''}"
    if len(report.files) > 1:
        head += " with " + ", ".join(report.files[1:])
    lines = [head + ":", f"  taken ({len(report.taken)}):"]
    for e in report.taken:
        how = f"; {render(e.note)}" if e.note else ""
        over = f" (overridden by {e.overridden})" if e.overridden else ""
        lines.append(f"    {e.path} = {_value(e.path, e.value)}  <- {e.key}{how}{over}")
    for title, entries in (("unresolved", report.unresolved), ("ignored", report.ignored)):
        lines.append(f"  {title} ({len(entries)}):")
        lines.extend(f"    {x.key}: {x.value}  -- {render(x.reason)}" for x in entries)
    return "\n".join(lines)
