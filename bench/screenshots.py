"""Screenshots of every tab at laptop and desktop window sizes, scale factors and languages (issue 13).

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m bench.screenshots [--out /tmp/shots13] [--sizes 1366x768 ...]
        [--scales 1 1.5 2] [--langs en zh_CN]

Writes ``<tab>_<W>x<H>_s<scale>_<lang>.png`` (the whole window, one tab shown) and prints the layout problems
``bench.layout_check`` finds on each chart. The window size is in logical pixels (what Qt calls the
window's size): at scale 2 the PNG is twice as large. Each (scale, language) runs in its own process, since
``QT_SCALE_FACTOR`` is read when the application starts; the offscreen screen is made large enough to hold the
window. The scenario is the GUI bench's (Llama-3-8B on 8 x A100 80GB); the time tab is also shot with 1T training
tokens at 2.5 per GPU-hour (``time-cost``: the summary's days, GPU-hours and cost), the largest-model tab with
Mixtral 8x7B at 8,192 tokens (``maxmodel-mixtral8k``), whose solve leaves nothing to draw. The Serving tab is shot
in Serve mode with the issue's example (``serve``: Llama-3-8B, 16 x 8,192 tokens, AWQ int4, fp8 KV cache, vLLM on an
RTX 4090) and with llama.cpp (``serve-llamacpp``: Gemma 2 9B, Q4_K_M, q8_0 cache, 32,768 tokens).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZES = ("1024x640", "1366x768", "1920x1080")
SCALES = ("1", "1.5", "2")
LANGS = ("en", "zh_CN")
TABS = ("strategy", "step", "time", "sweep", "maxmodel", "serve", "plans", "compare")  # the window's tabs, in order
TIME, MAX_MODEL, CHARTS = TABS.index("time"), TABS.index("maxmodel"), TABS.index("compare")  # charts: before Compare
SERVE = TABS.index("serve")  # shot last, in Serve mode (SERVE_SHOTS), the training tabs disabled then
SERVE_SHOTS = {  # Serve mode: the scenario's edits over the bench's
    "serve": (("model.preset", "llama-3-8b"), ("training.seq_len", 2048), ("hardware.gpu", "rtx-4090"),
              ("parallel.num_gpus", 1), ("serve.active", True),
              ("serve.context", 8192), ("serve.batch", 16), ("serve.weights", "awq-int4"), ("serve.kv_dtype", "fp8"),
              ("serve.engine", "vllm")),
    "serve-llamacpp": (("model.preset", "gemma-2-9b"), ("serve.engine", "llama.cpp"),
                       ("serve.weights", "gguf-q4_k_m"),
                       ("serve.kv_dtype", "q8_0"), ("serve.context", 32768), ("serve.batch", 1)),
}


def _scale_name(scale: str) -> str:
    return "s" + scale.replace(".", "")


def _screen_config(folder: str, sizes: list[str], scale: float) -> str:
    width = max(int(s.split("x")[0]) for s in sizes)
    height = max(int(s.split("x")[1]) for s in sizes)
    config = {"screens": [{"name": "shots", "x": 0, "y": 0, "width": int((width + 100) * scale),
                           "height": int((height + 100) * scale), "logicalDpi": 96, "logicalBaseDpi": 96,
                           "dpr": 1}]}
    path = Path(folder) / f"screen_{_scale_name(str(scale))}.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    return str(path)


def _edit(window, key: str, value) -> None:
    window.set_form_values({key: value})
    window.presenter.on_field_edited(key, value)


def _prepare(window) -> None:
    """The bench's scenario, with three pinned for the comparison tab."""
    window.ensure_charts()
    _edit(window, "model.preset", "llama-3-8b")
    _edit(window, "hardware.gpu", "a100-80gb")
    window.pin_current()
    _edit(window, "parallel.zero_stage", "3")
    window.pin_current()
    _edit(window, "model.preset", "mixtral-8x7b")
    window.pin_current()
    _edit(window, "model.preset", "llama-3-8b")
    _edit(window, "parallel.zero_stage", "2")
    window.presenter.finish_sweeps()


def _settle(app) -> None:
    for _ in range(3):
        app.processEvents()


def child(out: Path, sizes: list[str], lang: str, scale: str) -> int:
    """Shoot every tab at every size in this process (its scale factor and language)."""
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QMessageBox

    from bench.layout_check import chart_problems
    from vramgui.app import create_application, create_main_window
    from vramgui.i18n import install_translations

    app = create_application()
    app.vramgui_translations = install_translations(app, lang)
    QMessageBox.question = staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard)
    problems = 0
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:  # a first start at this size: sized before it is shown
            window = create_main_window(QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
            window.resize(*(int(v) for v in size.split("x")))
            window.show()
            _prepare(window)
            extra = [("time-cost", TIME), ("maxmodel-mixtral8k", MAX_MODEL), *((tab, SERVE) for tab in SERVE_SHOTS)]
            for tab, index in [*((tab, i) for i, tab in enumerate(TABS) if i != SERVE), *extra]:
                if tab == "time-cost":  # a run's tokens and price: the summary's training row, days and cost
                    _edit(window, "training.train_tokens", "1T")
                    _edit(window, "hardware.gpu_hour_price", "2.5")
                if tab == "maxmodel-mixtral8k":
                    _edit(window, "model.preset", "mixtral-8x7b")
                    _edit(window, "training.seq_len", 8192)
                    window.presenter.finish_sweeps()
                for key, value in SERVE_SHOTS.get(tab, ()):
                    _edit(window, key, value)
                window.chart_tabs.setCurrentIndex(index)
                while tab == "plans" and window.plans_presenter.pending:  # its search runs on a worker thread
                    app.processEvents()
                _settle(app)
                name = f"{tab}_{size}_{_scale_name(scale)}_{lang}.png"
                window.grab().save(str(out / name))
                found = chart_problems(window.charts()[index]) if index < CHARTS else []
                problems += len(found)
                print(f"{name}: {'ok' if not found else '; '.join(found)}", flush=True)
            window.close()
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="/tmp/shots13")
    parser.add_argument("--sizes", nargs="+", default=list(SIZES))
    parser.add_argument("--scales", nargs="+", default=list(SCALES))
    parser.add_argument("--langs", nargs="+", default=list(LANGS))
    parser.add_argument("--child", nargs=2, metavar=("LANG", "SCALE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.child:
        return child(out, args.sizes, *args.child)
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        for scale in args.scales:
            screen = _screen_config(tmp, args.sizes, float(scale))
            env = {**os.environ, "QT_SCALE_FACTOR": scale, "QT_QPA_PLATFORM": f"offscreen:configfile={screen}"}
            for lang in args.langs:
                cmd = [sys.executable, "-m", "bench.screenshots", "--out", str(out), "--sizes", *args.sizes,
                       "--child", lang, scale]
                done = subprocess.run(cmd, cwd=ROOT, env=env, check=False)
                status |= done.returncode
    print(f"screenshots in {out}" + ("" if status == 0 else " (layout problems listed above)"))
    return status


if __name__ == "__main__":
    sys.exit(main())
