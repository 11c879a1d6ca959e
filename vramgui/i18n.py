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

QT_CATALOGS = ("qtbase", "qt")  # Qt's own strings (dialogs, standard buttons); "qt_<lang>" where only that ships
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


def split_mnemonic(text: str) -> tuple[str, str]:
    """``"&Look in:"`` -> ``("Look in:", "L")``; text without a mnemonic (``&&`` is a literal "&") -> (text, "")."""
    at = 0
    while (at := text.find("&", at)) >= 0 and at + 1 < len(text):
        if text[at + 1] != "&":
            return text[:at] + text[at + 1:], text[at + 1].upper()
        at += 2
    return text, ""


def add_mnemonic(text: str, letter: str) -> str:
    """The Chinese way of giving a translated label its mnemonic, as Qt's own catalogue does: "文件名称(&N)：",
    the letter before a closing colon or ellipsis."""
    for end in ("：", ":", "…", "..."):
        if text.endswith(end):
            return f"{text[:-len(end)]}(&{letter}){end}"
    return f"{text}(&{letter})"


# Qt contexts whose strings Qt moved out of the context its catalogues still file them under
MOVED_QT_CONTEXTS = {"QAbstractFileIconProvider": "QFileDialog"}  # a file dialog's "Folder", "%1 File", "Drive"


class QtCatalog(QTranslator):
    """Qt's own catalogue (``qtbase_<lang>``), and the labels it has not caught up with, so that a Chinese file
    dialog is Chinese throughout. Qt 6.11's file dialog shows "&Look in:" and "Files of &type:" where its zh_CN
    catalogue still has "Look in:" and "Files of type:": a Qt label missing only for its mnemonic is translated
    without it and given it back ("查找范围(&L)："). Its file types ("Folder") moved to a context of their own: they
    are looked up where the catalogue keeps them."""

    def translate(self, context: str, source_text: str, disambiguation: str | None = None,
                  n: int = -1) -> str | None:
        lookup = super().translate  # the catalogue itself (by another name: no literal for lupdate to extract)
        found = lookup(context, source_text, disambiguation, n)
        if not found and context in MOVED_QT_CONTEXTS:
            found = lookup(MOVED_QT_CONTEXTS[context], source_text, disambiguation, n)
        if found or "&" not in source_text or not context.startswith("Q"):
            return found or None  # None: not translated here (the next catalogue, else the English)
        plain, letter = split_mnemonic(source_text)
        found = lookup(context, plain, disambiguation, n) if letter else ""
        return add_mnemonic(found, letter) if found else None


def qt_translation_dirs() -> list[str]:
    """Where Qt's own ``.qm`` files may be: Qt's configured folder, else the one inside the PySide6 package (a
    frozen or relocated install can leave the configured path pointing nowhere)."""
    import PySide6

    found = [QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath),
             str(Path(PySide6.__file__).resolve().parent / "Qt" / "translations")]
    return [folder for folder in dict.fromkeys(found) if folder and Path(folder).is_dir()]


def load_qt_catalog(translator: QTranslator, language: str) -> bool:
    """Load Qt's own catalogue of ``language`` into ``translator`` (so a file dialog says 查找范围 and not
    "Look in:"): ``qtbase_<lang>``, else ``qt_<lang>``, from the first folder that has one."""
    for folder in qt_translation_dirs():
        for name in QT_CATALOGS:
            if translator.load(f"{name}_{language}", folder):
                return True
    log.warning("Qt's own %s translation was not found in %s; its dialogs stay English", language,
                qt_translation_dirs())
    return False


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
                qt_translator = QtCatalog(self)
                if load_qt_catalog(qt_translator, language):  # standard buttons, file dialogs
                    new.append(qt_translator)
                new.append(app_translator)  # installed last, asked first: Qt's catalogue only for what it lacks
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
