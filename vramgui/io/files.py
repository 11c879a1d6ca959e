"""The app's one capped regular-file reader, one capped JSON reader and one atomic writer.

Everything vramgui reads from disk (config.json, safetensors headers and indexes, scenario files, presets) goes
through ``read_regular_file`` / ``open_regular_file``: a path that is not a regular file (a folder, a FIFO or
device that would block forever, a dangling link or a symlink loop) is refused *before* it is opened for
reading, and no more than the cap plus one byte is ever read. ``read_json`` adds the limits ``json.loads``
lacks: nesting depth and element count are checked by a cheap scan of the text before anything is built, so a
hostile file can cost neither a RecursionError nor a huge structure; duplicate keys and NaN/Infinity are
refused. ``atomic_write_bytes``: temp file in the same folder, fsync, ``os.replace``; a failure leaves the old
file byte for byte as it was and no temp file behind.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from vramgui.core.documents.json_text import DEFAULT_MAX_DEPTH, DEFAULT_MAX_ITEMS, JsonError, decode_text, loads_json
from vramgui.core.text.message import Msg

__all__ = [
    "FileReadError", "FileTooLargeError", "JsonError", "atomic_write_bytes", "atomic_write_text",
    "open_regular_file", "read_error_message", "read_json", "read_regular_file",
]

_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # POSIX: opening a FIFO never waits for a writer
_OPEN_FLAGS = os.O_RDONLY | _O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0) | getattr(
    os, "O_BINARY", 0)


class FileReadError(ValueError):
    """A file that cannot be read as asked: ``what`` it was meant to be ("config.json", "scenario file"),
    its ``path`` and the ``reason``; ``str()`` says all three."""

    def __init__(self, path: str | os.PathLike[str], reason: str, what: str = "file") -> None:
        self.path = os.fspath(path)
        self.reason = reason
        self.what = what
        super().__init__(f"{what} {self.path}: {reason}")


def read_error_message(err: FileReadError | JsonError) -> Msg | str:
    """What to tell the user about a failed read: "{what}: {reason}" with a JSON problem as a message id; a file
    problem stays the reader's own text (it carries the operating system's words)."""
    if isinstance(err, JsonError):
        return Msg.of("error.in_file", file=err.what, problem=err.reason_msg)
    return str(err)


class FileTooLargeError(FileReadError):
    """The file is bigger than the reader's cap (``limit`` bytes); nothing beyond the cap was read."""

    def __init__(self, path: str | os.PathLike[str], reason: str, limit: int, what: str = "file") -> None:
        self.limit = limit
        super().__init__(path, reason, what)


# ------------------------------------------------------------------------------------------------ reading


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "it is a folder"
    if stat.S_ISFIFO(mode):
        return "it is a FIFO, a named pipe"
    if stat.S_ISSOCK(mode):
        return "it is a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "it is a device"
    return "it is a special file"


def _os_reason(verb: str, exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return f"cannot {verb}: a loop of symbolic links"
    return f"cannot {verb}: {exc.strerror or exc}"


@contextlib.contextmanager
def open_regular_file(path: str | os.PathLike[str], *, what: str = "file"
                      ) -> Iterator[tuple[BinaryIO, os.stat_result]]:
    """``(binary file, its fstat)`` for a regular file; a FileReadError for anything else, checked with
    ``os.stat`` before opening and with ``fstat`` after (the name may have changed in between). Opened
    non-blocking, so even a FIFO swapped in at the last moment cannot hang the caller."""
    try:
        before = os.stat(path)
    except OSError as exc:
        raise FileReadError(path, _os_reason("open", exc), what) from None
    except ValueError as exc:  # an embedded NUL character in the name
        raise FileReadError(path, f"cannot open: {exc}", what) from None
    if not stat.S_ISREG(before.st_mode):
        raise FileReadError(path, f"not a regular file ({_kind(before.st_mode)})", what)
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        raise FileReadError(path, _os_reason("open", exc), what) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileReadError(path, f"not a regular file ({_kind(st.st_mode)})", what)
        handle = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with handle:
        yield handle, st


def _too_large(path: str | os.PathLike[str], size: int | None, max_bytes: int, what: str) -> FileTooLargeError:
    """``size`` None: the file said it was small and grew (or is a /proc file, which says 0)."""
    reason = (f"grew beyond the {max_bytes:,} bytes read at most while being read" if size is None
              else f"{size:,} bytes, more than the {max_bytes:,} bytes read at most")
    return FileTooLargeError(path, reason, max_bytes, what)


def read_regular_file(path: str | os.PathLike[str], max_bytes: int, *, what: str = "file") -> bytes:
    """The whole content of a regular file of at most ``max_bytes`` bytes (reads at most ``max_bytes + 1``)."""
    with open_regular_file(path, what=what) as (handle, st):
        if st.st_size > max_bytes:
            raise _too_large(path, st.st_size, max_bytes, what)
        try:
            data = handle.read(max_bytes + 1)
        except OSError as exc:
            raise FileReadError(path, _os_reason("read", exc), what) from None
    if len(data) > max_bytes:
        raise _too_large(path, None, max_bytes, what)
    return data


def read_json(source: os.PathLike[str] | bytes | str, *, max_bytes: int, max_depth: int = DEFAULT_MAX_DEPTH,
              max_items: int = DEFAULT_MAX_ITEMS, what: str | None = None, allow_nan: bool = False) -> Any:
    """Parsed JSON from a file (a path-like such as ``Path``), from raw ``bytes`` (UTF-8, BOM tolerated) or from
    a ``str`` holding the JSON text itself, within every cap. A path given as a plain ``str`` must be wrapped
    in ``Path``: a ``str`` is always text.

    File problems raise FileReadError (FileTooLargeError above ``max_bytes``); content problems (not UTF-8,
    not JSON, too big, too deep, too many elements, duplicate keys, NaN/Infinity) raise JsonError. ``what``
    says what the document is meant to be ("model config", "scenario file"); messages name it with the path
    (default "JSON file <path>", or "the JSON text")."""
    if isinstance(source, str):
        name = what or "the JSON text"
        if len(source) > max_bytes:
            raise JsonError(name, Msg.of("error.json_text_over_cap", size=f"{len(source):,}", limit=f"{max_bytes:,}"))
        text = source
    elif isinstance(source, (bytes, bytearray, memoryview)):
        name = what or "the JSON text"
        if len(source) > max_bytes:
            raise JsonError(name, Msg.of("error.json_bytes_over_cap", size=f"{len(source):,}", limit=f"{max_bytes:,}"))
        text = decode_text(bytes(source), what=name)
    else:
        kind = what or "JSON file"
        name = f"{kind} {os.fspath(source)}"
        text = decode_text(read_regular_file(source, max_bytes, what=kind), what=name)
    return loads_json(text, max_depth=max_depth, max_items=max_items, what=name, allow_nan=allow_nan)


# ------------------------------------------------------------------------------------------------ writing


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write to a temp file in the same folder, fsync, then ``os.replace``: a crash or a full disk leaves the
    previous file untouched and never a half-written one. Keeps the old file's permissions; a symbolic link
    is followed (its target is replaced, the link stays). A name that is not a regular file (``/dev/null``,
    ``/dev/stdout``, a FIFO) is written into as it is: replacing it would swap a device node for a file (as root,
    ``-o /dev/null`` once turned the machine's /dev/null into a regular file). Raises OSError."""
    target = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        mode: int | None = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "a folder has this name", str(target))
    if mode is not None and not stat.S_ISREG(mode):  # a device, FIFO or socket: there is no file to keep intact
        with open(target, "wb") as handle:
            handle.write(data)
        return
    import tempfile  # only where a file is written: not on the command line's start-up path

    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        else:
            os.chmod(tmp, stat.S_IMODE(mode))
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); best effort, the file is already in place."""
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """``text`` as UTF-8 with its newlines as given, written with ``atomic_write_bytes``."""
    atomic_write_bytes(path, text.encode("utf-8"))
