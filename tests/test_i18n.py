"""Languages: the .ts catalog is complete and consistent with the code; translators install, switch and
retranslate widgets at runtime."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QLocale
from PySide6.QtWidgets import QApplication, QLabel

import vramgui
from vramgui import i18n
from vramgui.paths import resource_path

PACKAGE = Path(vramgui.__file__).parent
TS_FILE = resource_path("translations", "vramgui_zh_CN.ts")
# Modules whose tr() strings must all be in the catalog: every module of the package.
TRANSLATED_MODULES = tuple(sorted(PACKAGE.rglob("*.py")))


def catalog(path: Path = TS_FILE) -> dict[tuple[str, str], ET.Element]:
    root = ET.parse(path).getroot()
    return {(ctx.findtext("name"), msg.findtext("source")): msg
            for ctx in root.iter("context") for msg in ctx.iter("message")}


def code_strings(path: Path) -> tuple[set[tuple[str, str]], list[str]]:
    """(context, source) of every ``self.tr("...")`` (context: the enclosing class, as PySide6 and lupdate use)
    and ``QCoreApplication.translate("ctx", "...")``; plus problems (non-literal arguments lupdate cannot see)."""
    found: set[tuple[str, str]] = set()
    problems: list[str] = []

    def visit(node: ast.AST, cls: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, child.name)
                continue
            if isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute):
                name = child.func.attr
                args = child.args
                where = f"{path.name}:{child.lineno}"
                if name == "tr" and cls is not None and isinstance(child.func.value, ast.Name) \
                        and child.func.value.id == "self":
                    if args and isinstance(args[0], ast.Constant) and isinstance(args[0].value, str):
                        found.add((cls, args[0].value))
                    else:
                        problems.append(f"{where}: tr() needs a string literal")
                elif name == "translate" and len(args) >= 2:
                    if all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args[:2]):
                        found.add((args[0].value, args[1].value))
                    else:
                        problems.append(f"{where}: translate() needs string literals")
            visit(child, cls)

    visit(ast.parse(path.read_text(encoding="utf-8")), None)
    return found, problems


def place_markers(text: str) -> list[str]:
    """Qt's %1/%n and str.format's {0}/{name} markers."""
    return sorted(re.findall(r"%(?:\d+|n)|\{\w*\}", text))


def lrelease() -> str | None:
    candidate = Path(sys.executable).with_name("pyside6-lrelease")
    return str(candidate) if candidate.exists() else shutil.which("pyside6-lrelease")


@pytest.fixture(scope="module")
def compiled_dir(tmp_path_factory) -> Path:
    """The .ts compiled now (tests do not rely on `make translations` having run)."""
    tool = lrelease()
    if tool is None:
        pytest.skip("pyside6-lrelease (PySide6-Essentials) is not installed")
    out = tmp_path_factory.mktemp("qm")
    subprocess.run([tool, "-silent", str(TS_FILE), "-qm", str(out / "vramgui_zh_CN.qm")], check=True, timeout=60)
    return out


# ------------------------------------------------------------------------------------------------ catalog


def test_every_message_in_the_catalog_has_a_finished_chinese_translation():
    unfinished = []
    for (context, source), msg in catalog().items():
        tr = msg.find("translation")
        forms = [f.text for f in tr.iter("numerusform")] if msg.get("numerus") == "yes" else [tr.text]
        if tr.get("type") in ("unfinished", "vanished", "obsolete") or not all(f and f.strip() for f in forms):
            unfinished.append(f"{context}: {source!r}")
    assert unfinished == []


def test_catalog_is_declared_as_english_to_simplified_chinese():
    root = ET.parse(TS_FILE).getroot()
    assert (root.get("sourcelanguage"), root.get("language")) == ("en", "zh_CN")


def test_every_tr_string_in_the_code_is_in_the_catalog():
    messages = set(catalog())
    missing, problems = [], []
    for module in TRANSLATED_MODULES:
        found, bad = code_strings(module)
        problems += bad
        missing += [f"{module.name}: {ctx}: {src!r}" for ctx, src in sorted(found - messages)]
    assert problems == []
    assert missing == [], "run `make lupdate`, then translate the new strings"


def test_translations_keep_the_place_markers():
    def shown(msg: ET.Element) -> list[str]:
        if msg.get("numerus") == "yes":
            return [f.text or "" for f in msg.iter("numerusform")]
        return [msg.findtext("translation") or ""]

    wrong = [source for (_, source), msg in catalog().items()
             if any(place_markers(source) != place_markers(form) for form in shown(msg))]
    assert wrong == []


def test_terminology_follows_the_glossary():
    """The ML terms in docs/i18n.md are used consistently (e.g. 显存, never 内存 for GPU memory)."""
    pairs = {"Optimizer states": "优化器状态", "Activations": "激活值", "Gradients": "梯度", "Headroom": "余量",
             "Max micro-batch": "微批次", "Accumulation steps": "梯度累积"}
    texts = {source: msg.findtext("translation") for (_, source), msg in catalog().items()}
    for english, chinese in pairs.items():
        if english in texts:
            assert chinese in texts[english], english
    assert not [t for s, t in texts.items() if "memory" in s.lower() and "内存" in t and "GPU" in s]


def test_place_markers_cover_both_styles():
    assert place_markers("At most %1 of %2, {0} px, {unit}") == ["%1", "%2", "{0}", "{unit}"]


def test_code_string_extractor_sees_tr_inside_f_strings(tmp_path):
    source = tmp_path / "m.py"
    source.write_text('class V:\n    def f(self, x):\n        return f"{self.tr(\'Hidden\')}: {x}" + self.tr(x)\n',
                      encoding="utf-8")
    found, problems = code_strings(source)
    assert found == {("V", "Hidden")}
    assert problems == ["m.py:3: tr() needs a string literal"]


# ------------------------------------------------------------------------------------------------ language


@pytest.mark.parametrize(("tags", "expected"), [
    (["zh-Hans-CN", "en-US"], "zh_CN"),
    (["zh-CN"], "zh_CN"),
    (["zh"], "zh_CN"),
    (["zh_SG"], "zh_CN"),
    (["zh-Hant-TW", "en"], "en"),
    (["zh-TW", "zh-CN"], "zh_CN"),
    (["de-DE", "fr"], "en"),
    (["en-GB", "zh-CN"], "en"),
    ([], "en"),
])
def test_system_locale_picks_the_language(tags, expected):
    assert i18n.match_language(tags) == expected


def test_setting_overrides_the_system_locale(monkeypatch):
    monkeypatch.setattr(i18n, "system_language", lambda: "zh_CN")
    assert i18n.resolve_language("") == "zh_CN"
    assert i18n.resolve_language("en") == "en"
    assert i18n.resolve_language("zh-Hans") == "zh_CN"
    assert i18n.resolve_language("klingon") == "zh_CN"


def test_available_languages_need_a_compiled_catalog(tmp_path, compiled_dir):
    assert i18n.available_languages(tmp_path) == {"en": "English"}
    assert i18n.available_languages(compiled_dir) == {"en": "English", "zh_CN": "简体中文"}


class _Probe(QLabel):
    """A widget following the documented pattern: retranslate() on LanguageChange."""

    def __init__(self):
        super().__init__()
        self.retranslated = 0
        self.retranslate()

    def retranslate(self):
        self.retranslated += 1
        self.setText(QCoreApplication.translate("CompareWidget", "Remove"))

    def changeEvent(self, event):  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


@pytest.fixture
def translations(qapp, compiled_dir):
    original = QLocale()
    t = i18n.Translations(qapp, compiled_dir)
    yield t
    t.apply("en")
    QLocale.setDefault(original)


def test_switching_language_at_runtime_retranslates_widgets(qtbot, translations):
    probe = _Probe()
    qtbot.addWidget(probe)
    assert probe.text() == "Remove"
    with qtbot.waitSignal(translations.language_changed) as switched:
        assert translations.apply("zh_CN") == "zh_CN"
    assert switched.args == ["zh_CN"]
    qtbot.waitUntil(lambda: probe.text() == "移除")
    assert QLocale().name() == "zh_CN"
    translations.apply("en")
    qtbot.waitUntil(lambda: probe.text() == "Remove")
    assert translations.translators == ()


def test_qt_own_strings_are_translated_too(qapp, translations):
    translations.apply("zh_CN")
    assert len(translations.translators) == 2, "app catalog + Qt's qtbase catalog"
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "取消"


def test_translators_stay_referenced_and_reapplying_replaces_them(qapp, translations):
    translations.apply("zh_CN")
    first = translations.translators
    translations.apply("zh_CN")
    assert len(translations.translators) == len(first)
    assert all(t.parent() is translations for t in translations.translators)
    assert translations.parent() is qapp


def test_missing_compiled_catalog_falls_back_to_english(qapp, tmp_path, caplog):
    original = QLocale()
    t = i18n.Translations(qapp, tmp_path)
    assert t.apply("zh_CN") == "en"
    assert "make translations" in caplog.text
    assert t.translators == ()
    QLocale.setDefault(original)


def test_compare_widget_shows_chinese_after_switching(qtbot, translations):
    from vramgui.views.compare.view import CompareWidget

    widget = CompareWidget()
    qtbot.addWidget(widget)
    translations.apply("zh_CN")
    qtbot.waitUntil(lambda: widget.pin_button.text() == "固定当前方案")
    headers = [widget.table.horizontalHeaderItem(i).text() for i in range(widget.table.columnCount())]
    assert "最大微批次" in headers and "单卡峰值" in headers


def test_install_translations_applies_the_setting(qapp, compiled_dir):
    original = QLocale()
    t = i18n.install_translations(qapp, "zh_CN", compiled_dir)
    try:
        assert t.language == "zh_CN"
        assert QApplication.translate("CompareWidget", "Headroom") == "余量"
    finally:
        t.apply("en")
        QLocale.setDefault(original)


def test_without_a_resources_folder_only_english_is_offered(monkeypatch, qapp):
    def missing(*parts):
        raise FileNotFoundError("no resources")

    monkeypatch.setattr(i18n, "resource_path", missing)
    assert i18n.available_languages() == {"en": "English"}
    original = QLocale()
    assert i18n.Translations(qapp).apply("zh_CN") == "en"
    QLocale.setDefault(original)


def test_lupdate_keeps_every_plural_a_numerus_message(tmp_path):
    """`make lupdate` must write ``numerus="yes"`` for every Plural's source; pyside6-lupdate does so only when the
    fourth argument of QT_TRANSLATE_NOOP is a number literal (a name there once turned four plurals into plain
    messages, their Chinese forms "unfinished"). Extracts the catalogue modules the way the Makefile does."""
    from vramgui.core.text.catalogue import entries
    from vramgui.core.text.mark import Plural

    tool = shutil.which("pyside6-lupdate") or str(Path(sys.executable).with_name("pyside6-lupdate"))
    if not Path(tool).exists():
        pytest.skip("pyside6-lupdate (PySide6-Essentials) is not installed")
    sources = sorted(str(p) for p in (Path(vramgui.__file__).parent / "core" / "text" / "catalogue").glob("*.py"))
    out = tmp_path / "extracted.ts"
    subprocess.run([tool, *sources, "-locations", "none", "-source-language", "en", "-target-language", "zh_CN",
                    "-ts", str(out)], check=True, capture_output=True, timeout=120)
    numerus = {m.findtext("source") for m in ET.parse(out).getroot().iter("message") if m.get("numerus") == "yes"}
    plurals = {entry.source for entry in entries().values() if isinstance(entry, Plural)}
    assert plurals and plurals <= numerus, sorted(plurals - numerus)
