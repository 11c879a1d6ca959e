"""The real main window driven with pytest-qt: typing, presets, charts against the core, exports, dialogs."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPalette
from PySide6.QtWidgets import QApplication, QCheckBox, QFileDialog, QLabel, QMessageBox

from tests.views.helpers import choose, shows_estimate, type_into
from vramgui.core.estimate import estimate
from vramgui.core.fields import registry as fields
from vramgui.core.solve import questions as solve
from vramgui.core.text.units import format_bytes
from vramgui.io.presets import find_gpu, find_model
from vramgui.views.dialogs import licence_files

GB = 10**9


def image_stats(image: QImage) -> tuple[int, float, int]:
    """(distinct colours, mean brightness, pixels) of a QImage."""
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    ptr = image.constBits()
    arr = np.frombuffer(ptr, dtype=np.uint8, count=image.sizeInBytes()).reshape(image.height(), image.bytesPerLine())
    rgb = arr[:, : image.width() * 4].reshape(image.height(), image.width(), 4)[:, :, :3]
    colours = len(np.unique(rgb.reshape(-1, 3)[::7], axis=0))
    return colours, float(rgb.mean()), image.width() * image.height()


def test_window_opens_on_the_seed_example_with_the_cores_numbers(seed_window):
    window = seed_window  # the seed's worked example, every group open
    scenario = window.presenter.scenario
    est = estimate(scenario)
    assert shows_estimate(window, est)
    assert window.summary.fits_kind == "ok"
    assert window.summary.fits_text.text() == "Fits: 72.00 GB usable of 80.00 GB (10 % reserved)"  # the CLI's reserve
    bars = window.strategy_chart.bars
    stacked = sum(item.opts["height"] for key, item in bars.items() if item.isVisible())
    expected = [estimate(s).per_gpu_total / GB for _, s in solve.strategy_variants(scenario)]
    assert list(stacked) == pytest.approx(expected)
    assert expected[:4] == pytest.approx([112, 38.5, 26.25, 14])


def test_typing_a_parameter_count_updates_summary_table_and_chart(qtbot, seed_window):
    window = seed_window  # the seed's worked example, every group open
    params = window.inputs.editors["model.params"]
    type_into(qtbot, params, "13B")
    est = estimate(window.presenter.scenario)
    assert window.presenter.scenario.model.params == 13 * GB
    assert shows_estimate(window, est)
    table = window.breakdown
    assert table.item(0, 1).text() == format_bytes(est.bytes_of("parameters"))
    assert table.item(0, 2).text() == est.component("parameters").derivation
    zero2 = window.strategy_chart.vm.strategies.index("ZeRO-2")
    assert window.strategy_chart.vm.totals[zero2] == pytest.approx(est.per_gpu_total / GB)


def test_invalid_input_shows_an_inline_message_and_keeps_the_stale_result(qtbot, window):
    before = window.summary.total.text()
    type_into(qtbot, window.inputs.editors["hardware.gpu_memory"], "80 potatoes")
    message = window.inputs.error_text("hardware.gpu_memory")
    assert "potatoes" in message and "GiB" in message  # what was typed, and the units that are allowed
    assert not window.summary.stale_banner.isHidden()
    assert "potatoes" in window.summary.stale_banner.text()
    assert window.summary.total.text() == before and not window.summary.total.isEnabled()
    assert window.strategy_chart.plot.opacity() < 1.0  # the chart shows it is stale too
    type_into(qtbot, window.inputs.editors["hardware.gpu_memory"], "40GB")
    assert window.inputs.error_text("hardware.gpu_memory") == ""
    assert window.summary.stale_banner.isHidden()
    assert window.strategy_chart.plot.opacity() == 1.0
    assert window.presenter.scenario.hardware.gpu_memory == 40 * GB


def test_out_of_range_combination_is_explained_not_raised(qtbot, window):
    tp = window.inputs.editors["parallel.tp"]
    tp.setValue(3)
    assert "divide" in window.inputs.error_text("parallel.num_gpus")  # under Number of GPUs, as the core says
    assert window.inputs.error_text("parallel.tp") == ""
    assert not window.summary.stale_banner.isHidden()


def test_switching_presets_recomputes_against_the_catalog(qtbot, window):
    choose(window.inputs.editors["model.preset"], "llama-3-8b")
    choose(window.inputs.editors["hardware.gpu"], "a100-80gb")
    scenario = window.presenter.scenario
    assert scenario.model == find_model("llama-3-8b").spec
    assert scenario.hardware.gpu_memory == find_gpu("a100-80gb").memory
    assert window.inputs.editors["model.params"].text() == str(estimate(scenario).params)
    assert not window.inputs.editors["model.params"].isEnabled()
    est = estimate(scenario)
    assert shows_estimate(window, est)
    keys = {key for key, item in window.strategy_chart.bars.items() if item.isVisible()}
    assert "activations" in keys


def test_preset_search_box_filters_by_substring(qtbot, window):
    combo = window.inputs.editors["model.preset"]
    completer = combo.completer()
    completer.setCompletionPrefix("Llama 3 8")
    names = {completer.completionModel().index(i, 0).data() for i in range(completer.completionModel().rowCount())}
    assert find_model("llama-3-8b").name in names


def test_sweep_charts_follow_the_core(qtbot, window):
    window.presenter.finish_sweeps()
    curve = window.sweep_chart.curves["zero3"]  # keyed by the stable strategy key
    xs, ys = curve.getData()
    assert list(2 ** xs) == pytest.approx([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024])
    zero3_at_8 = next(sc for st, sc in solve.strategy_variants(
        fields.with_value(window.presenter.scenario, "parallel.num_gpus", 8)) if st.key == "zero3")
    # 8 GPUs: the step peak (what decides fits), above the seed's ZeRO-3 sum of 14 GB
    assert ys[3] == pytest.approx(estimate(zero3_at_8).peak.bytes / 1e9) and ys[3] > 14.0
    curve3 = window.max_model_chart.curves["zero3"]
    _xs3, ys3 = curve3.getData()
    zero3 = next(sc for st, sc in solve.strategy_variants(window.presenter.scenario) if st.key == "zero3")
    assert 10 ** ys3[3] == pytest.approx(solve.max_params(zero3) / 1e9)  # log axis; the core's peak-based solve
    assert 10 ** ys3[3] < 32.0  # the seed's 32B on 8 GPUs is the boundary of the sum, not of the peak


def test_hovering_a_bar_segment_gives_its_bytes(seed_window):
    window = seed_window  # the seed's worked example, every group open
    vm = window.strategy_chart.vm
    ddp = vm.strategies.index("DDP")
    text = window.strategy_chart.hover_text(ddp, 1.0)
    assert "DDP" in text and "14,000,000,000 B" in text
    assert window.strategy_chart.hover_text(ddp + 0.5, 1.0) == ""


def test_png_export_has_the_requested_width_and_is_neither_blank_nor_black(tmp_path, window):
    path = tmp_path / "chart.png"
    window.export_chart(str(path), 1600)
    image = QImage(str(path))
    assert image.width() == 1600 and image.height() > 600
    colours, mean, _ = image_stats(image)
    assert colours > 20
    assert mean > 200  # white background
    assert QColor(image.pixel(3, 3)).name() == "#ffffff"


def test_every_chart_exports_at_a_chosen_width(tmp_path, window):
    for i in range(4):  # by strategy, one step, time and cost, by GPU count
        window.chart_tabs.setCurrentIndex(i)
        path = tmp_path / f"chart{i}.png"
        window.export_chart(str(path), 800)
        image = QImage(str(path))
        assert image.width() == 800
        assert image_stats(image)[0] > 10


def test_export_menu_uses_width_setting_and_remembers_folder(qtbot, tmp_path, window, settings, monkeypatch):
    target = tmp_path / "out" / "figure"
    target.parent.mkdir()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), "PNG images (*.png)"))
    window.width_actions[1200].trigger()
    window.export_png_action.trigger()
    image = QImage(str(target) + ".png")
    assert image.width() == 1200
    assert window.settings.last_folder("export") == str(target.parent)
    assert int(settings.value("export/width")) == 1200


def test_png_export_failure_is_a_message_not_a_crash(tmp_path, window, monkeypatch):
    messages = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(tmp_path / "missing-dir" / "x.png"), ""))
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: messages.append(a[2]))
    window.export_png_action.trigger()
    assert messages and "x.png" in messages[0]


def test_csv_export_round_trips_the_numbers(tmp_path, window, monkeypatch):
    target = tmp_path / "data.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.export_csv_action.trigger()
    with open(target, newline="", encoding="utf-8-sig") as fh:
        rows = list(csv.DictReader(fh))
    est = estimate(window.presenter.scenario)
    by_component = {r["component"]: int(r["bytes"]) for r in rows if r["table"] == "breakdown" and r["bytes"]}
    assert by_component["total"] == est.per_gpu_total
    assert by_component["parameters"] == est.bytes_of("parameters")


def test_copy_chart_puts_an_image_on_the_clipboard(window):
    window.copy_chart_action.trigger()
    image = QGuiApplication.clipboard().image()
    assert not image.isNull() and image.width() == window.export_width()


def test_copy_table_gives_tab_separated_exact_bytes(seed_window):
    window = seed_window  # the seed's worked example, every group open
    window.copy_table_button.click()
    text = QGuiApplication.clipboard().text()
    lines = text.strip().split("\n")
    assert lines[0].split("\t")[0] == "Component"
    peak = estimate(window.presenter.scenario).peak
    assert lines[-1].startswith("Peak per GPU") and lines[-1].endswith(f"\t{peak.bytes}")  # the peak shown first
    choose(window.breakdown_panel.choice, "sum")  # the conventions' sum of components
    window.copy_table_button.click()
    lines = QGuiApplication.clipboard().text().strip().split("\n")
    assert any(line.endswith("\t26250000000") for line in lines)


def test_unit_menu_switches_to_gib(window):
    window.unit_actions["GiB"].trigger()
    assert "GiB" in window.summary.total.text()
    assert window.settings.unit() == "GiB"


def test_open_and_save_scenario_with_stubbed_dialogs(tmp_path, qtbot, window, monkeypatch):
    choose(window.inputs.editors["model.preset"], "qwen2.5-7b")
    window.inputs.editors["parallel.tp"].setValue(2)
    saved = window.presenter.scenario
    target = tmp_path / "plan.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.save_action.trigger()
    assert target.is_file()
    type_into(qtbot, window.inputs.editors["hardware.gpu_memory"], "24GB")
    assert window.presenter.scenario != saved
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(target), ""))
    window.open_action.trigger()
    assert window.presenter.scenario == saved


def test_opening_a_broken_scenario_warns(tmp_path, window, monkeypatch):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    warnings = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), ""))
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: warnings.append(a[2]))
    window.open_action.trigger()
    assert warnings


def test_zero3_enables_parameter_offload_and_shows_host_memory(qtbot, window):
    choose(window.inputs.editors["parallel.zero_stage"], "3")
    offload_params = window.inputs.editors["offload.params"]
    assert isinstance(offload_params, QCheckBox) and offload_params.isEnabled()
    window.inputs.editors["offload.optimizer"].setChecked(True)
    est = estimate(window.presenter.scenario)
    assert est.host_per_node and format_bytes(est.host_per_node) in window.summary.values["host"].text()


def test_formulas_dialog_explains_the_seed_terms(window):
    window.formulas_action.trigger()
    html = window.formulas_dialog.browser.toPlainText()
    assert "16Φ" in html and "N_d" in html and "Rajbhandari" in html
    derivation = estimate(window.presenter.scenario).component("gradients").derivation
    assert derivation in html  # the current scenario, term by term
    window.formulas_dialog.close()


def test_about_dialog_lists_versions_and_bundled_licences(window):
    window.about_action.trigger()
    dialog = window.about_dialog
    tabs = [dialog.tabs.tabText(i) for i in range(dialog.tabs.count())]
    assert tabs == [p.stem for p in licence_files()]
    text = " ".join(label.text() for label in dialog.findChildren(QLabel))
    for name in ("Qt", "PySide6", "pyqtgraph", "numpy", "Python"):
        assert name in text
    dialog.close()


def test_labels_are_not_clipped(window):
    for label in window.findChildren(QLabel):
        if label.isVisible() and label.text() and not label.wordWrap():
            assert label.width() >= label.minimumSizeHint().width(), label.text()


def test_every_input_has_a_tooltip_and_a_label_or_text(window):
    for key, editor in window.inputs.editors.items():
        assert editor.toolTip(), key
        assert window.inputs.labels[key].text() or (isinstance(editor, QCheckBox) and editor.text()), key


def test_dark_palette_gives_dark_charts_and_light_exports(tmp_path, qtbot, window):
    app = QApplication.instance()
    old = app.palette()
    dark = QPalette()
    for role, colour in ((QPalette.ColorRole.Window, "#202124"), (QPalette.ColorRole.Base, "#1b1b1d"),
                         (QPalette.ColorRole.Text, "#e8eaed"), (QPalette.ColorRole.WindowText, "#e8eaed")):
        dark.setColor(role, QColor(colour))
    try:
        app.setPalette(dark)
        qtbot.wait(10)
        assert window.strategy_chart.backgroundBrush().color().lightness() < 60
        window.export_chart(str(tmp_path / "dark.png"), 800)
        assert QColor(QImage(str(tmp_path / "dark.png")).pixel(3, 3)).name() == "#ffffff"
        assert window.strategy_chart.backgroundBrush().color().lightness() < 60  # restored after export
    finally:
        app.setPalette(old)


def test_shortcuts_are_bound(window):
    assert window.export_png_action.shortcut().toString() == "Ctrl+E"
    assert window.open_action.shortcut().toString() == "Ctrl+O"
    assert window.save_action.shortcut().toString() == "Ctrl+S"
    assert window.quit_action.shortcut().toString() == "Ctrl+Q"


def test_closing_saves_layout_and_last_scenario(qtbot, settings, window):
    scenario = window.presenter.scenario
    window.close()
    assert window.settings.last_scenario() == scenario
    assert window.settings.window_geometry() is not None
    assert Path(settings.fileName()).is_file()


def test_window_implements_the_presenters_view_protocol(window):
    from vramgui.presenters.protocols import MainView

    names = [n for n in vars(MainView) if not n.startswith("_")]
    assert names and all(callable(getattr(window, n, None)) for n in names)


def test_tab_order_follows_the_form_top_to_bottom(window):
    editors = window.inputs.editors
    order = list(editors)  # the order the rows were built, top to bottom, left to right
    position = {}
    widget = editors[order[0]]
    for step in range(10 * len(order)):  # a row may hold several focusable widgets (spin box arrows, line edits)
        for key, editor in editors.items():
            if widget is editor or editor.isAncestorOf(widget):
                position.setdefault(key, step)
        widget = widget.nextInFocusChain()
    reached = sorted(position, key=position.get)
    assert reached == [k for k in order if k in position]
    assert len(reached) == len(order)


def test_labels_have_buddies_so_mnemonics_focus_their_field(window):
    for key, label in window.inputs.labels.items():
        if "&" in label.text():
            assert label.buddy() is window.inputs.editors[key], key


def test_largest_model_chart_explains_itself_without_gpu_memory(qtbot, window):
    type_into(qtbot, window.inputs.editors["hardware.gpu_memory"], "")
    window.presenter.finish_sweeps()
    chart = window.max_model_chart
    assert chart.note.isVisible() and "GPU memory" in chart.note.textItem.toPlainText()
    assert not any(c.getData()[0] is not None and len(c.getData()[0]) for c in chart.curves.values() if c.isVisible())
    assert window.summary.fits_kind == "unknown"
    type_into(qtbot, window.inputs.editors["hardware.gpu_memory"], "80GB")
    window.presenter.finish_sweeps()
    assert not chart.note.isVisible()


def test_pinning_scenarios_fills_the_compare_tab_and_loads_them_back(qtbot, tmp_path, window):
    first = window.presenter.scenario
    window.pin_action.trigger()
    assert window.comparing()
    choose(window.inputs.editors["parallel.zero_stage"], "3")
    second = window.presenter.scenario
    window.pin_current()
    pinned = window.compare_presenter.pinned
    assert [p.scenario for p in pinned] == [first, second]
    assert window.compare_presenter.figures(pinned[1].id).total == estimate(second).per_gpu_total
    window.compare_presenter.load(pinned[0].id)
    assert window.presenter.scenario == first
    image = window.chart_image(1000)  # the visible (comparison) chart
    assert image.width() >= 1000 and image_stats(image)[0] > 10


def test_import_config_menu_reads_a_config_json(tmp_path, window, monkeypatch):
    import json

    config = {"model_type": "llama", "hidden_size": 512, "intermediate_size": 1376, "num_attention_heads": 8,
              "num_key_value_heads": 8, "num_hidden_layers": 4, "vocab_size": 32000, "tie_word_embeddings": False}
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.import_config_action.trigger()
    arch = window.presenter.scenario.model.architecture
    assert (arch.num_layers, arch.hidden_size) == (4, 512)
    assert window.inputs.editors["model.architecture.num_layers"].value() == 4
    assert shows_estimate(window, estimate(window.presenter.scenario))


def test_after_an_edit_the_sweeps_stay_faded_until_their_own_numbers_arrive_and_the_newest_edit_wins(
        qtbot, seed_window):
    from vramgui.views.main_window import MAX_MODEL_TAB, SWEEP_TAB

    window = seed_window  # the seed's worked example, every group open

    window.presenter.finish_sweeps()
    assert window.chart_is_current(SWEEP_TAB) and window.chart_is_current(MAX_MODEL_TAB)
    params = window.inputs.editors["model.params"]
    type_into(qtbot, params, "13B")
    assert window.presenter.sweeps_pending  # the strategy chart is current, the sweeps are not computed yet
    assert window.chart_is_current(0)
    assert not window.chart_is_current(SWEEP_TAB) and not window.chart_is_current(MAX_MODEL_TAB)
    assert window.sweep_chart.plot.opacity() < 1  # the earlier numbers are faded, not shown as current
    type_into(qtbot, params, "20B")  # a newer edit before the sweeps of the first one are done
    window.presenter.finish_sweeps()
    assert window.chart_is_current(SWEEP_TAB) and window.chart_is_current(MAX_MODEL_TAB)
    assert window.sweep_chart.plot.opacity() == 1
    zero3_at_8 = next(sc for st, sc in solve.strategy_variants(
        fields.with_value(window.presenter.scenario, "parallel.num_gpus", 8)) if st.key == "zero3")
    _xs, ys = window.sweep_chart.curves["zero3"].getData()
    assert window.presenter.scenario.model.params == 20 * GB  # the sweep drawn is the newest edit's
    assert ys[3] == pytest.approx(estimate(zero3_at_8).peak.bytes / 1e9)
