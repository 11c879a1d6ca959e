"""Offline read of a ``.gguf`` file's header: its metadata and tensor table, never its weights.

The layout is GGUF v2/v3 (ggml ``docs/gguf.md``; gguf-py ``gguf/gguf_reader.py``): the magic ``GGUF``, a uint32
version, uint64 tensor and key/value counts, the key/value pairs (a uint64-length string key, a uint32 value type,
the value; arrays carry an element type and a uint64 count), then per tensor a name, a uint32 dimension count,
uint64 dimensions, a uint32 ggml type and a uint64 offset. Everything is little-endian. Read through the capped
regular-file reader: at most ``MAX_HEADER_BYTES`` are read, strings and arrays are bounded, and long arrays (the
tokenizer's vocabulary and merges) are skipped with only their length kept. Interpreting the header is the pure
``vramgui.core.documents.gguf_config``.
"""

from __future__ import annotations

import os
import struct
from typing import Any, BinaryIO

from vramgui.core.documents.gguf_config import GgufHeader, GgufTensor, model_from_gguf
from vramgui.core.scenario.specs import ModelSpec
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg
from vramgui.io.files import FileReadError, open_regular_file, read_error_message

MAX_HEADER_BYTES = 256 * 2**20  # a 256k-token vocabulary with its merges is some 10 MB
MAX_STRING = 1 << 20
MAX_COUNT = 50_000_000  # keys, tensors and array elements
MAX_DIMS = 8
KEPT_ARRAY = 4096  # arrays longer than this keep their length only
_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
STRING, ARRAY = 8, 9


class _HeaderError(Exception):
    """A malformed header: the reason, turned into an InputError naming the file."""


class _Reader:
    def __init__(self, f: BinaryIO) -> None:
        self.f = f
        self.read_bytes = 0

    def take(self, n: int) -> bytes:
        if n < 0 or self.read_bytes + n > MAX_HEADER_BYTES:
            raise _HeaderError(f"header larger than {MAX_HEADER_BYTES // 2**20} MiB")
        data = self.f.read(n)
        if len(data) != n:
            raise _HeaderError("the file ends inside its header")
        self.read_bytes += n
        return data

    def scalar(self, kind: int) -> Any:
        fmt = _SCALARS[kind]
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))[0]

    def count(self) -> int:
        n = int(self.scalar(10))
        if n > MAX_COUNT:
            raise _HeaderError(f"a count of {n:,} is over the limit of {MAX_COUNT:,}")
        return n

    def string(self) -> str:
        n = self.count()
        if n > MAX_STRING:
            raise _HeaderError(f"a string of {n:,} bytes")
        return self.take(n).decode("utf-8", errors="replace")

    def value(self, kind: int) -> Any:
        if kind == STRING:
            return self.string()
        if kind == ARRAY:
            inner, n = int(self.scalar(4)), self.count()
            if inner not in _SCALARS and inner != STRING:
                raise _HeaderError(f"an array of value type {inner}")
            items = [self.value(inner) for _ in range(n)] if n <= KEPT_ARRAY else self._skip(inner, n)
            return items
        if kind not in _SCALARS:
            raise _HeaderError(f"unknown value type {kind}")
        return self.scalar(kind)

    def _skip(self, inner: int, n: int) -> list[Any]:
        """Read past a long array, keeping its length: ``[None] * n`` costs one list, not n values."""
        if inner != STRING:
            self.take(n * struct.calcsize(_SCALARS[inner]))
        else:
            for _ in range(n):
                self.string()
        return [None] * n


def _header(f: BinaryIO) -> GgufHeader:
    r = _Reader(f)
    if r.take(4) != b"GGUF":
        raise _HeaderError("not a GGUF file (no GGUF magic)")
    version = int(r.scalar(4))
    if version not in (2, 3):
        raise _HeaderError(f"GGUF version {version} (vramgui reads 2 and 3)")
    n_tensors, n_keys = r.count(), r.count()
    metadata: dict[str, Any] = {}
    for _ in range(n_keys):
        key = r.string()
        metadata[key] = r.value(int(r.scalar(4)))
    tensors = []
    for _ in range(n_tensors):
        name = r.string()
        n_dims = int(r.scalar(4))
        if n_dims > MAX_DIMS:
            raise _HeaderError(f"tensor {name!r:.60} has {n_dims} dimensions")
        dims = tuple(int(r.scalar(10)) for _ in range(n_dims))
        kind = int(r.scalar(4))
        r.scalar(10)  # offset into the data section
        tensors.append(GgufTensor(name, dims, kind))
    return GgufHeader(version, metadata, tuple(tensors))


def read_gguf(path: str | os.PathLike[str]) -> GgufHeader:
    """The header of a ``.gguf`` file; an InputError on ``config`` naming the file for anything malformed."""
    try:
        with open_regular_file(path, what="GGUF file") as (f, _):
            return _header(f)
    except FileReadError as err:
        raise InputError("config", read_error_message(err)) from None
    except _HeaderError as err:
        raise InputError("config", Msg.of("error.gguf_header", path=str(path), reason=str(err))) from None


def load_gguf_model(path: str | os.PathLike[str]) -> tuple[ModelSpec, GgufHeader]:
    """The model a ``.gguf`` file holds (its architecture from the header) and the header itself."""
    header = read_gguf(path)
    return model_from_gguf(header, os.path.basename(os.fspath(path))), header
