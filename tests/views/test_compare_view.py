"""The comparison panel as a real widget (pytest-qt): table, chart items, actions, PNG export."""

from __future__ import annotations

from unittest.mock import MagicMock

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QImage

from vramgui.core.scenario.architecture import Architecture
from vramgui.core.scenario.specs import HardwareSpec, ModelSpec, ParallelSpec, Scenario
from vramgui.presenters.compare.presenter import (
    STACK_KEYS,
    ComparePresenter,
    CompareRowVM,
    CompareSeriesVM,
    CompareVM,
)
from vramgui.views.compare.view import EXPORT_WIDTH, CompareWidget, connect_compare

GB = 10**9


def vm(names=("A", "B"), heights=((1.0, 2.0), (3.0, 4.0)), capacities=(10.0, None), can_pin=True,
       peaks=None) -> CompareVM:
    """Two pinned scenarios; ``peaks`` (one per bar, with whether it fits) adds the step peaks' marks."""
    n = len(names)
    series, bottoms = [], [0.0] * n
    for k, key in enumerate(STACK_KEYS):
        h = heights[k] if k < len(heights) else (0.0,) * n
        series.append(CompareSeriesVM(key, key.title(), tuple(bottoms), tuple(h)))
        bottoms = [b + x for b, x in zip(bottoms, h, strict=True)]
    rows = tuple(CompareRowVM(id=10 + i, name=name, total_text=f"{bottoms[i]:.2f} GB", fits=i == 0,
                              fits_text="Yes" if i == 0 else "No", headroom_text="1.00 GB",
                              max_micro_batch_text=str(i + 3), accumulation_text="8", tooltip=f"tip {i}",
                              peak_text=f"{bottoms[i] + 1:.2f} GB")
                 for i, name in enumerate(names))
    marks = {}
    if peaks is not None:
        marks = {"peaks": tuple(p for p, _ in peaks), "fits": tuple(f for _, f in peaks),
                 "peak_texts": tuple(f"peak {p:.1f}" for p, _ in peaks),
                 "sum_texts": tuple(f"sum {t:.1f}" for t in bottoms),
                 "label_tops": tuple(max(p, t) for (p, _), t in zip(peaks, bottoms, strict=True))}
    return CompareVM(rows=rows, names=tuple(names), series=tuple(series), totals=tuple(bottoms),
                     capacities=capacities, unit="GB", axis_label="Per-GPU memory (GB)", can_pin=can_pin,
                     empty_hint="" if n else "Pin something", **marks)


@pytest.fixture
def widget(qtbot):
    w = CompareWidget()
    qtbot.addWidget(w)
    w.resize(900, 600)
    return w


def cell(w: CompareWidget, row: int, col: int) -> str:
    return w.table.item(row, col).text()


def test_rows_show_the_headline_figures(widget):
    widget.show_comparison(vm())
    assert widget.table.rowCount() == 2
    assert [cell(widget, 0, c) for c in range(7)] == ["A", "5.00 GB", "4.00 GB", "Yes", "1.00 GB", "3", "8"]
    assert cell(widget, 1, 3) == "No"
    assert not widget.table.item(0, 3).icon().isNull(), "fit shown by a shape, not by colour alone"
    assert widget.table.item(1, 3).toolTip() == "tip 1"
    assert widget.hint.isHidden()


def test_chart_items_are_created_once_and_updated(widget):
    bars_before = dict(widget.bars)
    items_before = len(widget.plot.getPlotItem().items)
    widget.show_comparison(vm())
    widget.show_comparison(vm(names=("A", "B", "C"), heights=((1.0, 1.0, 1.0), (2.0, 2.0, 5.0)),
                              capacities=(10.0, 10.0, 10.0)))
    assert widget.bars == bars_before
    assert len(widget.plot.getPlotItem().items) == items_before
    grads = widget.bars["gradients"].opts
    assert list(grads["x"]) == [0, 1, 2]
    assert list(grads["height"]) == [2.0, 2.0, 5.0] and list(grads["y0"]) == [1.0, 1.0, 1.0]
    xs, ys = widget.capacity.getData()
    assert list(ys) == [10.0] * 6, "one segment (two points) per bar"
    assert xs[0] < 0 < xs[1] and xs[4] < 2 < xs[5]
    visible_totals = [label for label in widget.total_labels if label.isVisible()]
    assert [label.toPlainText() for label in visible_totals] == ["3.0", "3.0", "6.0"]


def test_each_bar_shows_its_step_peak_and_a_red_cross_where_the_peak_does_not_fit(widget):
    widget.show_comparison(vm(peaks=((5.0, True), (12.0, False))))
    xs, ys = widget.marks.fits_line.getData()
    assert list(ys) == [5.0, 5.0] and xs[0] < 0 < xs[1], "a dash slightly wider than the bar at its peak"
    assert xs[1] - xs[0] > 0.6
    xs, ys = widget.marks.over_line.getData()
    assert list(ys) == [12.0, 12.0] and xs[0] < 1 < xs[1]
    texts = [label.toPlainText() for label in widget.total_labels if label.isVisible()]
    assert [t.splitlines()[0] for t in texts] == ["peak 5.0", "✕ peak 12.0"]  # the sum under it where there is room
    names = [label.text for _, label in widget.legend.items]
    assert names[-2:] == ["step peak (decides fits)", "✕ does not fit"]
    widget.show_comparison(vm(peaks=((5.0, True), (6.5, True))))
    assert [label.text for _, label in widget.legend.items][-1] == "step peak (decides fits)"
    assert len(widget.marks.over_line.getData()[0] or ()) == 0


def test_legend_names_only_components_present(widget):
    widget.show_comparison(vm())
    names = [label.text for _, label in widget.legend.items]
    assert names == ["Parameters", "Gradients", "Usable GPU memory"]
    widget.show_comparison(vm(capacities=(None, None)))
    assert [label.text for _, label in widget.legend.items] == ["Parameters", "Gradients"]


def test_empty_comparison_shows_the_hint_and_disables_actions(widget):
    widget.show_comparison(vm(names=(), heights=(), capacities=()))
    assert not widget.hint.isHidden() and widget.hint.text() == "Pin something"
    assert widget.table.rowCount() == 0
    assert not widget.export_png_button.isEnabled() and not widget.clear_button.isEnabled()
    assert widget.pin_button.isEnabled()


def test_pin_button_disabled_when_full(widget):
    widget.show_comparison(vm(can_pin=False))
    assert not widget.pin_button.isEnabled()


def test_editing_a_name_requests_a_rename_but_refilling_does_not(widget, qtbot):
    widget.show_comparison(vm())
    with qtbot.assertNotEmitted(widget.rename_requested):
        widget.show_comparison(vm(names=("X", "Y")))
    with qtbot.waitSignal(widget.rename_requested) as blocker:
        widget.table.item(1, 0).setText("ZeRO-3 offload")
    assert blocker.args == [11, "ZeRO-3 offload"]


def test_remove_and_load_act_on_the_selected_row(widget, qtbot):
    widget.show_comparison(vm())
    assert not widget.remove_button.isEnabled()
    widget.table.selectRow(1)
    assert widget.remove_button.isEnabled() and widget.load_button.isEnabled()
    with qtbot.waitSignal(widget.remove_requested) as removed:
        qtbot.mouseClick(widget.remove_button, Qt.MouseButton.LeftButton)
    with qtbot.waitSignal(widget.load_requested) as loaded:
        qtbot.mouseClick(widget.load_button, Qt.MouseButton.LeftButton)
    assert removed.args == [11] and loaded.args == [11]


def test_selection_survives_a_refresh(widget):
    widget.show_comparison(vm())
    widget.table.selectRow(1)
    widget.show_comparison(vm(names=("A", "B renamed")))
    assert widget.selected_id() == 11


def test_double_click_on_a_figure_loads_the_scenario(widget, qtbot):
    widget.show()
    qtbot.waitExposed(widget)
    widget.show_comparison(vm())
    rect = widget.table.visualItemRect(widget.table.item(0, 1))
    qtbot.mouseClick(widget.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())  # a real press first
    with qtbot.waitSignal(widget.load_requested) as loaded:
        qtbot.mouseDClick(widget.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert loaded.args == [10]


def test_message_is_shown_and_cleared(widget):
    widget.show_message("At most 6")
    assert not widget.message.isHidden() and widget.message.text() == "At most 6"
    widget.show_message("")
    assert widget.message.isHidden()


def test_export_png_is_white_with_title_chart_and_caption(widget, qtbot, tmp_path):
    widget.show()
    qtbot.waitExposed(widget)
    widget.show_comparison(vm())
    path = tmp_path / "compare.png"
    widget.export_chart_png(str(path), "Per-GPU memory by scenario", "Stacked per-GPU memory, in GB (10^9 bytes).")
    image = QImage(str(path))
    assert image.width() == EXPORT_WIDTH
    assert image.height() > EXPORT_WIDTH * 0.3
    assert QColor(image.pixel(0, 0)) == QColor("white")
    assert QColor(image.pixel(image.width() - 1, image.height() - 1)) == QColor("white")
    title_band = [QColor(image.pixel(x, y)).lightness() for y in range(60) for x in range(0, 600, 3)]
    assert min(title_band) < 100, "the title is drawn in dark text at the top"
    parameters_blue = QColor("#0072B2")
    found = any(QColor(image.pixel(x, y)) == parameters_blue
                for y in range(0, image.height(), 4) for x in range(0, image.width(), 4))
    assert found, "the stacked bars are in the exported chart"


def test_export_to_an_unwritable_path_raises_oserror(widget, qtbot, tmp_path):
    widget.show()
    qtbot.waitExposed(widget)
    widget.show_comparison(vm())
    with pytest.raises(OSError):
        widget.export_chart_png(str(tmp_path / "no-such-dir" / "x.png"), "t", "c")


def test_ask_export_path_uses_the_save_dialog(widget, monkeypatch):
    calls = []

    def fake_dialog(parent, title, start, file_filter):
        calls.append((title, start, file_filter))
        return ("/tmp/chosen.png", file_filter)

    monkeypatch.setattr("vramgui.views.compare.view.QFileDialog.getSaveFileName", fake_dialog)
    assert widget.ask_export_path("Export", "/home/x/vramgui-comparison.png", "PNG image (*.png)") \
        == "/tmp/chosen.png"
    assert calls == [("Export", "/home/x/vramgui-comparison.png", "PNG image (*.png)")]
    monkeypatch.setattr("vramgui.views.compare.view.QFileDialog.getSaveFileName", lambda *a: ("", ""))
    assert widget.ask_export_path("Export", "", "") is None


def test_wired_to_the_presenter_with_the_real_core(widget, qtbot, tmp_path):
    presenter = ComparePresenter(widget, export_folder=lambda: str(tmp_path))
    connect_compare(widget, presenter)
    arch = Architecture(num_layers=24, hidden_size=2048, num_heads=16, ffn_size=5504)
    base = Scenario(model=ModelSpec(name="1B", architecture=arch),
                    hardware=HardwareSpec(gpu_name="A100", gpu_memory=80 * GB))
    presenter.pin(base, name="DDP")
    presenter.pin(Scenario(model=base.model, parallel=ParallelSpec(num_gpus=8, zero_stage=3),
                           hardware=base.hardware), name="ZeRO-3 x8")
    assert [cell(widget, r, 0) for r in range(2)] == ["DDP", "ZeRO-3 x8"]
    zero3 = presenter.figures(presenter.pinned[1].id)
    ddp = presenter.figures(presenter.pinned[0].id)
    assert zero3.total < ddp.total
    widget.table.item(0, 0).setText("Baseline")
    assert presenter.pinned[0].name == "Baseline"
    loaded = MagicMock()
    presenter.load_requested.connect(loaded)
    widget.table.selectRow(1)
    qtbot.mouseClick(widget.load_button, Qt.MouseButton.LeftButton)
    assert loaded.call_args.args[0].parallel.zero_stage == 3
    qtbot.mouseClick(widget.remove_button, Qt.MouseButton.LeftButton)
    assert [p.name for p in presenter.pinned] == ["Baseline"]
    monkey_path = str(tmp_path / "data.csv")
    widget.ask_export_path = lambda *a: monkey_path
    qtbot.mouseClick(widget.export_csv_button, Qt.MouseButton.LeftButton)
    assert (tmp_path / "data.csv").read_text(encoding="utf-8").splitlines()[1].startswith("Baseline,")
    qtbot.mouseClick(widget.clear_button, Qt.MouseButton.LeftButton)
    assert widget.table.rowCount() == 0 and presenter.pinned == ()


def test_clicking_pin_emits_pin_requested(widget, qtbot):
    with qtbot.waitSignal(widget.pin_requested):
        qtbot.mouseClick(widget.pin_button, Qt.MouseButton.LeftButton, pos=QPoint(5, 5))


# ----- bars that do not fit, the palette, the export width (issue 13, comparisons)


def test_a_bar_that_does_not_fit_is_outlined_marked_and_named_in_the_legend(widget):
    widget.show_comparison(vm(names=("fits", "too big"), peaks=((5.0, True), (12.0, False))))
    opts = widget.over_bars.opts
    assert list(opts["x"]) == [1] and list(opts["y0"]) == [0.0] and list(opts["height"]) == [6.0]  # to the bar's top
    assert opts["pen"].color() == QColor("#c62828"), "a red outline"
    legend = {label.text: sample for sample, label in widget.legend.items}
    assert legend["✕ does not fit"].item is widget.over_bars, "the legend's sample is the outline the bar carries"
    ticks = widget.plot.getPlotItem().getAxis("bottom")._tickLevels[0]
    assert [t for _, t in ticks] == ["fits", "✕ too big"]
    widget.show_comparison(vm(peaks=((5.0, True), (6.0, True))))
    assert len(widget.over_bars.opts["x"]) == 0 and "✕ does not fit" not in [lb.text for _, lb in widget.legend.items]


def _dark_palette():
    from PySide6.QtGui import QPalette

    palette = QPalette()
    for role, colour in ((QPalette.ColorRole.Window, "#202124"), (QPalette.ColorRole.Base, "#17181a"),
                         (QPalette.ColorRole.Text, "#e8eaed"), (QPalette.ColorRole.WindowText, "#e8eaed")):
        palette.setColor(role, QColor(colour))
    return palette


def test_the_plot_follows_a_dark_palette_and_exports_stay_white(widget, qtbot, tmp_path):
    widget.show()
    qtbot.waitExposed(widget)
    widget.show_comparison(vm(peaks=((5.0, True), (12.0, False))))
    assert widget.plot.backgroundBrush().color() == widget.palette().color(widget.palette().ColorRole.Base)
    widget.setPalette(_dark_palette())
    assert widget.plot.backgroundBrush().color() == QColor("#17181a")
    axis = widget.plot.getPlotItem().getAxis("left")
    assert axis.textPen().color() == QColor("#e8eaed")
    assert all(label.opts["color"] == QColor("#e8eaed") for _, label in widget.legend.items)
    image = widget.chart_image(900, "t", "c")
    assert QColor(image.pixel(5, image.height() // 2)) == QColor("white")
    dark = [QColor(image.pixel(x, y)).lightness() for y in range(0, image.height(), 3) for x in range(0, 200, 3)]
    assert min(dark) < 80, "dark text on the white export"
    assert widget.plot.backgroundBrush().color() == QColor("#17181a"), "the screen keeps the dark palette"


def _swatch_height(image) -> int:
    """Rows of the legend's first swatch (the parameters' blue) in the image's top third."""
    colour = QColor("#0072B2")
    rows = [y for y in range(image.height() // 3)
            if any(QColor(image.pixel(x, y)) == colour for x in range(image.width() // 3))]
    return len(rows)


@pytest.mark.parametrize("width", [800, 2400])
def test_the_export_has_the_chosen_width_and_its_legend_scales_with_it(widget, qtbot, tmp_path, width):
    widget.show()
    qtbot.waitExposed(widget)
    widget.show_comparison(vm())
    path = tmp_path / "c.png"
    widget.export_chart_png(str(path), "", "", width)
    image = QImage(str(path))
    assert image.width() == width
    base = widget.chart_image(1200, "", "")
    assert _swatch_height(image) / _swatch_height(base) == pytest.approx(width / 1200, rel=0.25)


def test_the_inputs_every_pin_shares_are_shown_on_one_line(widget):
    from dataclasses import replace

    shared = "Every scenario: Llama-3-8B · A100 · " + " · ".join(f"input {i}" for i in range(60))
    widget.show_comparison(replace(vm(), common_text=shared))
    assert not widget.common.isHidden() and widget.common.toolTip() == shared
    assert widget.common.text().endswith("…") and len(widget.common.text()) < len(shared)
    widget.show_comparison(vm())
    assert widget.common.isHidden()
