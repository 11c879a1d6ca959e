"""Help -> Formulas and sources: every derivation of the current estimate with its source, in the display unit and
the user's language: the components of the per-GPU sum, the training step's own terms, then the parts of the step's
time (``vramgui.core.time``)."""

from __future__ import annotations

import html
from typing import Any

from vramgui.core.terms import render_derivation, render_formula
from vramgui.presenters import step_results, time_results
from vramgui.presenters.messages import qt_translate


def _row(label: str, deriv: Any, source: str, unit: str) -> str:
    formula = html.escape(render_formula(deriv, qt_translate))
    derivation = html.escape(render_derivation(deriv, unit, qt_translate))
    return (f"<tr><td><b>{html.escape(label)}</b></td><td><code>{formula}</code><br/>{derivation}</td>"
            f"<td>{html.escape(source)}</td></tr>")


def formulas_html(est: Any, unit: str = "GB") -> str:
    """The current estimate's derivations with their sources (in ``unit``, translated)."""
    peak_terms = () if est.peak is None else est.peak.terms  # the step's own terms (vramgui.core.step.peak)
    rows = [_row(step_results.label(c.key), c.deriv, c.source, unit) for c in (*est.components, *peak_terms)]
    time = getattr(est, "time", None)
    if time is not None:
        rows += [_row(time_results.label(key), part.deriv, part.source, unit)
                 for key, _, part in time_results.parts(time)]
    return "<table cellpadding='4'>" + "".join(rows) + "</table>"
