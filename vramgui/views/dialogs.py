"""Help dialogs: Formulas (derivations with their sources) and About (version and bundled licences)."""

from __future__ import annotations

import platform
from pathlib import Path

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QSize, qVersion
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

import vramgui
from vramgui.paths import resource_path
from vramgui.views.window_geometry import fit_dialog


class FormulasDialog(QDialog):
    """The model-state formulas of the ZeRO paper (the seed's), the conventions, and the current derivations."""

    def __init__(self, current_html: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Formulas and sources"))
        fit_dialog(self, QSize(820, 640))  # no taller than the screen (a 1,024 x 640 laptop: 592 px)
        layout = QVBoxLayout(self)
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(False)
        self.browser.setHtml(self._html(current_html))
        layout.addWidget(self.browser)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _html(self, current_html: str) -> str:
        parts = [
            "<h2>" + self.tr("Model states per GPU") + "</h2>",
            "<p>" + self.tr("Φ is the number of parameters, N_d the data-parallel size (GPUs ÷ (TP × PP)), and K the "
                      "optimizer-state bytes per parameter. Mixed-precision Adam keeps fp16/bf16 weights (2Φ) and "
                      "gradients (2Φ) and, in the optimizer, an fp32 master copy, momentum and variance "
                      "(K = 4 + 4 + 4 = 12): 2Φ + 2Φ + 12Φ = 16Φ bytes.") + "</p>",
            "<table border='1' cellspacing='0' cellpadding='4'>",
            "<tr><th>" + self.tr("Strategy") + "</th><th>" + self.tr("Bytes per GPU") + "</th><th>"
            + self.tr("7B, Adam, N_d = 8") + "</th></tr>",
            "<tr><td>DDP</td><td>2Φ + 2Φ + KΦ</td><td>112 GB</td></tr>",
            "<tr><td>ZeRO-1</td><td>2Φ + 2Φ + KΦ/N_d</td><td>38.5 GB</td></tr>",
            "<tr><td>ZeRO-2</td><td>2Φ + (2 + K)Φ/N_d</td><td>26.25 GB</td></tr>",
            "<tr><td>ZeRO-3</td><td>(2 + 2 + K)Φ/N_d</td><td>14 GB</td></tr>",
            "</table>",
            "<p>" + self.tr("Largest trainable model: Φ_max = usable ÷ bytes per parameter, where usable = GPU memory "
                      "× (1 − reserve). 8 × 80 GB with 20 % reserved: 4B parameters under DDP, 32B under ZeRO-3.")
            + "</p>",
            "<p>" + self.tr("Gradient accumulation: steps = global batch ÷ (micro-batch × N_d). It does not lower the "
                      "memory of one step; it reaches a large global batch with a small micro-batch.") + "</p>",
            "<p>" + self.tr("Activations depend on the architecture, micro-batch b, sequence length s, hidden size h, "
                      "heads a and layers L; the per-layer terms follow Korthikanti et al. 2022 (34sbh + 5as²b "
                      "bytes per layer in fp16 without recomputation), adjusted for the implementation, "
                      "recomputation, flash attention, TP and SP.") + "</p>",
            "<h3>" + self.tr("Sources") + "</h3><ul>",
            "<li>" + self.tr("Rajbhandari et al., ZeRO: Memory Optimizations Toward Training Trillion Parameter "
                       "Models, SC 2020 (arXiv:1910.02054), §3 and Figure 1.") + "</li>",
            "<li>" + self.tr("Ren et al., ZeRO-Offload, USENIX ATC 2021; Rajbhandari et al., ZeRO-Infinity, SC 2021.")
            + "</li>",
            "<li>" + self.tr("Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models, 2022 "
                       "(arXiv:2205.05198).") + "</li>",
            "<li>" + self.tr("DeepSpeed: estimate_zero2_model_states_mem_needs / "
                       "estimate_zero3_model_states_mem_needs; Megatron-LM distributed optimizer documentation.")
            + "</li></ul>",
        ]
        if current_html:
            parts += ["<h2>" + self.tr("The current scenario, term by term") + "</h2>", current_html]
        return "".join(parts)


def licence_files() -> list[Path]:
    """The licence texts shipped in ``resources/licenses`` (whatever is present; README first)."""
    try:
        folder = resource_path("licenses")
    except FileNotFoundError:
        return []
    if not folder.is_dir():
        return []
    files = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix in (".txt", ".md", ""))
    return sorted(files, key=lambda p: (p.name.upper() != "README.TXT", p.name.lower()))


class AboutDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("About vramgui"))
        fit_dialog(self, QSize(760, 560))
        layout = QVBoxLayout(self)
        versions = self._versions()
        header = QLabel(
            "<h2>vramgui " + vramgui.__version__ + "</h2><p>"
            + self.tr("Plan the GPU memory of a training run before booking GPUs. Offline; no data leaves "
                      "this computer.") + "</p><p>" + versions + "</p>"
        )
        header.setWordWrap(True)
        layout.addWidget(header)
        self.header = header
        self.tabs = QTabWidget()
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        for path in licence_files():
            view = QPlainTextEdit()
            view.setReadOnly(True)
            view.setFont(mono)
            view.setPlainText(path.read_text(encoding="utf-8", errors="replace"))
            self.tabs.addTab(view, path.stem)
        if self.tabs.count() == 0:
            self.tabs.addTab(QLabel(self.tr("The licence files are missing from this installation.")), "—")
        layout.addWidget(self.tabs, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        """The header as tall as its text at its width on this screen (rich text measured at another scale factor
        came out a line short)."""
        super().showEvent(event)
        self.header.setMinimumHeight(self.header.heightForWidth(self.header.width()))

    def _versions(self) -> str:
        import numpy
        import pyqtgraph

        rows = [
            ("Python", platform.python_version(), "PSF"),
            ("Qt", qVersion(), "LGPL-3.0"),
            ("PySide6", pyside_version, "LGPL-3.0"),
            ("pyqtgraph", pyqtgraph.__version__, "MIT"),
            ("numpy", numpy.__version__, "BSD-3-Clause"),
        ]
        return "<br>".join(self.tr("{0} {1} ({2} licence)").format(*row) for row in rows)
