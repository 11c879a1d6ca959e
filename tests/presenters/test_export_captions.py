"""What exports say about their scenarios: a PNG's caption lists every input that changes the result, in the reader's
language (no English word left in a translated caption); the CSVs carry every input as a column, as UTF-8 with a
BOM (Excel on Windows), written atomically."""

from __future__ import annotations

import csv
from dataclasses import replace
from unittest.mock import MagicMock

import pytest

from tests.presenters.marking_translator import english_words, marking  # noqa: F401 - a fixture
from tests.presenters.test_compare_names import BASE, _another_value, edited
from tests.presenters.test_compare_presenter import fake_estimate, fake_max_micro_batch
from tests.strategies import LLAMA_8B
from vramgui.core.estimate import estimate
from vramgui.core.fields import registry as fields
from vramgui.core.scenario.specs import Scenario
from vramgui.presenters import result_csv, scenario_inputs
from vramgui.presenters.compare.presenter import ComparePresenter, CompareView
from vramgui.presenters.results import compute

PAPER = replace(BASE, convention="paper")  # the precision fields count (DeepSpeed's convention fixes them)


@pytest.fixture
def presenter():
    return ComparePresenter(MagicMock(spec=CompareView), estimate_fn=fake_estimate,
                            max_micro_batch_fn=fake_max_micro_batch)


def test_the_caption_lists_the_inputs_every_chart_depends_on():
    parts = scenario_inputs.export_caption(PAPER, estimate(PAPER)).split(" · ")
    for expected in ("8.03B parameters", "bf16", "mixed precision", "AdamW", "foreach optimizer step",
                     "micro-batch 2", "seq 4,096", "selective recomputation", "FlashAttention", "16 GPUs (2 × 8)",
                     "ZeRO-2", "TP 2", "PP 1", "SP", "80 GB per GPU", "reserve 5 %", "ZeRO paper convention",
                     "Layers: 32", "KV heads: 8"):
        assert expected in parts, expected


def test_a_model_given_by_its_architecture_shows_the_count_the_core_found():
    s = replace(PAPER, model=replace(PAPER.model, params=None))
    assert "8.03B parameters" in scenario_inputs.export_caption(s, estimate(s)).split(" · ")


def test_every_input_that_changes_the_result_changes_the_caption():
    """Registry-driven: a field added tomorrow is in captions without a change there."""
    unchanged = []
    for f in fields.fields():
        if f.kind == "text":
            continue
        base = PAPER if not f.path.startswith("finetune.") or f.path == "finetune.method" else edited(
            PAPER, finetune__method="lora")
        changed = fields.with_value(base, f.path, _another_value(f, fields.get(base, f.path)))
        if scenario_inputs.value(changed, f.path) is scenario_inputs.INACTIVE:
            continue
        if scenario_inputs.caption_parts(changed) == scenario_inputs.caption_parts(base):
            unchanged.append(f.path)
    assert unchanged == []


def test_the_window_charts_caption_is_the_scenarios_inputs():
    computed = compute(PAPER)
    caption = scenario_inputs.export_caption(PAPER, computed.estimate)
    assert "selective recomputation" in caption and "seq 4,096" in caption


def test_the_comparison_caption_lists_shared_inputs_and_each_bars_own(presenter):
    presenter.pin(PAPER)
    presenter.pin(edited(PAPER, parallel__zero_stage=3, training__recompute="full"), name="wide")
    caption = presenter.chart_caption()
    assert "GB (10^9 bytes)" in caption
    shared = next(line for line in caption.splitlines() if line.startswith("Every scenario: "))
    assert "Llama-3-8B" in shared and "seq 4,096" in shared and "recomputation" not in shared
    bars = caption.splitlines()[-1]
    assert bars == "Left to right: ZeRO-2, selective recomputation; wide (ZeRO-3, full recomputation)."


def test_one_pin_lists_all_its_inputs(presenter):
    presenter.pin(PAPER)
    assert "selective recomputation" in presenter.chart_caption().splitlines()[-1]


@pytest.mark.usefixtures("marking")
def test_a_translated_caption_holds_no_english_word(presenter):
    """Every term goes through the translator (choice values too: never "recompute: selective")."""
    s = edited(PAPER, training__recompute="selective", training__attention="eager", precision__fp8="delayed",
               training__loss="chunked", precision__optimizer="sgd_momentum", finetune__method="lora")
    main = scenario_inputs.export_caption(s, estimate(s))
    assert english_words(main) == [], main
    presenter.pin(s)
    presenter.pin(edited(s, parallel__zero_stage=3, training__recompute="full"))
    names = {"Llama", "A100", "80GB", "Llama-3-8B"}  # the user's model and GPU names are theirs
    assert english_words(presenter.chart_caption(), names) == [], presenter.chart_caption()


def _read(path):
    raw = path.read_bytes()
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return raw, list(csv.DictReader(handle))


def test_the_comparison_csv_has_every_input_column_and_a_bom(presenter, tmp_path):
    presenter.pin(PAPER, name="基线 · 8×")
    presenter.pin(edited(PAPER, training__recompute="full", training__seq_len=8192))
    path = tmp_path / "cmp.csv"
    presenter.write_csv(path)
    raw, rows = _read(path)
    assert raw.startswith(b"\xef\xbb\xbfname,"), "UTF-8 with a BOM: Excel on Windows reads · and × right"
    header = list(rows[0])
    assert header[:4] == ["name", "model", "gpu", "strategy"]
    for path_ in scenario_inputs.result_paths():
        assert path_ in header, path_
    assert header.index("finetune.adapter_dtype") < header.index("parameters_bytes")
    assert rows[0]["name"] == "基线 · 8×"
    assert [r["training.recompute"] for r in rows] == ["selective", "full"]
    assert [r["training.seq_len"] for r in rows] == ["4096", "8192"]
    assert rows[0]["precision.dtype"] == "bf16" and rows[0]["parallel.num_gpus"] == "16"
    assert rows[0]["hardware.gpu_memory"] == "80GB" and rows[0]["model.architecture.num_kv_heads"] == "8"
    assert rows[0]["parallel.zero_stage"] == "2" and rows[0]["strategy"] == "ZeRO-2"
    assert fields.parse(fields.field("hardware.gpu_memory"), rows[0]["hardware.gpu_memory"]) == 80 * 10**9


def test_an_input_column_is_empty_where_the_scenario_has_no_value(presenter, tmp_path):
    presenter.pin(Scenario())  # no architecture, no GPU memory
    presenter.write_csv(tmp_path / "c.csv")
    _, rows = _read(tmp_path / "c.csv")
    assert rows[0]["model.architecture.num_layers"] == "" and rows[0]["hardware.gpu_memory"] == ""


def test_the_window_csv_has_a_bom_too(tmp_path):
    computed = compute(LLAMA_8B)
    path = tmp_path / "data.csv"
    result_csv.write_csv(str(path), result_csv.csv_rows(computed, LLAMA_8B))
    raw, rows = _read(path)
    assert raw.startswith(b"\xef\xbb\xbftable,") and rows[0]["table"] == "breakdown"
    assert "×" in raw.decode("utf-8-sig")  # the formulas' × survive
