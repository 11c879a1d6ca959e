"""The comparison presenter against a fake view (``MagicMock(spec=CompareView)``) and a fake core."""

from __future__ import annotations

import csv
from dataclasses import dataclass, replace
from unittest.mock import MagicMock

import pytest

from vramgui.core.scenario.specs import HardwareSpec, ModelSpec, OffloadSpec, ParallelSpec, Scenario
from vramgui.core.text.errors import InputError
from vramgui.core.text.units import to_unit
from vramgui.presenters.compare.presenter import MAX_PINNED, STACK_KEYS, ComparePresenter, CompareView

GB = 10**9


@dataclass(frozen=True)
class FakeComponent:
    key: str
    bytes: int | None


@dataclass(frozen=True)
class FakePeak:
    bytes: int
    phase: str = "optimizer_step"
    step: str = "steady"


@dataclass(frozen=True)
class FakeEstimate:
    components: tuple
    per_gpu_total: int
    usable: int | None
    fits: bool | None
    headroom: int | None
    accumulation_steps: int
    strategy: str
    notes: tuple = ()
    peak: FakePeak | None = None


def fake_estimate(scenario: Scenario) -> FakeEstimate:
    """Deterministic stand-in: 2/2/12 bytes per parameter split over the GPUs, 5 GB activations; the step peak 4
    bytes per parameter above the sum (fits and headroom judge the peak, as the core's)."""
    if scenario.parallel.num_gpus > 64:
        raise InputError("parallel.num_gpus", "too many for this fake")
    p = scenario.model.params or 0
    n = scenario.parallel.num_gpus
    comps = (FakeComponent("parameters", 2 * p), FakeComponent("gradients", 2 * p),
             FakeComponent("optimizer_states", 12 * p // n), FakeComponent("master_weights", 4 * p // n),
             FakeComponent("activations", 5 * GB), FakeComponent("other", 0))
    total = 2 * p + 2 * p + 12 * p // n + 5 * GB
    mem = scenario.hardware.gpu_memory
    usable = None if mem is None else int(mem * (1 - scenario.hardware.reserve))
    peak = total + 4 * p
    return FakeEstimate(comps, total, usable, None if usable is None else peak <= usable,
                        None if usable is None else usable - peak, 4, f"ZeRO-{scenario.parallel.zero_stage}",
                        peak=FakePeak(peak))


def fake_max_micro_batch(scenario: Scenario) -> int:
    if scenario.hardware.gpu_memory is None:
        raise InputError("hardware.gpu_memory", "needed to solve")
    return 7


def scenario(params=1_000_000_000, gpus=8, memory=80 * GB, name="m") -> Scenario:
    return Scenario(model=ModelSpec(name=name, params=params), parallel=ParallelSpec(num_gpus=gpus, zero_stage=1),
                    hardware=HardwareSpec(gpu_name="A100", gpu_memory=memory, reserve=0.0))


@pytest.fixture
def view():
    return MagicMock(spec=CompareView)


@pytest.fixture
def presenter(view, tmp_path):
    return ComparePresenter(view, estimate_fn=fake_estimate, max_micro_batch_fn=fake_max_micro_batch,
                            export_folder=lambda: str(tmp_path))


def last_vm(view):
    return view.show_comparison.call_args.args[0]


def test_pinning_shows_the_core_figures_in_the_table_and_chart(presenter, view):
    pin_id = presenter.pin(scenario())
    assert pin_id is not None
    vm = last_vm(view)
    (row,) = vm.rows
    # 2+2 GB + 12/8 GB + 5 GB = 10.5 GB of 80 GB; the peak 4 GB above it
    assert (row.total_text, row.peak_text, row.fits, row.fits_text) == ("10.50 GB", "14.50 GB", True, "Yes")
    assert (row.headroom_text, row.max_micro_batch_text, row.accumulation_text) == ("65.50 GB", "7", "4")
    assert "Step peak: 14.50 GB (at the optimizer step, steady state) — sum of components: 10.50 GB" in row.tooltip
    assert row.name == "m · 8× A100 · ZeRO-1"
    assert vm.totals == pytest.approx((10.5,))
    assert vm.capacities == pytest.approx((80.0,))
    assert vm.empty_hint == ""


def test_chart_series_stack_every_component_once_and_reach_the_total(presenter, view):
    presenter.pin(scenario())
    presenter.pin(scenario(params=2_000_000_000, gpus=4))
    vm = last_vm(view)
    assert tuple(s.key for s in vm.series) == STACK_KEYS  # master_weights is inside optimizer_states
    for i, total in enumerate(vm.totals):
        top = vm.series[-1].bottoms[i] + vm.series[-1].heights[i]
        assert top == pytest.approx(total)
        for below, above in zip(vm.series, vm.series[1:], strict=False):
            assert above.bottoms[i] == pytest.approx(below.bottoms[i] + below.heights[i])


def test_at_least_four_can_be_pinned_and_the_limit_is_told(presenter, view):
    ids = [presenter.pin(scenario(params=10**9 * (i + 1))) for i in range(MAX_PINNED)]
    assert MAX_PINNED >= 4 and None not in ids and len(set(ids)) == MAX_PINNED
    assert last_vm(view).can_pin is False
    assert presenter.pin(scenario()) is None
    assert "At most" in view.show_message.call_args.args[0]
    assert len(presenter.pinned) == MAX_PINNED


def test_invalid_scenario_is_not_pinned_and_the_reason_is_shown(presenter, view):
    assert presenter.pin(scenario(gpus=128)) is None
    assert "Number of GPUs: too many" in view.show_message.call_args.args[0]  # the field by its label
    assert presenter.pinned == ()


def test_default_name_mentions_offload(presenter, view):
    presenter.pin(replace(scenario(), offload=OffloadSpec(optimizer="cpu")))
    assert last_vm(view).names == ("m · 8× A100 · ZeRO-1 + CPU optimizer offload",)


def test_pinning_the_same_scenario_twice_gives_distinct_names(presenter, view):
    presenter.pin(scenario())
    presenter.pin(scenario())
    assert last_vm(view).names == ("m · 8× A100 · ZeRO-1", "m · 8× A100 · ZeRO-1 (2)")


def test_rename_changes_the_name_and_an_empty_name_keeps_the_old_one(presenter, view):
    a = presenter.pin(scenario(), name="Baseline")
    presenter.rename(a, "  ZeRO-3 + offload ")
    assert last_vm(view).names == ("ZeRO-3 + offload",)
    presenter.rename(a, "   ")
    assert last_vm(view).names == ("ZeRO-3 + offload",)


def test_remove_and_clear(presenter, view):
    a = presenter.pin(scenario(), name="a")
    presenter.pin(scenario(), name="b")
    presenter.remove(a)
    assert last_vm(view).names == ("b",)
    presenter.clear()
    vm = last_vm(view)
    assert vm.rows == () and vm.empty_hint and vm.can_pin


def test_load_emits_the_pinned_scenario_for_the_editor(presenter):
    wanted = scenario(params=3_000_000_000)
    presenter.pin(scenario())
    b = presenter.pin(wanted)
    received = []
    presenter.load_requested.connect(received.append)
    presenter.load(b)
    assert received == [wanted]


def test_pinned_changed_reports_the_count(presenter):
    counts = []
    presenter.pinned_changed.connect(counts.append)
    a = presenter.pin(scenario())
    presenter.pin(scenario())
    presenter.remove(a)
    assert counts == [1, 2, 1]


def test_unit_change_reformats_without_recomputing(view, tmp_path):
    calls = []

    def counting(s):
        calls.append(s)
        return fake_estimate(s)

    presenter = ComparePresenter(view, estimate_fn=counting, max_micro_batch_fn=fake_max_micro_batch)
    presenter.pin(scenario(params=2**30, gpus=1, memory=None))
    presenter.set_unit("GiB")
    vm = last_vm(view)
    assert len(calls) == 1
    assert vm.unit == "GiB" and "GiB" in vm.axis_label
    # 2+2+12 bytes x 2^30 params = 16 GiB, plus 5e9 B activations
    assert vm.rows[0].total_text == f"{16 + 5e9 / 2**30:,.2f} GiB"


def test_unknown_fit_and_unsolvable_micro_batch_are_shown_as_such(presenter, view):
    presenter.pin(scenario(memory=None))
    row = last_vm(view).rows[0]
    assert row.fits is None and "Unknown" in row.fits_text
    assert row.headroom_text == "—" and row.max_micro_batch_text == "—"
    assert last_vm(view).capacities == (None,)


def test_csv_has_exact_bytes_for_each_pinned_scenario(presenter, tmp_path):
    presenter.pin(scenario(), name="Small, fits")
    presenter.pin(scenario(params=30 * 10**9, gpus=2, memory=80 * GB), name="大模型")
    path = tmp_path / "out.csv"
    presenter.write_csv(path)
    with open(path, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["name"] for r in rows] == ["Small, fits", "大模型"]
    assert rows[0]["total_bytes"] == str(10_500_000_000) and rows[0]["fits"] == "true"
    assert rows[1]["total_bytes"] == str(2 * 30 * GB * 2 + 12 * 30 * GB // 2 + 5 * GB)
    assert rows[1]["fits"] == "false" and int(rows[1]["headroom_bytes"]) < 0
    assert rows[0]["parameters_bytes"] == str(2 * 10**9) and rows[0]["max_micro_batch"] == "7"
    assert rows[0]["total_GB"] == "10.500"


def test_csv_has_the_step_peak_and_its_moment(presenter, tmp_path):
    presenter.pin(scenario(), name="fits")
    presenter.pin(scenario(params=10 * 10**9), name="sum fits, peak does not")  # 60 GB, 100 GB of 80 GB
    path = tmp_path / "out.csv"
    presenter.write_csv(path)
    with open(path, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    header = list(rows[0])
    assert header.index("total_GB") < header.index("peak_bytes") < header.index("peak_GB") < header.index("fits")
    assert rows[0]["peak_bytes"] == str(14_500_000_000) and rows[0]["peak_GB"] == "14.500"
    assert (rows[0]["peak_phase"], rows[0]["peak_step"]) == ("optimizer_step", "steady")
    sum_only = int(rows[1]["total_bytes"])
    assert sum_only <= int(rows[1]["usable_bytes"]) < int(rows[1]["peak_bytes"]) and rows[1]["fits"] == "false"


def test_each_bar_carries_its_peak_and_whether_it_fits_by_it(presenter, view):
    presenter.pin(scenario())
    presenter.pin(scenario(params=10 * 10**9))  # the sum (60 GB) fits in 80 GB, the peak (100 GB) does not
    vm = last_vm(view)
    assert vm.peaks == pytest.approx((14.5, to_unit(fake_estimate(scenario(params=10 * 10**9)).peak.bytes, "GB")))
    assert vm.fits == (True, False)
    assert vm.totals[1] <= vm.capacities[1] < vm.peaks[1]
    assert vm.peak_texts == ("peak 14.5", f"peak {vm.peaks[1]:,.1f}") and vm.sum_texts[0] == "sum 10.5"
    assert vm.label_tops == pytest.approx(vm.peaks)


def test_export_csv_asks_for_a_path_and_adds_the_extension(presenter, view, tmp_path):
    presenter.pin(scenario())
    view.ask_export_path.return_value = str(tmp_path / "mine")
    assert presenter.export_csv() is True
    assert (tmp_path / "mine.csv").read_text(encoding="utf-8").startswith("\ufeffname,")  # the BOM: Excel reads UTF-8
    start = view.ask_export_path.call_args.args[1]
    assert start == str(tmp_path / "vramgui-comparison.csv")


def test_cancelled_export_writes_nothing(presenter, view, tmp_path):
    presenter.pin(scenario())
    view.ask_export_path.return_value = None
    assert presenter.export_csv() is False and presenter.export_png() is False
    view.export_chart_png.assert_not_called()
    assert list(tmp_path.iterdir()) == []


def test_export_png_passes_title_and_caption_with_the_unit(presenter, view, tmp_path):
    presenter.pin(scenario())
    presenter.set_unit("GiB")
    view.ask_export_path.return_value = str(tmp_path / "chart.png")
    assert presenter.export_png() is True
    path, title, caption, width = view.export_chart_png.call_args.args
    assert path == str(tmp_path / "chart.png")
    assert title and "GiB" in caption and "2^30" in caption
    assert width == 1600  # no export width given: the window's default


def test_failed_export_is_told_not_raised(presenter, view, tmp_path):
    presenter.pin(scenario())
    view.ask_export_path.return_value = str(tmp_path / "chart.png")
    view.export_chart_png.side_effect = OSError("disk full")
    assert presenter.export_png() is False
    assert "disk full" in view.show_message.call_args.args[0]
    view.ask_export_path.return_value = str(tmp_path / "missing-folder" / "x.csv")
    assert presenter.export_csv() is False
    assert "Could not export" in view.show_message.call_args.args[0]


def test_nothing_to_export_when_nothing_is_pinned(presenter, view):
    assert presenter.export_png() is False and presenter.export_csv() is False
    view.ask_export_path.assert_not_called()


def test_with_the_real_core_the_figures_match_estimate_and_solver():
    from vramgui.core import estimate as estimate_mod
    from vramgui.core.scenario.architecture import Architecture
    from vramgui.core.solve import questions as solve_mod

    view = MagicMock(spec=CompareView)
    presenter = ComparePresenter(view)
    llama = ModelSpec(name="llama-7b-like", architecture=Architecture(num_layers=32, hidden_size=4096,
                                                                      num_heads=32, ffn_size=11008))
    s = Scenario(model=llama, parallel=ParallelSpec(num_gpus=8, zero_stage=2),
                 hardware=HardwareSpec(gpu_name="A100", gpu_memory=80 * GB, reserve=0.1))
    pin_id = presenter.pin(s)
    est = estimate_mod.estimate(s)
    figures = presenter.figures(pin_id)
    assert figures.total == est.per_gpu_total
    assert figures.headroom == est.headroom and figures.fits == est.fits
    assert (figures.peak, figures.peak_phase, figures.peak_step) == (est.peak.bytes, est.peak.phase, est.peak.step)
    assert last_vm(view).peaks[0] == pytest.approx(est.peak.bytes / GB)
    assert figures.accumulation_steps == est.accumulation_steps
    assert figures.max_micro_batch == solve_mod.max_micro_batch(s) > 0
    assert sum(b or 0 for _, b in figures.components) == est.per_gpu_total
    # no architecture: the micro-batch cannot be solved, the rest still compares
    no_arch = presenter.pin(scenario(params=7_000_000_000))
    assert presenter.figures(no_arch).max_micro_batch is None
