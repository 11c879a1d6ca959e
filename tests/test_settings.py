"""Settings: typed values survive a fresh read (another process's view of the INI file), garbage falls back."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PySide6.QtCore import QByteArray, QSettings

from vramgui.core.scenario.specs import HardwareSpec, ModelSpec, ParallelSpec, Scenario
from vramgui.settings import MAX_RECENT, Settings, open_settings

SCENARIO = Scenario(model=ModelSpec(name="Qwen 千问", params=7_000_000_000), parallel=ParallelSpec(num_gpus=8,
                    zero_stage=2), hardware=HardwareSpec(gpu_name="A100", gpu_memory=80 * 10**9, reserve=0.1))


@pytest.fixture
def ini(tmp_path):
    return tmp_path / "vramgui.ini"


def _fresh(path) -> Settings:
    return open_settings(path)


def _write_and_close(path, fill) -> None:
    settings = open_settings(path)
    fill(settings)
    settings.sync()
    del settings


def test_everything_is_restored_by_a_fresh_settings_object(ini, tmp_path):
    scenario_file = tmp_path / "plan.json"
    scenario_file.write_text("{}", encoding="utf-8")

    def fill(s: Settings) -> None:
        s.set_window_geometry(QByteArray(b"\x01\xd9\xd0\xcb\x00\x03geometry"))
        s.set_window_state(QByteArray(b"\x00\xff state"))
        s.set_splitter_sizes("main", [320, 880])
        s.set_last_scenario(SCENARIO)
        s.set_unit("GiB")
        s.set_language("zh_CN")
        s.set_last_folder("export", tmp_path)
        s.add_recent_file(scenario_file)

    _write_and_close(ini, fill)
    s = _fresh(ini)
    assert s.window_geometry() == QByteArray(b"\x01\xd9\xd0\xcb\x00\x03geometry")
    assert s.window_state() == QByteArray(b"\x00\xff state")
    assert s.splitter_sizes("main") == [320, 880]
    assert s.last_scenario() == SCENARIO
    assert s.unit() == "GiB"
    assert s.language() == "zh_CN"
    assert s.last_folder("export") == str(tmp_path)
    assert s.recent_files() == [str(scenario_file)]


def test_values_survive_a_read_in_another_process(ini):
    """INI values come back as strings in another process; the typed getters convert them."""
    _write_and_close(ini, lambda s: (s.set_splitter_sizes("main", [1, 2, 3]), s.set_unit("GiB"),
                                     s.set_last_scenario(SCENARIO)))
    code = textwrap.dedent(f"""
        from vramgui.settings import open_settings
        s = open_settings({str(ini)!r})
        print(s.splitter_sizes("main"), s.unit(), s.last_scenario().parallel.num_gpus)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.split() == ["[1,", "2,", "3]", "GiB", "8"]


def test_defaults_when_nothing_is_stored(ini, tmp_path):
    s = _fresh(ini)
    assert s.window_geometry() is None and s.window_state() is None
    assert s.splitter_sizes("main") is None
    assert s.last_scenario() is None
    assert s.unit() == "GB"
    assert s.language() == ""
    assert s.last_folder("open") == str(tmp_path.home())
    assert s.recent_files() == []


GARBAGE_INI = """\
[window]
geometry=not bytes at all
state=42
splitter_main=300,abc,-4
[scenario]
last="{\\"model\\": {\\"params\\": -1}}"
[display]
unit=furlongs
language=../../etc/passwd
[folders]
open=/no/such/folder/anywhere
[recent]
files=[1, 2, "
"""


def test_foreign_values_of_the_wrong_type_fall_back_to_defaults(ini, tmp_path):
    ini.write_text(GARBAGE_INI, encoding="utf-8")
    s = _fresh(ini)
    assert s.window_geometry() is None and s.window_state() is None
    assert s.splitter_sizes("main") is None
    assert s.last_scenario() is None
    assert s.unit() == "GB"
    assert s.language() == ""
    assert s.last_folder("open") == str(tmp_path.home())
    assert s.recent_files() == []


def test_binary_garbage_settings_file_gives_defaults_and_leaves_scenario_files_alone(ini, tmp_path):
    scenario_file = tmp_path / "keep.json"
    scenario_file.write_text('{"parallel": {"num_gpus": 2}}', encoding="utf-8")
    ini.write_bytes(bytes(range(256)) * 4)
    s = _fresh(ini)
    assert (s.unit(), s.language(), s.last_scenario(), s.recent_files()) == ("GB", "", None, [])
    s.set_unit("GiB")
    s.add_recent_file(scenario_file)
    s.sync()
    assert scenario_file.read_text(encoding="utf-8") == '{"parallel": {"num_gpus": 2}}'


def test_settings_file_that_is_a_folder_does_not_raise(tmp_path):
    folder = tmp_path / "oops.ini"
    folder.mkdir()
    s = open_settings(folder)
    s.set_unit("GiB")
    s.sync()
    assert s.unit() == "GiB"  # the session goes on in memory


def test_recent_files_are_most_recent_first_deduplicated_and_capped(ini, tmp_path):
    files = []
    for i in range(MAX_RECENT + 3):
        f = tmp_path / f"s{i},x.json"  # a comma in the name must not split the entry
        f.write_text("{}", encoding="utf-8")
        files.append(f)
    s = _fresh(ini)
    for f in files:
        s.add_recent_file(f)
    (tmp_path / "sub").mkdir()
    s.add_recent_file(tmp_path / "sub" / ".." / files[2].name)  # the same file, spelled differently
    s.sync()
    recent = _fresh(ini).recent_files()
    assert len(recent) == MAX_RECENT
    assert recent[0] == str(files[2])
    assert recent[1:] == [str(f) for f in reversed(files[-(MAX_RECENT - 1):])]


def test_recent_files_that_were_deleted_are_dropped(ini, tmp_path):
    keep, gone = tmp_path / "keep.json", tmp_path / "gone.json"
    for f in (keep, gone):
        f.write_text("{}", encoding="utf-8")
    s = _fresh(ini)
    s.add_recent_file(keep)
    s.add_recent_file(gone)
    gone.unlink()
    assert s.recent_files() == [str(keep)]
    assert s.remove_recent_file(keep) == []
    s.add_recent_file(keep)
    s.clear_recent_files()
    assert s.recent_files() == []


def test_single_recent_file_written_as_a_plain_ini_value_is_read(ini, tmp_path):
    f = tmp_path / "one.json"
    f.write_text("{}", encoding="utf-8")
    ini.write_text(f"[recent]\nfiles={f}\n", encoding="utf-8")
    assert _fresh(ini).recent_files() == [str(f)]


def test_last_folder_of_a_file_is_its_folder(ini, tmp_path):
    f = tmp_path / "chart.png"
    s = _fresh(ini)
    s.set_last_folder("export", f)
    assert s.last_folder("export") == str(tmp_path)


def test_last_scenario_can_be_cleared(ini):
    s = _fresh(ini)
    s.set_last_scenario(SCENARIO)
    s.set_last_scenario(None)
    assert s.last_scenario() is None


def test_bad_unit_or_folder_kind_is_a_programming_error(ini):
    s = _fresh(ini)
    with pytest.raises(ValueError):
        s.set_unit("MB")
    with pytest.raises(ValueError):
        s.last_folder("desktop")


def test_default_location_is_an_ini_file_under_the_user_config_dir(tmp_path):
    s = open_settings()
    assert isinstance(s.qsettings, QSettings)
    assert s.qsettings.format() == QSettings.Format.IniFormat
    assert s.file_name().startswith(str(tmp_path.parent)) or "/.config/" in s.file_name()
    assert s.file_name().endswith("vramgui/vramgui.ini")


def test_no_qsettings_is_created_at_import_time():
    """Module-level code (outside functions and classes) never constructs a QSettings (ReText's trap)."""
    import vramgui.settings as module

    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    top_level = [n for n in tree.body if not isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    calls = [c for n in top_level for c in ast.walk(n) if isinstance(c, ast.Call)]
    assert not [c for c in calls if "QSettings" in ast.unparse(c.func)]


@pytest.mark.parametrize("names", [[], ["training"], ["training", "strategy"]])
def test_the_open_form_groups_survive_a_fresh_read_whatever_their_number(ini, names):
    _write_and_close(ini, lambda s: s.set_open_form_groups(names))
    assert _fresh(ini).open_form_groups() == frozenset(names)


@pytest.mark.parametrize("stored", ['"training"', "{not json", "[1, null]", "7"])
def test_unusable_open_form_groups_mean_none_open(ini, stored):
    ini.write_text(f"[window]\nopen_groups={stored}\n", encoding="utf-8")
    assert _fresh(ini).open_form_groups() == frozenset()
