"""The one capped regular-file reader and the one atomic writer: hostile paths are refused fast and clearly, a
failed write leaves the old file byte for byte."""

from __future__ import annotations

import os
import stat
import sys
import threading
import time
from pathlib import Path

import pytest

from vramgui.io import files
from vramgui.io.files import (
    FileReadError,
    FileTooLargeError,
    atomic_write_bytes,
    atomic_write_text,
    read_regular_file,
)

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and symbolic links need POSIX")


def _in_thread(fn, timeout: float = 5.0):
    """Run ``fn`` in a thread: (finished, exception). A read that blocks cannot hang the test run."""
    box: dict = {}

    def target():
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout)
    return not thread.is_alive(), box.get("error")


# ------------------------------------------------------------------------------------------ read_regular_file


def test_reads_a_regular_file_up_to_its_cap(tmp_path):
    path = tmp_path / "a.bin"
    path.write_bytes(b"x" * 100)
    assert read_regular_file(path, 100) == b"x" * 100
    assert read_regular_file(str(path), 100) == b"x" * 100


@posix_only
def test_a_fifo_is_refused_before_it_is_opened(tmp_path):
    fifo = tmp_path / "config.json"
    os.mkfifo(fifo)
    start = time.monotonic()
    finished, error = _in_thread(lambda: read_regular_file(fifo, 1000, what="model config"))
    assert finished, "reading a FIFO blocked"
    assert isinstance(error, FileReadError) and isinstance(error, ValueError)
    assert "not a regular file" in str(error) and "FIFO" in str(error) and str(fifo) in str(error)
    assert error.path == str(fifo) and "model config" in str(error)
    assert time.monotonic() - start < 5


@posix_only
def test_a_fifo_swapped_in_after_the_check_does_not_block(tmp_path, monkeypatch):
    """os.stat says regular file (the name changed in between): the non-blocking open and fstat still refuse."""
    fifo = tmp_path / "swapped.json"
    os.mkfifo(fifo)
    real_stat = os.stat
    fake = os.stat_result((stat.S_IFREG | 0o644, 0, 0, 1, 0, 0, 10, 0, 0, 0))

    def lying_stat(path, *args, **kwargs):
        return fake if os.fspath(path) == str(fifo) else real_stat(path, *args, **kwargs)

    monkeypatch.setattr(files.os, "stat", lying_stat)
    finished, error = _in_thread(lambda: read_regular_file(fifo, 1000))
    if not finished:  # unblock the reader before failing: open the write end
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("opening a FIFO blocked")
    assert isinstance(error, FileReadError) and "not a regular file" in str(error)


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(FileReadError, match=r"not a regular file \(it is a folder\)"):
        read_regular_file(tmp_path, 1000)


def test_a_missing_file_is_refused_with_its_path(tmp_path):
    with pytest.raises(FileReadError) as err:
        read_regular_file(tmp_path / "nope.json", 1000, what="scenario file")
    assert "cannot open" in str(err.value) and "nope.json" in str(err.value) and "scenario file" in str(err.value)
    assert err.value.reason.startswith("cannot open")


@posix_only
def test_a_symlink_loop_is_refused(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.symlink_to(b)
    b.symlink_to(a)
    with pytest.raises(FileReadError, match="loop of symbolic links"):
        read_regular_file(a, 1000)


@posix_only
def test_a_dangling_symlink_is_refused(tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "gone.json")
    with pytest.raises(FileReadError, match="cannot open"):
        read_regular_file(link, 1000)


@posix_only
def test_a_symlink_to_a_regular_file_is_read(tmp_path):
    (tmp_path / "real.json").write_bytes(b"{}")
    (tmp_path / "link.json").symlink_to(tmp_path / "real.json")
    assert read_regular_file(tmp_path / "link.json", 10) == b"{}"


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="root reads anything")
def test_an_unreadable_file_is_refused(tmp_path):
    path = tmp_path / "secret.json"
    path.write_bytes(b"{}")
    path.chmod(0)
    try:
        with pytest.raises(FileReadError, match="cannot open: Permission denied"):
            read_regular_file(path, 1000)
    finally:
        path.chmod(0o600)


def test_a_name_with_a_nul_character_is_refused(tmp_path):
    with pytest.raises(FileReadError, match="cannot open"):
        read_regular_file(str(tmp_path / "a\0b"), 1000)


def test_an_oversized_file_is_refused_unread_naming_the_cap(tmp_path):
    path = tmp_path / "big.json"
    with open(path, "wb") as fh:
        fh.truncate(10 * 2**20)  # sparse: nothing written
    with pytest.raises(FileTooLargeError) as err:
        read_regular_file(path, 2**20)
    assert "10,485,760 bytes" in str(err.value) and "1,048,576 bytes read at most" in str(err.value)
    assert err.value.limit == 2**20 and isinstance(err.value, FileReadError)


def test_one_byte_over_the_cap_is_refused(tmp_path):
    path = tmp_path / "a.bin"
    path.write_bytes(b"x" * 101)
    with pytest.raises(FileTooLargeError, match="read at most"):
        read_regular_file(path, 100)


def test_a_file_growing_past_the_cap_while_read_is_refused(tmp_path, monkeypatch):
    """fstat said small, the content is bigger (a file being written): only cap + 1 bytes are read."""
    path = tmp_path / "growing.bin"
    path.write_bytes(b"x" * 5000)
    real_fstat = os.fstat

    def small_fstat(fd):
        st = real_fstat(fd)
        return os.stat_result((*st[:6], 10, *st[7:10]))

    monkeypatch.setattr(files.os, "fstat", small_fstat)
    with pytest.raises(FileTooLargeError, match="grew beyond") as info:
        read_regular_file(path, 100)
    assert info.value.reason == "grew beyond the 100 bytes read at most while being read"


# ------------------------------------------------------------------------------------------------ writing


def _leftovers(folder: Path, *keep: str) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name not in keep)


def test_atomic_write_creates_and_replaces(tmp_path):
    path = tmp_path / "out.json"
    atomic_write_bytes(path, b"one")
    assert path.read_bytes() == b"one"
    atomic_write_text(path, "zwei\r\nthree\n 通义")
    assert path.read_bytes() == "zwei\r\nthree\n 通义".encode()
    assert _leftovers(tmp_path) == ["out.json"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_a_new_file_gets_the_umask_permissions_and_a_replaced_one_keeps_its_own(tmp_path):
    old = os.umask(0o027)
    try:
        atomic_write_text(tmp_path / "new.txt", "x")
    finally:
        os.umask(old)
    assert (tmp_path / "new.txt").stat().st_mode & 0o777 == 0o640
    path = tmp_path / "kept.txt"
    path.write_text("old")
    path.chmod(0o604)
    atomic_write_text(path, "new")
    assert path.stat().st_mode & 0o777 == 0o604 and path.read_text() == "new"


def test_a_failed_replace_leaves_the_old_file_identical_and_no_temp_file(tmp_path, monkeypatch):
    path = tmp_path / "plan.json"
    path.write_bytes(b"the old content\n")

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(files.os, "replace", refuse)
    with pytest.raises(PermissionError):
        atomic_write_text(path, "the new content")
    assert path.read_bytes() == b"the old content\n"
    assert _leftovers(tmp_path) == ["plan.json"]


def test_a_failed_write_leaves_the_old_file_identical_and_no_temp_file(tmp_path, monkeypatch):
    path = tmp_path / "plan.json"
    path.write_bytes(b"old")

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space left"):
        atomic_write_bytes(path, b"new" * 1000)
    assert path.read_bytes() == b"old"
    assert _leftovers(tmp_path) == ["plan.json"]


class _Interrupted(BaseException):
    """Like KeyboardInterrupt: not an Exception, must still clean up."""


def test_an_interrupted_write_removes_its_temp_file(tmp_path, monkeypatch):
    def interrupt(*args):
        raise _Interrupted

    monkeypatch.setattr(files.os, "chmod", interrupt)
    with pytest.raises(_Interrupted):
        atomic_write_bytes(tmp_path / "x.json", b"data")
    assert _leftovers(tmp_path) == []


def test_writing_onto_a_folder_fails_and_leaves_it_alone(tmp_path):
    folder = tmp_path / "taken.json"
    folder.mkdir()
    (folder / "inside.txt").write_text("keep")
    with pytest.raises(IsADirectoryError):
        atomic_write_text(folder, "x")
    assert folder.is_dir() and (folder / "inside.txt").read_text() == "keep"
    assert _leftovers(tmp_path) == ["taken.json"]


def test_writing_into_a_missing_folder_fails_without_leftovers(tmp_path):
    with pytest.raises(FileNotFoundError):
        atomic_write_text(tmp_path / "no" / "such.json", "x")
    assert _leftovers(tmp_path) == []


@posix_only
def test_a_symlink_is_followed_and_stays_a_link(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    atomic_write_text(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
    assert _leftovers(tmp_path) == ["link.json", "real.json"]


def test_relative_path_in_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    atomic_write_text("here.txt", "x")
    assert (tmp_path / "here.txt").read_text() == "x"


def test_a_fifo_is_written_into_not_replaced(tmp_path):
    """`-o /dev/null`, `-o /dev/stdout` or a FIFO: written into as it is. os.replace onto a device node would swap it
    for a regular file (as root this once turned the machine's /dev/null into one)."""

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    atomic_write_bytes(fifo, b"plan\n")
    reader.join(timeout=10)
    assert received == [b"plan\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # still the FIFO, no leftover temp file beside it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_dev_null_stays_a_device():
    if not os.path.exists("/dev/null"):
        pytest.skip("no /dev/null here")
    atomic_write_bytes("/dev/null", b"nothing")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
