"""``vramgui estimate``: the breakdown and, when the scenario does not fit (or fits with little headroom), the
adviser's ways out (``vramgui.core.advise.suggestions``), each with the flags that make the change. Stdlib only, no Qt.

``--json`` always has a "suggestions" list (empty when it fits comfortably or no GPU memory is given): kind, the
changes by field path, the flags to add, the resulting step peak and headroom in bytes, and the English text.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, Any

from vramgui.cli.tables import estimate_table
from vramgui.core.estimate import Estimate, estimate
from vramgui.core.scenario.specs import Scenario
from vramgui.core.text.message import Msg, render

if TYPE_CHECKING:
    from vramgui.core.advise.suggestions import Suggestion


def estimate_output(scenario: Scenario, unit: str = "GB") -> tuple[dict[str, Any], str]:
    """(the ``--json`` data, the text) of ``vramgui estimate``."""
    est = estimate(scenario)
    data, text = est.to_dict(), estimate_table(est, unit)
    data["suggestions"] = []
    if est.fits is None:  # no GPU memory: the fit is not judged (and the adviser is not even imported)
        return data, text
    from vramgui.core.advise.suggestions import advise, needs_advice

    if needs_advice(est):
        suggestions = advise(scenario)
        data["suggestions"] = [s.to_dict(unit) for s in suggestions]
        text += "\n\n" + advice_text(est, suggestions, unit)
    return data, text


def advice_text(est: Estimate, suggestions: tuple[Suggestion, ...], unit: str = "GB") -> str:
    """ "Ways to make it fit:" and one numbered suggestion per pair of lines, the flags to add below it."""
    from vramgui.core.advise.suggestions import heading

    lines = [render(heading(est))]
    if not suggestions:
        lines.append("  " + render(Msg.of("advise.none")))
    for i, s in enumerate(suggestions, 1):
        lines.append(f"  {i}. {render(s.msg(unit))}")
        lines.append(f"     {' '.join(shlex.quote(flag) for flag in s.flags)}")
    return "\n".join(lines)
