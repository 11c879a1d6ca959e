"""The adviser's ways out for the window (``vramgui.core.advise.suggestions``): the summary's list of suggestions, each
a one-click change of the scenario (``MainPresenter.apply_suggestion``).

Suggestions are computed with the immediate result (a few tens of milliseconds at most, bench/bench_core.py) and
cached per scenario, so going back to a scenario, or changing the display unit, costs nothing.
"""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QCoreApplication

from vramgui.core.advise.suggestions import Suggestion, advise, heading, needs_advice
from vramgui.core.estimate import Estimate
from vramgui.core.fields import registry as fields
from vramgui.core.scenario.specs import Scenario
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg
from vramgui.presenters.messages import field_label, text
from vramgui.presenters.view_models import SuggestionVM

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

MAX_SHOWN = 4  # the summary stays compact: the first (least-change) suggestions only


@lru_cache(maxsize=256)
def suggestions_for(scenario: Scenario) -> tuple[Suggestion, ...]:
    """Every suggestion, as ``vramgui estimate`` lists them (the summary shows the first ``MAX_SHOWN``); () when it
    fits comfortably."""
    try:
        return advise(scenario)
    except InputError:  # compute() has estimated the scenario: not expected, but never fatal
        return ()


def change_text(path: str, value: object) -> str:
    """ "ZeRO stage = 3" in the user's language (the field's label from the registry)."""
    return translate("Results", "{field} = {value}").format(field=field_label(path),
                                                            value=fields.format_value(fields.field(path), value))


def advice_texts(est: Estimate, suggestions: tuple[Suggestion, ...], unit: str) -> dict[str, object]:
    """The summary's advice fields (``SummaryVM``): the heading, the suggestions, or why there is none."""
    if not needs_advice(est):
        return {}
    vms = tuple(SuggestionVM(text(s.msg(unit)), translate("Results", "Click to apply: {0}").format(
        "; ".join(change_text(p, v) for p, v in s.changes))) for s in suggestions[:MAX_SHOWN])
    return {"advice_title": text(heading(est)), "suggestions": vms,
            "advice_empty": "" if vms else text(Msg.of("advise.none"))}
