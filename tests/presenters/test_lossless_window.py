"""Opening a scenario in the window changes nothing (issue 10): the presenter holds the Scenario itself.

Driven as File > Open and File > Save drive it (``DocumentPresenter`` over a ``MainPresenter``, both against fake
views): the estimate the window shows equals ``vramgui estimate --scenario F --json`` (the CLI run in-process), and
saving what was opened writes the same scenario back, field for field.
"""

from __future__ import annotations

import functools
import io
import json
from contextlib import redirect_stdout
from dataclasses import replace
from unittest.mock import MagicMock

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from vramgui.cli.commands import main as cli_main
from vramgui.core.estimate import estimate
from vramgui.core.fields import registry as fields
from vramgui.core.fields.validate import validate_scenario
from vramgui.core.scenario.specs import ModelSpec, OffloadSpec, OverheadSpec, ParallelSpec, Scenario
from vramgui.core.serve.estimate import serve_estimate
from vramgui.core.text.errors import InputError
from vramgui.io.presets import find_model
from vramgui.io.scenario_files import load_scenario, save_scenario
from vramgui.presenters.document_presenter import DocumentPresenter
from vramgui.presenters.form.groups import FORM_PATHS
from vramgui.presenters.main_presenter import MainPresenter
from vramgui.presenters.protocols import DocumentView, MainView
from vramgui.settings import open_settings

GB = 10**9


class Window:
    """The two presenters of the main window against fake views, as app.py wires them."""

    def __init__(self, folder) -> None:
        self.view = MagicMock(spec=MainView)
        self.files = MagicMock(spec=DocumentView)
        self.editor = MainPresenter(self.view)
        self.document = DocumentPresenter(self.files, self.editor, open_settings(folder / "settings.ini"))
        self.document.restore_session()

    def open(self, path) -> None:
        assert self.document.open_path(str(path)), self.files.show_message.call_args
        self.editor.finish_sweeps()

    def save_as(self, path) -> None:
        self.files.ask_save_path.return_value = str(path)
        assert self.document.save_as(), self.files.show_message.call_args


def cli_json(path, serving: bool = False) -> dict:
    """``vramgui estimate`` (``serve`` for a Serve-mode scenario, as the window shows it) of the file."""
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        assert cli_main(["serve" if serving else "estimate", "--scenario", str(path), "--json"]) in (0, None)
    return json.loads(buffer.getvalue())


def shown_json(window: Window) -> dict:
    """The window's estimate in the CLI's shape, through JSON as the self-test writes it."""
    assert not window.editor.is_stale, window.editor.errors
    shown = window.editor.served or window.editor.computed  # Serve mode: vramgui serve's answer
    return json.loads(json.dumps(shown.to_dict()))  # the adviser's suggestions included


@pytest.fixture
def window(qapp, tmp_path):
    win = Window(tmp_path)
    yield win
    win.editor.finish_sweeps()


def write(tmp_path, scenario: Scenario, name: str = "plan.json"):
    path = tmp_path / name
    save_scenario(path, scenario)
    return path


# ----- the reproductions


def test_overheads_and_zero_init_are_kept_5_75_gb_not_1_75(window, tmp_path):
    plain = Scenario(model=ModelSpec(params=7 * GB), parallel=ParallelSpec(num_gpus=64, gpus_per_node=8, zero_stage=3))
    scenario = replace(plain, overhead=OverheadSpec(cuda_context=2 * GB, zero3_live_params=10**9),
                       offload=OffloadSpec(zero_init=False))
    assert estimate(plain).per_gpu_total == 1_750_000_000
    window.open(write(tmp_path, scenario))
    assert window.editor.scenario == scenario
    assert window.editor.result.summary.total_bytes == 5_750_000_000
    assert shown_json(window) == cli_json(tmp_path / "plan.json")
    assert window.editor.form_value("overhead.cuda_context") == "2GB"
    assert window.editor.form_value("overhead.zero3_live_params") == "1000000000"
    assert window.editor.form_value("offload.zero_init") is False


def test_twelve_gpus_at_eight_per_node_stay_eight_per_node(window, tmp_path):
    scenario = Scenario(model=ModelSpec(params=7 * GB), parallel=ParallelSpec(num_gpus=12, gpus_per_node=8,
                                                                               zero_stage=3),
                        offload=OffloadSpec(zero_init=False), convention="deepspeed")
    window.open(write(tmp_path, scenario))
    assert window.editor.scenario.parallel == scenario.parallel
    host = window.editor.computed.estimate.host_per_node
    assert host == 336 * GB  # 504 GB were it 12 GPUs in one node
    pushed = {}
    for call in window.view.set_form_values.call_args_list:
        pushed.update(call.args[0])
    assert pushed["parallel.nodes"] == "2 nodes, the last with 4 GPUs"


def test_a_hundred_gpus_at_eight_per_node_opens(window, tmp_path):
    scenario = Scenario(model=ModelSpec(params=7 * GB), parallel=ParallelSpec(num_gpus=100, gpus_per_node=8,
                                                                               zero_stage=2))
    window.open(write(tmp_path, scenario))
    assert window.editor.scenario == scenario and not window.editor.is_stale
    assert window.editor.form_value("parallel.num_gpus") == 100
    assert window.editor.form_value("parallel.gpus_per_node") == 8


def test_megatron_without_the_distributed_optimizer_comes_back_false(window, tmp_path):
    scenario = Scenario(model=find_model("llama-3-8b").spec, parallel=ParallelSpec(
        num_gpus=16, gpus_per_node=8, tp=2, distributed_optimizer=False), convention="megatron")
    window.open(write(tmp_path, scenario))
    window.save_as(tmp_path / "again.json")
    assert load_scenario(tmp_path / "again.json").parallel.distributed_optimizer is False
    assert load_scenario(tmp_path / "again.json") == scenario
    assert shown_json(window) == cli_json(tmp_path / "plan.json")


def test_every_field_of_a_scenario_is_a_field_of_the_form():
    assert sorted(FORM_PATHS) == sorted(f.path for f in fields.fields())
    assert len(set(FORM_PATHS)) == len(FORM_PATHS)


# ----- the property: any valid scenario


@functools.cache
def _small(path: str) -> st.SearchStrategy:
    """Values of one registry field, in ranges small enough that most scenarios are valid. Built once per field:
    building the strategies at every draw took two thirds of this test's time (65 of 89 s, cProfile)."""
    f = fields.field(path)
    if f.kind == "choice":
        return st.sampled_from(f.choices)
    if f.kind == "bool":
        return st.booleans()
    if f.kind == "text":
        return st.text("abc -_().é", max_size=12)
    if f.kind == "fraction":
        return st.sampled_from((0.0, 0.1, 0.2, 0.15, 0.5))
    small = {
        "model.params": st.integers(10**6, 2 * 10**11),
        "model.largest_layer": st.none() | st.integers(0, 10**8),
        "training.micro_batch": st.integers(1, 8),
        "training.seq_len": st.sampled_from((128, 1000, 2048, 4096)),
        "training.global_batch": st.none() | st.integers(1, 4096),
        "parallel.num_gpus": st.integers(1, 130),
        "parallel.gpus_per_node": st.integers(1, 16),
        "parallel.tp": st.sampled_from((1, 2, 4)),
        "parallel.pp": st.sampled_from((1, 2)),
        "hardware.gpu_memory": st.none() | st.integers(1, 200) .map(lambda g: g * GB) | st.just(80 * 2**30),
        "overhead.cuda_context": st.none() | st.integers(0, 4 * GB),  # None: the step peak's default
        "overhead.comm_buffers": st.none() | st.integers(0, 2 * GB),
        "overhead.zero3_live_params": st.none() | st.integers(0, 2 * 10**9),
        "overhead.zero3_prefetch": st.none() | st.integers(0, 10**9),
        "overhead.reduce_bucket": st.none() | st.integers(0, 10**9),
        "overhead.extra": st.sampled_from((0, 1, 10**9, 3 * 2**30)),
        "finetune.lora_rank": st.sampled_from((1, 8, 16, 64)),
        "training.moe_capacity_percent": st.none() | st.sampled_from((100, 125, 200)),
        "training.moe_imbalance_percent": st.sampled_from((100, 150)),
        "parallel.ep": st.sampled_from((1, 2)),
        "parallel.etp": st.none() | st.sampled_from((1, 2)),
        "parallel.cp": st.sampled_from((1, 2)),
        "parallel.vpp": st.sampled_from((1, 2)),
        "parallel.first_stage_layers": st.none() | st.integers(1, 4),
        "parallel.last_stage_layers": st.none() | st.integers(1, 4),
        "serve.context": st.sampled_from((1, 4096, 131072)),
        "serve.batch": st.integers(1, 64),
        "serve.max_num_batched_tokens": st.none() | st.sampled_from((2048, 8192)),
        "serve.kv_cache_memory_bytes": st.none() | st.integers(1, 100) .map(lambda g: g * GB),
        "serve.block_size": st.sampled_from((16, 32)),
        "serve.ubatch": st.sampled_from((512, 2048)),
        # the time and cost inputs and the GPU's compute figures (vramgui.core.time)
        "training.train_tokens": st.none() | st.sampled_from((10**9, 300 * 10**9, 10**12)),
        "hardware.tflops_16bit": st.none() | st.sampled_from((312.0, 989.4)),
        "hardware.tflops_fp8": st.none() | st.just(1978.9),
        "hardware.tflops_tf32": st.none() | st.just(156.0),
        "hardware.tflops_fp32": st.none() | st.just(19.5),
        "hardware.memory_bandwidth": st.none() | st.sampled_from((2039 * 10**9, 3_350 * 10**9)),
        "hardware.link_bandwidth": st.none() | st.just(300 * 10**9),
        "hardware.pcie_bandwidth": st.none() | st.just(31_500_000_000),
        "hardware.network_bandwidth": st.none() | st.just(50 * 10**9),
        "hardware.intra_node_bandwidth": st.none() | st.just(450 * 10**9),
        "hardware.inter_node_bandwidth": st.none() | st.sampled_from((25 * 10**9, 50 * 10**9)),
        "hardware.achieved_tflops": st.none() | st.just(140.0),
        "hardware.gpu_hour_price": st.none() | st.sampled_from((0.0, 2.5)),
    }
    return small[path]


MODELS = ("gpt2", "llama-3-8b", "mixtral-8x7b", "qwen2.5-7b")


@st.composite
def valid_scenarios(draw) -> Scenario:
    s = Scenario()
    for f in fields.fields():
        if f.group != "architecture":
            s = fields.with_value(s, f.path, draw(_small(f.path)))
    how = draw(st.sampled_from(("params", "preset", "both")))
    if how != "params":
        spec = find_model(draw(st.sampled_from(MODELS))).spec
        s = replace(s, model=replace(spec, params=s.model.params if how == "both" else spec.params,
                                     largest_layer=s.model.largest_layer, name=s.model.name))
    try:
        validate_scenario(s)
        estimate(s)
        if s.serve.active:
            serve_estimate(s)
    except InputError:
        assume(False)
    return s


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(scenario=valid_scenarios())
def test_open_shows_the_cli_estimate_and_save_gives_the_scenario_back(qapp, tmp_path_factory, scenario):
    folder = tmp_path_factory.mktemp("lossless")
    path = write(folder, scenario)
    window = Window(folder)
    window.open(path)
    assert window.editor.draft == scenario
    assert shown_json(window) == cli_json(path, scenario.serve.active)
    window.save_as(folder / "saved.json")
    assert load_scenario(folder / "saved.json") == scenario
    assert not window.document.is_modified()
