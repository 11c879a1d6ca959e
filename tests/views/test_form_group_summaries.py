"""A folded group's header says what the group holds that the first screen does not, after its title, muted: an opened
file's global batch and recomputation under Training, its ZeRO-3 with offload under Strategy; nothing once the values
are edited back; the list where it fits, else its count, elided (never clipped) at 1024 x 640; in the language
the window was switched to. Driven through the real window and its widgets."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.views.helpers import choose, settle
from vramgui import app
from vramgui.core.fields import paths
from vramgui.core.fields import registry as fields
from vramgui.core.scenario.choices import Offload, Recompute
from vramgui.io.scenario_files import save_scenario
from vramgui.presenters.form.groups import FOLDING, GROUPS, first_scenario
from vramgui.presenters.view_models import GroupSummary


def _flag(group: str, flag: str) -> str:
    return next(p for p in GROUPS[group] if fields.field(p).flag == flag)


OFFLOAD_OPT, OFFLOAD_PARAMS = _flag("strategy", "--offload-optimizer"), _flag("strategy", "--offload-params")


@pytest.fixture
def opened(tmp_path, qtbot, settings):
    """A window at 1024 x 640 that opened a file with a global batch of 128, full recomputation and ZeRO-3
    offloading optimizer and parameters to the CPU; everything else is the first screen's."""
    s = first_scenario()
    for path, value in ((paths.GLOBAL_BATCH, 128), (paths.RECOMPUTE, Recompute.FULL), (paths.ZERO_STAGE, 3),
                        (OFFLOAD_OPT, Offload.CPU), (OFFLOAD_PARAMS, Offload.CPU)):
        s = fields.with_value(s, path, value)
    file = tmp_path / "zero3.json"
    save_scenario(file, s)
    window = app.create_main_window(settings)
    qtbot.addWidget(window)
    window.resize(1024, 640)
    window.show()
    qtbot.waitExposed(window)
    assert all(not window.inputs.groups[g].summary_text() for g in FOLDING)  # the first screen: nothing to say
    assert window.document.open_path(str(file))
    settle()
    yield window
    window.presenter.finish_sweeps()


def said(window) -> dict[str, str]:
    return {g: text for g in FOLDING if (text := window.inputs.groups[g].summary_text())}


def test_an_opened_files_training_and_strategy_show_on_their_folded_headers(opened):
    assert said(opened) == {"training": "· global batch 128, full recomputation",
                            "strategy": "· ZeRO-3 + CPU optimizer and parameter offload"}
    header = opened.inputs.groups["training"].header
    assert header.toolTip() == "global batch 128\nfull recomputation"
    label = header.summary_label
    assert label.x() >= header.sizeHint().width() - 8  # after the title, not over it
    assert label.geometry().right() <= header.width()  # inside the row
    assert label.fontMetrics().horizontalAdvance(label.text()) <= label.width()  # whole, not clipped
    assert not label.font().bold() and header.font().bold()


def test_editing_back_to_the_first_screens_values_clears_the_headers(opened, qtbot):
    editors = opened.inputs.editors
    training = opened.inputs.groups["training"]
    qtbot.mouseClick(training.header, Qt.MouseButton.LeftButton)  # opened: its rows say it, the header not
    assert training.is_open() and training.summary_text() == ""
    choose(editors[paths.RECOMPUTE], Recompute.NONE.value)
    editors[paths.GLOBAL_BATCH].setFocus()
    editors[paths.GLOBAL_BATCH].selectAll()
    qtbot.keyClick(editors[paths.GLOBAL_BATCH], Qt.Key.Key_Delete)  # "no global batch", the first screen's
    qtbot.mouseClick(training.header, Qt.MouseButton.LeftButton)  # folded again
    assert opened.presenter.draft.training == first_scenario().training
    assert "training" not in said(opened)
    strategy = opened.inputs.groups["strategy"]
    strategy.set_open(True)
    qtbot.mouseClick(editors[OFFLOAD_OPT], Qt.MouseButton.LeftButton)  # the optimizer's offload unticked
    strategy.set_open(False)
    assert said(opened) == {"strategy": "· ZeRO-3 + CPU parameter offload"}
    choose(editors[paths.ZERO_STAGE], "2")  # ZeRO-2: the parameter offload still ticked does nothing there
    assert fields.inactive_reason(opened.presenter.draft, OFFLOAD_PARAMS) is not None
    assert said(opened) == {}


def test_a_list_too_long_for_the_row_gives_its_count_and_is_elided_never_clipped(opened):
    section = opened.inputs.groups["overheads"]
    label = section.header.summary_label
    items = [f"item number {i} with a long name" for i in range(12)]
    opened.inputs.set_form_values({"summary:overheads": GroupSummary(", ".join(items), "12 set", "\n".join(items))})
    assert section.summary_text() == "· 12 set"  # the list does not fit in the row at 1024 x 640: its count
    assert section.header.toolTip().splitlines() == items
    long = "a count text that could never fit in one row of the form at this size " * 2
    opened.inputs.set_form_values({"summary:overheads": GroupSummary(long, long, long)})
    assert label.text().endswith("…") and label.text().startswith("· a count")  # elided ...
    assert label.fontMetrics().horizontalAdvance(label.text()) <= label.width()  # ... not clipped
    assert label.geometry().right() <= section.header.width()


def test_the_headers_follow_a_language_switch(opened, qtbot, translations, built_translations):
    new = app.rebuild_window(opened, "zh_CN")
    qtbot.addWidget(new)
    settle()
    assert said(new) == {"training": "· 全局批次 128，完全重计算", "strategy": "· ZeRO-3 + 优化器和参数 CPU 卸载"}
    back = app.rebuild_window(new, "en")
    qtbot.addWidget(back)
    QApplication.processEvents()
    assert said(back)["training"] == "· global batch 128, full recomputation"
    back.presenter.finish_sweeps()
    new.presenter.finish_sweeps()
