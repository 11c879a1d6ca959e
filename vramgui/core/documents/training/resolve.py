"""A read training config applied to a scenario: its values first (under the command line's flags, as a scenario
file's are), then what needs the final plan (``finish``): the batch sizes, which need the data-parallel size,
and DeepSpeed's hidden-size autos, which need the model."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vramgui.core.documents.training.imported import Imported, Left
from vramgui.core.fields import registry as fields
from vramgui.core.parallel.layout import batch_parallel_size
from vramgui.core.scenario.specs import Scenario
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg


@dataclass(frozen=True)
class Entry:
    """One taken value as reported: ``overridden`` names the flag that replaced it."""

    path: str
    value: Any
    key: str
    note: Msg | None = None
    overridden: str | None = None


@dataclass(frozen=True)
class Report:
    format: str
    files: tuple[str, ...]
    taken: tuple[Entry, ...]
    ignored: tuple[Left, ...]
    unresolved: tuple[Left, ...]

    def to_dict(self) -> dict[str, Any]:
        """The ``imported`` object of ``--json``: values as the scenario JSON writes them, messages in English."""
        def value(v: Any) -> Any:
            return v if isinstance(v, (bool, int, float, type(None))) else str(v)

        return {
            "format": self.format, "files": list(self.files),
            "taken": [{"field": e.path, "value": value(e.value), "key": e.key,
                       **({"note": str(e.note)} if e.note else {}),
                       **({"overridden_by": e.overridden} if e.overridden else {})} for e in self.taken],
            "ignored": [{"key": x.key, "value": x.value, "reason": str(x.reason)} for x in self.ignored],
            "unresolved": [{"key": x.key, "value": x.value, "reason": str(x.reason)} for x in self.unresolved],
        }


SCENARIO_PATHS = frozenset(f.path for f in fields.fields())


def apply(imported: Imported, scenario: Scenario) -> Scenario:
    """The file's values on ``scenario`` (the model, named by the file, is the caller's: io/ knows the presets)."""
    s = scenario
    for t in imported.taken:
        if t.path in SCENARIO_PATHS:
            s = fields.with_value(s, t.path, t.value)
    return s


def finish(imported: Imported, scenario: Scenario, fixed: dict[str, str], files: tuple[str, ...] = (),
           model: tuple[Entry | None, Left | None] = (None, None)) -> tuple[Scenario, Report]:
    """Batch sizes and hidden-size autos on the final scenario, except where a flag in ``fixed`` (path -> flag) set
    the field; the report of every key."""
    s = scenario
    taken = [Entry(t.path, t.value, t.key, t.note, fixed.get(t.path)) for t in imported.taken]
    unresolved = list(imported.unresolved)
    s = _batch(imported, s, fixed, taken)
    s = _hidden_autos(imported, s, fixed, taken, unresolved)
    entry, left = model
    if entry is not None:
        taken.insert(0, entry)
    if left is not None:
        unresolved.insert(0, left)
    return s, Report(imported.format, files, tuple(taken), imported.ignored, tuple(unresolved))


def _set(s: Scenario, path: str, value: Any, key: str, fixed: dict[str, str], taken: list[Entry],
         note: Msg | None = None) -> Scenario:
    taken.append(Entry(path, value, key, note, fixed.get(path)))
    return s if path in fixed else fields.with_value(s, path, fields.check(fields.field(path), value))


def _batch(imported: Imported, s: Scenario, fixed: dict[str, str], taken: list[Entry]) -> Scenario:
    """DeepSpeedConfig._set_batch_related_parameters: train_batch_size = micro × accumulation × dp, any two give the
    third; only the total: accumulation 1."""
    b = imported.batch
    dp = batch_parallel_size(s.parallel)
    if b.micro is not None:
        s = _set(s, "training.micro_batch", b.micro[0], b.micro[1], fixed, taken, b.micro_note)
    elif b.total is not None:
        steps = b.accumulation[0] if b.accumulation else 1
        if b.total[0] % (dp * steps):
            keys = b.total[1] + (f", {b.accumulation[1]}" if b.accumulation else "")
            raise InputError("training.micro_batch", Msg.of(
                "error.training_config_batch", keys=keys, total=b.total[0], dp=dp, steps=steps))
        s = _set(s, "training.micro_batch", b.total[0] // (dp * steps), b.total[1], fixed, taken,
                 Msg.of("imported.micro_from_total"))
    if b.total is not None:
        s = _set(s, "training.global_batch", b.total[0], b.total[1], fixed, taken)
    elif b.accumulation is not None and b.accumulation[0] > 1:
        total = s.training.micro_batch * b.accumulation[0] * dp
        s = _set(s, "training.global_batch", total, b.accumulation[1], fixed, taken,
                 Msg.of("imported.total_from_accumulation", micro=s.training.micro_batch,
                        steps=b.accumulation[0], dp=dp))
    return s


def _hidden_autos(imported: Imported, s: Scenario, fixed: dict[str, str], taken: list[Entry],
                  unresolved: list[Left]) -> Scenario:
    """transformers integrations/deepspeed.py, HfTrainerDeepSpeedConfig.trainer_config_finalize: reduce_bucket_size
    = h², stage3_prefetch_bucket_size = 0.9·h², stage3_param_persistence_threshold = 10·h."""
    arch = s.model.architecture
    for key in imported.hidden_autos:
        if arch is None:
            unresolved.append(Left(key, "auto", Msg.of("imported.auto_no_model")))
            continue
        h = arch.hidden_size
        if key.endswith("reduce_bucket_size"):
            s = _set(s, "overhead.reduce_bucket", h * h, key, fixed, taken, Msg.of("imported.auto_h2", h=h))
        elif key.endswith("prefetch_bucket_size"):
            s = _set(s, "overhead.zero3_prefetch", int(0.9 * h * h), key, fixed, taken,
                     Msg.of("imported.auto_09h2", h=h))
        else:
            unresolved.append(Left(key, f"auto = 10·h = {10 * h:,}", Msg.of("imported.no_input")))
    return s


