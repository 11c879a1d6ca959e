"""A serving scenario pinned beside a training one: its bar stacks serving's parts up to ``vramgui serve``'s peak,
its row says its fit, and the comparison CSV carries its parts' columns."""

from __future__ import annotations

import csv
from dataclasses import replace
from unittest.mock import MagicMock

import pytest

from tests.presenters.test_serve_presenter import issue_scenario
from vramgui.core.serve.estimate import serve_estimate
from vramgui.core.text.units import to_unit
from vramgui.presenters.compare.presenter import ComparePresenter, CompareView
from vramgui.presenters.form.groups import default_scenario


@pytest.fixture
def presenter(qapp):
    return ComparePresenter(MagicMock(spec=CompareView))


def test_a_serving_pin_beside_a_training_pin(presenter, tmp_path):
    served = issue_scenario()
    training = replace(served, serve=replace(served.serve, active=False), parallel=default_scenario().parallel)
    assert presenter.pin(training) is not None and presenter.pin(served) is not None
    vm = presenter.view_model()
    e = serve_estimate(served)
    assert vm.totals[1] == pytest.approx(to_unit(e.peak_bytes, "GB"))
    by_key = {s.key: s for s in vm.series}
    assert by_key["kv_pool"].heights[1] == pytest.approx(to_unit(e.vllm.num_blocks * 32_768 * 32, "GB"))
    assert by_key["kv_pool"].heights[0] == 0 and by_key["parameters"].heights[1] == 0
    assert by_key["kv_pool"].label == "KV cache pool (vLLM)"
    top = max(s.bottoms[1] + s.heights[1] for s in vm.series)
    assert top == pytest.approx(vm.totals[1])
    assert vm.rows[1].fits is True
    path = tmp_path / "c.csv"
    presenter.write_csv(path)
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows[0]["kv_pool_bytes"] == "" and int(rows[1]["kv_pool_bytes"]) == e.pool.bytes
    assert int(rows[1]["total_bytes"]) == e.peak_bytes
