"""A corpus of hostile files, generated on the fly: each builder writes one case into a folder and returns the
path a command is pointed at. Used by tests/fuzz/test_hostile_files.py (docs/fuzzing.md lists the budgets).

Every builder is cheap to run (well under a second; the biggest writes 64 MB) and needs no network.
"""

from __future__ import annotations

import json
import os
import struct
from collections.abc import Callable
from pathlib import Path

GPT2 = Path(__file__).parents[1] / "fixtures" / "hf_configs" / "gpt2" / "config.json"
MB = 2**20


def _config() -> dict:
    return json.loads(GPT2.read_text(encoding="utf-8"))


def _write(path: Path, data: bytes | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return path


def _padded_list(size: int, item: str = "[]") -> bytes:
    """A JSON list of ``item`` repeated, ``size`` bytes long (the last few bytes may be spaces)."""
    count = max(1, (size - 2) // (len(item) + 1))
    text = "[" + ",".join([item] * count) + "]"
    return text.encode("ascii")


def safetensors_bytes(header: dict | bytes, data: bytes = b"", declared: int | None = None) -> bytes:
    raw = header if isinstance(header, bytes) else json.dumps(header, separators=(",", ":")).encode("utf-8")
    return struct.pack("<Q", len(raw) if declared is None else declared) + raw + data


def _tiny_shard() -> bytes:
    return safetensors_bytes({"h.0.w": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}, b"\0" * 4)


# ------------------------------------------------------------------------------------------- JSON documents
# Each is the content of a file meant to be JSON: a config.json, a scenario file or an index.

def deep_nesting(depth: int = 200_000) -> bytes:
    return ("[" * depth + "]" * depth).encode("ascii")


def deep_objects(depth: int = 100_000) -> bytes:
    return ('{"a":' * depth + "1" + "}" * depth).encode("ascii")


def non_utf8() -> bytes:
    return b'{"model_type": "gpt2", "n_embd": 768, "name": "caf\xe9 \xff\xfe"}'


def nul_bytes() -> bytes:
    return json.dumps(_config()).encode("utf-8") + b"\0\0\0\0"


def nul_inside() -> bytes:
    return b'{"model_type": "gpt2\0", "n_layer": 12}'


def bom_config() -> bytes:
    return b"\xef\xbb\xbf" + json.dumps(_config()).encode("utf-8")


def duplicate_keys() -> bytes:
    return b'{"model_type": "gpt2", "n_layer": 12, "n_layer": 1200}'


def huge_integer() -> bytes:
    return b'{"model_type": "gpt2", "n_layer": ' + b"9" * 4000 + b"}"


def list_of_empties(size: int) -> bytes:
    return _padded_list(size)


def many_numbers(size: int) -> bytes:
    return _padded_list(size, "0")


# ------------------------------------------------------------------------------------------- file-system shapes

def make_fifo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return path


def make_symlink_loop(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    other = path.with_name(path.name + ".loop")
    os.symlink(other, path)
    os.symlink(path, other)
    return path


# ------------------------------------------------------------------------------------------- model folders

def model_folder(folder: Path) -> Path:
    _write(folder / "config.json", json.dumps(_config()))
    return folder


def huge_declared_header(folder: Path) -> Path:
    """A safetensors file whose 8-byte length says 2^63 - 1 (the file itself is tiny)."""
    model_folder(folder)
    _write(folder / "model.safetensors", safetensors_bytes(b"{}", declared=2**63 - 1))
    return folder


def big_header(folder: Path, size: int = 16 * MB - 64, tensors: int | None = None) -> Path:
    """A valid header of zero-size tensors: by default as many as fit just under vramgui's per-file byte cap
    (~280k, more JSON elements than vramgui reads); ``tensors`` for a given count."""
    model_folder(folder)
    entry = '"t{:07d}":{{"dtype":"F32","shape":[0],"data_offsets":[0,0]}}'
    one = len(entry.format(0)) + 1
    count = max(1, (size - 2) // one) if tensors is None else tensors
    text = "{" + ",".join(entry.format(i) for i in range(count)) + "}"
    _write(folder / "model.safetensors", safetensors_bytes(text.encode("ascii")))
    return folder


def header_of_numbers(folder: Path, size: int = 16 * MB - 64) -> Path:
    """A header within the byte cap that is one enormous shape list: element count, not bytes, is the cost."""
    model_folder(folder)
    body = ",".join(["0"] * ((size - 80) // 2))
    text = '{"w":{"dtype":"F32","shape":[' + body + '],"data_offsets":[0,0]}}'
    _write(folder / "model.safetensors", safetensors_bytes(text.encode("ascii")))
    return folder


def index_of_linked_shards(folder: Path, shards: int = 9_999) -> Path:
    """An index naming ``shards`` shard files, every one a symbolic link to the same header."""
    model_folder(folder)
    target = _write(folder / "blob.bin", _tiny_shard())
    names = [f"model-{i:05d}-of-{shards:05d}.safetensors" for i in range(1, shards + 1)]
    for name in names:
        os.symlink(target.name, folder / name)
    index = {"metadata": {"total_size": 4}, "weight_map": {f"h.{i}.w": n for i, n in enumerate(names)}}
    _write(folder / "model.safetensors.index.json", json.dumps(index))
    return folder


def index_of_empty_lists(folder: Path, size: int = 64 * MB - 16) -> Path:
    model_folder(folder)
    _write(folder / "model.safetensors.index.json", list_of_empties(size))
    return folder


def index_with_huge_weight_map(folder: Path, names: int = 1_000_000) -> Path:
    """A weight_map of ``names`` tensor names (~59 MB at a million), every one in one missing shard."""
    model_folder(folder)
    shard = "m-00001.safetensors"
    parts = [f'"model.layers.{i // 1000}.mlp.experts.{i % 1000}.weight":"{shard}"' for i in range(names)]
    text = '{"metadata":{"total_size":4},"weight_map":{' + ",".join(parts) + "}}"
    _write(folder / "model.safetensors.index.json", text)
    return folder


def index_deeply_nested(folder: Path) -> Path:
    model_folder(folder)
    _write(folder / "model.safetensors.index.json", deep_objects())
    return folder


def index_is_fifo(folder: Path) -> Path:
    model_folder(folder)
    make_fifo(folder / "model.safetensors.index.json")
    return folder


def shard_is_fifo(folder: Path) -> Path:
    model_folder(folder)
    make_fifo(folder / "model.safetensors")
    return folder


def shard_symlink_loop(folder: Path) -> Path:
    model_folder(folder)
    make_symlink_loop(folder / "model.safetensors")
    return folder


def many_tiny_shards(folder: Path, count: int = 10_000) -> Path:
    """``count`` distinct *.safetensors files (vramgui's file cap), no index."""
    model_folder(folder)
    blob = _tiny_shard()
    for i in range(count):
        _write(folder / f"part-{i:05d}.safetensors", blob)
    return folder


def config_is_fifo(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    make_fifo(folder / "config.json")
    return folder


FolderBuilder = Callable[[Path], Path]


# ------------------------------------------------------------------------------------------- YAML documents
# The content of a training config (--training-config) meant to be YAML.

def yaml_billion_laughs(levels: int = 12) -> bytes:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, levels)]
    return ("\n".join(lines) + "\n").encode("ascii")


def yaml_deep_lists(depth: int = 100_000) -> bytes:
    return ("[" * depth + "]" * depth).encode("ascii")


def yaml_deep_blocks(depth: int = 2_000) -> bytes:
    return "".join(f"{' ' * i}k{i}:\n" for i in range(depth)).encode("ascii") + b" " * depth + b"x: 1\n"


def yaml_python_object() -> bytes:
    return b"distributed_type: !!python/object/apply:os.system ['echo owned']\n"


def yaml_many_keys(size: int = 10**6 - 64) -> bytes:
    line = b"k%07d: 1\n"
    count = size // len(line % 0)
    return b"".join(line % i for i in range(count))


def yaml_many_aliases(size: int = 10**6 - 64) -> bytes:
    head = b"base: &b {zero_optimization: {stage: 3}}\nitems: ["
    count = (size - len(head) - 2) // 4
    return head + b", ".join([b"*b"] * count) + b"]\n"


def yaml_duplicate_keys() -> bytes:
    return b"distributed_type: FSDP\nnum_processes: 8\nnum_processes: 16\n"


def yaml_long_scalar(size: int = 10**6 - 64) -> bytes:
    return b"base_model: " + b"x" * (size - 40) + b"\nmicro_batch_size: 1\n"


def yaml_binary_tag() -> bytes:
    return b"base_model: !!binary aGVsbG8=\nmicro_batch_size: 1\nsequence_len: !!timestamp 2001-12-14\n"


def nested_fifo(folder: Path) -> Path:
    """An axolotl config whose deepspeed: names a FIFO (nothing may block on opening it)."""
    os.mkfifo(folder / "ds.json")
    return _write(folder / "axolotl.yml", "base_model: m\nmicro_batch_size: 1\ndeepspeed: ds.json\n")


def nested_self(folder: Path) -> Path:
    """A config whose deepspeed: names itself."""
    return _write(folder / "lf.yaml", "model_name_or_path: m\nstage: sft\ndeepspeed: lf.yaml\n")


def nested_huge(folder: Path) -> Path:
    """An accelerate config whose DeepSpeed file is 64 MB of []."""
    _write(folder / "ds.json", _padded_list(64 * MB))
    return _write(folder / "acc.yaml",
                  "distributed_type: DEEPSPEED\ndeepspeed_config:\n  deepspeed_config_file: ds.json\n")
