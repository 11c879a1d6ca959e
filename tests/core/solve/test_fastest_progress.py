"""``fastest``'s progress callback: asked through the survey of every layout and again while the layouts that fit are
refined (the window's worker cancels there too), and a False answer stops the search."""

from __future__ import annotations

from dataclasses import replace

from vramgui.core.documents.catalog import hardware_with_gpu
from vramgui.core.scenario.specs import Scenario
from vramgui.core.solve.fastest import fastest
from vramgui.io.presets import find_gpu, find_model


def _scenario() -> Scenario:
    s = Scenario(model=find_model("llama-3-8b").spec)
    s = replace(s, hardware=hardware_with_gpu(s.hardware, find_gpu("h100-sxm")))
    return replace(s, parallel=replace(s.parallel, num_gpus=2), training=replace(s.training, seq_len=8192,
                                                                                   global_batch=4))


def test_progress_is_asked_through_the_survey_then_the_refinement():
    s = _scenario()
    calls: list[tuple[int, int]] = []
    found = fastest(s, 2, progress=lambda done, total: calls.append((done, total)) or True)
    assert found == fastest(s, 2)  # asking changes nothing
    layouts = found.layouts
    survey = [c for c in calls if c[1] == layouts and c[0] < layouts]
    refine = [c for c in calls if c[0] >= layouts]
    assert [d for d, _ in survey] == list(range(layouts))
    assert refine and all(total > layouts for _, total in refine)  # (layouts + refined, layouts + candidates)
    assert [d for d, _ in refine] == sorted(d for d, _ in refine) and all(d <= t for d, t in refine)


def test_false_stops_the_refinement():
    s = _scenario()
    full = fastest(s, 2)
    asked: list[int] = []

    def stop_when_refining(done: int, total: int) -> bool:
        asked.append(done)
        return total == full.layouts  # keep going through the survey only

    stopped = fastest(s, 2, progress=stop_when_refining)
    assert len(stopped.points) < len(full.points) and stopped.estimated == 0 and not stopped.found
    assert asked[-1] == full.layouts  # the first question of the refinement was the last
