"""The one place that wires the GUI: QApplication, settings, translator, presenter and window.

Nothing here runs at import time: settings are created (or injected) in ``create_main_window``/``main``.
"""

from __future__ import annotations

import argparse
import ctypes.util
import gc
import os
import sys

_SHOWN: dict[str, object] = {}  # the main window on screen (a rebuilt window replaces it)
GUI_OPTIONS_HELP = ("vramgui [--lang {en,zh_CN}] [--settings FILE] [--scenario FILE] [--self-test OUT.png "
                    "[--platform NAME]]")
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


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="vramgui", usage=GUI_OPTIONS_HELP,
                                     description="Open the vramgui window (sub-commands run the CLI).")
    parser.add_argument("--lang", choices=("en", "zh_CN"), help="language of the window (default: system)")
    parser.add_argument("--settings", metavar="FILE", help="read and write settings in this INI file")
    parser.add_argument("--scenario", metavar="FILE", help="open this scenario file (with --self-test: the one tested)")
    parser.add_argument("--self-test", metavar="OUT.png",
                        help="open, compute, export a chart to OUT.png and the estimate to OUT.json, quit")
    parser.add_argument("--platform", metavar="NAME",
                        help="with --self-test: render through this Qt platform plugin instead of offscreen "
                             "('native' = the one the window uses here, or a plugin name such as xcb, wayland, "
                             "windows, cocoa), proving that the installed binary opens a window on this machine")
    return parser.parse_args(argv)


def display_problem(environ: os._Environ | dict | None = None, platform: str | None = None) -> str | None:
    """Why Qt could not open a window here (a message for the user), or None when it should work.

    Qt aborts the whole process (no exception to catch) when no platform plugin loads, so the usual causes
    are checked before creating the QApplication."""
    env = os.environ if environ is None else environ
    plat = sys.platform if platform is None else platform
    if not plat.startswith("linux"):
        return None
    from vramgui.io.xcb_libs import xcb_problem

    missing_libraries = xcb_problem(env)  # None unless Qt would load its xcb plugin (X11, or QT_QPA_PLATFORM=xcb)
    if missing_libraries or env.get("QT_QPA_PLATFORM"):
        return missing_libraries
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        return NO_DISPLAY_MESSAGE
    if env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY") and not x_display_reachable(env["DISPLAY"]):
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


# Qt's warnings that say nothing to a user: the offscreen and some Wayland plugins cannot pass size hints to a
# window manager (QPlatformWindow::propagateSizeHints, qtbase src/gui/kernel/qplatformwindow.cpp, prints this for
# every top-level window that has a minimum size). Every other Qt message still reaches stderr.
HARMLESS_QT_MESSAGES = ("This plugin does not support propagateSizeHints()",)


def quiet_qt_message(message: str) -> bool:
    """Whether a Qt log line is one of the harmless ones the app drops."""
    return message.strip() in HARMLESS_QT_MESSAGES


def _install_qt_message_filter() -> None:
    from PySide6.QtCore import qInstallMessageHandler

    def handler(_mode, _context, message: str) -> None:
        if not quiet_qt_message(message):
            sys.stderr.write(message + "\n")

    qInstallMessageHandler(handler)


def create_application(argv: list[str] | None = None):
    """The QApplication (created once), high-DPI aware, with the app's name and icon."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QIcon
    from PySide6.QtWidgets import QApplication

    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        app = existing
    else:
        QGuiApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
        _install_qt_message_filter()
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
    """The main window with its presenters attached and the first result shown (needs a QApplication).

    ``settings``: a ``QSettings`` (tests pass one in a temp dir); None opens the user's settings file.
    ``defer_charts``: build the charts just after the window is first shown (faster start-up). The window shows
    three presenters: the editor (``window.presenter``), the document (``window.document``: file, clean state,
    recent files) and, once the charts exist, the comparison (``window.compare_presenter``)."""
    from vramgui.presenters.document_presenter import DocumentPresenter
    from vramgui.presenters.main_presenter import MainPresenter
    from vramgui.settings import Settings
    from vramgui.views.main_window import MainWindow

    qsettings = _qt_settings(None) if settings is None else settings
    wrapped = Settings(qsettings)
    window = MainWindow(wrapped, defer_charts=defer_charts)
    presenter = MainPresenter(window, unit=wrapped.unit(), parent=window)
    document = DocumentPresenter(window, presenter, wrapped, parent=window)
    window.attach(presenter, document)
    document.open_comparison = lambda path: _open_comparison(window, path)  # a dropped comparison file
    if window.charts_built:
        _attach_compare(window, presenter, wrapped)
        _attach_plans(window, presenter)
    else:  # the comparison and plans tabs are built with the charts (pyqtgraph), just after the window is first shown
        window.charts_ready.connect(lambda: _attach_compare(window, presenter, wrapped))
        window.charts_ready.connect(lambda: _attach_plans(window, presenter))
    document.restore_session()  # reopen where the user left off (else the first-run scenario)
    return window


def _open_comparison(window, path: str) -> bool:
    """Open a comparison file in the Compare tab, building the charts (and so the tab) first if need be."""
    window.ensure_charts()
    window.chart_tabs.setCurrentIndex(window.chart_tabs.count() - 1)
    return bool(window.compare_presenter.open_path(path))


def _attach_compare(window, presenter, settings) -> None:
    """The comparison tab's presenter: pinned scenarios come from the editor and load back into it; the last
    session's pins come back, and every change is kept for the next one."""
    from vramgui.presenters.compare.presenter import MAX_PINNED, ComparePresenter

    compare = ComparePresenter(window.compare_view, unit=settings.unit(), settings=settings,
                               export_width=window.export_width, parent=window)
    compare.load_requested.connect(presenter.load_scenario)
    compare.pinned_changed.connect(lambda n: window.save_comparison_action.setEnabled(n > 0))
    window.attach_compare(compare)
    restored = settings.pinned_scenarios(MAX_PINNED)
    if restored:
        compare.restore(restored)


def _attach_plans(window, presenter) -> None:
    """The Plans tab's presenter: searches the editor's scenario on a worker thread while the tab is shown; stopped
    (and its worker waited for) when the application quits."""
    from PySide6.QtCore import QCoreApplication

    from vramgui.presenters.plan_presenter import PlanPresenter

    plans = PlanPresenter(window.plan_panel, unit=presenter.unit, parent=window)
    window.attach_plans(plans, presenter)
    app = QCoreApplication.instance()
    if app is not None:
        app.aboutToQuit.connect(plans.shutdown)


def rebuild_window(old, language: str):
    """Switch the language: apply it, then replace ``old`` by a new window (built in the new language) that
    shows the same scenario (edits not valid yet included), file, clean state, pins, chart and geometry, its form
    expanded and scrolled as it was."""
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    gc.unfreeze()  # the old window's objects are garbage once it is gone (settle_heap freezes the new one's)
    old.settings.set_language(language)
    translations = getattr(app, "vramgui_translations", None)
    if translations is not None:
        translations.apply(language)
    draft, pending = old.presenter.draft, old.presenter.pending_edits()
    model_choice = old.presenter.model_choice_state()
    pinned = old.compare_presenter.entries() if old.compare_presenter is not None else ()
    details, scrolled = old.inputs.arch_details_button.isChecked(), old.input_scroll.verticalScrollBar().value()
    old.document.ask_before_discarding = False  # nothing is lost: the new window takes the unsaved state over
    old.close()  # saves geometry, splitters and the scenario first
    window = create_main_window(old.settings.qsettings, defer_charts=True)
    window.presenter.load_scenario(draft)
    window.presenter.restore_model_choice(model_choice)  # "architecture fields" stays that, not "imported"
    for key, value in pending.items():  # edits that were not valid yet stay in the form
        window.set_form_values({key: value})
        window.presenter.on_field_edited(key, value)
    window.document.take_over(old.document)
    if pinned:
        window.ensure_charts()
        if window.compare_presenter.entries() != tuple(pinned):  # the session gave them back already
            window.compare_presenter.restore(pinned)  # the names the user gave stay theirs, the others follow
    window.chart_tabs.setCurrentIndex(old.chart_tabs.currentIndex())
    window.breakdown_panel.set_section(old.breakdown_panel.section)
    window.inputs.show_architecture_details(details)
    window.statusBar().showMessage(QCoreApplication.translate("MainWindow", "Language applied: {0}").format(
        window.language_actions[language].text() if language in window.language_actions else language), 8000)
    window.show()
    for _ in range(4):  # lay the form out now (each nested layout posts the next request): its range exists only then
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    window.input_scroll.verticalScrollBar().setValue(scrolled)
    _keep_switching(window)
    settle_heap(window)
    _SHOWN["window"] = window  # the window on screen, kept referenced for the app's lifetime
    old.deleteLater()
    return window


def _keep_switching(window) -> None:
    window.language_requested.connect(lambda code, w=window: rebuild_window(w, code))


def settle_heap(window) -> None:
    """Once the window's charts exist, hide every object alive then from the garbage collector (``gc.freeze``):
    the modules, the window and its charts live as long as the app, and a full collection walking them (over
    100,000 objects) blocked the event loop for 30-100 ms while the user typed (``make bench``, bench_gui "typing
    quickly"). A rebuilt window unfreezes them first (``rebuild_window``), so the old one can be collected."""
    if window.charts_built:
        gc.freeze()
    else:
        window.charts_ready.connect(gc.freeze)


def platform_plugins() -> tuple[str, ...]:
    """The Qt platform plugins this installation has (``libqxcb.so`` -> ``xcb``, ``qwindows.dll`` -> ``windows``),
    found without loading Qt's GUI: a name Qt cannot load makes it abort the process, so it is checked first."""
    from PySide6.QtCore import QLibraryInfo

    folder = os.path.join(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath), "platforms")
    try:
        files = os.listdir(folder)
    except OSError:
        return ()
    names = {f.split(".")[0].removeprefix("lib").removeprefix("q") for f in files
             if f.endswith((".so", ".dll", ".dylib"))}
    return tuple(sorted(n for n in names if n))


def self_test_platform(platform: str | None, environ: os._Environ | dict | None = None
                       ) -> tuple[str | None, str | None]:
    """(the QT_QPA_PLATFORM value the self-test uses, or None to leave Qt's choice; why no window can open through
    it here, or None). Raises ValueError naming the allowed plugins for a name this installation does not have
    (Qt would abort the process on it).

    None: offscreen (unless QT_QPA_PLATFORM says otherwise), as CI and SSH need. ``native``: what the window would
    use on this machine, so the display checks the window makes apply. A plugin name: that plugin."""
    env = os.environ if environ is None else environ
    if platform is None:
        return env.get("QT_QPA_PLATFORM") or "offscreen", None
    if platform == "native":
        chosen = env.get("QT_QPA_PLATFORM") or None
        return chosen, (display_problem(env) or _no_display(chosen, env)) if chosen != "offscreen" else None
    plugins = platform_plugins()
    if plugins and platform not in plugins:  # () = the folder cannot be listed: Qt's own loader decides
        raise ValueError(f"--platform: no Qt platform plugin {platform!r} here (allowed: native, {', '.join(plugins)})")
    return platform, display_problem({**env, "QT_QPA_PLATFORM": platform}) or _no_display(platform, env)


def _no_display(platform: str | None, env: os._Environ | dict) -> str | None:
    """Why ``xcb`` or ``wayland`` has no display to connect to (Qt aborts the process then), or None."""
    wanted = {"xcb": "DISPLAY", "wayland": "WAYLAND_DISPLAY"}.get(platform or "")
    if wanted is None or env.get(wanted):
        return None
    return f"vramgui: the {platform} platform plugin needs a display, but {wanted} is not set\n"


def _run_self_test(out_path: str, scenario: str | None, platform: str | None = None) -> int:
    try:
        chosen, problem = self_test_platform(platform)
    except ValueError as err:
        print(f"vramgui: error: {err}", file=sys.stderr)
        return 2
    if problem:  # the self-test's answer: no window can open here (reported before Qt would abort)
        print("vramgui self-test FAILED: " + problem.removeprefix("vramgui: "), file=sys.stderr, end="")
        return 1
    if chosen is None:
        os.environ.pop("QT_QPA_PLATFORM", None)
    else:
        os.environ["QT_QPA_PLATFORM"] = chosen
    try:
        from vramgui.selftest import run
    except ImportError:
        print("vramgui: the self-test is not part of this build", file=sys.stderr)
        return 2
    return int(run(out_path, scenario, create_app=create_application, create_window=create_main_window,
                   platform_chosen=True))


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.platform and not args.self_test:
        print("vramgui: --platform applies to --self-test only (the window uses QT_QPA_PLATFORM)", file=sys.stderr)
        return 2
    if args.self_test:
        return _run_self_test(args.self_test, args.scenario, args.platform)
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

    language = args.lang or Settings(qsettings).language()
    try:
        from vramgui.i18n import install_translations

        app.vramgui_translations = install_translations(app, language)  # kept for the app's lifetime
    except ImportError:
        pass
    window = create_main_window(qsettings, defer_charts=True)
    if args.scenario:
        window.document.open_path(args.scenario)
    window.show()
    _keep_switching(window)
    settle_heap(window)
    _SHOWN["window"] = window  # the window on screen, kept referenced for the app's lifetime
    return int(app.exec())


if __name__ == "__main__":
    sys.exit(main())
