"""vramgui.selftest: the image checks on hand-drawn pictures, and the whole self-test from the source tree."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QImage, QPainter

from vramgui import selftest


def _picture(path, width=1600, height=900, background="white", bars=True):
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor(background))
    if bars:
        painter = QPainter(image)
        for index, colour in enumerate(("#4e79a7", "#f28e2b", "#59a14f", "#e15759")):
            painter.fillRect(QRect(100 + index * 300, 300 - index * 50, 200, 500 + index * 50), QColor(colour))
        painter.setPen(Qt.GlobalColor.black)
        painter.drawText(QRect(0, 0, width, 100), Qt.AlignmentFlag.AlignCenter, "26.25 GB per GPU")
        painter.end()
    assert image.save(str(path))
    return path


def test_a_chart_like_picture_passes(qapp, tmp_path):
    stats = selftest.image_stats(_picture(tmp_path / "ok.png"))
    assert (stats.width, stats.height) == (1600, 900)
    assert stats.background_luma == pytest.approx(255)
    selftest.check_image(stats)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"bars": False}, "looks blank"),
    ({"background": "black"}, "dark background"),
    ({"width": 640, "height": 480}, "size 640x480"),
])
def test_blank_black_or_small_pictures_fail(qapp, tmp_path, kwargs, message):
    stats = selftest.image_stats(_picture(tmp_path / "bad.png", **kwargs))
    with pytest.raises(selftest.SelfTestError, match=message):
        selftest.check_image(stats)


def test_an_unreadable_file_fails(qapp, tmp_path):
    (tmp_path / "not.png").write_text("not a picture")
    with pytest.raises(selftest.SelfTestError, match="not a readable image"):
        selftest.image_stats(tmp_path / "not.png")


def test_bundled_resources_are_found_from_the_source_tree():
    assert "licence files" in selftest.check_resources()


def test_run_reports_failure_with_a_message_and_exit_code(tmp_path, monkeypatch, capsys):
    def broken(*_args):
        raise selftest.SelfTestError("chart image: looks blank")

    monkeypatch.setattr(selftest, "_exercise", broken)
    assert selftest.run(str(tmp_path / "x.png")) == 1
    assert "vramgui self-test FAILED: SelfTestError: chart image: looks blank" in capsys.readouterr().err


def _run(out, scenario=None) -> int:
    from vramgui import app

    return selftest.run(str(out), None if scenario is None else str(scenario), create_app=app.create_application,
                        create_window=app.create_main_window)


def _cli_json(argv: list[str]) -> dict:
    from vramgui.cli.commands import main as cli_main

    buffer = io.StringIO()
    with redirect_stdout(buffer):
        assert cli_main(argv) in (0, None)
    return json.loads(buffer.getvalue())


def test_the_self_test_passes_from_source(qapp, tmp_path, capsys):
    out = tmp_path / "chart.png"
    assert _run(out) == 0, capsys.readouterr().err
    assert "vramgui self-test passed (source" in capsys.readouterr().out
    selftest.check_image(selftest.image_stats(out))
    shown = json.loads((tmp_path / "chart.json").read_text(encoding="utf-8"))
    # the window's first screen (Llama-3-8B, ZeRO-2, 8 x H100 SXM), exactly as the CLI estimates it
    assert shown == _cli_json([
        "estimate", "--preset", "llama-3-8b", "--gpu", "h100-sxm", "--gpus", "8", "--stage", "2", "--optimizer",
        "adamw", "--json"])


def test_the_self_test_opens_a_scenario_and_writes_what_the_cli_estimates(qapp, tmp_path, capsys):
    scenario = tmp_path / "plan.json"
    scenario.write_text(json.dumps({
        "model": {"params": 7_000_000_000, "largest_layer": 500_000_000}, "precision": {"dtype": "bf16"},
        "parallel": {"num_gpus": 12, "gpus_per_node": 8, "zero_stage": 3}, "offload": {"zero_init": False},
        "hardware": {"gpu_memory": 80 * 10**9, "reserve": 0.1},
        "overhead": {"cuda_context": 2 * 10**9, "zero3_live_params": 10**9}, "convention": "deepspeed"}),
        encoding="utf-8")
    out = tmp_path / "shot.png"
    assert _run(out, scenario) == 0, capsys.readouterr().err
    shown = json.loads((tmp_path / "shot.json").read_text(encoding="utf-8"))
    assert shown == _cli_json(["estimate", "--scenario", str(scenario), "--json"])
    assert shown["num_gpus"] == 12


def test_a_scenario_that_cannot_be_opened_fails_the_self_test_with_the_reason(qapp, tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"precision": {"dtype": "fp8"}}', encoding="utf-8")
    assert _run(tmp_path / "x.png", bad) == 1
    err = capsys.readouterr().err
    assert "self-test FAILED" in err and "precision.dtype" in err
    assert not (tmp_path / "x.json").exists()

