"""The .gguf header reader: metadata and tensor table from a file written here byte by byte (GGUF v3)."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

from vramgui.cli.commands import main
from vramgui.core.scenario.architecture import count_params
from vramgui.core.serve.formats import tensor_bytes
from vramgui.core.text.errors import InputError
from vramgui.io.gguf import load_gguf_model, read_gguf

U32, U64, F32, STR, ARR = 4, 10, 6, 8, 9
Q4_K, Q6_K, F32_T = 12, 14, 0


def _s(text: str) -> bytes:
    raw = text.encode()
    return struct.pack("<Q", len(raw)) + raw


def _kv(key: str, kind: int, value: object) -> bytes:
    out = _s(key) + struct.pack("<I", kind)
    if kind == STR:
        return out + _s(str(value))
    if kind == ARR:
        items = list(value)  # type: ignore[call-overload]
        return out + struct.pack("<IQ", STR, len(items)) + b"".join(_s(i) for i in items)
    return out + struct.pack({U32: "<I", U64: "<Q", F32: "<f"}[kind], value)


def write_gguf(path: Path, *, layers: int = 2, h: int = 256, ffn: int = 512, vocab: int = 1000, tokens: int = 5000,
               magic: bytes = b"GGUF") -> list[tuple[str, tuple[int, ...], int]]:
    kvs = [_kv("general.architecture", STR, "llama"), _kv("general.name", STR, "tiny"),
           _kv("general.file_type", U32, 15), _kv("llama.block_count", U32, layers),
           _kv("llama.embedding_length", U32, h), _kv("llama.feed_forward_length", U32, ffn),
           _kv("llama.attention.head_count", U32, 4), _kv("llama.attention.head_count_kv", U32, 2),
           _kv("llama.context_length", U32, 4096), _kv("llama.rope.freq_base", F32, 10000.0),
           _kv("tokenizer.ggml.tokens", ARR, [f"t{i}" for i in range(tokens)])]
    tensors = [("token_embd.weight", (h, vocab), Q4_K), ("output_norm.weight", (h,), F32_T),
               ("output.weight", (h, vocab), Q6_K)]
    for i in range(layers):
        tensors += [(f"blk.{i}.attn_norm.weight", (h,), F32_T), (f"blk.{i}.attn_q.weight", (h, h), Q4_K),
                    (f"blk.{i}.attn_k.weight", (h, h // 2), Q4_K), (f"blk.{i}.attn_v.weight", (h, h // 2), Q6_K),
                    (f"blk.{i}.attn_output.weight", (h, h), Q4_K), (f"blk.{i}.ffn_norm.weight", (h,), F32_T),
                    (f"blk.{i}.ffn_gate.weight", (h, ffn), Q4_K), (f"blk.{i}.ffn_up.weight", (h, ffn), Q4_K),
                    (f"blk.{i}.ffn_down.weight", (ffn, h), Q6_K)]
    body = magic + struct.pack("<IQQ", 3, len(tensors), len(kvs)) + b"".join(kvs)
    for name, dims, kind in tensors:
        body += _s(name) + struct.pack("<I", len(dims)) + b"".join(struct.pack("<Q", d) for d in dims)
        body += struct.pack("<IQ", kind, 0)
    path.write_bytes(body + b"\0" * 64)
    return tensors


def test_header_gives_the_architecture_and_the_tensor_table(tmp_path):
    path = tmp_path / "tiny.gguf"
    tensors = write_gguf(path)
    header = read_gguf(path)
    assert header.version == 3 and header.architecture == "llama"
    assert len(header.metadata["tokenizer.ggml.tokens"]) == 5000  # a long array keeps its length only
    assert [(t.name, t.dims, t.ggml_type) for t in header.tensors] == tensors
    spec, _ = load_gguf_model(path)
    arch = spec.architecture
    assert arch is not None and spec.name == "tiny"
    assert (arch.num_layers, arch.hidden_size, arch.kv_heads, arch.ffn_size, arch.vocab_size) == (2, 256, 2, 512, 1000)
    assert not arch.tied_embeddings
    # the count equals the tensors' elements (what llama.cpp would load)
    assert count_params(arch) == sum(t.elements for t in header.tensors)
    assert tensor_bytes(Q4_K, (256, 1000)) == 1000 * 144 and tensor_bytes(Q4_K, (100, 3)) is None


@pytest.mark.parametrize(("edit", "needle"), [
    ({"magic": b"GGUX"}, "no GGUF magic"),
])
def test_a_bad_file_is_one_error_naming_it(tmp_path, edit, needle):
    path = tmp_path / "bad.gguf"
    write_gguf(path, **edit)
    with pytest.raises(InputError) as err:
        read_gguf(path)
    assert needle in str(err.value) and "bad.gguf" in str(err.value)


def test_a_truncated_header_is_refused(tmp_path):
    path = tmp_path / "cut.gguf"
    write_gguf(path)
    path.write_bytes(path.read_bytes()[:200])
    with pytest.raises(InputError) as err:
        read_gguf(path)
    assert "ends inside its header" in str(err.value)


def test_serve_reads_a_gguf_and_compares_its_bytes(tmp_path, capsys):
    path = tmp_path / "tiny.gguf"
    write_gguf(path)
    code = main(["serve", "--config", str(path), "--engine", "llama.cpp", "--gpu", "l4", "--json"])
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert code == 0 and data["weights_format"] == "gguf-q4_k_m"  # general.file_type 15
    assert "the GGUF file's tensors weigh" in err

