"""The presenter's half of the Fine-tuning group (issue 14), against fake views: which LoRA inputs are enabled and
why, what an edit sets, the error an unknown module name gives, the summary's trainable line, and that any LoRA /
QLoRA scenario opened in the window is the CLI's estimate and saves back unchanged."""

from __future__ import annotations

from dataclasses import replace
from unittest.mock import MagicMock

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.presenters.test_lossless_window import Window, cli_json, shown_json, write
from vramgui.core.estimate import estimate
from vramgui.core.fields import registry as fields
from vramgui.core.fields.validate import validate_scenario
from vramgui.core.scenario.specs import FinetuneSpec, ParallelSpec, Scenario, TrainingSpec
from vramgui.core.text.errors import InputError
from vramgui.io.presets import find_model
from vramgui.io.scenario_files import load_scenario
from vramgui.presenters.form.groups import ESSENTIALS, FORM_PATHS, GROUPS, editor_kind
from vramgui.presenters.form.texts import enabled_states, field_info
from vramgui.presenters.main_presenter import MainPresenter
from vramgui.presenters.protocols import MainView

FINETUNE = tuple(f.path for f in fields.fields() if f.path.startswith("finetune."))


@pytest.fixture
def presenter(qapp):
    p = MainPresenter(MagicMock(spec=MainView))
    p.start()
    p.on_field_edited("model.preset", "llama-3-8b")
    yield p
    p.finish_sweeps()


def test_the_group_holds_every_finetune_field_with_its_editor():
    # the method is one of the Essentials on top of the form; the rest is the Fine-tuning group, after Training
    assert GROUPS["finetune"] == FINETUNE[1:] and FINETUNE[0] in GROUPS[ESSENTIALS] and set(FINETUNE) <= set(FORM_PATHS)
    assert list(GROUPS).index("finetune") == list(GROUPS).index("training") + 1
    kinds = {path: editor_kind(fields.field(path)) for path in FINETUNE}
    assert kinds == {"finetune.method": "combo", "finetune.lora_rank": "spin", "finetune.lora_targets": "open",
                     "finetune.lora_dropout": "percent", "finetune.base_dtype": "combo",
                     "finetune.double_quant": "check", "finetune.adapter_dtype": "combo"}
    info = field_info("finetune.lora_targets")
    assert info.choices == ("attention", "all-linear") and info.label == "LoRA targets"
    assert field_info("finetune.lora_rank").allowed == "Allowed: 1 to 65,536"


@pytest.mark.parametrize(("method", "base", "disabled"), [
    ("full", "auto", dict.fromkeys(FINETUNE[1:], "Only for LoRA and QLoRA fine-tuning")),
    ("qlora", "auto", {"finetune.base_dtype": "QLoRA keeps its base in NF4"}),
    ("lora", "bf16", {"finetune.double_quant": "Only for a 4-bit (NF4) base"}),
    ("lora", "nf4", {}),
])
def test_inputs_a_method_ignores_are_disabled_with_the_cores_reason(method, base, disabled):
    draft = replace(Scenario(), finetune=FinetuneSpec(method=method, base_dtype=base))
    states, reasons = enabled_states(draft, "preset", set())
    assert {p: reasons[p] for p in FINETUNE if not states[p]} == disabled


def test_edits_set_the_held_scenario(presenter):
    presenter.on_field_edited("finetune.method", "qlora")
    presenter.on_field_edited("finetune.lora_rank", 64)
    presenter.on_field_edited("finetune.lora_targets", " q_proj , v_proj ")
    presenter.on_field_edited("finetune.lora_dropout", 5.0)  # the editor shows a percentage
    presenter.on_field_edited("finetune.double_quant", True)
    presenter.on_field_edited("finetune.adapter_dtype", "bf16")
    assert presenter.draft.finetune == FinetuneSpec("qlora", 64, "q_proj,v_proj", 0.05, "auto", True, "bf16")
    assert not presenter.is_stale and presenter.scenario == presenter.draft
    assert presenter.form_value("finetune.lora_targets") == "q_proj,v_proj"
    assert presenter.form_value("finetune.lora_dropout") == 5.0
    assert presenter.computed.estimate.trainable_params == 32 * 64 * ((4096 + 4096) + (4096 + 1024))


def test_an_unknown_module_is_an_error_of_the_targets_field(presenter):
    presenter.on_field_edited("finetune.method", "lora")
    view = presenter._view
    presenter.on_field_edited("finetune.lora_targets", "q_proj,c_attn")  # GPT-2's name, not Llama's
    assert presenter.is_stale
    [error] = presenter.errors
    assert error.key == "finetune.lora_targets"
    assert error.message.startswith("LoRA targets: this model has no Linear layer named c_attn (allowed: ")
    assert view.show_field_errors.call_args.args[0] == [error]
    states, _ = view.set_fields_enabled.call_args.args
    assert states["finetune.lora_targets"]  # blamed: it stays open to be corrected
    presenter.on_field_edited("finetune.lora_targets", "q_proj;")
    assert presenter.errors[0].message.startswith("LoRA targets: 'q_proj;' is not attention, all-linear or a comma")


def test_lora_needs_the_architecture_and_says_so_on_the_method(presenter):
    presenter.on_field_edited("model.mode", "params")
    presenter.on_field_edited("finetune.method", "lora")
    [error] = presenter.errors
    assert error.key == "finetune.method" and "architecture" in error.message


def test_the_summary_says_how_many_parameters_train(presenter):
    assert presenter.result.summary.trainable_text == ""  # full training: every parameter
    presenter.on_field_edited("finetune.method", "qlora")
    presenter.on_field_edited("finetune.lora_targets", "all-linear")
    assert presenter.result.summary.trainable_text == "41.94M (0.52 % of 8.03B)"


# ----- the property: any valid LoRA / QLoRA scenario opens as the CLI's estimate and saves back unchanged

TARGETS = st.sampled_from(("attention", "all-linear", "q_proj,v_proj", "o_proj", "mlp.down_proj,self_attn.q_proj",
                           "gate_proj,up_proj", "c_attn", "attn.c_proj,c_fc", "qkv_proj"))


@st.composite
def lora_scenarios(draw) -> Scenario:
    spec = find_model(draw(st.sampled_from(("gpt2", "llama-3-8b", "qwen2.5-7b", "mixtral-8x7b")))).spec
    finetune = FinetuneSpec(
        method=draw(st.sampled_from(("lora", "qlora"))), lora_rank=draw(st.sampled_from((1, 8, 16, 64, 4096))),
        lora_targets=draw(TARGETS), lora_dropout=draw(st.sampled_from((0.0, 0.05, 0.1))),
        base_dtype=draw(st.sampled_from(fields.field("finetune.base_dtype").choices)),
        double_quant=draw(st.booleans()), adapter_dtype=draw(st.sampled_from(("fp32", "bf16"))))
    s = Scenario(model=spec, finetune=finetune, training=TrainingSpec(
        seq_len=draw(st.sampled_from((512, 2048))), recompute=draw(st.sampled_from(("none", "full")))),
        parallel=ParallelSpec(num_gpus=draw(st.sampled_from((1, 2, 8))), zero_stage=draw(st.sampled_from((0, 3)))))
    for path in ("precision.dtype", "precision.recipe", "precision.optimizer", "hardware.reserve"):
        s = fields.with_value(s, path, draw(st.sampled_from(fields.field(path).choices or (0.0, 0.2))))
    s = fields.with_value(s, "hardware.gpu_memory", draw(st.sampled_from((None, 24 * 10**9, 80 * 2**30))))
    try:
        validate_scenario(s)
        estimate(s)
    except InputError:
        assume(False)
    return s


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(scenario=lora_scenarios())
def test_a_lora_plan_opens_as_the_cli_estimate_and_saves_back(qapp, tmp_path_factory, scenario):
    folder = tmp_path_factory.mktemp("lora")
    path = write(folder, scenario)
    window = Window(folder)
    window.open(path)
    assert window.editor.draft == scenario
    assert shown_json(window) == cli_json(path)
    assert window.editor.form_value("finetune.lora_targets") == scenario.finetune.lora_targets
    assert window.editor.result.summary.trainable_text
    window.save_as(folder / "saved.json")
    assert load_scenario(folder / "saved.json") == scenario
    assert not window.document.is_modified()
