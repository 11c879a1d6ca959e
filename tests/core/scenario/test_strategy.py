"""The strategy is a value with a stable key and one labelling function."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vramgui.core.estimate import estimate
from vramgui.core.scenario.specs import ModelSpec, OffloadSpec, ParallelSpec, Scenario
from vramgui.core.scenario.strategy import Strategy, label
from vramgui.core.solve.questions import strategy_variants

BASE = Scenario(model=ModelSpec(params=10**9), parallel=ParallelSpec(num_gpus=8, zero_stage=3))


@pytest.mark.parametrize(("strategy", "key", "text", "short"), [
    (Strategy(0), "ddp", "DDP", "DDP"),
    (Strategy(2), "zero2", "ZeRO-2", "ZeRO-2"),
    (Strategy(2, True), "zero2+offload_opt", "ZeRO-2 + CPU optimizer offload", "ZeRO-2\n+ offload (opt.)"),
    (Strategy(3, True, True), "zero3+offload_all", "ZeRO-3 + CPU optimizer and parameter offload",
     "ZeRO-3\n+ offload (all)"),
    (Strategy(3, False, True), "zero3+offload_params", "ZeRO-3 + CPU parameter offload", "ZeRO-3\n+ offload (params)"),
    (Strategy(convention="megatron"), "megatron", "Megatron (no distributed optimizer)",
     "Megatron\nno distributed optimizer"),
    (Strategy(convention="megatron", distributed_optimizer=True), "megatron+distopt", "Megatron distributed optimizer",
     "Megatron\ndistributed optimizer"),
])
def test_key_and_labels(strategy, key, text, short):
    assert strategy.key == key
    assert str(strategy) == label(strategy) == text
    assert strategy.label(short=True) == short


def test_the_estimate_carries_the_scenarios_strategy_and_json_keeps_the_sharding_label():
    s = replace(BASE, offload=OffloadSpec(optimizer="cpu"))
    est = estimate(s)
    assert est.strategy == Strategy(3, True, False, "paper")
    assert est.to_dict()["strategy"] == "ZeRO-3"  # as --json has always said
    assert est.to_dict()["strategy_key"] == "zero3+offload_opt"


def test_megatron_ignores_stage_and_the_label_says_what_the_core_computes():
    s = replace(BASE, convention="megatron", parallel=replace(BASE.parallel, distributed_optimizer=False))
    est = estimate(s)
    assert est.strategy == Strategy(convention="megatron")
    assert str(est.strategy) == est.to_dict()["strategy"] == "Megatron (no distributed optimizer)"


def test_apply_gives_back_the_variant():
    for strategy, variant in strategy_variants(BASE):
        assert Strategy.of(variant) == strategy
        assert strategy.apply(BASE) == variant


def test_the_translator_renders_the_parts():
    table = {"ZeRO-{stage}": "Z{stage}", "{base} + CPU optimizer offload": "{base} + 优化器 CPU 卸载"}
    assert Strategy(2, True).label(lambda context, text: table.get(text, text)) == "Z2 + 优化器 CPU 卸载"
    broken = {"{base} + CPU optimizer offload": "{basis} + ?"}  # a broken translation falls back to English
    assert Strategy(2, True).label(lambda context, text: broken.get(text, text)) == "ZeRO-2 + CPU optimizer offload"
