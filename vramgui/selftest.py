"""``vramgui --self-test OUT.png [--scenario FILE]``: prove that an installed or frozen vramgui really works, without
a person.

It builds the real main window (offscreen unless ``QT_QPA_PLATFORM`` says otherwise), opens FILE as File > Open
does (else shows the first screen: Llama-3-8B on 8 x H100), runs the estimate through the presenter, exports the
chart to ``OUT.png`` and checks the picture (size, not blank, not black), writes ``OUT.json`` beside it (the estimate
the window shows, in the shape of ``vramgui estimate --json``), then prints one summary line and returns 0; any
failure prints ``vramgui self-test FAILED: ...`` and returns 1. ``vramgui.app`` passes in how to make the
application and the window (this module sits below it and never imports it). The frozen-binary
smoke test (tests/packaging/test_frozen.py) runs exactly this inside the PyInstaller build, because a bundle that
lacks a Qt plugin, a data file or a lazily imported module fails here and nowhere earlier.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

EXPORT_WIDTH = 1600
MIN_HEIGHT = 200
MIN_COLOURS = 8  # a bar chart with axes, labels and several component colours has far more
MIN_INK_FRACTION = 0.005  # share of pixels that differ from the background colour
MIN_BACKGROUND_LUMA = 100  # exports use a light background: a black one is the pyqtgraph-default bug
EXPOSE_TIMEOUT_S = 10.0


class SelfTestError(RuntimeError):
    """A check failed; the message says which and what was seen."""


@dataclass(frozen=True)
class ImageStats:
    width: int
    height: int
    colours: int  # distinct RGB colours
    ink_fraction: float  # pixels differing from the most common (background) colour
    background_luma: float  # 0..255 luma of the most common colour


def image_stats(path: str | os.PathLike) -> ImageStats:
    """Read a PNG with Qt and measure it (numpy over the pixel buffer: a 1600 px chart has ~1.5 M pixels)."""
    import numpy as np
    from PySide6.QtGui import QImage

    image = QImage(os.fspath(path))
    if image.isNull():
        raise SelfTestError(f"{path}: not a readable image")
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    width, height = image.width(), image.height()
    stride = image.bytesPerLine() // 4
    pixels = np.frombuffer(image.constBits(), dtype=np.uint32, count=stride * height)
    rgb = (pixels.reshape(height, stride)[:, :width] & 0x00FFFFFF).ravel()
    values, counts = np.unique(rgb, return_counts=True)
    background = int(values[int(np.argmax(counts))])
    red, green, blue = (background >> 16) & 0xFF, (background >> 8) & 0xFF, background & 0xFF
    return ImageStats(
        width=width,
        height=height,
        colours=int(values.size),
        ink_fraction=float(1.0 - counts.max() / rgb.size),
        background_luma=0.299 * red + 0.587 * green + 0.114 * blue,
    )


def check_image(stats: ImageStats, min_width: int = EXPORT_WIDTH) -> None:
    """Raise SelfTestError unless the picture looks like a chart."""
    problems = []
    if stats.width < min_width or stats.height < MIN_HEIGHT:
        problems.append(f"size {stats.width}x{stats.height} (want width >= {min_width}, height >= {MIN_HEIGHT})")
    if stats.colours < MIN_COLOURS or stats.ink_fraction < MIN_INK_FRACTION:
        problems.append(f"looks blank ({stats.colours} colours, {stats.ink_fraction:.2%} non-background pixels)")
    if stats.background_luma < MIN_BACKGROUND_LUMA:
        problems.append(f"dark background (luma {stats.background_luma:.0f}/255; exports should be light)")
    if problems:
        raise SelfTestError("chart image: " + "; ".join(problems))


def check_resources() -> str:
    """The bundled data the app needs is where ``vramgui.paths`` looks (catches a packaging slip early)."""
    from vramgui.paths import resources_dir

    root = resources_dir()
    presets = [p for p in (root / "presets").rglob("*") if p.is_file()]
    licences = [p for p in (root / "licenses").glob("*") if p.is_file()]
    missing = [name for name, ok in (("presets", bool(presets)), ("licenses/README.txt",
               (root / "licenses" / "README.txt").is_file()), ("icons/vramgui.png",
               (root / "icons" / "vramgui.png").is_file())) if not ok]
    if missing:
        raise SelfTestError(f"resources missing in {root}: {', '.join(missing)}")
    return f"{len(presets)} preset files, {len(licences)} licence files"


def check_collation() -> str:
    """Locale-aware sorting works (ICU collation on Linux, the system's elsewhere): the frozen Linux build
    ships a trimmed ICU data library (packaging/icu_trim.py) and this proves the part Qt uses is intact: the root
    order (German \u00e4 before b), a European tailoring (Swedish \u00e4 after z) and the Chinese one (pinyin:
    \u963f "a" before \u6ce2 "bo", the reverse of their code points and of the root order)."""
    from PySide6.QtCore import QCollator, QLocale

    german, swedish = QCollator(QLocale("de_DE")), QCollator(QLocale("sv_SE"))
    if not (german.compare("\u00e4rger", "bad") < 0 and swedish.compare("\u00e4rger", "zon") > 0):
        raise SelfTestError("locale-aware sorting is broken (German \u00e4 should sort before b, "
                            "Swedish \u00e4 after z)")
    if QCollator(QLocale("zh_CN")).compare("\u963f", "\u6ce2") >= 0:
        raise SelfTestError("Chinese sorting is broken (\u963f a should sort before \u6ce2 bo in pinyin order)")
    return "collation OK"


def check_translations() -> str:
    """Every bundled catalogue loads, and Qt's own ``qtbase_<lang>`` for it is found where the app looks
    (QLibraryInfo's translations path; the packaging keeps just those files). A language Qt has no catalogue
    for is reported, not failed: the app still works, only Qt's standard buttons stay English."""
    from PySide6.QtCore import QLibraryInfo, QTranslator

    from vramgui.paths import resources_dir

    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    loaded, qt_missing = [], []
    for qm in sorted((resources_dir() / "translations").glob("vramgui_*.qm")):
        language = qm.stem.removeprefix("vramgui_")
        if not QTranslator().load(str(qm)):
            raise SelfTestError(f"translation {qm.name} does not load")
        loaded.append(language)
        if not QTranslator().load(f"qtbase_{language}", qt_dir):
            qt_missing.append(language)
    missing = f" (no Qt qtbase catalogue for {', '.join(qt_missing)})" if qt_missing else ""
    return f"translations {', '.join(loaded) or 'none'}{missing}"


def check_platform_libraries() -> None:
    """On Linux, when the self-test is to run through Qt's X11 plugin (``QT_QPA_PLATFORM=xcb``), every library that
    plugin needs is there: a missing one fails the self-test with its name and package instead of Qt aborting the
    process (vramgui.io.xcb_libs; the frozen app must find the copies it bundles)."""
    if not sys.platform.startswith("linux"):
        return
    from vramgui.io.xcb_libs import xcb_problem

    problem = xcb_problem(os.environ)
    if problem:
        raise SelfTestError(problem.removeprefix("vramgui: ").rstrip())


def _use_offscreen_platform() -> None:
    """Offscreen unless the caller chose a platform: the self-test must run on CI and over SSH."""
    if not os.environ.get("QT_QPA_PLATFORM"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")


def _wait_exposed(app, window) -> None:
    deadline = time.monotonic() + EXPOSE_TIMEOUT_S
    while time.monotonic() < deadline:
        app.processEvents()
        handle = window.windowHandle()
        if handle is not None and handle.isExposed():
            app.processEvents()
            return
        time.sleep(0.01)
    raise SelfTestError(f"main window not exposed after {EXPOSE_TIMEOUT_S:.0f} s")


def _make_settings(folder: Path):
    """A QSettings in a throw-away INI file: the self-test never reads or writes the user's settings."""
    from vramgui.settings import open_settings

    return open_settings(folder / "selftest.ini").qsettings


def _open_scenario(window: Any, scenario_path: str) -> None:
    """Open the file as File > Open does (the document presenter); a file that cannot be opened is a failure with
    the reason, not a message box waiting for a click."""
    from vramgui.presenters.documents import ScenarioError, load_document
    from vramgui.presenters.messages import scenario_error_text

    try:
        load_document(scenario_path)
    except ScenarioError as err:
        raise SelfTestError(f"cannot open the scenario: {scenario_error_text(err)}") from None
    if not window.document.open_path(scenario_path, ask=False):
        raise SelfTestError(f"cannot open the scenario {scenario_path}")


def _exercise(out_path: Path, scenario_path: str | None, create_app: Callable[[], Any] | None,
              create_window: Callable[..., Any] | None) -> str:
    from vramgui.io.files import atomic_write_text

    if create_app is None or create_window is None:
        raise SelfTestError("no application to test (run it as `vramgui --self-test OUT.png`)")
    check_platform_libraries()
    app = create_app()

    resources = (f"{check_resources()}, {check_translations()}, {check_collation()}, "
                 f"platform {app.platformName()}")
    with tempfile.TemporaryDirectory(prefix="vramgui-selftest-") as folder:
        window = create_window(settings=_make_settings(Path(folder)))
        try:
            window.show()
            _wait_exposed(app, window)
            if scenario_path is not None:
                _open_scenario(window, scenario_path)
            presenter = window.presenter
            presenter.recompute()
            served = presenter.served  # a Serve-mode file: what `vramgui serve --json` gives
            result, computed = (served.result, served) if served is not None else (presenter.result,
                                                                                   presenter.computed)
            if result is None or computed is None or presenter.errors:
                raise SelfTestError(f"estimate failed: {[e.message for e in presenter.errors] or 'no result'}")
            presenter.finish_sweeps()
            app.processEvents()
            out_path.parent.mkdir(parents=True, exist_ok=True)
            window.export_chart(str(out_path), width_px=EXPORT_WIDTH)
            estimate_path = out_path.with_suffix(".json")
            shown = computed.to_dict()  # what the window shows (suggestions included), as `estimate --json` (`serve`)
            atomic_write_text(estimate_path, json.dumps(shown, indent=2, ensure_ascii=False) + "\n")
        finally:
            window.document.ask_before_discarding = False
            window.close()
            app.processEvents()
    if not out_path.is_file():
        raise SelfTestError(f"export_chart wrote no file at {out_path}")
    stats = image_stats(out_path)
    check_image(stats)
    summary = result.summary
    return (f"estimate {summary.peak_text or summary.total_text} ({summary.strategy}) -> {estimate_path.name}; chart "
            f"{stats.width}x{stats.height} PNG, {stats.colours} colours, {stats.ink_fraction:.1%} ink; {resources}")


def run(out_path: str, scenario_path: str | None = None, *, create_app: Callable[[], Any] | None = None,
        create_window: Callable[..., Any] | None = None, platform_chosen: bool = False) -> int:
    """Run the self-test, writing the chart to ``out_path`` (and the estimate beside it). ``create_app`` and
    ``create_window`` are ``vramgui.app``'s; ``platform_chosen``: the caller set (or, for the native plugin, cleared)
    QT_QPA_PLATFORM itself (``vramgui --self-test OUT.png --platform NAME``), else offscreen is used. 0 on
    success, 1 with a message on any failure."""
    started = time.perf_counter()
    if not platform_chosen:
        _use_offscreen_platform()
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
    try:
        details = _exercise(Path(out_path).resolve(), scenario_path, create_app, create_window)
    except Exception as exc:  # noqa: BLE001 - any failure at all is the answer, reported in one line
        print(f"vramgui self-test FAILED: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    frozen = "frozen" if getattr(sys, "frozen", False) else "source"
    print(f"vramgui self-test passed ({frozen}, {time.perf_counter() - started:.2f} s): {details} -> {out_path}")
    return 0
