"""``estimate --training-config FILE`` on real configs equals the estimate of the same plan typed as flags; the
report names every key; flags override the file; the nested DeepSpeed file is followed from the working directory."""

from __future__ import annotations

import json

import pytest

from tests.cli.training_config_cases import CASES, ROOT
from vramgui.cli.commands import main
from vramgui.core.documents.training.detect import detect
from vramgui.io.training_configs import read_document


def run(capsys, *argv: str) -> tuple[int, dict, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 and "--json" in argv else {}), err


@pytest.mark.parametrize(("fixture", "cwd", "given", "explicit"), CASES, ids=[c[0] for c in CASES])
def test_config_equals_its_flags(fixture, cwd, given, explicit, capsys, monkeypatch):
    monkeypatch.chdir(ROOT / cwd)
    path = str((ROOT / fixture).relative_to(ROOT / cwd))
    code, imported, err = run(capsys, "estimate", "--training-config", path, *given, "--json")
    assert code == 0, err
    report = imported.pop("imported")
    code, flagged, err = run(capsys, "estimate", *explicit, "--json")
    assert code == 0, err
    assert imported == flagged
    assert report["taken"] and report["files"][0] == path
    keys = [e["key"] for e in report["taken"]] + [e["key"] for e in report["ignored"] + report["unresolved"]]
    assert all(isinstance(k, str) and k for k in keys)


def test_at_least_twenty_fixtures_across_the_six_formats():
    assert len(CASES) >= 20
    formats = set()
    for fixture, *_ in CASES:
        formats.add(detect(read_document(ROOT / fixture)))
    assert formats == {"deepspeed", "accelerate", "axolotl", "llamafactory", "torchtune", "trainer"}
    for folder in ("accelerate", "axolotl", "llamafactory", "torchtune", "deepspeedexamples", "transformers"):
        assert (ROOT / folder / "LICENSE").is_file()
    assert (ROOT / "SOURCES.md").is_file()
