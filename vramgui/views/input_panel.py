"""The input forms (left side): Model, Training, Hardware, Strategy.

Passive: each editor reports ``edited(key, value)``; values pushed by the presenter are shown with signals
blocked. Every field has a label with a mnemonic, a unit, a tooltip giving its meaning and range, and an
inline message row that appears when the presenter reports the field invalid. Labels live in grid layouts
that grow with translated text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QDoubleSpinBox,
    QGridLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from vramgui.presenters.form import INT_RANGES
from vramgui.presenters.view_models import FieldError
from vramgui.views.theme import error_colour


class InputPanel(QWidget):
    edited = Signal(str, object)  # (field key, raw value)
    import_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("InputPanel")
        self.editors: dict[str, QWidget] = {}
        self.labels: dict[str, QLabel] = {}
        self.units: dict[str, QLabel] = {}
        self._error_labels: dict[str, QLabel] = {}
        self._grids: dict[QWidget, QGridLayout] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self._model_group())
        layout.addWidget(self._training_group())
        layout.addWidget(self._hardware_group())
        layout.addWidget(self._strategy_group())
        self.general_error = QLabel()
        self.general_error.setObjectName("general_error")
        self.general_error.setWordWrap(True)
        self.general_error.hide()
        layout.addWidget(self.general_error)
        layout.addStretch(1)

    # ----- building
    def _group(self, title: str) -> tuple[QGroupBox, QGridLayout]:
        box = QGroupBox(title)
        grid = QGridLayout(box)
        grid.setColumnStretch(1, 1)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(4)
        self._grids[box] = grid
        return box, grid

    def _row(self, grid: QGridLayout, key: str, label: str, editor: QWidget, unit: str, tip: str,
             row: int | None = None, col: int = 0) -> None:
        """label | editor | unit at (row, col..col+2), and the inline error message below the editor."""
        row = grid.rowCount() if row is None else row
        lab = QLabel(label)
        lab.setBuddy(editor)
        lab.setToolTip(tip)
        editor.setToolTip(tip)
        editor.setObjectName(key)
        unit_label = QLabel(unit)
        unit_label.setObjectName(key + ".unit")
        grid.addWidget(lab, row, col)
        grid.addWidget(editor, row, col + 1)
        grid.addWidget(unit_label, row, col + 2)
        err = QLabel()
        err.setObjectName(key + ".error")
        err.setWordWrap(True)
        err.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        err.hide()
        grid.addWidget(err, row + 1, col, 1, 3)
        self.editors[key] = editor
        self.labels[key] = lab
        self.units[key] = unit_label
        self._error_labels[key] = err
        self._connect(key, editor)

    def _span_unit_column(self, grid: QGridLayout, key: str) -> None:
        editor = self.editors[key]
        row, col, _, _ = grid.getItemPosition(grid.indexOf(editor))
        grid.removeWidget(self.units[key])
        self.units[key].hide()
        grid.removeWidget(editor)
        grid.addWidget(editor, row, col, 1, 2)

    def _connect(self, key: str, editor: QWidget) -> None:
        if isinstance(editor, QComboBox):
            editor.currentIndexChanged.connect(lambda _i, k=key, e=editor: self._combo_changed(k, e))
        elif isinstance(editor, QLineEdit):
            editor.textEdited.connect(lambda text, k=key: self.edited.emit(k, text))
        elif isinstance(editor, (QSpinBox, QDoubleSpinBox)):
            editor.valueChanged.connect(lambda value, k=key: self.edited.emit(k, value))
        elif isinstance(editor, QCheckBox):
            editor.toggled.connect(lambda on, k=key: self.edited.emit(k, on))

    def _combo_changed(self, key: str, combo: QComboBox) -> None:
        value = combo.currentData()
        if value is not None:
            self.edited.emit(key, value)

    @staticmethod
    def _combo(choices: Sequence[tuple[str, str]] = ()) -> QComboBox:
        combo = QComboBox()
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(12)
        for value, text in choices:
            combo.addItem(text, value)
        return combo

    @staticmethod
    def _spin(key: str) -> QSpinBox:
        spin = QSpinBox()
        rng = INT_RANGES[key]
        spin.setRange(rng.low, rng.high)
        spin.setGroupSeparatorShown(True)
        spin.setAccelerated(True)
        return spin

    def _range_tip(self, key: str, tip: str) -> str:
        rng = INT_RANGES[key]
        return tip + "\n" + self.tr("Range: {0}").format(rng.text())

    def _model_group(self) -> QGroupBox:
        box, grid = self._group(self.tr("Model"))
        preset = self._combo()
        preset.setEditable(True)
        preset.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        preset.completer().setFilterMode(Qt.MatchFlag.MatchContains)
        preset.completer().setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        preset.lineEdit().setPlaceholderText(self.tr("Search presets…"))
        self.import_button = QPushButton(self.tr("Import…"))
        self.import_button.setToolTip(self.tr("Import a Hugging Face config.json, or a model folder containing one"))
        self.import_button.clicked.connect(self.import_requested)
        self._row(grid, "model.preset", self.tr("Pre&set"), preset, "",
                  self.tr("A model from the catalog: its architecture gives Φ exactly and sizes the activations. "
                          "Type to search."))
        grid.removeWidget(self.units["model.preset"])
        self.units["model.preset"].hide()
        grid.addWidget(self.import_button, grid.rowCount() - 2, 2)
        mode = self._combo([
            ("preset", self.tr("the preset or import")),
            ("params", self.tr("parameter count Φ")),
            ("architecture", self.tr("architecture fields")),
        ])
        self._row(grid, "model.mode", self.tr("&Defined by"), mode, "",
                  self.tr("Where Φ comes from. A parameter count alone sizes the model states (16Φ for "
                          "mixed-precision Adam) but not the activations, which need the architecture."))
        params = QLineEdit()
        params.setPlaceholderText("7B")
        self._row(grid, "model.params", self.tr("Para&meters Φ"), params, "",
                  self.tr("Φ, the number of trainable parameters: 7B, 124M, 7.5e9 or an exact count.\n"
                          "Range: 1 - 1e15"))
        hint = QLabel()
        hint.setObjectName("model.params_hint")
        self.units["model.params"].setParent(None)
        self.units["model.params"] = hint
        grid.addWidget(hint, grid.rowCount() - 2, 2)
        family = self._combo([("llama", self.tr("Llama-style (RMSNorm, gated MLP)")),
                              ("gpt", self.tr("GPT-style (LayerNorm, GELU MLP)"))])
        self._row(grid, "arch.family", self.tr("Block style"), family, "",
                  self.tr("The transformer block: it fixes which weights and activations a layer holds."))
        for key in ("model.mode", "arch.family"):  # no unit: the choice gets the unit column's room too
            self._span_unit_column(grid, key)
        arch = (
            ("arch.num_layers", self.tr("Layers"), "", self.tr("Number of transformer blocks.")),
            ("arch.hidden_size", self.tr("Hidden size"), "", self.tr("Model width h.")),
            ("arch.num_heads", self.tr("Attention heads"), "", self.tr("Query heads a; must divide h.")),
            ("arch.num_kv_heads", self.tr("KV heads"), "",
             self.tr("Key/value heads (fewer than the query heads: grouped-query attention).")),
            ("arch.ffn_size", self.tr("FFN size"), "", self.tr("Intermediate size of the MLP.")),
            ("arch.vocab_size", self.tr("Vocabulary"), "", self.tr("Vocabulary size V.")),
        )
        pairs = QGridLayout()  # the architecture fields two to a row: the form stays short
        pairs.setHorizontalSpacing(6)
        pairs.setVerticalSpacing(4)
        pairs.setColumnStretch(1, 1)
        pairs.setColumnStretch(4, 1)
        pairs.setColumnMinimumWidth(3, 4)
        for i, (key, label, unit, tip) in enumerate(arch):
            self._row(pairs, key, label, self._spin(key), unit, self._range_tip(key, tip),
                      row=(i // 2) * 2, col=(i % 2) * 3)
        grid.addLayout(pairs, grid.rowCount(), 0, 1, 3)
        return box

    def _training_group(self) -> QGroupBox:
        box, grid = self._group(self.tr("Training"))
        dtype = self._combo([("bf16", "bf16"), ("fp16", "fp16"), ("fp32", "fp32")])
        self._row(grid, "precision.dtype", self.tr("Dt&ype"), dtype, "",
                  self.tr("Type of the weights, gradients and activations: 2 bytes per parameter for fp16/bf16, "
                          "4 for fp32."))
        recipe = self._combo([("mixed", self.tr("mixed (fp32 master copy)")), ("pure", self.tr("pure (dtype only)"))])
        self._row(grid, "precision.recipe", self.tr("&Recipe"), recipe, "",
                  self.tr("Mixed precision keeps an fp32 master copy of the weights in the optimizer states: "
                          "with Adam, K = 12 bytes per parameter (4 master + 4 momentum + 4 variance), "
                          "so 2Φ + 2Φ + KΦ = 16Φ."))
        optimizer = self._combo([("adam", "Adam"), ("adamw", "AdamW"), ("adam8bit", self.tr("Adam 8-bit")),
                                 ("sgd", "SGD"), ("sgd_momentum", self.tr("SGD + momentum")),
                                 ("adafactor", "Adafactor"), ("lion", "Lion")])
        self._row(grid, "precision.optimizer", self.tr("O&ptimizer"), optimizer, "",
                  self.tr("Sets K, the optimizer-state bytes per parameter (Adam mixed precision: K = 12)."))
        micro = self._spin("training.micro_batch")
        self._row(grid, "training.micro_batch", self.tr("Micro-&batch"), micro, self.tr("sequences"),
                  self._range_tip("training.micro_batch", self.tr("Sequences per GPU per forward pass.")))
        seq = self._spin("training.seq_len")
        self._row(grid, "training.seq_len", self.tr("Se&quence length"), seq, self.tr("tokens"),
                  self._range_tip("training.seq_len", self.tr("Tokens per sequence.")))
        global_batch = QLineEdit()
        global_batch.setPlaceholderText(self.tr("optional"))
        self._row(grid, "training.global_batch", self.tr("G&lobal batch"), global_batch, self.tr("sequences"),
                  self._range_tip("training.global_batch",
                                  self.tr("Sequences per optimizer step. Accumulation steps = global batch ÷ "
                                          "(micro-batch × N_d). Empty: one micro-batch per step.")))
        recompute = self._combo([("none", self.tr("none")), ("selective", self.tr("selective")),
                                 ("full", self.tr("full"))])
        self._row(grid, "training.recompute", self.tr("Re&compute"), recompute, "",
                  self.tr("Activation checkpointing: full keeps only each layer's input; selective recomputes "
                          "the attention scores (Korthikanti et al. 2022)."))
        attention = self._combo([("flash", self.tr("flash / SDPA")), ("eager", self.tr("eager"))])
        self._row(grid, "training.attention", self.tr("&Attention"), attention, "",
                  self.tr("Eager attention stores the a·s² score and softmax matrices; flash attention does not."))
        impl = self._combo([("hf", self.tr("Hugging Face")), ("fused", self.tr("fused kernels"))])
        self._row(grid, "training.implementation", self.tr("Implementation"), impl, "",
                  self.tr("Activation accounting profile: Hugging Face eager modules, or fused kernels "
                          "(Megatron-style) that keep fewer intermediates."))
        return box

    def _hardware_group(self) -> QGroupBox:
        box, grid = self._group(self.tr("Hardware"))
        gpu = self._combo()
        self._row(grid, "hardware.gpu", self.tr("&GPU"), gpu, "",
                  self.tr("A GPU from the catalog (its memory as the vendor states it), or custom memory."))
        memory = QLineEdit()
        memory.setPlaceholderText("80GB")
        self._row(grid, "hardware.gpu_memory", self.tr("Memory per GP&U"), memory, "",
                  self.tr("80GB means 80·10⁹ bytes; 80GiB means 80·2³⁰. Empty: do not judge the fit.\n"
                          "Range: 1 MB - 100 TB"))
        # the size in the other unit: vendors' "80GB" cards hold 80 GiB, which the app shows as 85.90 GB
        self.memory_hint = QLabel()
        self.memory_hint.setObjectName("hardware.gpu_memory_hint")
        self.memory_hint.setWordWrap(True)
        grid.addWidget(self.memory_hint, grid.rowCount(), 1, 1, 2)
        per_node = self._spin("hardware.gpus_per_node")
        self._row(grid, "hardware.gpus_per_node", self.tr("GPUs per &node"), per_node, self.tr("GPUs"),
                  self._range_tip("hardware.gpus_per_node", self.tr("GPUs in one machine.")))
        nodes = self._spin("hardware.nodes")
        self._row(grid, "hardware.nodes", self.tr("N&odes"), nodes, self.tr("machines"),
                  self._range_tip("hardware.nodes", self.tr("Machines. N = GPUs per node × nodes; the data-parallel "
                                                            "size N_d = N ÷ (TP × PP).")))
        reserve = QDoubleSpinBox()
        reserve.setRange(0.0, 95.0)
        reserve.setDecimals(1)
        reserve.setSingleStep(5.0)
        self._row(grid, "hardware.reserve", self.tr("R&eserve"), reserve, "%",
                  self.tr("Memory kept back for the CUDA context, fragmentation and buffers (the seed's "
                          "overhead_ratio). Usable = memory × (1 − reserve).\nRange: 0 - 95 %"))
        return box

    def _strategy_group(self) -> QGroupBox:
        box, grid = self._group(self.tr("Strategy"))
        stage = self._combo([("0", self.tr("DDP (no sharding)")), ("1", self.tr("ZeRO-1 (optimizer states)")),
                             ("2", self.tr("ZeRO-2 (+ gradients)")), ("3", self.tr("ZeRO-3 / FSDP (+ parameters)"))])
        self._row(grid, "parallel.zero_stage", self.tr("&ZeRO stage"), stage, "",
                  self.tr("DDP: 2Φ + 2Φ + KΦ per GPU. ZeRO-1: 2Φ + 2Φ + KΦ/N_d. ZeRO-2: 2Φ + (2+K)Φ/N_d. "
                          "ZeRO-3: (2+2+K)Φ/N_d (Rajbhandari et al. 2020)."))
        tp = self._spin("parallel.tp")
        self._row(grid, "parallel.tp", self.tr("&Tensor parallel"), tp, "TP",
                  self._range_tip("parallel.tp", self.tr("Tensor-parallel size: splits each layer's weights "
                                                         "and most activations.")))
        pp = self._spin("parallel.pp")
        self._row(grid, "parallel.pp", self.tr("P&ipeline parallel"), pp, "PP",
                  self._range_tip("parallel.pp", self.tr("Pipeline stages: each holds 1/PP of the layers.")))
        sp = QCheckBox(self.tr("Sequence parallel (SP)"))
        self._row(grid, "parallel.sp", "", sp, "",
                  self.tr("Megatron sequence parallelism: shards the LayerNorm and dropout activations across "
                          "the TP group (needs TP > 1)."))
        off_opt = QCheckBox(self.tr("Offload optimizer states to CPU"))
        self._row(grid, "offload.optimizer", "", off_opt, "",
                  self.tr("ZeRO-Offload: optimizer states (KΦ) live in host memory."))
        off_par = QCheckBox(self.tr("Offload parameters to CPU"))
        self._row(grid, "offload.params", "", off_par, "",
                  self.tr("ZeRO-Infinity parameter offload (ZeRO-3 only)."))
        convention = self._combo([("paper", self.tr("ZeRO paper")), ("deepspeed", "DeepSpeed"),
                                  ("megatron", "Megatron-LM")])
        self._row(grid, "convention", self.tr("Convention"), convention, "",
                  self.tr("Whose accounting to follow: the ZeRO paper (the seed's 16Φ), DeepSpeed's estimators, "
                          "or Megatron-LM's."))
        return box

    # ----- the view's half of MainView
    def set_choices(self, key: str, choices: Sequence[tuple[str, str]]) -> None:
        combo = self.editors[key]
        assert isinstance(combo, QComboBox)
        current = combo.currentData()
        combo.blockSignals(True)
        combo.clear()
        for value, text in choices:
            combo.addItem(text, value)
        index = combo.findData(current)
        combo.setCurrentIndex(max(index, 0))
        combo.blockSignals(False)

    def set_form_values(self, values: Mapping[str, object]) -> None:
        for key, value in values.items():
            if key == "model.params_hint":
                self.units["model.params"].setText(str(value))
                continue
            if key == "hardware.gpu_memory_hint":
                self.memory_hint.setText(str(value))
                self.memory_hint.setVisible(bool(value))
                continue
            editor = self.editors.get(key)
            if editor is None:
                continue
            editor.blockSignals(True)
            try:
                if isinstance(editor, QComboBox):
                    index = editor.findData(value)
                    if index >= 0:
                        editor.setCurrentIndex(index)
                elif isinstance(editor, QLineEdit):
                    if editor.text() != str(value):
                        editor.setText(str(value))
                elif isinstance(editor, QDoubleSpinBox):
                    editor.setValue(float(value))
                elif isinstance(editor, QSpinBox):
                    editor.setValue(int(value))
                elif isinstance(editor, QCheckBox):
                    editor.setChecked(bool(value))
            finally:
                editor.blockSignals(False)

    def set_fields_enabled(self, states: Mapping[str, bool]) -> None:
        for key, enabled in states.items():
            editor = self.editors.get(key)
            if editor is not None:
                editor.setEnabled(enabled)
                self.labels[key].setEnabled(enabled)

    def show_field_errors(self, errors: Sequence[FieldError]) -> None:
        by_key: dict[str, list[str]] = {}
        general: list[str] = []
        for err in errors:
            if err.key in self._error_labels:
                by_key.setdefault(err.key, []).append(err.message)
            else:
                general.append(err.message)
        for key, label in self._error_labels.items():
            messages = by_key.get(key)
            editor = self.editors[key]
            editor.setProperty("invalid", bool(messages))
            editor.style().unpolish(editor)
            editor.style().polish(editor)
            if messages:
                label.setText("⚠ " + "\n".join(messages))
                label.setStyleSheet(f"color: {error_colour(self)};")
                label.show()
            else:
                label.hide()
                label.clear()
        self.general_error.setText("⚠ " + "\n".join(general) if general else "")
        self.general_error.setStyleSheet(f"color: {error_colour(self)};")
        self.general_error.setVisible(bool(general))

    def error_text(self, key: str) -> str:
        """The inline message shown for ``key`` ("" when none)."""
        label = self._error_labels.get(key, self.general_error)
        return "" if label.isHidden() else label.text().removeprefix("⚠ ")
