""".github/workflows/release.yml: it runs what exists here (make targets, scripts, the spec) and proves each binary.

The text checks need nothing; the structure is read with PyYAML where it is installed (it is not a test
dependency: those checks skip without it). The workflow itself was validated against GitHub's workflow schema
(check-jsonschema --builtin-schema vendor.github-workflows); GitHub runs it, not this suite.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"
TEXT = WORKFLOW.read_text(encoding="utf-8")
CODE = "\n".join(line for line in TEXT.splitlines() if not line.lstrip().startswith("#"))  # without comments


def _make_targets() -> set[str]:
    targets: set[str] = set()
    for line in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines():
        found = re.match(r"^([A-Za-z0-9_.\-/$() ]+?)\s*:(?![=:])", line)
        if found and not line.startswith(("\t", "#")):
            targets.update(found[1].split())
    return targets


def test_every_make_target_the_workflow_runs_exists():
    used = set(re.findall(r"\bmake\s+([a-z][\w-]*)", CODE))
    assert used == {"dist", "dist-onefile"}
    assert used <= _make_targets()


def test_every_repository_file_the_workflow_names_exists():
    named = re.findall(r"(?<![\w/\\])(?:packaging|resources)[/\\][\w./\\*-]+", CODE)
    paths = {path.replace("\\", "/") for path in named}
    assert "packaging/vramgui.spec" in paths and "packaging/dist_size.py" in paths
    for path in paths:
        assert list(ROOT.glob(path)), f"the workflow names {path}, which does not exist"


def test_linux_installs_the_xcb_libraries_and_an_x_server():
    for package in ("xvfb", "xauth", "libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1", "libxcb-image0",
                    "libxcb-render-util0", "libxkbcommon-x11-0", "icu-devtools", "binutils"):
        assert re.search(rf"\s{re.escape(package)}(\s|$)", TEXT), package
    assert "QT_QPA_PLATFORM=xcb" in TEXT and "xvfb-run" in TEXT and "platform xcb" in TEXT


def test_each_binary_runs_the_self_test_and_the_cli_estimate_of_the_test_suite():
    from tests.packaging.test_frozen import CLI_ARGS  # the same estimate the frozen smoke test checks

    assert " ".join(CLI_ARGS) in TEXT and "26250000000" in TEXT
    assert TEXT.count("--self-test") >= 5  # folder + one file on Linux/macOS, xcb, folder + one file on Windows
    # Windows: the console twin for output, .exe names, the PowerShell venv layout
    for needle in ("vramgui-cli.exe", ".venv-dist\\Scripts\\python.exe", "-- --onefile", ".exe\""):
        assert needle in TEXT, needle


def test_actions_are_pinned_to_a_major_version():
    uses = re.findall(r"uses:\s*(\S+)", TEXT)
    assert uses, "no actions used?"
    for action in uses:
        assert re.fullmatch(r"[\w-]+/[\w-]+@v\d+", action), action


@pytest.fixture(scope="module")
def workflow():
    yaml = pytest.importorskip("yaml", reason="PyYAML is not installed (not a test dependency)")
    return yaml.safe_load(TEXT)


def test_the_workflow_parses_with_a_three_platform_matrix_and_uploads(workflow):
    triggers = workflow.get("on", workflow.get(True))  # PyYAML (YAML 1.1) reads the key `on` as True
    assert "workflow_dispatch" in triggers and triggers["push"]["tags"] == ["v*"]
    build = workflow["jobs"]["build"]
    systems = [entry["os"].split("-")[0] for entry in build["strategy"]["matrix"]["include"]]
    assert sorted(systems) == ["macos", "ubuntu", "windows"]
    steps = build["steps"]
    assert all("run" in step or "uses" in step for step in steps)
    assert any(step.get("uses", "").startswith("actions/upload-artifact@") for step in steps)
    for step in steps:  # platform steps say which runner they are for, by runner.os
        if "if" in step:
            assert re.search(r"runner\.os (==|!=) '(Linux|Windows|macOS)'", step["if"]), step["if"]
    release = workflow["jobs"]["release"]
    assert release["needs"] == "build" and release["permissions"] == {"contents": "write"}
    assert "refs/tags/v" in release["if"]
