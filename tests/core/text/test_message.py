"""The core's message catalogue: every code the code uses is in it, every entry renders in English and in
Chinese (read from the .ts source, no Qt needed) with the same placeholders, and what estimates emit is known."""

from __future__ import annotations

import itertools
import re
import string
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest

import vramgui
from vramgui.core.estimate import estimate
from vramgui.core.scenario.specs import (
    HardwareSpec,
    ModelSpec,
    OffloadSpec,
    OverheadSpec,
    ParallelSpec,
    PrecisionSpec,
    Scenario,
)
from vramgui.core.solve.questions import strategy_variants
from vramgui.core.terms import Derivation, Term, render_derivation, render_formula, render_terms
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import CATALOGUE, CONTEXT, PLURALS, Msg, render
from vramgui.io.presets import find_model
from vramgui.paths import resource_path

PACKAGE = Path(vramgui.__file__).parent
TS_FILE = resource_path("translations", "vramgui_zh_CN.ts")
PREFIXES = ("error", "allowed", "note", "deriv", "strategy", "component", "inactive")
CODE_RE = re.compile(r"""["']((?:""" + "|".join(PREFIXES) + r""")\.[a-z0-9_]+)["']""")


def chinese() -> dict[tuple[str, str], str]:
    root = ET.parse(TS_FILE).getroot()
    return {(ctx.findtext("name"), msg.findtext("source")): (msg.findtext("translation/numerusform")
                                                           if msg.get("numerus") == "yes"
                                                           else msg.findtext("translation")) or ""
            for ctx in root.iter("context") for msg in ctx.iter("message")
            if msg.find("translation").get("type") not in ("unfinished", "vanished", "obsolete")}


ZH = chinese()


def zh(context: str, text: str, n: int = -1) -> str:
    """Chinese from the .ts (zh_CN has one numerus form, so n picks nothing)."""
    return ZH.get((context, text), text)


def placeholders(template: str) -> list[str]:
    return sorted(name for _, name, _, _ in string.Formatter().parse(template) if name is not None)


def used_codes() -> set[str]:
    found = set()
    for path in PACKAGE.rglob("*.py"):
        if path.parent.name == "catalogue":
            continue
        found |= set(CODE_RE.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_code_the_code_uses_is_in_the_catalogue():
    assert sorted(used_codes() - set(CATALOGUE)) == []


@pytest.mark.parametrize("code", sorted(CATALOGUE))
def test_every_entry_renders_in_english_and_chinese_with_the_same_placeholders(code):
    template = CATALOGUE[code]
    assert (CONTEXT, template) in ZH, f"no finished zh_CN translation of {template!r} (run make lupdate, translate)"
    translated = ZH[(CONTEXT, template)]
    assert placeholders(translated) == placeholders(template)
    plural = PLURALS.get(code)
    params = {name: f"<{name}>" for name in placeholders(template) + ([plural.n] if plural else [])}
    english = render(Msg(code, tuple(params.items())))
    own = template if plural is None else plural.other.replace("%n", "{" + plural.n + "}")
    assert english == own.format(**params)
    shown = render(Msg(code, tuple(params.items())), zh)
    assert shown == translated.replace("%n", "{" + plural.n + "}" if plural else "%n").format(**params)
    assert all(f"<{name}>" in shown for name in params)


def _messages(value) -> list[Msg]:
    """Every Msg inside a value (nested parameters too)."""
    if isinstance(value, Msg):
        return [value, *itertools.chain.from_iterable(_messages(v) for _, v in value.params)]
    return []


def _emitted(est) -> list[Msg]:
    """Every message of an estimate; its derivations are rendered in Chinese and GiB on the way (no error)."""
    out = [*est.notes, est.strategy.msg(), est.strategy.msg(short=True)]
    if est.host_formula_msg is not None:
        out.append(est.host_formula_msg)
    for c in est.components:
        out.append(c.label_msg)
        d = c.deriv
        out += [m for m in (d.note, d.formula, d.shape) if m is not None]
        out += [t.label for t in d.terms if t.label is not None]
        assert "{" not in render_derivation(d, "GiB", zh) + render_formula(d, zh)
    return list(itertools.chain.from_iterable(_messages(m) for m in out))


SCENARIOS = [
    Scenario(model=model, precision=PrecisionSpec(dtype=dtype, recipe=recipe, optimizer=optimizer),
             parallel=ParallelSpec(num_gpus=8, zero_stage=stage, pp=pp), offload=OffloadSpec(optimizer=opt, params=par),
             overhead=OverheadSpec(cuda_context=10**9, zero3_live_params=10**8), convention=conv,
             hardware=HardwareSpec(gpu_memory=80 * 10**9))
    for model in (ModelSpec(params=7 * 10**9), replace(find_model("llama-3-8b").spec, params=None),
                  find_model("mixtral-8x7b").spec)
    for conv in ("paper", "deepspeed", "megatron")
    for stage, opt, par in ((0, "none", "none"), (1, "none", "none"), (3, "none", "none"), (3, "cpu", "none"),
                            (3, "cpu", "cpu"))
    for dtype, recipe, optimizer in (("bf16", "mixed", "adam"), ("bf16", "pure", "sgd"))
    for pp in (1, 2)
]


def test_everything_an_estimate_emits_is_a_known_message_with_a_translation():
    seen = set()
    for s in SCENARIOS:
        try:
            est = estimate(s)
        except InputError as err:
            msgs = _messages(err.msg) + _messages(err.allowed_msg)
        else:
            msgs = _emitted(est) + [m for v, _ in strategy_variants(s) for m in (v.msg(), v.msg(short=True))]
        for m in msgs:
            assert m.code in CATALOGUE
            assert (CONTEXT, CATALOGUE[m.code]) in ZH
            seen.add(m.code)
    assert {"note.deepspeed_stage1", "deriv.param_partition_offloaded", "deriv.optimizer_on_host", "deriv.layers",
            "strategy.offload_all_short", "note.megatron_optimizer", "deriv.host_ds3_offload_init"} <= seen
    assert {"note.pipeline_first_stage", "note.pipeline_last_stage"} & seen


def test_notes_read_in_chinese():
    s = replace(SCENARIOS[0], convention="deepspeed", parallel=replace(SCENARIOS[0].parallel, zero_stage=1))
    notes = [render(n, zh) for n in estimate(s).notes]
    assert "DeepSpeed 的 stage_1_and_2 估算器对阶段 1 和阶段 2 给出相同结果" in notes
    assert "未估算激活值：模型结构未知" in notes


def test_a_message_missing_a_parameter_still_renders_and_extra_parameters_are_ignored():
    """render never raises: an InputError built with a parameter left out must still print (it is rendered in
    InputError.__init__), and a translation naming an unknown parameter falls back to English."""
    assert render(Msg.of("error.out_of_range")) == "{value} is out of range"
    assert render(Msg.of("error.gpus_not_divisible", gpus=3)) == "3 GPUs do not divide into tp × pp = {group}"
    assert render(Msg.of("error.out_of_range", value=3, unused="x")) == "3 is out of range"
    assert render(Msg.of("error.out_of_range", value=3), lambda context, text: "{valeur} {value.real}") == (
        "3 is out of range")
    assert str(InputError("parallel.tp", Msg.of("error.out_of_range"))) == "parallel.tp: {value} is out of range"


@pytest.mark.parametrize(("n", "english", "chinese"), [
    (1, "1 layer × 31.2 MB", "1 层 × 31.2 MB"),
    (2, "2 layers × 31.2 MB", "2 层 × 31.2 MB"),
])
def test_a_count_takes_the_english_plural_rule_and_the_chinese_numerus_form(n, english, chinese):
    deriv = Derivation((Term(n * 31_250_000, n, quantity=31_250_000, style="fine_bytes",
                             label=Msg.of("deriv.layers")),), n * 31_250_000)
    assert render_terms(deriv) == english
    assert render_terms(deriv, "GB", zh) == chinese


@pytest.mark.parametrize(("rest", "english"), [
    (1, "1 layer is left over, and no other pipeline stage takes it"),
    (3, "3 layers are left over, and no other pipeline stage takes them"),
])
def test_an_error_with_a_count_says_one_layer_or_layers(rest, english):
    msg = Msg.of("error.middle_layers_left", rest=rest)
    assert render(msg) == english
    assert render(msg, zh) == f"剩下 {rest} 层，没有其他流水线阶段接收"


@pytest.mark.parametrize(("layers", "in_flight", "english", "chinese"), [
    (1, 1, "1 layer × 1 micro-batch in flight", "1 层 × 1 个在途微批次"),
    (32, 8, "32 layers × 8 micro-batches in flight", "32 层 × 8 个在途微批次"),
])
def test_the_activations_two_counts_each_take_their_plural(layers, in_flight, english, chinese):
    msg = Msg.of("deriv.layers", coefficient=layers, quantity=Msg.of("deriv.in_flight", count=in_flight))
    assert render(msg) == english
    assert render(msg, zh) == chinese


@pytest.mark.parametrize(("missing", "english", "chinese"), [
    (["a.safetensors"], "1 shard file missing (a.safetensors)", "缺少 1 个分片文件（a.safetensors）"),
    (["a.safetensors", "b.safetensors"], "2 shard files missing (a.safetensors, ...)",
     "缺少 2 个分片文件（a.safetensors 等）"),
])
def test_missing_shards_are_one_counted_message(missing, english, chinese):
    msg = Msg.of("note.shards_missing", count=len(missing), first=missing[0],
                 more=Msg.of("note.more_files") if len(missing) > 1 else "")
    assert render(msg) == english
    assert render(msg, zh) == chinese


@pytest.mark.parametrize(("heads", "english", "chinese"), [
    (1, "tensor-parallel size 2 does not divide 1 attention head", "张量并行规模 2 无法整除 1 个注意力头"),
    (25, "tensor-parallel size 2 does not divide 25 attention heads", "张量并行规模 2 无法整除 25 个注意力头"),
])
def test_a_head_count_says_one_head_or_heads(heads, english, chinese):
    msg = Msg.of("error.tp_divides_heads", tp=2, heads=Msg.of("error.attention_heads", heads=heads))
    assert render(msg) == english
    assert render(msg, zh) == chinese


def test_every_counted_message_is_a_numerus_entry_with_english_forms_that_differ():
    numerus = {msg.findtext("source") for msg in ET.parse(TS_FILE).getroot().iter("message")
               if msg.get("numerus") == "yes"}
    for code, plural in PLURALS.items():
        assert "%n" in plural.source and CATALOGUE[code] in numerus
        assert plural.one != plural.other and "%n" in plural.one and "%n" in plural.other
        assert "(s)" not in plural.one + plural.other


def test_no_english_template_writes_a_plural_as_s_in_brackets():
    shown = [CATALOGUE[c] for c in CATALOGUE if c not in PLURALS]
    assert [t for t in shown if "(s)" in t or "(es)" in t] == []


@pytest.mark.parametrize(("gpus", "english"), [
    (1, "1 GPU does not divide into tp × pp = 2"),
    (3, "3 GPUs do not divide into tp × pp = 2"),
])
def test_a_gpu_count_that_does_not_divide_reads_one_gpu_or_gpus(gpus, english):
    msg = Msg.of("error.gpus_not_divisible", gpus=gpus, group=2)
    assert render(msg) == english
    assert render(msg, zh) == f"{gpus} 张 GPU 无法按 TP × PP = 2 整除"
