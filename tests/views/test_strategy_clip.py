"""The strategy chart with a hopeless bar (issue 23): Mixtral 8x7B on 8 x A100 80GB, whose DDP step peak is
1,214.8 GB. The presenter cuts the bars above 3 x the GPU's memory; the chart draws them up to the cut with a break
and their exact value on the label, so the capacity line stands above a fifth of the y axis, not in its bottom few
percent."""

from __future__ import annotations

from tests.views.helpers import choose, settle


def test_the_capacity_line_stays_readable_beside_a_bar_of_1215_gb(window):
    choose(window.inputs.editors["model.preset"], "mixtral-8x7b")
    choose(window.inputs.editors["hardware.gpu"], "a100-80gb")
    window.presenter.on_field_edited("parallel.num_gpus", 8)
    settle()
    chart = window.strategy_chart
    vm = chart.vm
    assert vm.peak_texts[0] == "peak 1,214.8" and vm.clipped[0]
    assert not vm.clipped[3]  # ZeRO-3 (180.5 GB) drawn whole
    top = chart.plot.vb.viewRange()[1][1]
    assert top < 5 * vm.capacity  # main: the axis reached 1,400 (16 x the memory)
    assert vm.capacity / top > 0.2
    xs, ys = chart.breaks.getData()
    assert len(xs) == 4 * sum(vm.clipped)  # two strokes per cut bar
    assert max(ys) <= vm.clip_at
    window.document.ask_before_discarding = False
