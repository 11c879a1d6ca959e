"""Regenerate docs/screenshot.png (and docs/screenshot_zh_CN.png when the Chinese catalog is compiled).

A realistic scenario: Llama-3-8B, bf16 mixed precision with AdamW, 8 x A100 80GB in one node, ZeRO-2, micro-batch
4 x 4096 tokens with full recomputation and a global batch of 256 sequences.

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/screenshot.py [--out docs/screenshot.png] [--lang en]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SIZE = (1400, 900)
SCENARIO = {
    "model.preset": "llama-3-8b",
    "precision.dtype": "bf16",
    "precision.optimizer": "adamw",
    "hardware.gpu": "a100-80gb",
    "parallel.num_gpus": 8,
    "parallel.gpus_per_node": 8,
    "hardware.reserve": 10.0,
    "parallel.zero_stage": "2",
    "training.micro_batch": 4,
    "training.seq_len": 4096,
    "training.recompute": "full",
    "training.global_batch": "256",
}


def render(out: Path, lang: str = "en") -> Path:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from vramgui.app import create_application, create_main_window

    app = create_application()
    if lang != "en":
        from PySide6.QtCore import QCoreApplication

        from vramgui.i18n import install_translations

        app.vramgui_translations = install_translations(app, lang)
        if QCoreApplication.translate("MainWindow", "By strategy") == "By strategy":
            raise LookupError(f"the {lang} catalog does not translate the main window yet")
    with tempfile.TemporaryDirectory() as tmp:
        window = create_main_window(QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
        window.resize(*SIZE)
        window.show()
        for key, value in SCENARIO.items():
            window.set_form_values({key: value})  # shown in the widgets ...
            window.presenter.on_field_edited(key, value)  # ... and reported, as a user edit would be
        window.presenter.finish_sweeps()
        window.document.mark_clean()  # as if just saved: no unsaved-changes question on close
        for _ in range(5):
            QApplication.processEvents()
        out.parent.mkdir(parents=True, exist_ok=True)
        image = window.grab().toImage()
        if not image.save(str(out), "PNG"):
            raise OSError(f"could not write {out}")
        window.close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshot.png")
    parser.add_argument("--lang", default="en")
    args = parser.parse_args(argv)
    print(render(args.out, args.lang))
    if args.lang == "en":
        from vramgui.i18n import available_languages

        if "zh_CN" in available_languages():
            try:
                print(render(args.out.with_name(args.out.stem + "_zh_CN.png"), "zh_CN"))
            except LookupError as err:
                print(f"skipped the zh_CN screenshot: {err}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
