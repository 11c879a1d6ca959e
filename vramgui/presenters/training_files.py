"""Training configs for the window: open one as the current plan, recognise a dropped one, export the plan back,
through ``vramgui.io.training_configs`` (Qt-free; views reach io only through presenters).

Opening applies the file's values to the editor's scenario as ``vramgui estimate --training-config`` applies them
with no flags (``core/documents/training/resolve``): the window shows the same estimate as the command line.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from vramgui.core.documents.training.detect import detect
from vramgui.core.documents.training.export import Export, export
from vramgui.core.documents.training.resolve import Report, apply, finish
from vramgui.core.scenario.specs import ParallelSpec, Scenario
from vramgui.io.training_configs import load_training_config, model_of, read_document, write_export

TRAINING_SUFFIXES = (".json", ".yaml", ".yml")
EXPORT_TARGETS = {".json": "deepspeed", ".yaml": "accelerate", ".yml": "accelerate", ".sh": "torchrun"}


@dataclass(frozen=True)
class Opened:
    scenario: Scenario
    report: Report


def is_training_config(path: str | os.PathLike[str]) -> bool:
    """Whether the file is one of the six training-config formats (read capped, as every file is)."""
    if Path(path).suffix.lower() not in TRAINING_SUFFIXES:
        return False
    try:
        return detect(read_document(path)) is not None
    except ValueError:
        return False


def starting_point(draft: Scenario) -> Scenario:
    """What a training config is read over in the window: a fresh scenario (as ``estimate --training-config``
    starts from one) keeping what a config usually leaves to the launcher: the model, the GPU and the GPU count."""
    parallel = ParallelSpec(num_gpus=draft.parallel.num_gpus, gpus_per_node=draft.parallel.gpus_per_node)
    return Scenario(model=draft.model, hardware=draft.hardware, parallel=parallel)


def open_training_config(path: str | os.PathLike[str], draft: Scenario) -> Opened:
    """The plan the file describes over ``starting_point(draft)`` (its model where it names one the presets or a
    local folder know), and the report; InputError / ValueError when the file cannot be read. Paths in it resolve
    against the process's working directory, as the tools resolve them."""
    imported, files = load_training_config(path)
    s = apply(imported, starting_point(draft))
    spec, entry, left = model_of(imported)
    if spec is not None:
        s = replace(s, model=spec)
    s, report = finish(imported, s, {}, files, (entry, left))
    return Opened(s, report)


def export_target(path: str) -> str:
    """The export a file name asks for: .json DeepSpeed, .yaml/.yml accelerate, .sh a torchrun command."""
    return EXPORT_TARGETS.get(Path(path).suffix.lower(), "deepspeed")


def export_plan(path: str | os.PathLike[str], scenario: Scenario, target: str) -> Export:
    """Write the plan's config atomically; raises OSError (the old file untouched), InputError for a plan the
    estimate refuses (a config that launches it could not be planned)."""
    from vramgui.core.fields.validate import validate_scenario

    validate_scenario(scenario)
    exported = export(target, scenario)
    write_export(path, exported)
    return exported
