"""Languages: install the app's Qt translator (and Qt's own ``qtbase`` one) and switch them at runtime.

Translations are Qt Linguist sources, ``resources/translations/vramgui_<lang>.ts``, compiled to ``.qm`` by
``make translations`` (``pyside6-lrelease``; the ``.qm`` files are build products, never edited by hand).

Pattern every widget follows so a switch applies immediately (see docs/i18n.md)::

    class MyView(QWidget):
        def __init__(self):
            super().__init__()
            self._build()            # create widgets, no texts
            self.retranslate()       # set every text with self.tr(...)

        def retranslate(self) -> None:
            self.title.setText(self.tr("Per-GPU memory"))

        def changeEvent(self, event):
            if event.type() == QEvent.Type.LanguageChange:
                self.retranslate()
            super().changeEvent(event)

Texts made by presenters (view-models) are re-pushed when ``Translations.language_changed`` fires.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QObject, QTranslator, Signal

from vramgui.paths import resource_path

log = logging.getLogger(__name__)

SOURCE_LANGUAGE = "en"
# Native names: a language menu shows each language in its own script, never translated.
LANGUAGES: dict[str, str] = {"en": "English", "zh_CN": "简体中文"}
APP_CATALOG = "vramgui"


def translations_dir() -> Path:
    return resource_path("translations")


def catalog_path(language: str, directory: Path | None = None) -> Path:
    """Where the compiled catalog of ``language`` lives (a path that may not exist)."""
    try:
        folder = directory or translations_dir()
    except FileNotFoundError:  # no resources folder at all (a broken install): English only
        folder = Path("/nonexistent-vramgui-resources")
    return folder / f"{APP_CATALOG}_{language}.qm"


def available_languages(directory: Path | None = None) -> dict[str, str]:
    """Languages the app can show now: English always, others when their compiled ``.qm`` is present."""
    return {code: name for code, name in LANGUAGES.items()
            if code == SOURCE_LANGUAGE or catalog_path(code, directory).is_file()}


def match_language(ui_languages: Iterable[str]) -> str:
    """The supported language for a list of BCP-47 tags in preference order (``QLocale.uiLanguages()``):
    ``zh-CN``, ``zh-Hans``, ``zh-Hans-CN``, ``zh-SG`` and plain ``zh`` read Simplified Chinese; ``zh-TW``/
    ``zh-HK``/``zh-Hant`` and everything else unknown fall through to the next tag, then English."""
    for tag in ui_languages:
        parts = tag.replace("_", "-").split("-")
        lang = parts[0].lower()
        rest = {p.upper() for p in parts[1:]}
        if lang == "en":
            return "en"
        if lang == "zh" and not rest & {"HANT", "TW", "HK", "MO"}:
            return "zh_CN"
    return SOURCE_LANGUAGE


def system_language() -> str:
    return match_language(QLocale.system().uiLanguages())


def resolve_language(setting: str | None) -> str:
    """The language to show for a settings value ("" or None = follow the system locale)."""
    if setting in LANGUAGES:
        return setting
    if setting:
        matched = match_language([setting])
        if matched != SOURCE_LANGUAGE or setting.lower().startswith("en"):
            return matched
        log.warning("language %r is not supported; following the system locale", setting)
    return system_language()


class Translations(QObject):
    """Owns the installed translators for the app's lifetime (a QTranslator that is garbage-collected while
    installed silently stops translating). ``apply()`` swaps them; Qt then sends ``LanguageChange`` to every
    widget, and ``language_changed`` tells presenters to re-push their texts."""

    language_changed = Signal(str)

    def __init__(self, app: QCoreApplication, directory: Path | None = None) -> None:
        super().__init__(app)
        self._app = app
        self._directory = directory
        self._installed: list[QTranslator] = []
        self.language = SOURCE_LANGUAGE

    @property
    def translators(self) -> tuple[QTranslator, ...]:
        return tuple(self._installed)

    def apply(self, setting: str | None = "") -> str:
        """Show ``setting`` ("" = system locale); returns the language actually shown (English when the
        compiled catalog is missing, with a warning in the log)."""
        language = resolve_language(setting)
        new: list[QTranslator] = []
        if language != SOURCE_LANGUAGE:
            app_translator = QTranslator(self)
            path = catalog_path(language, self._directory)
            if app_translator.load(str(path)):
                new.append(app_translator)
                qt_translator = QTranslator(self)
                qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
                if qt_translator.load(f"qtbase_{language}", qt_dir):  # standard buttons, file dialogs
                    new.append(qt_translator)
            else:
                log.warning("no compiled translation at %s (run `make translations`); showing English", path)
                language = SOURCE_LANGUAGE
        changed = language != self.language
        for translator in self._installed:
            self._app.removeTranslator(translator)
        for translator in new:
            self._app.installTranslator(translator)
        self._installed = new
        self.language = language
        QLocale.setDefault(QLocale(language))
        if changed:
            self.language_changed.emit(language)
        return language


def install_translations(app: QCoreApplication, setting: str | None = "",
                         directory: Path | None = None) -> Translations:
    """Create the app's ``Translations`` (parented to ``app``, so it lives as long as the app) and apply the
    language from the settings. Called once from ``app.py``."""
    translations = Translations(app, directory)
    translations.apply(setting)
    return translations
