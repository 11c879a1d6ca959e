"""Parameter counts from safetensors files without loading a tensor.

Format (https://github.com/huggingface/safetensors, "Format"): an 8-byte little-endian unsigned header length
N, then N bytes of UTF-8 JSON ``{"name": {"dtype": "BF16", "shape": [..], "data_offsets": [begin, end]}, ...,
"__metadata__": {...}}``, then the data buffer. Only the first 8 + N bytes are read, N is capped, and every
entry is checked against the file size, so a malformed, truncated, huge or hostile file is an InputError,
never a hang or a memory blow-up. A sharded checkpoint is described by ``model.safetensors.index.json``
(``weight_map`` name -> shard file, ``metadata.total_size`` in bytes). Files are opened through
``vramgui.io.files`` (regular files only, capped reads) and JSON is parsed with its depth/element caps; the
format forbids duplicate keys and NaN, and so do we.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any, NamedTuple

from vramgui.core.documents.json_text import collector_paused
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg
from vramgui.io.files import FileReadError, JsonError, open_regular_file, read_error_message, read_json

_TOO_MANY_ITEMS = "error.json_too_many_items"

MAX_HEADER_BYTES = 16 * 2**20  # real headers are well under 1 MiB (the format itself allows up to 100 MB)
# JSON elements in one header: each tensor is ~7 (its entry, dtype, shape dims, two offsets) in >= ~55 bytes, so
# every header within MAX_HEADER_BYTES fits; only padding-free lists of tiny numbers ("0,0,0,...") reach it.
MAX_HEADER_ITEMS = 4_000_000
MAX_JSON_DEPTH = 8  # a header or an index nests 3 levels ({name: {shape: [..]}})
MAX_INDEX_BYTES = 32 * 2**20  # DeepSeek-V3's index (~91k tensor names) is about 9 MB
MAX_WEIGHT_MAP = 400_000  # tensor names in an index; DeepSeek-V3 has ~91k (a million costs seconds to parse)
MAX_INDEX_ITEMS = MAX_WEIGHT_MAP + 100_000  # the weight map plus a generous metadata object
MAX_FILES = 10_000  # shards named by an index, or *.safetensors files in a folder
MAX_TOTAL_HEADER_BYTES = 64 * 2**20  # all shards together; DeepSeek-V3's 163 shard headers total ~20 MB
# JSON elements in all headers together: parse cost, not bytes, is what a hostile folder inflates (each tensor is
# 6 + its dimensions). DeepSeek-V3's ~91k tensors are ~0.75 M; this cap keeps a whole folder within the budgets
# of docs/fuzzing.md.
MAX_TOTAL_HEADER_ITEMS = 1_000_000
MAX_DIMS = 16
INDEX_NAME = "model.safetensors.index.json"

# Bits per element of each safetensors dtype (safetensors Dtype enum).
DTYPE_BITS = {
    "BOOL": 8, "F4": 4, "F6_E2M3": 6, "F6_E3M2": 6, "U8": 8, "I8": 8, "F8_E5M2": 8, "F8_E4M3": 8, "F8_E8M0": 8,
    "I16": 16, "U16": 16, "F16": 16, "BF16": 16, "I32": 32, "U32": 32, "F32": 32, "F64": 64, "I64": 64, "U64": 64,
    "C64": 64,
}
# config.json torch_dtype -> bytes per element, for the index's total_size when the shards are absent.
TORCH_DTYPE_BYTES = {"float32": 4, "float16": 2, "bfloat16": 2, "float64": 8, "float8_e4m3fn": 1}

# Tensors a checkpoint may hold that transformers does not make parameters (reason -> name pattern).
EXCLUDED_PATTERNS = (
    ("buffer (not a parameter)", re.compile(r"(\.inv_freq|\.attn\.bias|\.attn\.masked_bias|e_score_correction_bias)$")),
    ("quantization scales/zeros", re.compile(r"(_scale_inv|\.weight_scale|\.input_scale|\.scales|\.qzeros|\.g_idx"
                                             r"|\.absmax|\.quant_map|\.quant_state\..*|\.nested_.*)$")),
)
_LAYER_RE = re.compile(r"(?:^|\.)layers\.(\d+)\.")
# the patterns above as one search per tensor name (group gN: the N-th reason)
_EXCLUDED = re.compile("|".join(f"(?P<g{i}>{rx.pattern})" for i, (_, rx) in enumerate(EXCLUDED_PATTERNS)))


class Tensor(NamedTuple):  # a tuple, not a frozen dataclass: built in C, 4x faster for a header of 10^5 entries
    name: str
    dtype: str
    shape: tuple[int, ...]

    @property
    def numel(self) -> int:
        return math.prod(self.shape)


def _fail(path: Path, code: str, **params: str) -> InputError:
    """An error on the field ``weights``: "{file}: {problem}", the problem a message id with its parameters."""
    return InputError("weights", Msg.of("error.in_file", file=path.name, problem=Msg.of(code, **params)))


def _name(name: str) -> str:
    return repr(name[:80])


def read_header(p: Path, cap: int = MAX_HEADER_BYTES, max_items: int | None = None) -> tuple[list[Tensor], int]:
    """(the tensors a .safetensors file declares, validated against the file's size; header length N). Reads
    8 + N bytes; at most ``max_items`` JSON elements (default MAX_HEADER_ITEMS)."""
    try:
        with open_regular_file(p, what="safetensors file") as (fh, st):
            if st.st_size < 8:
                raise _fail(p, "error.st_shorter_than_length", size=str(st.st_size))
            n = int.from_bytes(fh.read(8), "little")
            if n > cap:
                raise _fail(p, "error.st_header_over_cap", size=f"{n:,}", cap=f"{cap:,}")
            if 8 + n > st.st_size:
                raise _fail(p, "error.st_header_past_end", need=f"{8 + n:,}", size=f"{st.st_size:,}")
            raw = fh.read(n)
    except FileReadError as err:
        raise InputError("weights", read_error_message(err)) from None
    except OSError as exc:
        raise _fail(p, "error.st_cannot_read", reason=str(exc.strerror or exc)) from None
    if len(raw) != n:
        raise _fail(p, "error.st_truncated_header")
    try:
        header = read_json(raw, max_bytes=cap, max_depth=MAX_JSON_DEPTH,
                           max_items=MAX_HEADER_ITEMS if max_items is None else max_items, what=f"{p.name} header")
    except JsonError as err:
        raise InputError("weights", read_error_message(err)) from None
    if not isinstance(header, dict):
        raise _fail(p, "error.st_header_not_object")
    with collector_paused():
        return _tensors(p, header, data_len=st.st_size - 8 - n), n


def _tensors(p: Path, header: dict[str, Any], data_len: int) -> list[Tensor]:
    """Every entry checked (``type(x) is int`` refuses booleans too); written for speed, as a header may hold
    hundreds of thousands of entries."""
    tensors = []
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if type(info) is not dict:
            raise _fail(p, "error.st_entry_not_object", name=_name(name))
        dtype, shape, offsets = info.get("dtype"), info.get("shape"), info.get("data_offsets")
        if type(dtype) is not str:
            raise _fail(p, "error.st_no_dtype", name=_name(name))
        if type(shape) is not list or len(shape) > MAX_DIMS:
            raise _fail(p, "error.st_bad_shape", name=_name(name))
        numel = 1
        for d in shape:
            if type(d) is not int or d < 0:
                raise _fail(p, "error.st_bad_shape", name=_name(name))
            numel *= d
        if type(offsets) is not list or len(offsets) != 2:
            raise _fail(p, "error.st_bad_offsets", name=_name(name))
        begin, end = offsets
        if type(begin) is not int or type(end) is not int or not 0 <= begin <= end:
            raise _fail(p, "error.st_bad_offsets", name=_name(name))
        if end > data_len:
            raise _fail(p, "error.st_tensor_past_end", name=_name(name), end=f"{end:,}", size=f"{data_len:,}")
        bits = DTYPE_BITS.get(dtype)
        if bits is None:
            raise _fail(p, "error.st_unknown_dtype", name=_name(name), dtype=repr(dtype[:20]),
                        known=", ".join(DTYPE_BITS))
        if end - begin != (numel * bits + 7) // 8:
            raise _fail(p, "error.st_size_mismatch", name=_name(name), dtype=dtype, shape=str(list(shape)),
                        need=f"{(numel * bits + 7) // 8:,}", span=f"{end - begin:,}")
        tensors.append(Tensor(name, dtype, tuple(shape)))
    return tensors


def _items(header_tensors: list[Tensor]) -> int:
    """JSON elements the tensors took (entry, dtype, shape, offsets and their two ints, the dimensions)."""
    return sum(6 + len(t.shape) for t in header_tensors)


@dataclass(frozen=True)
class WeightsCount:
    """Parameters in a folder's safetensors files, next to what was set aside and why."""

    total: int  # elements of every tensor found (or estimated from the index's total_size)
    params: int  # total minus the excluded groups: comparable with the count from config.json
    tensors: int
    source: str  # "headers of 4 safetensors files" / "model.safetensors.index.json metadata ..."
    exact: bool = True  # False when estimated from total_size bytes and the config dtype
    excluded: tuple[tuple[str, int], ...] = ()  # (reason, elements)
    dtypes: tuple[str, ...] = ()
    notes: tuple[Msg, ...] = field(default_factory=tuple)


def _safe_shard_name(folder: Path, name: Any) -> Path:
    if not isinstance(name, str) or not name or "/" in name or "\\" in name or name in (".", "..") or "\0" in name:
        raise InputError("weights", Msg.of("error.st_bad_shard_name", index=INDEX_NAME, name=repr(str(name)[:80])))
    return folder / name


def _classify(tensors: list[Tensor], num_layers: int | None, tied: bool) -> tuple[int, list[tuple[str, int]]]:
    """(elements kept, [(reason, elements) set aside]) for the comparison with the config count."""
    groups: dict[str, int] = {}
    kept = 0
    beyond = "layers beyond num_hidden_layers (e.g. a multi-token-prediction module)"
    for t in tensors:
        reason = None
        m = _EXCLUDED.search(t.name)
        if m is not None:
            reason = next(EXCLUDED_PATTERNS[int(g[1:])][0] for g, v in m.groupdict().items() if v is not None)
        elif num_layers is not None and (layer := _LAYER_RE.search(t.name)) and int(layer.group(1)) >= num_layers:
            reason = beyond
        elif tied and t.name.endswith("lm_head.weight"):
            reason = "LM head stored although tied to the embedding"
        if reason is None:
            kept += t.numel
        else:
            groups[reason] = groups.get(reason, 0) + t.numel
    return kept, sorted(groups.items())


def count_weights(folder: str | os.PathLike[str], num_layers: int | None = None, tied: bool = False,
                  torch_dtype: str | None = None) -> WeightsCount | None:
    """Count the parameters of the safetensors weights in ``folder`` (None if it has none). Reads the index
    and the shard headers it names; when shards are missing, falls back to the index's metadata."""
    folder = Path(folder)
    index_path = folder / INDEX_NAME
    notes: list[Msg] = []
    if os.path.lexists(index_path):
        index, weight_map = _read_index(folder, index_path)
        shards = _shard_names(folder, weight_map)
        missing = [s for s in shards if not (folder / s).is_file()]
        if missing:
            return _from_index_metadata(index, torch_dtype, len(weight_map), missing)
        files = _distinct_files(folder, shards)
    else:
        files = list(islice(folder.glob("*.safetensors"), MAX_FILES + 1))
        if not files:
            return None
        if len(files) > MAX_FILES:
            raise InputError("weights", Msg.of("error.st_too_many_files", limit=f"{MAX_FILES:,}", folder=str(folder)))
        files.sort()
    total = kept = n_tensors = header_bytes = items = 0
    excluded: dict[str, int] = {}
    dtypes: set[str] = set()
    for f in files:  # one header in memory at a time; only the sums are kept
        tensors, n = _read_budgeted(folder, f, MAX_TOTAL_HEADER_ITEMS - items)
        items += _items(tensors)
        header_bytes += n
        if header_bytes > MAX_TOTAL_HEADER_BYTES:
            raise InputError("weights", Msg.of("error.st_headers_over_cap", folder=str(folder),
                                               limit=f"{MAX_TOTAL_HEADER_BYTES:,}"))
        file_kept, file_excluded = _classify(tensors, num_layers, tied)
        total += sum(t.numel for t in tensors)
        kept += file_kept
        n_tensors += len(tensors)
        dtypes.update(t.dtype for t in tensors)
        for reason, n in file_excluded:
            excluded[reason] = excluded.get(reason, 0) + n
    if dtypes & {"I32", "U8", "I8", "F4", "U32"} and any(r.startswith("quant") for r in excluded):
        notes.append(Msg.of("note.quantized_checkpoint"))
    plural = "s" if len(files) != 1 else ""
    return WeightsCount(total=total, params=kept, tensors=n_tensors,
                        source=f"headers of {len(files)} safetensors file{plural}",
                        excluded=tuple(sorted(excluded.items())), dtypes=tuple(sorted(dtypes)), notes=tuple(notes))


def _read_budgeted(folder: Path, f: Path, left: int) -> tuple[list[Tensor], int]:
    """One header within what is left of the folder's element budget (and the per-file caps)."""
    limit = min(MAX_HEADER_ITEMS, max(left, 0))
    try:
        return read_header(f, MAX_HEADER_BYTES, limit)  # checks this file's own header length first
    except InputError as err:
        problem = err.msg.kwargs.get("problem") if isinstance(err.msg, Msg) else None
        if limit < MAX_HEADER_ITEMS and isinstance(problem, Msg) and problem.code == _TOO_MANY_ITEMS:
            raise InputError("weights", Msg.of("error.st_headers_too_many_items", folder=str(folder),
                                               limit=f"{MAX_TOTAL_HEADER_ITEMS:,}")) from None
        raise


def _shard_names(folder: Path, weight_map: dict[str, Any]) -> list[str]:
    """The distinct shard files an index names, sorted; each checked once (a million tensor names may name a
    few shards), the count capped before any is looked at."""
    distinct: set[str] = set()
    for name in weight_map.values():
        if type(name) is not str:
            _safe_shard_name(folder, name)  # raises: not a file name
        distinct.add(name)
    if len(distinct) > MAX_FILES:
        raise InputError("weights", Msg.of("error.st_too_many_shards", index=INDEX_NAME, count=f"{len(distinct):,}",
                                           limit=f"{MAX_FILES:,}"))
    return sorted(_safe_shard_name(folder, name).name for name in distinct)


def _distinct_files(folder: Path, shards: list[str]) -> list[Path]:
    """The shard files, refused when two names are one file (links to one header): counting it twice would be
    wrong, and reading it thousands of times is what a hostile index asks for."""
    seen: dict[tuple[int, int], str] = {}
    for name in shards:
        try:
            st = os.stat(folder / name)
        except OSError:  # it was there a moment ago: the reader reports it
            continue
        key = (st.st_dev, st.st_ino)
        if key in seen:
            raise InputError("weights", Msg.of("error.st_duplicate_shard", index=INDEX_NAME, first=seen[key],
                                               second=name))
        seen[key] = name
    return [folder / name for name in shards]


def _read_index(folder: Path, index_path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the index, its weight_map), both capped: file size, JSON depth and elements, tensor names."""
    try:
        index = read_json(index_path, max_bytes=MAX_INDEX_BYTES, max_depth=MAX_JSON_DEPTH,
                          max_items=MAX_INDEX_ITEMS, what="safetensors index")
    except (FileReadError, JsonError) as err:
        raise InputError("weights", read_error_message(err)) from None
    weight_map = index.get("weight_map") if isinstance(index, dict) else None
    if not isinstance(weight_map, dict):
        raise InputError("weights", Msg.of("error.st_no_weight_map", index=INDEX_NAME))
    if len(weight_map) > MAX_WEIGHT_MAP:
        raise InputError("weights", Msg.of("error.st_weight_map_over_cap", index=INDEX_NAME,
                                           count=f"{len(weight_map):,}", limit=f"{MAX_WEIGHT_MAP:,}"))
    return index, weight_map


def _from_index_metadata(index: dict[str, Any], torch_dtype: str | None, n_tensors: int,
                         missing: list[str]) -> WeightsCount:
    raw_meta = index.get("metadata")
    meta: dict[str, Any] = raw_meta if isinstance(raw_meta, dict) else {}
    gone = Msg.of("note.shards_missing", count=len(missing), first=missing[0],
                  more=Msg.of("note.more_files") if len(missing) > 1 else "")
    total_params = meta.get("total_parameters")
    if isinstance(total_params, int) and not isinstance(total_params, bool) and total_params >= 0:
        return WeightsCount(total=total_params, params=total_params, tensors=n_tensors,
                            source=f"{INDEX_NAME} metadata total_parameters", notes=(gone,))
    size = meta.get("total_size")
    width = TORCH_DTYPE_BYTES.get(torch_dtype or "")
    if not (isinstance(size, int) and not isinstance(size, bool) and size >= 0):
        raise InputError("weights", Msg.of("error.st_no_total_size", missing=gone, index=INDEX_NAME))
    if width is None:
        raise InputError("weights", Msg.of("error.st_no_dtype_for_size", missing=gone, size=f"{size:,}"))
    estimate = size // width
    return WeightsCount(total=estimate, params=estimate, tensors=n_tensors, exact=False,
                        source=f"{INDEX_NAME} metadata total_size {size:,} bytes / {width} bytes ({torch_dtype})",
                        notes=(gone, Msg.of("note.estimated_from_size")))
