"""vramgui.selftest: the image checks on hand-drawn pictures, and the whole self-test from the source tree."""

from __future__ import annotations

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
    def broken(_out_path):
        raise selftest.SelfTestError("chart image: looks blank")

    monkeypatch.setattr(selftest, "_exercise", broken)
    assert selftest.run(str(tmp_path / "x.png")) == 1
    assert "vramgui self-test FAILED: SelfTestError: chart image: looks blank" in capsys.readouterr().err


def test_the_self_test_passes_from_source(qapp, tmp_path, capsys):
    pytest.importorskip("vramgui.app", reason="the main window (vramgui.app) is not in this tree yet")
    out = tmp_path / "chart.png"
    assert selftest.run(str(out)) == 0, capsys.readouterr().err
    assert "vramgui self-test passed (source" in capsys.readouterr().out
    selftest.check_image(selftest.image_stats(out))
