"""The caption forms, the named paths and the form's own rows that the registry owns (``captions.py``,
``paths.py``, ``form_rows.py``): every path they name is a field, and each form says what the window used to."""

from __future__ import annotations

import pytest

from vramgui.core.fields import captions, form_rows, paths
from vramgui.core.fields import registry as fields
from vramgui.core.scenario import strategy
from vramgui.core.scenario.specs import ModelSpec, ParallelSpec, Scenario
from vramgui.core.text.message import render

S = Scenario(model=ModelSpec(params=7 * 10**9), parallel=ParallelSpec(num_gpus=12, gpus_per_node=8))


def test_every_path_the_core_names_for_clients_is_a_field_and_has_its_form_attached():
    registry = fields.registry()
    assert set(paths.ALL) <= set(registry)
    assert set(captions.CAPTIONS) | set(captions.NAMES) | set(strategy.FIELDS) <= set(registry)
    assert {p for p, f in registry.items() if f.caption is not None} == set(captions.CAPTIONS)
    assert {p: f.names for p, f in registry.items() if f.names} == captions.NAMES
    assert all(registry[p].group == "architecture" for p in (paths.ARCH_FAMILY, paths.ARCH_HIDDEN, paths.ARCH_HEADS))
    for hint in form_rows.HINTS:  # a hint sits under a form field and describes fields (or a section: "x.")
        assert registry[hint.under].form
        assert all(p in registry or p.endswith(".") for p in hint.describes)


@pytest.mark.parametrize(("path", "value", "short", "said"), [
    (paths.PARAMS, 7 * 10**9, True, "7B parameters"),
    (paths.PARAMS, 8_030_261_248, False, "8.03B parameters"),
    (paths.MICRO_BATCH, 4, True, "micro-batch 4"),
    (paths.SEQ_LEN, 8192, True, "seq 8k"),
    (paths.SEQ_LEN, 8192, False, "seq 8,192"),
    (paths.GLOBAL_BATCH, None, True, "no global batch"),
    (paths.GLOBAL_BATCH, 1024, True, "global batch 1,024"),
    (paths.NUM_GPUS, 12, True, "12 GPUs"),
    (paths.NUM_GPUS, 12, False, "12 GPUs (2 × 8)"),
    ("parallel.gpus_per_node", 8, True, "8 GPUs per node"),
    ("parallel.gpus_per_node", 8, False, ""),  # said in the GPUs' caption
    (paths.TP, 2, True, "TP 2"),
    ("parallel.sp", True, True, "SP"),
    (paths.GPU_MEMORY, 80 * 2**30, True, "80 GiB per GPU"),
    (paths.RESERVE, 0.2, True, "reserve 20 %"),
    ("finetune.lora_targets", "q_proj,v_proj", True, "LoRA on q_proj,v_proj"),
    (paths.MODEL_NAME, "custom", True, "custom model"),
    (paths.GPU_NAME, None, True, ""),
])
def test_a_caption_form_says_the_value_as_people_do(path, value, short, said):
    f = fields.field(path)
    assert f.caption is not None
    assert render(f.caption(f, value, S, short)) == said


@pytest.mark.parametrize(("path", "value"), [
    ("parallel.sp", False),  # off: "Sequence parallel: off", the row's ordinary form
    ("finetune.lora_targets", "attention"),  # a named set: its choice words
    (paths.MICRO_BATCH, None), (paths.GLOBAL_BATCH, 1024),  # not given / a caption: "label: value"
])
def test_a_caption_form_leaves_the_ordinary_form_where_it_has_none(path, value):
    f = fields.field(path)
    assert f.caption is not None and f.caption(f, value, S, path != paths.GLOBAL_BATCH) is None


def test_the_ui_rows_open_their_groups_and_the_mode_row_lists_the_model_modes():
    assert [r.key for r in form_rows.UI_ROWS] == [form_rows.MODEL_PRESET, form_rows.MODEL_MODE, form_rows.GPU_PRESET]
    assert {r.form for r in form_rows.UI_ROWS} <= {f.form for f in fields.fields()}
    assert form_rows.MODEL_MODES == ("preset", "params", "architecture")
    assert all(r.label and r.explanation and r.mnemonic for r in form_rows.UI_ROWS)
