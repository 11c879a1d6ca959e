"""What the step time keeps between estimates (a micro-batch's work per layout and batch, the rates per hardware
and precision, the FLOPs per architecture) answers exactly what computing afresh does: each field the work reads
is changed in turn, the cache warm from the one before."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vramgui.core.documents.catalog import hardware_with_gpu
from vramgui.core.scenario.choices import Attention, DType, Fp8Recipe, Recompute
from vramgui.core.scenario.specs import Scenario
from vramgui.core.time import work
from vramgui.core.time.flops import model_flops
from vramgui.core.time.rates import _rates, rates_of
from vramgui.io.presets import find_gpu, find_model

MIXTRAL = find_model("mixtral-8x7b").spec


def _mixtral(**parallel: object) -> Scenario:
    s = Scenario(model=MIXTRAL)
    s = replace(s, parallel=replace(s.parallel, num_gpus=64, **parallel),
                training=replace(s.training, micro_batch=2, seq_len=4096))
    return replace(s, hardware=hardware_with_gpu(s.hardware, find_gpu("h100-sxm")))


BASE = _mixtral(tp=2, pp=2, ep=4)
VARIANTS = [
    BASE, _mixtral(tp=4, pp=2, ep=4), _mixtral(tp=2, pp=4, ep=4), _mixtral(tp=2, pp=2, ep=4, cp=2),
    _mixtral(tp=2, pp=2, ep=4, sp=True), _mixtral(tp=2, pp=2, ep=8), _mixtral(tp=2, pp=2, ep=4, etp=1),
    _mixtral(tp=2, pp=2, ep=4, first_stage_layers=14), _mixtral(tp=2, pp=2, ep=4, last_stage_layers=14),
    *(replace(BASE, training=replace(BASE.training, **change)) for change in (
        {"micro_batch": 1}, {"seq_len": 8192}, {"moe_imbalance_percent": 150}, {"attention": Attention.EAGER},
        {"recompute": Recompute.FULL}, {"recompute": Recompute.SELECTIVE})),
    replace(BASE, precision=replace(BASE.precision, dtype=DType.FP32)),
    replace(BASE, precision=replace(BASE.precision, fp8=Fp8Recipe.DELAYED)),
    replace(BASE, hardware=hardware_with_gpu(BASE.hardware, find_gpu("a100-80gb"))),
]


@pytest.mark.parametrize("extra", [(False, 0, 0.0, 6.0), (True, 10**9, 2.5e9, 0.0), (False, 0, 0.0, 4.0)])
def test_the_kept_work_is_what_computing_afresh_gives(extra: tuple[bool, int, float, float]) -> None:
    work.clear_cache()
    seen = []
    for s in VARIANTS * 2:  # the second round answers from the cache
        arch = s.model.architecture
        assert arch is not None
        assert rates_of(s) == _rates(s)
        args = (arch, s, model_flops(arch), rates_of(s), *extra)
        kept = work.micro_batch_work(*args)
        assert kept == work._work(*args)
        seen.append(kept)
    assert len(set(seen)) == len(VARIANTS)  # every field changed does change the work: the key must hold it
