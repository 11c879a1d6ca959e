"""Screenshots and layout checks of the real window on laptop and desktop screens (issues 13 and 23).

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m bench.screenshots [--out /tmp/shots] [--sizes 1024x640 ...]
        [--scales 1 2] [--screens 960x540@2 ...] [--langs en zh_CN] [--json REPORT.json]

For each screen (a size in logical pixels at a scale factor) the window opens as the app opens it on that screen
(``window_geometry.place_first``: its first size, on a 1,024 x 640 screen 1,008 x 592), with three scenarios pinned
(Llama-3-8B ZeRO-2 and ZeRO-3 on 8 x A100 80GB, Mixtral 8x7B), and shows a scenario that does not fit, so the
adviser's ways out are in the summary: the issue's ``count_13b_fp16_zero1.json`` on every tab; Mixtral 8x7B with 1T
training tokens at 2.5 per GPU-hour (the summary's step time, throughput and training rows: its tallest) on every
chart tab (``time-cost-<tab>``; on the time tab ``time-cost``); the largest-model tab with Mixtral at 8,192 tokens,
whose solve leaves nothing to draw (``maxmodel-mixtral8k``); the Serving tab in Serve mode (``serve``: Llama-3-8B,
16 x 8,192 tokens, AWQ int4, fp8 KV cache, vLLM on an RTX 4090; ``serve-llamacpp``: Gemma 2 9B, Q4_K_M, q8_0 cache,
32,768 tokens). The About, Formulas, import-summary and cannot-open dialogs are opened once per screen.

Every state is checked (``bench.layout_check``): no chart text cut, dropped or overlapping, every visible label's
and button's text fits, no widget outside its parent, the window and every dialog inside the screen; every chart's
plot at least ``charts.modes.MIN_PLOT_PX`` (150 px) tall from 1,366 x 768 up, ``LAPTOP_PLOT_PX`` (120) at 1,024 x
640 (the Compare tab's ``COMPARE_LAPTOP_PX``, 90); on 960 x 540 only that nothing is cut (texts may touch). Problems
are printed per shot (and written to ``--json``); the exit status is 1 when there are any.

Every screen lives in one process per language: the offscreen platform gets one virtual screen per (size, scale),
side by side, and ``QT_SCREEN_SCALE_FACTORS`` gives each its factor (Qt reads it when the application starts; a
per-screen "dpr" in the offscreen config file is not applied to widgets). The PNGs
(``<shot>_<W>x<H>_s<scale>_<lang>.png``, written with ``--out``) are twice as large at scale 2.
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
SMALL = ("960x540", "2")  # a 1920 x 1080 screen at 200 %: shot with the default sizes at scale 2
LAPTOP = (1024, 640)  # from this size up every plot keeps a floor, LAPTOP_PLOT_PX; below it, only nothing is cut
LAPTOP_PLOT_PX = 120  # ... at 1,024 x 640 (the step chart's 12 bars under a legend of 10; charts.modes aims at 150)
COMPARE_LAPTOP_PX = 90  # ... the Compare tab's at 1,024 x 640, under its buttons and over its table of three pins
SCALES = ("1", "2")
LANGS = ("en", "zh_CN")
TABS = ("strategy", "step", "time", "sweep", "maxmodel", "serve", "plans", "compare")  # the window's tabs, in order
TIME, MAX_MODEL, SERVE, PLANS, COMPARE = (TABS.index(t) for t in ("time", "maxmodel", "serve", "plans", "compare"))
TRAINING = tuple(i for i in range(len(TABS)) if i not in (SERVE, PLANS, COMPARE))  # PLANS: shot once (its search)
NOT_FITTING = ROOT / "tests" / "fixtures" / "scenarios_v1" / "count_13b_fp16_zero1.json"
PINS = ((("model.preset", "llama-3-8b"), ("hardware.gpu", "a100-80gb")), (("parallel.zero_stage", "3"),),
        (("model.preset", "mixtral-8x7b"),))
TIME_COST = (("model.preset", "mixtral-8x7b"), ("hardware.gpu", "a100-80gb"), ("parallel.num_gpus", 8),
             ("training.train_tokens", "1T"), ("hardware.gpu_hour_price", "2.5"))
SERVE_SHOTS = {  # Serve mode: the scenario's edits over the one before
    "serve": (("model.preset", "llama-3-8b"), ("training.seq_len", 2048), ("hardware.gpu", "rtx-4090"),
              ("parallel.num_gpus", 1), ("serve.active", True),
              ("serve.context", 8192), ("serve.batch", 16), ("serve.weights", "awq-int4"), ("serve.kv_dtype", "fp8"),
              ("serve.engine", "vllm")),
    "serve-llamacpp": (("model.preset", "gemma-2-9b"), ("serve.engine", "llama.cpp"),
                       ("serve.weights", "gguf-q4_k_m"),
                       ("serve.kv_dtype", "q8_0"), ("serve.context", 32768), ("serve.batch", 1)),
}


def screen_name(size: str, scale: str) -> str:
    return f"s{size}@{scale}"


def screen_list(sizes: list[str], scales: list[str], screens: list[str] | None) -> list[tuple[str, str]]:
    """(size, scale) pairs: ``screens`` ("1024x640@2") where given, else every size at every scale."""
    if screens:
        return [(s.split("@")[0], s.split("@")[1] if "@" in s else "1") for s in screens]
    small = [SMALL] if list(sizes) == list(SIZES) and SMALL[1] in scales else []
    return [(size, scale) for scale in scales for size in sizes] + small


def screen_config(folder: str, pairs: list[tuple[str, str]]) -> tuple[str, str]:
    """The offscreen platform's config file (one screen per size and scale, side by side, in device pixels) and the
    ``QT_SCREEN_SCALE_FACTORS`` value naming each screen's factor."""
    screens, factors, x = [], [], 0
    for size, scale in pairs:
        width, height = (round(int(v) * float(scale)) for v in size.split("x"))
        screens.append({"name": screen_name(size, scale), "x": x, "y": 0, "width": width, "height": height,
                        "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1})
        factors.append(f"{screen_name(size, scale)}={scale}")
        x += width
    path = Path(folder) / "screens.json"
    path.write_text(json.dumps({"screens": screens}), encoding="utf-8")
    return str(path), ";".join(factors)


def _edit(window, key: str, value) -> None:
    window.set_form_values({key: value})
    window.presenter.on_field_edited(key, value)


def _settle(app) -> None:
    for _ in range(4):
        app.processEvents()


class Shooter:
    """One window on one screen: shows each state, checks it, saves its PNG."""

    def __init__(self, app, window, tag: str, out: Path | None, size: tuple[int, int], report: dict) -> None:
        self.app, self.window, self.tag, self.out, self.size, self.report = app, window, tag, out, size, report

    def floor(self, index: int) -> float:
        """The least height of the plot on this screen: ``MIN_PLOT_PX`` from 1,366 x 768 up, ``LAPTOP_PLOT_PX`` (the
        Compare tab's ``COMPARE_LAPTOP_PX``) from 1,024 x 640, none below (nothing cut is all that is checked)."""
        from vramgui.views.charts.modes import MIN_PLOT_PX

        width, height = self.size
        if width >= 1366 and height >= 768:
            return MIN_PLOT_PX
        if width >= LAPTOP[0] and height >= LAPTOP[1]:
            return COMPARE_LAPTOP_PX if index == COMPARE else LAPTOP_PLOT_PX
        return 0.0

    def check(self, name: str, index: int, png: bool = True) -> None:
        from bench.layout_check import chart_problems, plot_height, widget_problems

        window = self.window
        window.chart_tabs.setCurrentIndex(index)
        _settle(self.app)
        while index == PLANS and window.plans_presenter.pending:  # its search runs on a worker thread
            self.app.processEvents()
        _settle(self.app)  # the results column fits itself to the tab shown once its chart is laid out
        chart = window.charts()[index] if index != COMPARE else ComparePlot(window.compare_view)
        problems = chart_problems(chart) + widget_problems(window)
        if not self.floor(index):  # smaller than any laptop: nothing cut, texts may touch
            problems = [p for p in problems if "overlap" not in p]
        plot = plot_height(chart)
        if plot < self.floor(index):
            problems.append(f"the plot is {plot:.0f} px tall, less than {self.floor(index):.0f}")
        shot = f"{name}_{self.tag}"
        self.report[shot] = {"plot": round(plot), "problems": problems}
        if png and self.out is not None:
            window.grab().save(str(self.out / f"{shot}.png"))
        print(f"{shot}: plot {plot:.0f} px, {'ok' if not problems else '; '.join(problems)}", flush=True)

    def dialogs(self) -> None:
        """About, Formulas, an import summary of 40 keys and the cannot-open message of a file with 20 unknown
        fields, each shown on this screen and checked."""
        from PySide6.QtWidgets import QMessageBox

        from bench.layout_check import dialog_problems
        from vramgui.views.import_summary import ImportSummaryDialog

        window, problems = self.window, []

        def shown(dialog) -> None:
            dialog.show()
            _settle(self.app)
            problems.extend(f"{dialog.windowTitle()!r}: {p}" for p in dialog_problems(dialog))
            if self.out is not None:
                dialog.grab().save(str(self.out / f"dialog{len(problems)}-{type(dialog).__name__}_{self.tag}.png"))
            dialog.close()

        window.show_about()
        shown(window.about_dialog)
        window.show_formulas()
        shown(window.formulas_dialog)
        rows = [(f"trainer.key_{i}", "taken: a value the plan uses, with a sentence about it " * 2) for i in range(40)]
        shown(ImportSummaryDialog("Import", "What the file gave. " * 12, [("Taken", rows), ("Ignored", rows)], window))
        original = QMessageBox.critical, QMessageBox.warning

        def message(icon):
            return staticmethod(lambda parent, title, text, *a, **k: shown(QMessageBox(icon, title, text,
                                                                                     parent=parent)))

        QMessageBox.critical, QMessageBox.warning = message(QMessageBox.Icon.Critical), message(
            QMessageBox.Icon.Warning)
        try:
            with tempfile.TemporaryDirectory() as tmp:
                data = json.loads(NOT_FITTING.read_text(encoding="utf-8"))
                data["training"].update({f"unknown_field_{i}": i for i in range(20)})
                path = Path(tmp) / "wrong.json"
                path.write_text(json.dumps(data), encoding="utf-8")
                window.document.open_path(str(path), ask=False)
        finally:
            QMessageBox.critical, QMessageBox.warning = original
        self.report[f"dialogs_{self.tag}"] = {"plot": 0, "problems": problems}
        print(f"dialogs_{self.tag}: {'ok' if not problems else '; '.join(problems)}", flush=True)


class ComparePlot:
    """The comparison's plot as ``chart_problems`` reads a chart (a ``ChartView``): its view, plot item, legend and
    (absent: it has none) title."""

    class _NoTitle:
        class item:  # noqa: N801 - mirrors pyqtgraph's LabelItem.item
            @staticmethod
            def toPlainText() -> str:  # noqa: N802
                return ""

    title_item = _NoTitle

    def __init__(self, view) -> None:
        self.widget = view.plot
        self.plot = view.plot.getPlotItem()
        self.legend = view.legend

    def viewport(self):
        return self.widget.viewport()

    def mapToScene(self, rect):  # noqa: N802 - the QGraphicsView method chart_problems calls
        return self.widget.mapToScene(rect)


def shoot_screen(app, screen, size: str, scale: str, lang: str, out: Path | None, report: dict) -> None:
    """Every state on ``screen``, in a window opened there as at a first start."""
    from PySide6.QtCore import QSettings

    from vramgui.app import create_main_window
    from vramgui.views.window_geometry import place_first

    width, height = (int(v) for v in size.split("x"))
    with tempfile.TemporaryDirectory() as tmp:
        window = create_main_window(QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
        window.setScreen(screen)
        place_first(window, screen)
        window.show()
        window.ensure_charts()
        shooter = Shooter(app, window, f"{size}_s{scale.replace('.', '')}_{lang}", out,
                          (width, height), report)
        for edits in PINS:
            for key, value in edits:
                _edit(window, key, value)
            window.pin_current()
        window.document.open_path(str(NOT_FITTING), ask=False)
        window.presenter.finish_sweeps()
        for index in (*TRAINING, PLANS, COMPARE):
            shooter.check(TABS[index], index)
        for key, value in TIME_COST:
            _edit(window, key, value)
        window.presenter.finish_sweeps()
        for index in TRAINING:  # the tallest summary: every chart checked, the time tab shot
            shooter.check("time-cost" if index == TIME else f"time-cost-{TABS[index]}", index)
        _edit(window, "training.seq_len", 8192)
        window.presenter.finish_sweeps()
        shooter.check("maxmodel-mixtral8k", MAX_MODEL)
        for name, edits in SERVE_SHOTS.items():
            for key, value in edits:
                _edit(window, key, value)
            shooter.check(name, SERVE)
        shooter.dialogs()
        window.document.ask_before_discarding = False
        window.close()
        window.deleteLater()
        _settle(app)


def child(out: Path | None, pairs: list[tuple[str, str]], lang: str, report_path: str | None) -> int:
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QMessageBox

    from vramgui.app import create_application
    from vramgui.i18n import install_translations

    app = create_application()
    app.vramgui_translations = install_translations(app, lang)
    QMessageBox.question = staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard)
    screens = {s.name(): s for s in QGuiApplication.screens()}
    report: dict = {}
    for size, scale in pairs:
        shoot_screen(app, screens[screen_name(size, scale)], size, scale, lang, out, report)
    if report_path:
        Path(report_path).write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    return 1 if any(entry["problems"] for entry in report.values()) else 0


def run(pairs: list[tuple[str, str]], langs: list[str], out: Path | None, report: Path | None,
        capture: bool = False) -> tuple[int, dict, str]:
    """Each language in its own process (in parallel); returns the worst status, the merged report and the output."""
    status, merged, output = 0, {}, ""
    with tempfile.TemporaryDirectory() as tmp:
        config, factors = screen_config(tmp, pairs)
        env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={config}", "QT_SCREEN_SCALE_FACTORS": factors}
        env.pop("QT_SCALE_FACTOR", None)
        runs = []
        for lang in langs:
            part = Path(tmp) / f"report_{lang}.json"
            cmd = [sys.executable, "-m", "bench.screenshots", "--screens", *(f"{a}@{b}" for a, b in pairs),
                   "--child", lang, "--json", str(part), *(["--out", str(out)] if out is not None else [])]
            pipe = subprocess.PIPE if capture else None
            runs.append((part, subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=pipe, stderr=pipe, text=True)))
        for part, proc in runs:
            stdout, stderr = proc.communicate(timeout=900)
            output += (stdout or "") + (stderr or "")[-3000:]
            status |= proc.returncode
            if part.exists():
                merged.update(json.loads(part.read_text(encoding="utf-8")))
    if report is not None:
        report.write_text(json.dumps(merged, indent=1, ensure_ascii=False), encoding="utf-8")
    return status, merged, output


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="write the PNGs here (none without it)")
    parser.add_argument("--sizes", nargs="+", default=list(SIZES))
    parser.add_argument("--scales", nargs="+", default=list(SCALES))
    parser.add_argument("--langs", nargs="+", default=list(LANGS))
    parser.add_argument("--screens", nargs="+", help="SIZE@SCALE each (e.g. 960x540@2), instead of sizes x scales")
    parser.add_argument("--json", help="write the report (per shot: the plot's height and the problems) here")
    parser.add_argument("--child", metavar="LANG", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    out = Path(args.out) if args.out else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    pairs = screen_list(args.sizes, args.scales, args.screens)
    if args.child:
        return child(out, pairs, args.child, args.json)
    status, _report, _output = run(pairs, args.langs, out, Path(args.json) if args.json else None)
    print(("screenshots in " + str(out) if out else "checked") + ("" if status == 0 else " (problems listed above)"))
    return status


if __name__ == "__main__":
    sys.exit(main())
