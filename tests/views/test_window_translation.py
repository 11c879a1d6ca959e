"""The whole window in Simplified Chinese: every visible string is translated, and no translated text is clipped
at the default window size (English is checked for clipping too).

Strings are collected by walking the widget tree (texts, titles, tooltips, placeholders, combo items, tab texts,
table headers, menus and their actions) of the main window with every tab built and a scenario pinned, plus the
Formulas and About dialogs. A string of the Chinese window that also appears in the English window is
untranslated unless it is a non-word (numbers, units, model/GPU/optimizer names).
"""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QLocale, QSettings
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QCheckBox,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QTableWidget,
    QTabWidget,
    QWidget,
)

from vramgui import i18n
from vramgui.app import create_main_window
from vramgui.core.fields import registry as fields
from vramgui.io.presets import gpu_presets, model_presets
from vramgui.paths import resource_path
from vramgui.views.dialogs import licence_files

TS_FILE = resource_path("translations", "vramgui_zh_CN.ts")
# Words that are the same in both languages: units, product and method names, symbols.
SAME_IN_BOTH = {
    "GB", "GiB", "MB", "TB", "MiB", "TP", "PP", "SP", "px", "B", "Φ", "N_d", "K", "x", "h", "V", "a", "b", "s",
    "Adam", "AdamW", "SGD", "Adafactor", "Lion", "bf16", "fp16", "fp32", "DDP", "ZeRO", "FSDP", "DeepSpeed",
    "Megatron", "LM", "Hugging", "Face", "vramgui", "English", "Qt", "PySide6", "pyqtgraph", "numpy", "Python",
    "GPU", "GPUs", "CPU", "CSV", "PNG", "SDPA", "MoE",
    "LoRA", "QLoRA", "NF4", "dropout",
}


def _words_allowed(text: str, names: set[str]) -> bool:
    """True when ``text`` holds no English word: numbers, units and names only."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    words = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text)
    return all(w in SAME_IN_BOTH or re.fullmatch(r"[A-Za-z]?\d*[A-Za-z]?", w) for w in words)


def _names() -> set[str]:
    names = {p.name for p in model_presets().values()} | {p.name for p in gpu_presets().values()}
    names |= {p.stem for p in licence_files()}
    # a choice's own values (attention, all-linear, foreach, for-loop...) are typed and shown as they are
    names |= {str(c) for f in fields.fields() if f.kind == "choice" for c in f.choices if len(str(c)) > 2}
    return names


def visible_strings(root: QWidget) -> dict[str, str]:
    """{text: where} of every user-visible string under ``root`` (hidden widgets skipped)."""
    found: dict[str, str] = {}

    def add(text: str | None, where: str) -> None:
        if text and text.strip():
            found.setdefault(text.strip(), where)

    widgets = [root, *root.findChildren(QWidget)]
    for w in widgets:
        if not w.isVisibleTo(root) and w is not root and not isinstance(w, QMenu):
            continue
        where = f"{type(w).__name__} {w.objectName()}".strip()
        add(w.toolTip(), where + " tooltip")
        add(w.windowTitle() if w.isWindow() else "", where + " title")
        if isinstance(w, QLabel):
            add(w.text(), where)
        if isinstance(w, QAbstractButton):
            add(w.text(), where)
        if isinstance(w, QLineEdit):
            add(w.placeholderText(), where + " placeholder")
        if isinstance(w, QGroupBox):
            add(w.title(), where)
        if isinstance(w, QComboBox):
            for i in range(w.count()):
                add(w.itemText(i), where + " item")
        if isinstance(w, QTabWidget):
            for i in range(w.count()):
                add(w.tabText(i), where + " tab")
        if isinstance(w, QTableWidget):
            for c in range(w.columnCount()):
                item = w.horizontalHeaderItem(c)
                add(item.text() if item else "", where + " header")
        if isinstance(w, QMenu):
            add(w.title(), where + " menu")
            for action in w.actions():
                add(action.text(), where + " action")
                add(action.statusTip(), where + " action tip")
    return found


def clipped(root: QWidget) -> list[str]:
    """Texts that do not fit their widget: labels (no word wrap) by the text's advance against the contents
    width; buttons and check boxes by their size hint (text + style's margins and indicator)."""
    problems = []
    for w in root.findChildren(QWidget):
        if not w.isVisibleTo(root):
            continue
        if isinstance(w, QLabel) and w.text() and not w.wordWrap() and w.pixmap().isNull() \
                and not w.text().lstrip().startswith("<"):
            text = w.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
            need = max(w.fontMetrics().horizontalAdvance(line) for line in text.split("\n"))
            if need > w.contentsRect().width():
                problems.append(f"label {text!r}: needs {need} px, has {w.contentsRect().width()}")
        elif isinstance(w, (QPushButton, QCheckBox)) and w.text():
            if w.width() < w.sizeHint().width():
                problems.append(f"{type(w).__name__} {w.text()!r}: needs {w.sizeHint().width()} px, has {w.width()}")
        elif isinstance(w, QTabWidget):
            bar = w.tabBar()
            for i in range(bar.count()):  # the tabs shown (not the other mode's: Serving while training)
                if bar.isTabVisible(i) and bar.tabRect(i).width() < bar.tabSizeHint(i).width():
                    problems.append(f"tab {bar.tabText(i)!r} is elided")
        elif isinstance(w, QGroupBox):
            need = w.fontMetrics().horizontalAdvance(w.title()) + 16
            if need > w.width():
                problems.append(f"group {w.title()!r}")
    return problems



def _open_everything(window) -> list[QWidget]:
    """Every tab built, a scenario pinned (the comparison table has rows), the help dialogs open."""
    window.ensure_charts()
    window.presenter.on_field_edited("model.preset", "llama-3-8b")
    window.pin_current()
    window.presenter.on_field_edited("model.preset", "")  # a parameter count only: the summary shows notes
    assert window.summary.notes.isVisibleTo(window)
    window.chart_tabs.setCurrentIndex(0)
    window.presenter.finish_sweeps()
    window.formulas_action.trigger()
    window.about_action.trigger()
    QApplication.processEvents()
    return [window, window.formulas_dialog, window.about_dialog]


def _build(qapp, tmp_path_factory, translations, language: str):
    translations.apply(language)
    settings = QSettings(str(tmp_path_factory.mktemp(language) / "s.ini"), QSettings.Format.IniFormat)
    window = create_main_window(settings)
    window.resize(1400, 900)  # the first size on a desktop screen (the offscreen one is smaller; laptop sizes:
    window.show()             # tests/views/test_laptop_screens.py, test_chart_layout.py)
    QApplication.processEvents()
    roots = _open_everything(window)
    for _ in range(3):
        QApplication.processEvents()
    return window, roots


def _close(window) -> None:
    window.formulas_dialog.close()
    window.about_dialog.close()
    window.document.ask_before_discarding = False
    window.close()
    window.deleteLater()


def _collect(window, roots) -> tuple[dict[str, str], list[str]]:
    """Strings of every tab of the window and of the dialogs; clipping problems of the window on every tab."""
    strings: dict[str, str] = {}
    problems: list[str] = []
    for index in range(window.chart_tabs.count()):
        window.chart_tabs.setCurrentIndex(index)
        QApplication.processEvents()
        strings.update(visible_strings(window))
        problems += [p for p in clipped(window) if p not in problems]
    for root in roots[1:]:
        strings.update(visible_strings(root))
    serve_mode = (("model.preset", "llama-3-8b"), ("serve.active", True))  # its summary, table and Serving tab
    for key, value in serve_mode:
        window.presenter.on_field_edited(key, value)
    QApplication.processEvents()
    assert window.presenter.serving, window.presenter.errors
    strings.update(visible_strings(window))
    problems += [p for p in clipped(window) if p not in problems]
    for key, value in (("serve.active", False), ("model.preset", "")):
        window.presenter.on_field_edited(key, value)
    window.chart_tabs.setCurrentIndex(0)
    return strings, problems


@pytest.fixture(scope="module")
def windows(qapp, tmp_path_factory, compiled_dir):
    """Strings and clipping problems of the English and of the Chinese window, each at its default size."""
    original = QLocale()
    translations = i18n.Translations(qapp, compiled_dir)
    en, en_roots = _build(qapp, tmp_path_factory, translations, "en")
    en_strings, en_clipped = _collect(en, en_roots)
    _close(en)
    zh, zh_roots = _build(qapp, tmp_path_factory, translations, "zh_CN")
    assert translations.language == "zh_CN"
    zh_strings, zh_clipped = _collect(zh, zh_roots)
    yield {"en": en_strings, "zh": zh_strings, "en_clipped": en_clipped, "zh_clipped": zh_clipped,
           "zh_window": zh}
    _close(zh)
    translations.apply("en")
    QLocale.setDefault(original)


def test_the_walk_sees_the_whole_window(windows):
    zh = windows["zh"]
    for expected in ("文件(&F)", "按策略", "对比", "固定当前方案", "最大微批次", "公式与来源", "单卡显存(&U)",
                     "搜索预设…", "方案另存为(&A)…"):
        assert expected in zh, expected
    assert len(zh) > 200


def test_every_visible_string_has_a_chinese_translation(windows):
    names = _names()
    untranslated = sorted(f"{text!r} ({where})" for text, where in windows["zh"].items()
                          if text in windows["en"] and not _words_allowed(text, names))
    assert untranslated == []


def test_the_untranslated_check_can_fail():
    names = _names()
    assert not _words_allowed("Copy table", names)
    assert not _words_allowed("Memory per GPU (GB)", names)
    assert _words_allowed("80GiB", names) and _words_allowed("≈ 8.03B", names)
    assert _words_allowed("NVIDIA A100 80GB", names) and _words_allowed("bf16", names)


def _has_cjk_font() -> bool:
    return bool(QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese))


def test_no_chinese_text_is_clipped_at_the_default_size(windows):
    if not _has_cjk_font():
        pytest.skip("no CJK font installed (e.g. apt-get install fonts-wqy-microhei): Chinese widths are unknown")
    assert windows["zh_window"].size().width() == 1400
    assert windows["zh_clipped"] == []


def test_no_english_text_is_clipped_at_the_default_size(windows):
    assert windows["en_clipped"] == []


def test_the_clipping_check_can_fail(qtbot):
    box = QWidget()
    qtbot.addWidget(box)
    label = QLabel("a label that is far too long for its width", box)
    label.setGeometry(0, 0, 40, 20)
    button = QPushButton("another long button text", box)
    button.setGeometry(0, 30, 40, 20)
    box.show()
    problems = clipped(box)
    assert len(problems) == 2 and "label" in problems[0]
