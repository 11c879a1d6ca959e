"""The field registry's table: every scenario input once, with its range, choices, flag, label and tooltip.

Read through ``vramgui.core.fields.registry`` (which adds the dataclass defaults and the functions over fields).
Labels and tooltips are marked for translation in the "Fields" context.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from vramgui.core.fields import rules
from vramgui.core.fields.captions import Caption
from vramgui.core.scenario import specs
from vramgui.core.text.message import QT_TRANSLATE_NOOP, Msg
from vramgui.core.text.units import exact_count_text, exact_size_text, format_rate

Kind = Literal["int", "count", "bytes", "fraction", "number", "rate", "choice", "bool", "text"]
# The editor a field gets in the window: spin boxes for whole numbers (a line edit when empty means "derived"),
# line edits for sizes, counts and text, check boxes for flags, combo boxes for choices ("open": an editable one,
# for a choice that also takes typed values), a percentage for the reserve.
Widget = Literal["spin", "line", "check", "combo", "open", "percent"]
Rule = Callable[[specs.Scenario], Msg | None]  # why a field does nothing in a scenario (None: it applies)

# The window's form groups, top to bottom (a field's ``form``); every field of a Scenario is in one of them. The
# first, ESSENTIALS, is always open: what a verdict needs (with the model and GPU presets of ``form_rows``: the GPU's
# memory, the GPU count, full / LoRA / QLoRA, the sequence and the micro-batch); the others open on demand.
ESSENTIALS = "essentials"
FORM_GROUPS = (ESSENTIALS, "model", "training", "finetune", "hardware", "strategy", "time", "overheads", "serve")

MAX_PARAMS = 10**15
MAX_GPUS = 10**6
MAX_GPUS_PER_NODE = 4096
MAX_BATCH = 10**7
MAX_SEQ = 10**8
MAX_BYTES = 10**18
MAX_LAYERS = 10_000  # the deepest published LLMs have ~100-200 blocks
MAX_WIDTH = 10**8  # hidden, heads, FFN and vocabulary sizes
MAX_EXPERTS = 10**5
MAX_RATE = 10**15  # bytes per second: a petabyte per second, far above any link or memory
MAX_TFLOPS = 10**6


@dataclass(frozen=True)
class Words:
    """The words of one choice value, marked for translation in the "Fields" context: ``shown`` in its editor
    ("" : the value itself), ``said`` in pin names, export captions and the comparison CSV ("" : "label: value")."""

    shown: str = ""
    said: str = ""


@dataclass(frozen=True)
class Field:
    """One scenario input. ``default`` and ``type`` come from the dataclass that holds the field."""

    path: str
    kind: Kind
    label: str
    tooltip: str = ""
    low: int | float | None = None
    high: int | float | None = None
    high_open: bool = False  # the range excludes ``high`` (the reserve fraction: 0 <= value < 1)
    choices: tuple[Any, ...] = ()
    flag: str | None = None
    metavar: str | None = None
    unit: str = ""  # shown beside the editor: "bytes", "parameters", "tokens", "samples", "GPUs"
    default: Any = None
    optional: bool = False  # None is a value: "not given" (no global batch, no GPU memory...)
    form: str = ""  # the window's form group (``FORM_GROUPS``; ESSENTIALS: the first, always open) ...
    order: int = 0  # ... and the place in it, top to bottom
    detail: bool = False  # behind the form's "More architecture fields"
    widget: Widget | None = None  # None: from the kind (``registry.default_widget``)
    ticked: Any = None  # a two-valued choice shown as a check box: ticked is this value
    words: tuple[tuple[Any, Words], ...] = ()  # (choice value, its words); a value not here is shown as it is
    check_text: str = ""  # a check box's text, in place of its label
    placeholder: str = ""  # an empty editor's text: what empty means ("{0}" is ``placeholder_value``)
    placeholder_value: str = ""
    explanation: str = ""  # what the field means, with its formula, added to the tooltip
    mnemonic: str = ""  # the label's Alt+letter
    essential: bool = False  # listed under every exported chart (others only off their default: docs/comparisons.md)
    inactive: Rule = rules.always_applies  # why the field does nothing in a scenario, or None
    # filled in by the registry from ``captions.py``: how the value is said in pin names and captions (None: "label:
    # value" or the choice's words), and what a free-text field names ("model", "gpu"; "": it names nothing)
    caption: Caption | None = None
    names: str = ""

    @property
    def group(self) -> str:
        parts = self.path.split(".")
        return "architecture" if parts[:2] == ["model", "architecture"] else parts[0]

    @property
    def name(self) -> str:
        return self.path.rsplit(".", 1)[-1]

    def words_of(self, value: Any) -> Words:
        """The words of choice ``value`` (empty ``Words`` when the table has none)."""
        return next((w for v, w in self.words if v == value), Words())

    def allowed(self) -> Msg:
        """The allowed values as a message (also the range shown in tooltips)."""
        if self.kind == "choice":
            return Msg.of("allowed.choices", choices=", ".join(str(c) for c in self.choices))
        if self.kind == "bool":
            return Msg.of("allowed.true_false")
        if self.kind == "fraction":
            return Msg.of("allowed.fraction")
        if self.low is None or self.high is None:
            return Msg.of("allowed.range", low="", high="")
        if self.kind == "bytes":
            return Msg.of("allowed.range", low=exact_size_text(int(self.low)), high=exact_size_text(int(self.high)))
        if self.kind == "count":
            return Msg.of("allowed.range", low=exact_count_text(int(self.low)), high=exact_count_text(int(self.high)))
        if self.kind == "rate":
            return Msg.of("allowed.range", low=format_rate(self.low), high=format_rate(self.high))
        if self.kind == "number":
            return Msg.of("allowed.range", low=f"{self.low:g}", high=f"{self.high:g}")
        return Msg.of("allowed.range", low=f"{self.low:,}", high=f"{self.high:,}")


def field_entry(path: str, kind: Kind, label: str, tooltip: str = "", **kw: Any) -> Field:
    return Field(path, kind, label, tooltip, **kw)


_f = field_entry


# The model's and the hardware's fields (the architecture's, the training's, the strategy's... are in the modules
# beside this one). Words use the "Fields" translation context; the registry orders fields as the dataclasses
# declare them, the form by ``form`` and ``order``.
TABLE: tuple[Field, ...] = (
    _f(
        "model.name",
        "text",
        QT_TRANSLATE_NOOP("Fields", "Model name"),
        QT_TRANSLATE_NOOP("Fields", "A label for the model"),
        form="model", order=10,
    ),
    _f(
        "model.params",
        "count",
        QT_TRANSLATE_NOOP("Fields", "Parameters"),
        QT_TRANSLATE_NOOP("Fields", "Parameter count: 7B, 124M, 7.5e9 (no activations without an architecture)"),
        low=1,
        high=MAX_PARAMS,
        flag="--params",
        metavar="COUNT",
        unit="parameters",
        form="model", order=20, essential=True,
        mnemonic="M",
        placeholder="7B",
    ),
    _f(
        "model.largest_layer",
        "count",
        QT_TRANSLATE_NOOP("Fields", "Largest layer"),
        QT_TRANSLATE_NOOP(
            "Fields", "DeepSpeed ZeRO-3's largest layer, in parameters; from the architecture when empty"
        ),
        low=0,
        high=MAX_PARAMS,
        flag="--largest-layer",
        metavar="COUNT",
        unit="parameters",
        form="model", order=100,
        placeholder=QT_TRANSLATE_NOOP("Fields", "from the architecture"),
        inactive=rules.largest_layer,
    ),
    _f(
        "hardware.gpu_name",
        "text",
        QT_TRANSLATE_NOOP("Fields", "GPU name"),
        QT_TRANSLATE_NOOP("Fields", "The GPU's name (informational)"),
        form="hardware", order=10,
        placeholder=QT_TRANSLATE_NOOP("Fields", "optional"),
    ),
    _f(
        "hardware.gpu_memory",
        "bytes",
        QT_TRANSLATE_NOOP("Fields", "Memory per GPU"),
        QT_TRANSLATE_NOOP(
            "Fields", "Memory per GPU: 80GB (10^9 bytes), 80GiB (2^30 bytes), 24576MiB; empty: fit not judged"
        ),
        low=1,
        high=MAX_BYTES,
        flag="--gpu-memory",
        metavar="SIZE",
        unit="bytes",
        form="essentials", order=10, essential=True,
        mnemonic="U",
        placeholder="80GB",
    ),
    _f(
        "hardware.reserve",
        "fraction",
        QT_TRANSLATE_NOOP("Fields", "Reserve"),
        QT_TRANSLATE_NOOP("Fields", "Fraction of GPU memory kept back (the seed's overhead_ratio)"),
        low=0.0,
        high=1.0,
        high_open=True,
        flag="--reserve",
        metavar="FRACTION",
        form="hardware", order=50, essential=True,
        mnemonic="E",
        explanation=QT_TRANSLATE_NOOP("Fields", "Usable = memory × (1 − reserve)."),
        inactive=rules.reserve,
    ),
)
