"""Opening a training config in the window's document presenter (fake views): the plan equals the CLI's, the
summary lists taken / unresolved / ignored, a bad file is one message, File > Export plan writes the config."""

from __future__ import annotations

import json
from unittest.mock import MagicMock

import pytest

from tests.cli.training_config_cases import ROOT
from vramgui.core.estimate import estimate
from vramgui.core.scenario.specs import HardwareSpec, ModelSpec, ParallelSpec, Scenario
from vramgui.io.training_configs import load_training_config
from vramgui.presenters.document_presenter import DocumentPresenter
from vramgui.presenters.main_presenter import MainPresenter
from vramgui.presenters.protocols import DocumentView, MainView
from vramgui.settings import open_settings

QLORA = ROOT / "axolotl" / "examples" / "llama-3" / "qlora-1b.yml"


@pytest.fixture
def parts(qapp, tmp_path):
    view = MagicMock(spec=DocumentView)
    editor = MainPresenter(MagicMock(spec=MainView))
    document = DocumentPresenter(view, editor, open_settings(tmp_path / "s.ini"))
    document.restore_session()
    yield view, editor, document
    editor.finish_sweeps()


def test_opening_a_training_config_plans_its_run(parts, capsys):
    view, editor, document = parts
    editor.load_scenario(Scenario(parallel=ParallelSpec(num_gpus=2)))
    assert document.open_training_config(str(QLORA), ask=False)
    s = editor.draft
    assert (s.finetune.method, s.finetune.lora_rank, s.training.seq_len, s.model.name) == ("qlora", 32, 2048,
                                                                                         "Llama 3.2 1B")
    assert document.path is None and document.is_modified()  # not a scenario file: untitled, unsaved
    title, intro, sections = view.show_import_summary.call_args.args
    assert title == "Read from qlora-1b.yml" and intro.startswith("axolotl config: ")
    headings = [h for h, _ in sections]
    assert headings[0].startswith("Taken (14)") and headings[2].startswith("Ignored (26)")
    keys = [k for k, _ in sections[0][1]]
    assert "base_model" in keys and "lora_r" in keys
    from vramgui.cli.commands import main

    assert main(["estimate", "--training-config", str(QLORA), "--gpus", "2", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    cli.pop("imported")
    cli.pop("suggestions")
    assert estimate(s).to_dict() == cli  # the window plans what the command line plans


def test_a_config_that_names_no_model_keeps_the_windows_model_gpu_and_gpu_count(parts):
    _, editor, document = parts
    editor.load_scenario(Scenario(model=ModelSpec(name="mine", params=3 * 10**9), parallel=ParallelSpec(num_gpus=4),
                                  hardware=HardwareSpec(gpu_name="X", gpu_memory=40 * 10**9), convention="megatron"))
    assert document.open_training_config(str(ROOT / "axolotl" / "deepspeed_configs" / "zero1.json"), ask=False)
    s = editor.draft
    assert (s.model.name, s.parallel.num_gpus, s.hardware.gpu_memory, s.parallel.zero_stage) == ("mine", 4,
                                                                                              40 * 10**9, 1)
    assert s.convention == "paper"  # everything else starts fresh, as on the command line


def test_a_dropped_training_config_is_opened_as_one(parts):
    view, editor, document = parts
    assert document.open_dropped(str(ROOT / "accelerate" / "examples" / "config_yaml_templates" / "fsdp.yaml"))
    assert (editor.draft.parallel.num_gpus, editor.draft.parallel.zero_stage) == (2, 3)
    assert view.show_import_summary.called


def test_a_bad_file_is_one_message_and_changes_nothing(parts, tmp_path):
    view, editor, document = parts
    before = editor.draft
    bad = tmp_path / "bad.yaml"
    bad.write_text("distributed_type: FSDP\nfsdp_config: [\n")
    assert not document.open_training_config(str(bad), ask=False)
    kind, _, text = view.show_message.call_args.args
    assert kind == "warning" and str(bad) in text and "line" in text
    assert editor.draft == before


def test_export_plan_writes_by_suffix_and_names_what_is_not_written(parts, tmp_path):
    view, _, document = parts
    document.open_training_config(str(QLORA), ask=False)
    view.ask_save_path.return_value = str(tmp_path / "plan.json")
    assert document.export_plan()
    doc = json.loads((tmp_path / "plan.json").read_text())
    assert doc["train_micro_batch_size_per_gpu"] == 2 and doc["gradient_accumulation_steps"] == 4
    kind, _, text = view.show_message.call_args.args  # QLoRA and the sequence are the script's
    assert kind == "warning" and "--finetune qlora" in text
    view.ask_save_path.return_value = str(tmp_path / "acc.yaml")
    assert document.export_plan()
    imported, _ = load_training_config(tmp_path / "acc.yaml")
    assert imported.format == "accelerate"
    view.ask_save_path.return_value = str(tmp_path / "missing" / "x.json")
    assert not document.export_plan()
    assert view.show_message.call_args.args[0] == "critical"
