"""The pre-start check (vramgui/io/xcb_libs.py): which libraries Qt's xcb plugin lacks, named with their packages.

Unit tests run on hand-made ELF files in a fake plugin folder with an injected system look-up; the last tests take
the real libraries away from this machine (a private mount namespace, tests/packaging/conftest.py) and run vramgui
from the source tree, where Qt alone would abort.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from vramgui.io import xcb_libs

HIDDEN = ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]


@pytest.fixture
def fake_qt(tmp_path, make_elf):
    """A PySide6-like tree: plugins/platforms/libqxcb.so -> $ORIGIN/../../lib/libQt6XcbQpa.so.6 -> xcb libraries."""
    platforms, lib = tmp_path / "Qt" / "plugins" / "platforms", tmp_path / "Qt" / "lib"
    platforms.mkdir(parents=True)
    lib.mkdir(parents=True)
    (platforms / "libqxcb.so").write_bytes(make_elf(
        ["libQt6XcbQpa.so.6", "libxcb-cursor.so.0", "libGL.so.1", "libc.so.6"], "$ORIGIN/../../lib"))
    (lib / "libQt6XcbQpa.so.6").write_bytes(make_elf(
        ["libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libxcb-cursor.so.0", "libm.so.6"], "$ORIGIN"))
    return platforms / "libqxcb.so"


@pytest.mark.parametrize(("is64", "little"), [(True, True), (False, False), (False, True)])
def test_needed_libraries_and_runpath_are_read_from_the_elf_file(tmp_path, make_elf, is64, little):
    path = tmp_path / "libx.so"
    path.write_bytes(make_elf(["libxcb.so.1", "libc.so.6"], "$ORIGIN/../lib:/opt/x", is64=is64, little=little))
    expected = xcb_libs.DynamicInfo(("libxcb.so.1", "libc.so.6"), ("$ORIGIN/../lib", "/opt/x"))
    assert xcb_libs.read_dynamic(path) == expected


def test_a_file_that_is_not_elf_is_refused(tmp_path, make_elf):
    (tmp_path / "x.so").write_bytes(b"#!/bin/sh\n")
    with pytest.raises(ValueError, match="not an ELF"):
        xcb_libs.read_dynamic(tmp_path / "x.so")
    (tmp_path / "y.so").write_bytes(make_elf(["libxcb.so.1"])[:90])
    with pytest.raises(ValueError, match="malformed"):
        xcb_libs.read_dynamic(tmp_path / "y.so")


def test_the_real_xcb_plugin_is_found_without_importing_qt_and_read():
    plugin = xcb_libs.find_plugin({})
    if plugin is None:
        pytest.skip("this PySide6 has no xcb platform plugin (not Linux?)")
    info = xcb_libs.read_dynamic(plugin)
    assert "libxcb-cursor.so.0" in info.needed and "$ORIGIN/../../lib" in info.search_path


def test_every_missing_library_is_found_through_the_qt_libraries_it_travels_with(fake_qt):
    asked = []

    def system(soname):
        asked.append(soname)
        return soname in ("libGL.so.1", "libxcb-cursor.so.0")

    missing = xcb_libs.missing_libraries(fake_qt, system=system, environ={})
    assert missing == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]
    # libQt6XcbQpa travels with Qt (RUNPATH): read, not asked for; glibc is never asked; each name asked once
    assert sorted(asked) == ["libGL.so.1", "libxcb-cursor.so.0", "libxcb-icccm.so.4", "libxcb-keysyms.so.1"]


def test_copies_in_the_frozen_folder_or_ld_library_path_count_as_present(fake_qt, tmp_path, make_elf):
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    (bundle / "libxcb-icccm.so.4").write_bytes(make_elf(["libxcb.so.1"]))
    other = tmp_path / "other"
    other.mkdir()
    (other / "libxcb-keysyms.so.1").write_bytes(make_elf([]))
    missing = xcb_libs.missing_libraries(fake_qt, system=lambda name: name == "libGL.so.1", extra_dirs=[bundle],
                                         environ={"LD_LIBRARY_PATH": str(other)})
    # the bundled copy is read in turn: what it needs is checked too
    assert missing == ["libxcb-cursor.so.0", "libxcb.so.1"]


@pytest.mark.parametrize(("env", "xcb"), [
    ({"DISPLAY": ":0"}, True),
    ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, False),
    ({"WAYLAND_DISPLAY": "wayland-0"}, False),
    ({}, False),
    ({"QT_QPA_PLATFORM": "xcb"}, True),
    ({"QT_QPA_PLATFORM": "offscreen", "DISPLAY": ":0"}, False),
    ({"QT_QPA_PLATFORM": "wayland", "DISPLAY": ":0"}, False),
    ({"QT_QPA_PLATFORM": "wayland;xcb", "DISPLAY": ":0"}, True),
    ({"QT_QPA_PLATFORM": "wayland;xcb", "WAYLAND_DISPLAY": "w"}, False),
])
def test_the_check_applies_only_when_qt_would_take_the_xcb_plugin(env, xcb):
    assert xcb_libs.would_use_xcb(env) is xcb


def test_no_verdict_without_xcb_or_without_a_plugin(fake_qt, tmp_path):
    def never(_name):
        return False

    assert xcb_libs.xcb_problem({"QT_QPA_PLATFORM": "offscreen"}, plugin=fake_qt, system=never) is None
    assert xcb_libs.xcb_problem({"WAYLAND_DISPLAY": "w"}, plugin=fake_qt, system=never) is None
    assert xcb_libs.xcb_problem({"DISPLAY": ":0"}, plugin=tmp_path / "none.so", system=never) is None
    assert xcb_libs.xcb_problem({"DISPLAY": ":0"}, plugin=fake_qt, system=lambda _n: True) is None


def test_the_message_names_every_library_its_packages_and_one_install_command(fake_qt):
    def system(name):
        return name == "libGL.so.1"

    debian = xcb_libs.xcb_problem({"DISPLAY": ":0"}, plugin=fake_qt, system=system,
                                  os_release='ID=ubuntu\nID_LIKE="debian"\n')
    for soname, package in (("libxcb-cursor.so.0", "libxcb-cursor0"), ("libxcb-icccm.so.4", "libxcb-icccm4"),
                            ("libxcb-keysyms.so.1", "libxcb-keysyms1")):
        assert soname in debian and package in debian
    assert "sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1" in debian and "dnf" not in debian
    fedora = xcb_libs.xcb_problem({"DISPLAY": ":0"}, plugin=fake_qt, system=system, os_release="ID=fedora\n")
    assert "sudo dnf install xcb-util-cursor xcb-util-wm xcb-util-keysyms" in fedora and "apt" not in fedora
    other = xcb_libs.xcb_problem({"DISPLAY": ":0"}, plugin=fake_qt, system=system, os_release="ID=arch\n")
    assert "sudo apt install" in other and "sudo dnf install" in other and "vramgui --help" in other


def test_an_unknown_library_is_named_without_a_package():
    text = xcb_libs.message(["libfoo.so.3"], "debian")
    assert "libfoo.so.3" in text and "package unknown" in text and "apt install" not in text


@pytest.mark.parametrize(("os_release", "family"), [
    ("ID=debian\n", "debian"), ("ID=linuxmint\nID_LIKE='ubuntu debian'\n", "debian"),
    ('ID="rocky"\nID_LIKE="rhel centos fedora"\n', "fedora"), ("ID=opensuse-tumbleweed\n", None), ("", None)])
def test_the_distribution_family_comes_from_os_release(os_release, family):
    assert xcb_libs.distribution_family(os_release) == family


def test_reading_the_real_plugin_tree_is_fast():
    plugin = xcb_libs.find_plugin({})
    if plugin is None:
        pytest.skip("this PySide6 has no xcb platform plugin")
    started = time.perf_counter()
    assert xcb_libs.missing_libraries(plugin, system=lambda _name: True, environ={}) == []
    # headers, dynamic sections and string tables only (libQt6Gui alone is 11 MB): about a millisecond here
    assert time.perf_counter() - started < 0.25


def _source_env(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
    env.update(PYTHONPATH=str(Path(__file__).resolve().parents[2]), **extra)
    return env


def test_without_the_libraries_vramgui_names_them_instead_of_aborting(without_system_libraries):
    hidden = without_system_libraries(HIDDEN)
    code = "import sys; from vramgui.app import main; sys.exit(main([]))"
    proc = subprocess.run([*hidden, sys.executable, "-c", code], env=_source_env(DISPLAY=":97531"),
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 2, proc.stderr
    for soname, debian, fedora in (("libxcb-icccm.so.4", "libxcb-icccm4", "xcb-util-wm"),
                                   ("libxcb-keysyms.so.1", "libxcb-keysyms1", "xcb-util-keysyms")):
        assert soname in proc.stderr and debian in proc.stderr and fedora in proc.stderr
    assert "install libxcb-icccm4 libxcb-keysyms1" in proc.stderr or "install xcb-util-wm" in proc.stderr
    assert "Traceback" not in proc.stderr and "Aborted" not in proc.stderr


def test_without_the_libraries_the_self_test_on_xcb_fails_with_their_names(without_system_libraries, tmp_path):
    hidden = without_system_libraries(HIDDEN)
    proc = subprocess.run([*hidden, sys.executable, "-m", "vramgui", "--self-test", str(tmp_path / "x.png")],
                          env=_source_env(QT_QPA_PLATFORM="xcb", DISPLAY=":97531"), capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 1, proc.stderr
    assert "vramgui self-test FAILED" in proc.stderr and "libxcb-icccm.so.4" in proc.stderr
    assert "libxcb-keysyms.so.1" in proc.stderr


@pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="needs xvfb-run (apt install xvfb xauth)")
def test_without_the_check_qt_would_abort_on_the_same_machine(without_system_libraries):
    # What the check prevents: on a running X server Qt itself only aborts the process.
    hidden = without_system_libraries(HIDDEN)
    code = "from PySide6.QtWidgets import QApplication; QApplication([])"
    proc = subprocess.run([*hidden, "xvfb-run", "--auto-servernum", sys.executable, "-c", code],
                          env=_source_env(QT_QPA_PLATFORM="xcb"), capture_output=True, text=True, timeout=120,
                          check=False)
    assert proc.returncode != 0
    assert 'Qt platform plugin "xcb"' in proc.stderr, proc.stderr
