"""packaging/xcb_bundle.py: the frozen app carries every library its platform plugins need, or the build says which.

The TOC walk runs on hand-made ELF files (tests/packaging/conftest.py); fetching runs apt-get for real where it can.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("xcb_bundle", ROOT / "packaging" / "xcb_bundle.py")
xcb_bundle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(xcb_bundle)


def _system_only(name: str) -> bool:  # PyInstaller's rule for what the user's system provides
    return not name.startswith(("libc.", "libxcb.so", "libGL."))


@pytest.fixture
def toc(tmp_path, make_elf):
    """A bundle's binaries: the xcb plugin and libQt6XcbQpa collected, two xcb libraries not (this machine lacks
    them); one of them fetched into a folder, itself needing another fetched one."""
    qt, fetched = tmp_path / "qt", tmp_path / "fetched"
    qt.mkdir()
    fetched.mkdir()
    (qt / "libqxcb.so").write_bytes(make_elf(["libQt6XcbQpa.so.6", "libxcb-icccm.so.4", "libxcb.so.1", "libc.so.6"]))
    (qt / "libqoffscreen.so").write_bytes(make_elf(["libQt6Gui.so.6"]))
    (qt / "libQt6XcbQpa.so.6").write_bytes(make_elf(["libxcb-keysyms.so.1", "libGL.so.1"]))
    (fetched / "libxcb-keysyms.so.1").write_bytes(make_elf(["libxcb-util.so.1"]))
    (fetched / "libxcb-util.so.1").write_bytes(make_elf(["libxcb.so.1"]))
    entries = [("PySide6/Qt/plugins/xcbglintegrations/libqxcb-glx-integration.so", str(qt / "libqxcb.so"), "BINARY"),
               ("PySide6/Qt/plugins/platforms/libqxcb.so", str(qt / "libqxcb.so"), "BINARY"),
               ("PySide6/Qt/plugins/platforms/libqoffscreen.so", str(qt / "libqoffscreen.so"), "BINARY"),
               ("PySide6/Qt/lib/libQt6XcbQpa.so.6", str(qt / "libQt6XcbQpa.so.6"), "BINARY"),
               ("PySide6/Qt/lib/libQt6Gui.so.6", str(qt / "libqoffscreen.so"), "BINARY"),
               ("PySide6/QtCore.abi3.so", str(qt / "libqoffscreen.so"), "EXTENSION")]
    return entries, fetched


def test_libraries_the_build_machine_lacks_come_from_the_fetched_folder(toc):
    entries, fetched = toc
    new, added, missing = xcb_bundle.bundle_plugin_dependencies(entries, [fetched], _system_only)
    # keysyms found among the fetched files, and what it needs in turn; the system-only libraries are not wanted
    assert [dest for dest, _src, _kind in added] == ["libxcb-keysyms.so.1", "libxcb-util.so.1"]
    assert all(kind == "BINARY" and Path(src).is_relative_to(fetched) for _dest, src, kind in added)
    assert new == entries + added
    # icccm is nowhere: named with the plugin that needs it (the platform plugin first, not the GL integration)
    assert missing == [("libxcb-icccm.so.4", "libqxcb.so")]


def test_nothing_is_added_or_missing_when_everything_is_collected(toc, tmp_path, make_elf):
    entries, fetched = toc
    (tmp_path / "icccm.so").write_bytes(make_elf([]))
    collected = [*entries, ("libxcb-icccm.so.4", str(tmp_path / "icccm.so"), "BINARY"),
                 ("libxcb-keysyms.so.1", str(fetched / "libxcb-keysyms.so.1"), "BINARY"),
                 ("libxcb-util.so.1", str(fetched / "libxcb-util.so.1"), "BINARY")]
    new, added, missing = xcb_bundle.bundle_plugin_dependencies(collected, [], _system_only)
    assert (new, added, missing) == (collected, [], [])


def test_the_build_failure_names_each_library_its_packages_and_both_ways_out():
    text = xcb_bundle.missing_message([("libxcb-icccm.so.4", "libqxcb.so"), ("libxcb-keysyms.so.1", "libqxcb.so")],
                                      Path("build/xcb-libs"))
    for word in ("libxcb-icccm.so.4", "libxcb-keysyms.so.1", "needed by libqxcb.so", "xcb-util-wm",
                 "sudo apt install libxcb-icccm4 libxcb-keysyms1", "python packaging/xcb_bundle.py fetch --dest"):
        assert word in text


def test_the_spec_stops_unless_told_to_build_without():
    spec = (ROOT / "packaging" / "vramgui.spec").read_text(encoding="utf-8")
    assert "bundle_plugin_dependencies" in spec and "raise SystemExit(_text)" in spec
    assert xcb_bundle.ALLOW_MISSING_ENV in spec or "ALLOW_MISSING_ENV" in spec


def test_what_a_build_here_would_lack_is_read_from_the_kept_plugins(tmp_path, make_elf):
    platforms = tmp_path / "Qt" / "plugins" / "platforms"
    platforms.mkdir(parents=True)
    (platforms / "libqxcb.so").write_bytes(make_elf(["libxcb-icccm.so.4", "libGL.so.1"]))
    (platforms / "libqeglfs.so").write_bytes(make_elf(["libinput.so.10"]))  # dropped by bundle_filter: not asked
    lacking = xcb_bundle.lacking_on_build_machine(platforms / "libqxcb.so", system=lambda name: False,
                                                  include=lambda name: not name.startswith("libGL."))
    assert lacking == ["libxcb-icccm.so.4"]  # libGL comes from the user's system; eglfs is not bundled


def test_fetching_refuses_libraries_without_a_known_package(tmp_path):
    with pytest.raises(xcb_bundle.FetchError, match=r"no known package for libfoo\.so\.1"):
        xcb_bundle.fetch(["libfoo.so.1"], tmp_path / "out")


def test_fetching_needs_apt(tmp_path, monkeypatch):
    monkeypatch.setattr(xcb_bundle.shutil, "which", lambda name: None)
    with pytest.raises(xcb_bundle.FetchError, match="apt-get and dpkg-deb"):
        xcb_bundle.fetch(["libxcb-icccm.so.4"], tmp_path / "out")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Debian packages")
def test_fetching_unpacks_the_debian_packages_without_installing_them(tmp_path):
    if not (shutil.which("apt-get") and shutil.which("dpkg-deb")):
        pytest.skip("needs apt-get and dpkg-deb (Debian, Ubuntu)")
    try:
        dirs = xcb_bundle.fetch(["libxcb-icccm.so.4", "libxcb-keysyms.so.1"], tmp_path / "xcb")
    except xcb_bundle.FetchError as exc:
        pytest.skip(f"the package registry cannot be reached here: {exc}")
    found = {path.name for d in dirs for path in d.iterdir()}
    assert {"libxcb-icccm.so.4", "libxcb-keysyms.so.1"} <= found
    assert dirs == xcb_bundle.library_dirs(tmp_path / "xcb")
    assert not list(tmp_path.glob("xcb.tmp-*"))  # the work folder is gone
