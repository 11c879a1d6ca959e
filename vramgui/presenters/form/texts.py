"""The form's texts in the reader's language: each field's label, tooltip, allowed range, choice words, check-box
text, placeholder, explanation and mnemonic from the registry (for the view to build its rows without reaching
into the core), and the short hints shown beside fields (the GPU
memory in the other unit, the node count the GPUs give), why a percentage typed is not a value, and what each
editor shows for a draft (``FormDisplay``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication

from vramgui.core.fields import paths
from vramgui.core.fields import registry as fields
from vramgui.core.fields.form_rows import MEMORY_HINT, PARAMS_HINT, UI_ROWS
from vramgui.core.parallel.layout import num_nodes
from vramgui.core.scenario.specs import ParallelSpec, Scenario
from vramgui.core.text.message import render
from vramgui.core.text.units import GB, GiB, format_bytes, format_count
from vramgui.presenters.form.groups import ARCH, FORM_PATHS, Editor, display, editor_kind
from vramgui.presenters.messages import field_label, qt_translate

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

_SECTIONS: dict[str, list[str]] = {}  # the form's paths by the draft's part that holds them ("training": [...])
for _path in FORM_PATHS:
    _SECTIONS.setdefault(_path.partition(".")[0], []).append(_path)


def memory_hint(n: int | None) -> str:
    """The GPU memory in the other unit, next to the field. Vendors' "80GB" cards (A100, H100) hold 80 GiB,
    which is 85.90 GB in the app's default unit: said so, so that figure does not surprise."""
    if n is None:
        return ""
    gb, gib = format_bytes(n, "GB"), format_bytes(n, "GiB")  # e.g. 80GiB -> "= 85.90 GB", 80GB -> "= 74.51 GiB"
    if n % GiB == 0 and n % GB:
        return translate("MainPresenter", "= {gb}: vendors' “{k}GB” is {k} GiB").format(gb=gb, k=n // GiB)
    return translate("MainPresenter", "= {gib}").format(gib=gib)


def count_hints(est: Any, gpu_memory: int | None, mode: str) -> dict[str, object]:
    """The hints beside the model and the GPU memory: "≈ 8.03B" (MoE: with the active count) and the memory in the
    other unit; outside the "params" mode the count field itself shows the model's count."""
    hint = format_count(est.params)
    if getattr(est, "active_params", est.params) not in (None, est.params):
        hint = translate("MainPresenter", "{0}, {1} active").format(hint, format_count(est.active_params))
    values: dict[str, object] = {PARAMS_HINT: "≈ " + hint, MEMORY_HINT: memory_hint(gpu_memory)}
    if mode != "params":
        values[paths.PARAMS] = str(est.params)
    return values


def nodes_text(parallel: ParallelSpec) -> str:
    """The node count the GPUs give, read-only beside them: "2 nodes, the last with 4 GPUs"."""
    nodes = num_nodes(parallel)
    last = parallel.num_gpus - (nodes - 1) * parallel.gpus_per_node
    if nodes == 1:
        return translate("MainPresenter", "1 node")
    if last == parallel.gpus_per_node:
        return translate("MainPresenter", "{0:,} nodes").format(nodes)
    return translate("MainPresenter", "{0:,} nodes, the last with {1:,} GPUs").format(nodes, last)


@dataclass(frozen=True)
class FieldInfo:
    """What the view needs to build one field's row; texts already translated."""

    key: str  # the registry's dotted path
    editor: Editor
    label: str
    tooltip: str  # the registry's tooltip ("" when it has none)
    allowed: str  # the registry's range for numbers ("Allowed: 1 to 10,000", "Allowed: 0 B to 1,000,000 TB"), else ""
    unit: str  # the registry's unit id ("samples", "tokens", "GPUs"...), "" for none
    low: int | float | None
    high: int | float | None
    choices: tuple[str, ...]  # the choice values as the editor's data
    optional: bool
    placeholder: str = ""  # shown in an empty editor: what empty means ("default: 532 MiB")
    choice_texts: tuple[str, ...] = ()  # each choice as its editor shows it ("ZeRO-2 (+ gradients)"), in order
    check_text: str = ""  # a check box's text ("" : the label)
    explanation: str = ""  # what the field means, with its formula ("" when the registry gives none)
    mnemonic: str = ""  # the label's Alt+letter ("" for none)


def _words(text: str) -> str:
    """A registry word in the reader's language ("" stays "")."""
    return translate("Fields", text) if text else ""


@dataclass(frozen=True)
class UiRowInfo:
    """A form row that holds UI state, not a scenario field (``vramgui.core.fields.form_rows.UI_ROWS``: the model
    preset, "Defined by", the GPU preset); texts already translated."""

    key: str
    label: str
    explanation: str
    mnemonic: str
    choices: tuple[tuple[str, str], ...]  # (value, its words) of a fixed choice; () when the presenter fills it


def ui_rows(group: str) -> list[UiRowInfo]:
    """The UI rows that open the form group ``group``, top to bottom."""
    def words(text: str) -> str:
        return qt_translate("Fields", text)

    return [UiRowInfo(row.key, words(row.label), words(row.explanation), row.mnemonic,
                      tuple((value, words(text)) for value, text in row.choices))
            for row in UI_ROWS if row.form == group]


def field_info(path: str) -> FieldInfo:
    f = fields.field(path)
    kind = editor_kind(f)
    allowed = ""
    if f.kind in ("int", "bytes", "count"):
        allowed = translate("Form", "Allowed: {0}").format(render(f.allowed(), qt_translate))
    placeholder = _words(f.placeholder)
    if f.placeholder_value:
        placeholder = placeholder.format(f.placeholder_value)
    shown = tuple(_words(f.words_of(c).shown) or str(c) for c in f.choices)
    return FieldInfo(path, kind, _words(f.label), _words(f.tooltip), allowed, f.unit, f.low, f.high,
                     tuple(str(c) for c in f.choices), f.optional, placeholder, shown, _words(f.check_text),
                     _words(f.explanation), f.mnemonic)


def percent_error_text(path: str, typed: str) -> str:
    """Why the text ``typed`` in a percentage box (the reserve, LoRA dropout: the registry's fraction
    0 <= value < 1, shown as a percentage) is not a value, in the box's own terms: "Reserve: 100 % is out of range
    (allowed: 0 to 99.99 %)", not the fraction 1.0 the registry would name."""
    text = typed.strip()
    number = text.removesuffix("%").strip()
    try:
        value: float | None = float(number)
    except ValueError:
        value = None
    if value is None or value != value or value in (float("inf"), float("-inf")):
        return translate("Fields", "{0}: expected a percentage, got {1} (allowed: 0 to 99.99 %)").format(
            field_label(path), repr(text[:24]))
    return translate("Fields", "{0}: {1} % is out of range (allowed: 0 to 99.99 %)").format(
        field_label(path), number[:24])


def enabled_states(draft: Scenario, mode: str, blamed: set[str]) -> tuple[dict[str, bool], dict[str, str]]:
    """Which form inputs are enabled, and why each disabled one is (translated): what the scenario ignores
    (``fields.inactive_reason``) and what the model's "Defined by" choice fixes. An input named by an error stays
    enabled so that it can be corrected."""
    states: dict[str, bool] = {}
    reasons: dict[str, str] = {}
    fixed = "" if mode == "architecture" else translate("MainPresenter", "To edit the architecture, set Defined by "
                                                                          "to the architecture fields")
    for path in FORM_PATHS:
        if fixed and path.startswith(ARCH):
            reason = fixed
        elif path == paths.PARAMS and mode != "params":
            reason = translate("MainPresenter", "Counted from the architecture; to type a count, set "
                                                "Defined by to the parameter count Φ")
        else:
            msg = fields.inactive_reason(draft, path)
            reason = render(msg, qt_translate) if msg is not None else ""
        if reason and path not in blamed:
            reasons[path] = reason
        states[path] = path not in reasons
    return states, reasons


def shown_value(draft: Scenario, path: str, arch_shown: Any) -> object:
    """What the editor of ``path`` shows for ``draft``: ``form.display`` of its value; an architecture field of a
    model without one shows ``arch_shown`` (the architecture kept while the model is a parameter count)."""
    f = fields.field(path)
    if path.startswith(ARCH) and draft.model.architecture is None:
        return display(f, getattr(arch_shown, f.name))
    return display(f, fields.get(draft, path))


class FormDisplay:
    """``shown_value`` of every form path, worked out again only for the parts of the draft an edit replaced: the
    draft is frozen, so a part that is the same object as last time shows the same values (an edit of the sequence
    length formats the nine training fields, not the ninety)."""

    def __init__(self) -> None:
        self._parts: dict[str, tuple[object, object, dict[str, object]]] = {}  # part -> (it, arch_shown, values)

    def values(self, draft: Scenario, arch_shown: Any) -> dict[str, object]:
        out: dict[str, object] = {}
        for name, section in _SECTIONS.items():
            part, arch = getattr(draft, name), arch_shown if name == "model" else None
            known = self._parts.get(name)
            if known is None or known[0] is not part or known[1] is not arch:
                known = self._parts[name] = (part, arch, {p: shown_value(draft, p, arch_shown) for p in section})
            out.update(known[2])
        return out
