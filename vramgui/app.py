"""The one place that wires the GUI: QApplication, settings, translator, presenter and window.

Nothing here runs at import time: settings are created (or injected) in ``create_main_window``/``main``.
"""

from __future__ import annotations

import argparse
import ctypes.util
import os
import sys

GUI_OPTIONS_HELP = "vramgui [--lang {en,zh_CN}] [--settings FILE] [--self-test OUT.png]"
NO_DISPLAY_MESSAGE = (
    "vramgui: no display is available, so the window cannot open.\n"
    "  - On a server or over SSH, use the command line instead, for example:\n"
    "        vramgui estimate --params 7B --gpus 8 --stage 2 --gpu-memory 80GB\n"
    "        vramgui --help\n"
    "  - To render without a screen anyway, set QT_QPA_PLATFORM=offscreen.\n"
)
NO_X_SERVER_MESSAGE = (
    "vramgui: cannot connect to the X display {display}, so the window cannot open.\n"
    "  Check DISPLAY (and SSH X forwarding), or use the command line: vramgui --help\n"
)
NO_XCB_CURSOR_MESSAGE = (
    "vramgui: Qt's X11 platform plugin needs the system library libxcb-cursor, which is not installed.\n"
    "  Install it (Debian/Ubuntu: sudo apt install libxcb-cursor0; Fedora: sudo dnf install xcb-util-cursor),\n"
    "  or use the command line: vramgui --help\n"
)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="vramgui", usage=GUI_OPTIONS_HELP,
                                     description="Open the vramgui window (sub-commands run the CLI).")
    parser.add_argument("--lang", choices=("en", "zh_CN"), help="language of the window (default: system)")
    parser.add_argument("--settings", metavar="FILE", help="read and write settings in this INI file")
    parser.add_argument("--self-test", metavar="OUT.png", help="open, compute, export a chart to OUT.png, quit")
    return parser.parse_args(argv)


def display_problem(environ: os._Environ | dict | None = None, platform: str | None = None) -> str | None:
    """Why Qt could not open a window here (a message for the user), or None when it should work.

    Qt aborts the whole process (no exception to catch) when no platform plugin loads, so the usual causes
    are checked before creating the QApplication."""
    env = os.environ if environ is None else environ
    plat = sys.platform if platform is None else platform
    if not plat.startswith("linux") or env.get("QT_QPA_PLATFORM"):
        return None
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        return NO_DISPLAY_MESSAGE
    if env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        if ctypes.util.find_library("xcb-cursor") is None:
            return NO_XCB_CURSOR_MESSAGE
        if not x_display_reachable(env["DISPLAY"]):
            return NO_X_SERVER_MESSAGE.format(display=env["DISPLAY"])
    return None


def x_display_reachable(display: str) -> bool:
    """Whether an X server answers at ``display`` (libxcb, as Qt's xcb plugin would connect); True when
    libxcb itself cannot be loaded, leaving the verdict to Qt."""
    try:
        xcb = ctypes.CDLL(ctypes.util.find_library("xcb") or "libxcb.so.1")
    except OSError:
        return True
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    connection = xcb.xcb_connect(display.encode(), None)
    try:
        return bool(connection) and xcb.xcb_connection_has_error(connection) == 0
    finally:
        if connection:
            xcb.xcb_disconnect(connection)


def _qt_settings(path: str | None):
    from vramgui.settings import open_settings

    return open_settings(path).qsettings


def create_application(argv: list[str] | None = None):
    """The QApplication (created once), high-DPI aware, with the app's name and icon."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QIcon
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        QGuiApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
        app = QApplication(["vramgui", *(argv or [])])
    app.setApplicationName("vramgui")
    app.setOrganizationName("vramgui")
    from vramgui import __version__
    from vramgui.paths import resource_path

    app.setApplicationVersion(__version__)
    try:
        icon = resource_path("icons", "vramgui.png")
        if icon.is_file():
            app.setWindowIcon(QIcon(str(icon)))
    except FileNotFoundError:
        pass
    return app


def create_main_window(settings=None, defer_charts: bool = False):
    """The main window with its presenter attached and the first result shown (needs a QApplication).

    ``settings``: a ``QSettings`` (tests pass one in a temp dir); None opens the user's settings file.
    ``defer_charts``: build the charts just after the window is first shown (faster start-up)."""
    from vramgui.presenters.main_presenter import MainPresenter
    from vramgui.settings import Settings
    from vramgui.views.main_window import MainWindow

    qsettings = _qt_settings(None) if settings is None else settings
    wrapped = Settings(qsettings)
    window = MainWindow(wrapped, defer_charts=defer_charts)
    presenter = MainPresenter(window, unit=wrapped.unit(), parent=window)
    window.attach(presenter)
    presenter.start(wrapped.last_scenario())  # reopen where the user left off (None: the seed's example)
    window.mark_clean()
    _restore_last_file(window, wrapped)
    if window.settings.window_geometry() is None:
        window.resize(1400, 900)
    return window


def _restore_last_file(window, settings) -> None:
    """Show the last session's file name again; the window is modified when its scenario differs from the
    file's (the session closed with unsaved changes, kept in the settings)."""
    path = settings.last_file()
    if path is None:
        return
    from vramgui.core import scenario_io

    try:
        saved = scenario_io.load_scenario(path)
    except scenario_io.ScenarioError:
        return
    window.current_path = path
    window._clean_scenario = saved
    window.update_title()


def rebuild_window(old, language: str):
    """Switch the language: apply it, then replace ``old`` by a new window (built in the new language) that
    shows the same scenario, chart and geometry. Returns the new window."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    old.settings.set_language(language)
    translations = getattr(app, "vramgui_translations", None)
    if translations is not None:
        translations.apply(language)
    scenario = old.presenter.scenario if old.presenter is not None else None
    pinned = old.compare_presenter.pinned if old.charts_built else ()
    old._skip_unsaved_prompt = True  # nothing is lost: the new window takes the unsaved state over
    old.close()  # saves geometry, splitters and the scenario first
    window = create_main_window(old.settings.qsettings, defer_charts=True)
    if scenario is not None:
        window.presenter.load_scenario(scenario)
    _carry_invalid_edits(old, window)
    window.current_path = old.current_path
    window._clean_scenario = old._clean_scenario
    window.update_title()
    if pinned:
        window.ensure_charts()
        for p in pinned:
            window.compare_presenter.pin(p.scenario, p.name)
    window.chart_tabs.setCurrentIndex(old.chart_tabs.currentIndex())
    from PySide6.QtCore import QCoreApplication

    window.statusBar().showMessage(QCoreApplication.translate("MainWindow", "Language applied: {0}").format(
        window.language_actions[language].text() if language in window.language_actions else language), 8000)
    window.show()
    _keep_switching(window)
    app.vramgui_window = window
    old.deleteLater()
    return window


def _carry_invalid_edits(old, window) -> None:
    """Edits that were not valid yet (the old form differs from its last valid scenario) stay in the form."""
    if old.presenter is None or not old.presenter.is_stale:
        return
    for key, value in old.presenter.form_values().items():
        if window.presenter.form_value(key) != value:
            window.set_form_values({key: value})
            window.presenter.on_field_edited(key, value)


def _keep_switching(window) -> None:
    window.language_requested.connect(lambda code, w=window: rebuild_window(w, code))


def _run_self_test(out_path: str) -> int:
    try:
        from vramgui.selftest import run
    except ImportError:
        print("vramgui: the self-test is not part of this build", file=sys.stderr)
        return 2
    return int(run(out_path))


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.self_test:
        return _run_self_test(args.self_test)
    problem = display_problem()
    if problem:
        print(problem, file=sys.stderr, end="")
        return 2
    app = create_application()
    if app is None:  # pragma: no cover - Qt aborts instead in practice
        print(NO_DISPLAY_MESSAGE, file=sys.stderr, end="")
        return 2
    qsettings = _qt_settings(args.settings)
    from vramgui.settings import Settings

    language = args.lang if args.lang else Settings(qsettings).language()
    try:
        from vramgui.i18n import install_translations

        app.vramgui_translations = install_translations(app, language)  # kept for the app's lifetime
    except ImportError:
        pass
    window = create_main_window(qsettings, defer_charts=True)
    window.show()
    _keep_switching(window)
    app.vramgui_window = window
    return int(app.exec())


if __name__ == "__main__":
    sys.exit(main())
