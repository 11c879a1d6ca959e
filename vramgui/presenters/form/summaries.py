"""What a folded group of the form holds that the first screen does not: "global batch 128, full recomputation" after
the group's title, so a user sees which groups an edit, an opened file or a training config set without opening each.

The reference is what the window would show for the same Essentials on a first run (``groups.first_scenario``):
its training, strategy, time, overheads and serving values are the first screen's (the registry's defaults, but AdamW
and ZeRO-2, so the first screen itself shows no summary), while the two groups that the Essentials' presets fill
follow the preset chosen there: the Model group compares with the model the preset gives (an architecture field
edited after choosing Llama-3-8B is listed, the preset's own 32 layers are not; without a preset, with the
registry's architecture), the Hardware group with the GPU preset's figures (an A100 chosen in Essentials lists none
of its TFLOP/s; a figure typed over them is listed). A field a rule says does nothing (``fields.inactive_reason``:
parameter offload below ZeRO-3, the training fields while serving) is not listed; the four fields that make the
strategy are said as its one name ("ZeRO-3 + CPU offload (optimizer and parameters)").

Every text is a row's caption form or words (``presenters.scenario_inputs.text``: the words of pin names and
captions, translated); the rows are each group's registry rows (``groups.GROUPS``), no field is named here except
the count, which an architecture defines when it is there.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import QCoreApplication

from vramgui.core.documents.catalog import hardware_with_gpu
from vramgui.core.fields import paths
from vramgui.core.fields import registry as fields
from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.specs import HardwareSpec, ModelSpec, Scenario
from vramgui.core.scenario.strategy import FIELDS as STRATEGY_PATHS
from vramgui.core.scenario.strategy import Strategy
from vramgui.presenters import scenario_inputs
from vramgui.presenters.form.groups import FOLDING, GROUPS, first_scenario
from vramgui.presenters.view_models import GroupSummary

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

SUMMARY_PREFIX = "summary:"  # the key a group's summary is pushed under with the form's values (``summary:training``)
KEYS = {group: SUMMARY_PREFIX + group for group in FOLDING}
GROUP_OF_KEY = {key: group for group, key in KEYS.items()}
_SAID = frozenset(scenario_inputs.keys()) | frozenset(STRATEGY_PATHS)  # every row that changes the result


def reference(model: ModelSpec | None, gpu: Any) -> Scenario:
    """The scenario a draft is compared with: the first screen's, with the model the Essentials' preset gives
    (``model``; None: no preset, the registry's architecture) and the hardware of its GPU preset (``gpu``, a
    ``GpuPreset``; None: custom memory, the registry's hardware)."""
    return replace(first_scenario(), model=ModelSpec(architecture=Architecture()) if model is None else model,
                   hardware=HardwareSpec() if gpu is None else hardware_with_gpu(HardwareSpec(), gpu))


def parts(scenario: Scenario, group: str, ref: Scenario) -> list[str]:
    """The texts of the rows of ``group`` whose value in ``scenario`` counts and differs from ``ref``'s, in the
    form's order."""
    out: list[str] = []
    for path in GROUPS[group]:
        if path not in _SAID or _follows(scenario, path):
            continue
        v = scenario_inputs.value(scenario, path)
        if v is scenario_inputs.INACTIVE or v == fields.get(ref, path):
            continue
        if path in STRATEGY_PATHS:  # said as the strategy's name, once for however many of its fields differ
            shown = scenario_inputs.text(scenario_inputs.STRATEGY, Strategy.of(scenario), scenario)
        else:
            shown = scenario_inputs.text(path, v, scenario)
        if shown and shown not in out:
            out.append(shown)
    return out


def _follows(scenario: Scenario, path: str) -> bool:
    """The count of a model given by its architecture follows from it (none is held): nothing to say."""
    return path == paths.PARAMS and scenario.model.params is None and scenario.model.architecture is not None


def summary(items: list[str]) -> GroupSummary:
    """The header's texts for ``items``: the list, its count ("3 set", when the list does not fit), the tooltip."""
    if not items:
        return GroupSummary()
    return GroupSummary(text=scenario_inputs.list_text(items),
                        short=translate("FormGroups", "{0} set").format(len(items)),
                        tooltip="\n".join(items))


def summaries(scenario: Scenario, ref: Scenario) -> dict[str, GroupSummary]:
    """Each folding group's summary, keyed as the form's values are pushed (``KEYS``)."""
    return {KEYS[group]: summary(parts(scenario, group, ref)) for group in FOLDING}
