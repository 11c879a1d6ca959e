"""What the form shows of the presets and of refused input: the search text of a model preset (its
name, CLI key and repository id, separators aside), the GPU list's memory, why a spin box refused a keystroke,
a size's unit asked for before its range, and the registry words each field row gives the form and the
captions. Qt-free apart from the translate call."""

from __future__ import annotations

import pytest

from vramgui.core.fields import registry as fields
from vramgui.core.text.errors import InputError
from vramgui.presenters import catalog_access, scenario_inputs
from vramgui.presenters.form.groups import default_scenario, parse_input
from vramgui.presenters.form.texts import field_info, percent_error_text
from vramgui.presenters.messages import input_error_text


@pytest.mark.parametrize("typed", ["llama-3", "Llama 3", "LLAMA_3", "llama.3", "llama-3-8b", "Meta-Llama-3-8B",
                                   "meta-llama/Meta-Llama-3-8B", "metallama38b"])
def test_a_model_is_found_by_its_name_cli_key_or_repository_id_whatever_the_separators(typed):
    text = catalog_access.model_search_text("llama-3-8b", "Meta Llama 3 8B")
    assert catalog_access.search_form(typed) in text


def test_a_search_does_not_run_from_one_name_into_the_next():
    text = catalog_access.model_search_text("gpt2", "GPT-2 (124M)")
    names = text.split(catalog_access.SEARCH_SEPARATOR)
    assert names == ["gpt2124m", "gpt2", "openaicommunitygpt2"]
    assert "124mgpt2" not in text


def test_an_item_that_is_no_preset_is_searched_by_what_it_shows():
    assert catalog_access.model_search_text("", "(none: custom model)") == "nonecustommodel"
    assert catalog_access.model_search_text("@imported", "My model (imported)") == "mymodelimported|imported"


def test_each_gpu_is_shown_with_the_memory_one_device_holds():
    assert catalog_access.gpu_choice_text("h100-sxm", "NVIDIA H100 SXM 80GB") == "NVIDIA H100 SXM 80GB · 80 GiB"
    assert catalog_access.gpu_choice_text("rtx-4090", "NVIDIA GeForce RTX 4090") == "NVIDIA GeForce RTX 4090 · 24 GiB"
    assert catalog_access.gpu_choice_text("custom", "Custom memory") == "Custom memory"


@pytest.mark.parametrize(("path", "typed", "expected"), [
    ("hardware.reserve", "100", "Reserve: 100 % is out of range (allowed: 0 to 99.99 %)"),
    ("hardware.reserve", " 150 % ", "Reserve: 150 % is out of range (allowed: 0 to 99.99 %)"),
    ("finetune.lora_dropout", "x", "LoRA dropout: expected a percentage, got 'x' (allowed: 0 to 99.99 %)"),
])
def test_a_percentage_that_is_not_a_value_is_explained_in_percent(qapp, path, typed, expected):
    assert percent_error_text(path, typed) == expected


@pytest.mark.parametrize("path", [f.path for f in fields.fields() if f.kind == "bytes"])
def test_a_size_without_a_unit_is_asked_for_it_before_its_range_is_checked(path):
    f = fields.field(path)
    with pytest.raises(InputError) as caught:
        parse_input(f, "80")
    assert "has no unit" in input_error_text(caught.value)
    assert parse_input(f, "80GB") == 80 * 10**9
    if f.low == 0:
        assert parse_input(f, "0") == 0  # nothing is nothing in any unit


def test_the_form_shows_each_choice_with_its_registry_words_or_as_its_value(qapp):
    stage = field_info("parallel.zero_stage")
    assert stage.choices == ("0", "1", "2", "3")
    assert stage.choice_texts == ("DDP (no sharding)", "ZeRO-1 (optimizer states)", "ZeRO-2 (+ gradients)",
                                  "ZeRO-3 / FSDP (+ parameters)")
    assert field_info("precision.fp8").choice_texts == ("none", "delayed", "current", "mxfp8")


def test_a_field_row_gives_the_form_its_check_text_placeholder_explanation_and_mnemonic(qapp):
    assert field_info("offload.params").check_text == "Offload parameters to CPU"
    assert field_info("overhead.cuda_context").placeholder == "default: 532 MiB"
    assert field_info("overhead.zero3_live_params").placeholder == "default"
    assert field_info("parallel.pp").explanation == "Pipeline stages: each holds 1/PP of the layers."
    assert (field_info("parallel.tp").mnemonic, field_info("parallel.cp").mnemonic) == ("T", "")


def test_captions_say_a_choice_with_the_words_of_its_row_and_other_values_as_label_and_value(qapp):
    s = default_scenario()
    assert scenario_inputs.text("precision.fp8", "delayed", s) == "FP8 delayed scaling"
    assert scenario_inputs.text("finetune.method", "qlora", s) == "QLoRA"
    assert scenario_inputs.text("precision.dtype", "bf16", s) == "bf16"
    assert scenario_inputs.text("finetune.base_dtype", "int8", s) == "Base weights: int8"
