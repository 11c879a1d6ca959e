"""safetensors headers: counted without loading tensors; malformed, truncated, huge and hostile files rejected."""

from __future__ import annotations

import json
import struct
import time
from pathlib import Path

import pytest

from vramgui.core.text.errors import InputError
from vramgui.io.model_folder import import_model
from vramgui.io.safetensors import INDEX_NAME, count_weights, read_header

BITS = {"F32": 32, "BF16": 16, "F16": 16, "I32": 32, "F8_E4M3": 8}


def write_safetensors(path: Path, tensors: dict[str, tuple[str, list[int]]], metadata: dict | None = None,
                      pad_header: int = 0) -> Path:
    """A valid safetensors file written byte by byte (zeros as data), as the format describes it."""
    header: dict = {}
    offset = 0
    for name, (dtype, shape) in tensors.items():
        n = 1
        for d in shape:
            n *= d
        size = n * BITS[dtype] // 8
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + size]}
        offset += size
    if metadata is not None:
        header["__metadata__"] = metadata
    raw = json.dumps(header).encode() + b" " * pad_header
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + bytes(offset))
    return path


def raw_file(path: Path, header: bytes, data: bytes = b"", declared: int | None = None) -> Path:
    path.write_bytes(struct.pack("<Q", len(header) if declared is None else declared) + header + data)
    return path


TINY_LLAMA = {"model_type": "llama", "hidden_size": 8, "num_hidden_layers": 2, "num_attention_heads": 2,
              "num_key_value_heads": 1, "intermediate_size": 16, "vocab_size": 10, "tie_word_embeddings": False,
              "torch_dtype": "bfloat16"}


def tiny_llama_tensors(layers: int = 2) -> dict[str, tuple[str, list[int]]]:
    t = {"model.embed_tokens.weight": ("BF16", [10, 8]), "model.norm.weight": ("BF16", [8]),
         "lm_head.weight": ("BF16", [10, 8])}
    for i in range(layers):
        p = f"model.layers.{i}."
        t |= {p + "input_layernorm.weight": ("BF16", [8]), p + "post_attention_layernorm.weight": ("BF16", [8]),
              p + "self_attn.q_proj.weight": ("BF16", [8, 8]), p + "self_attn.k_proj.weight": ("BF16", [4, 8]),
              p + "self_attn.v_proj.weight": ("BF16", [4, 8]), p + "self_attn.o_proj.weight": ("BF16", [8, 8]),
              p + "mlp.gate_proj.weight": ("BF16", [16, 8]), p + "mlp.up_proj.weight": ("BF16", [16, 8]),
              p + "mlp.down_proj.weight": ("BF16", [8, 16])}
    return t


def model_folder(tmp_path: Path, tensors=None, config=None) -> Path:
    folder = tmp_path / "tiny-llama"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(config or TINY_LLAMA))
    write_safetensors(folder / "model.safetensors", tensors or tiny_llama_tensors())
    return folder


def test_header_lists_tensors_with_shapes(tmp_path):
    path = write_safetensors(tmp_path / "a.safetensors", {"w": ("F32", [3, 4]), "b": ("BF16", [4])},
                             metadata={"format": "pt"}, pad_header=5)
    tensors = {t.name: t for t in read_header(path)[0]}
    assert set(tensors) == {"w", "b"}
    assert tensors["w"].numel == 12 and tensors["b"].dtype == "BF16"


def test_folder_weights_agree_with_config(tmp_path):
    result = import_model(model_folder(tmp_path))
    assert result.weights is not None and result.weights.exact
    assert result.weights.params == result.config_params == result.spec.params
    assert not result.mismatch and result.difference == 0


def test_mismatch_is_flagged(tmp_path):
    result = import_model(model_folder(tmp_path, config={**TINY_LLAMA, "intermediate_size": 32}))
    assert result.mismatch and result.difference < 0


def test_buffers_and_extra_layers_are_set_aside(tmp_path):
    tensors = tiny_llama_tensors(layers=3)  # layer 2 lies beyond num_hidden_layers (an MTP-like module)
    tensors["model.layers.0.self_attn.rotary_emb.inv_freq"] = ("F32", [2])
    result = import_model(model_folder(tmp_path, tensors=tensors))
    reasons = dict(result.weights.excluded)
    assert reasons["buffer (not a parameter)"] == 2
    assert any("beyond num_hidden_layers" in r for r in reasons)
    assert not result.mismatch


def test_sharded_checkpoint_read_through_index(tmp_path):
    folder = tmp_path / "sharded"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(TINY_LLAMA))
    items = list(tiny_llama_tensors().items())
    half = len(items) // 2
    shards = {"model-00001-of-00002.safetensors": dict(items[:half]),
              "model-00002-of-00002.safetensors": dict(items[half:])}
    weight_map = {}
    for fname, part in shards.items():
        write_safetensors(folder / fname, part)
        weight_map |= dict.fromkeys(part, fname)
    (folder / INDEX_NAME).write_text(json.dumps({"metadata": {"total_size": 1}, "weight_map": weight_map}))
    result = import_model(folder)
    assert result.weights.source == "headers of 2 safetensors files" and not result.mismatch


def test_index_metadata_used_when_shards_are_missing(tmp_path):
    folder = tmp_path / "index-only"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(TINY_LLAMA))
    n = sum(1 for _ in tiny_llama_tensors())
    params = import_model(folder).config_params
    (folder / INDEX_NAME).write_text(json.dumps({"metadata": {"total_size": 2 * params},
                                                 "weight_map": {f"t{i}": "model-00001.safetensors" for i in range(n)}}))
    weights = import_model(folder).weights
    assert weights.params == params and not weights.exact and "missing" in str(weights.notes[0])


def test_config_file_alone_has_no_weights(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(TINY_LLAMA))
    result = import_model(path)
    assert result.weights is None and not result.mismatch


@pytest.mark.parametrize(("name", "make", "message"), [
    ("empty", lambda p: p.write_bytes(b""), "truncated"),
    ("short", lambda p: p.write_bytes(b"\x01\x02"), "truncated"),
    ("huge_length", lambda p: raw_file(p, b"{}", declared=2**63), "header"),
    ("length_past_end", lambda p: raw_file(p, b"{}", declared=1000), "truncated"),
    ("not_json", lambda p: raw_file(p, b"\xff\xfe garbage"), "UTF-8"),
    ("bad_json", lambda p: raw_file(p, b"{\"a\": "), "JSON"),
    ("deep_nesting", lambda p: raw_file(p, b"[" * 200_000 + b"]" * 200_000), "nested"),
    ("list_header", lambda p: raw_file(p, b"[1, 2]"), "object"),
    ("no_dtype", lambda p: raw_file(p, b'{"w": {"shape": [1], "data_offsets": [0, 4]}}', bytes(4)), "dtype"),
    ("bad_shape", lambda p: raw_file(p, b'{"w": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}}',
                                     bytes(4)), "shape"),
    ("giant_shape", lambda p: raw_file(p, b'{"w": {"dtype": "F32", "shape": [1000000000000, 1000000000000],'
                                          b' "data_offsets": [0, 4]}}', bytes(4)), "needs"),
    ("offsets_past_end", lambda p: raw_file(p, b'{"w": {"dtype": "F32", "shape": [1000], "data_offsets":'
                                               b' [0, 4000]}}', bytes(4)), "truncated"),
    ("unknown_dtype", lambda p: raw_file(p, b'{"w": {"dtype": "Q9", "shape": [1000000000000000000], "data_offsets":'
                                            b' [0, 0]}}'), "unknown dtype"),
    ("reversed_offsets", lambda p: raw_file(p, b'{"w": {"dtype": "F32", "shape": [1], "data_offsets": [4, 0]}}',
                                            bytes(4)), "data_offsets"),
])
def test_malformed_files_give_clear_errors_fast(tmp_path, name, make, message):
    path = tmp_path / f"{name}.safetensors"
    make(path)
    start = time.monotonic()
    with pytest.raises(InputError) as err:
        read_header(path)
    assert message in str(err.value) and err.value.field == "weights"
    assert time.monotonic() - start < 5


def test_huge_header_is_refused_without_reading_it(tmp_path):
    path = raw_file(tmp_path / "big.safetensors", b"{" + b" " * (17 * 2**20) + b"}")
    with pytest.raises(InputError, match="read at most"):
        read_header(path)


def test_a_fifo_is_refused_not_read(tmp_path):
    import os
    fifo = tmp_path / "model.safetensors"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file"):
        read_header(fifo)


@pytest.mark.parametrize("shard", ["../outside.safetensors", "/etc/passwd", "", 7, "a/b.safetensors"])
def test_index_cannot_point_outside_the_folder(tmp_path, shard):
    (tmp_path / INDEX_NAME).write_text(json.dumps({"weight_map": {"w": shard}}))
    with pytest.raises(InputError, match="shard name"):
        count_weights(tmp_path)


def test_index_without_weight_map_is_rejected(tmp_path):
    (tmp_path / INDEX_NAME).write_text(json.dumps({"metadata": {}}))
    with pytest.raises(InputError, match="weight_map"):
        count_weights(tmp_path)


def test_index_metadata_without_dtype_cannot_estimate(tmp_path):
    (tmp_path / INDEX_NAME).write_text(json.dumps({"metadata": {"total_size": 100},
                                                   "weight_map": {"w": "x.safetensors"}}))
    with pytest.raises(InputError, match="dtype"):
        count_weights(tmp_path)


REAL = Path(__file__).resolve().parents[1] / "fixtures" / "safetensors"


def test_reads_a_file_written_by_the_safetensors_library():
    expected = json.loads((REAL / "written_by_safetensors.json").read_text())["tensors"]
    tensors = {t.name: t for t in read_header(REAL / "written_by_safetensors.safetensors")[0]}
    assert set(tensors) == set(expected)
    for name, info in expected.items():
        assert list(tensors[name].shape) == info["shape"] and tensors[name].numel == info["numel"], name


def test_quantization_scales_are_set_aside(tmp_path):
    import shutil

    shutil.copy(REAL / "written_by_safetensors.safetensors", tmp_path / "model.safetensors")
    weights = count_weights(tmp_path)
    reasons = dict(weights.excluded)
    assert reasons == {"quantization scales/zeros": 1}
    assert weights.params == weights.total - 1 and weights.tensors == 10


def test_many_large_headers_together_are_refused(tmp_path, monkeypatch):
    import vramgui.io.safetensors as st

    monkeypatch.setattr(st, "MAX_TOTAL_HEADER_BYTES", 1000)
    for i in range(3):
        write_safetensors(tmp_path / f"part{i}.safetensors", {f"w{j}": ("F32", [1]) for j in range(10)})
    with pytest.raises(InputError, match="together"):
        count_weights(tmp_path)


SAVED = Path(__file__).resolve().parents[1] / "fixtures" / "hf_saved"


@pytest.mark.parametrize("folder", sorted(p for p in SAVED.iterdir() if p.is_dir()), ids=lambda p: p.name)
def test_folders_saved_by_transformers_agree_with_their_config(folder):
    result = import_model(folder)
    assert result.weights is not None and result.weights.exact
    assert result.weights.params == result.config_params and not result.mismatch, result.weights


def test_deepseek_correction_bias_in_checkpoint_is_a_buffer_not_a_parameter():
    result = import_model(SAVED / "deepseek_v3")
    assert dict(result.weights.excluded) == {"buffer (not a parameter)": 4}  # one block with 4 routed experts


def test_index_total_parameters_used_when_shards_are_absent(tmp_path):
    for name in ("config.json", INDEX_NAME):
        (tmp_path / name).write_bytes((SAVED / "mixtral-sharded" / name).read_bytes())
    result = import_model(tmp_path)
    assert result.weights.exact and result.weights.params == result.config_params
    assert "total_parameters" in result.weights.source and "missing" in str(result.weights.notes[0])


def test_index_with_too_many_tensor_names_is_refused(tmp_path, monkeypatch):
    import vramgui.io.safetensors as st

    monkeypatch.setattr(st, "MAX_WEIGHT_MAP", 3)
    (tmp_path / INDEX_NAME).write_text(json.dumps({"weight_map": {f"w{i}": "a.safetensors" for i in range(4)}}))
    with pytest.raises(InputError, match=r"maps 4 tensors \(at most 3\)"):
        count_weights(tmp_path)


def test_index_naming_too_many_shards_is_refused(tmp_path, monkeypatch):
    import vramgui.io.safetensors as st

    monkeypatch.setattr(st, "MAX_FILES", 2)
    (tmp_path / INDEX_NAME).write_text(json.dumps({"weight_map": {f"w{i}": f"s{i}.safetensors" for i in range(3)}}))
    with pytest.raises(InputError, match="names 3 shards"):
        count_weights(tmp_path)


def test_index_json_is_capped_in_size_depth_and_keys(tmp_path, monkeypatch):
    import vramgui.io.safetensors as st

    index = tmp_path / INDEX_NAME
    index.write_text('{"weight_map": {"w": "a.safetensors", "w": "b.safetensors"}}')
    with pytest.raises(InputError, match="appears twice") as err:
        count_weights(tmp_path)
    assert err.value.field == "weights"
    index.write_text('{"weight_map": ' + "[" * 100 + "]" * 100 + "}")
    with pytest.raises(InputError, match="nested"):
        count_weights(tmp_path)
    monkeypatch.setattr(st, "MAX_INDEX_BYTES", 10)
    index.write_text(json.dumps({"weight_map": {}}) + " " * 20)
    with pytest.raises(InputError, match="read at most"):
        count_weights(tmp_path)


def test_an_index_that_is_a_fifo_is_refused_not_read(tmp_path):
    import os

    os.mkfifo(tmp_path / INDEX_NAME)
    with pytest.raises(InputError, match="not a regular file"):
        count_weights(tmp_path)


def test_header_with_duplicate_tensor_names_is_refused(tmp_path):
    header = b'{"w": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}, "w": {"dtype": "F32", "shape": [1],' \
             b' "data_offsets": [0, 4]}}'
    path = raw_file(tmp_path / "dup.safetensors", header, bytes(4))
    with pytest.raises(InputError, match="'w' appears twice"):
        read_header(path)


def test_header_with_too_many_json_elements_is_refused(tmp_path, monkeypatch):
    import vramgui.io.safetensors as st

    monkeypatch.setattr(st, "MAX_HEADER_ITEMS", 10)
    path = raw_file(tmp_path / "wide.safetensors", b'{"__metadata__": {"x": [' + b"0," * 20 + b'0]}}')
    with pytest.raises(InputError, match="more than 10 elements"):
        read_header(path)


def test_a_folder_with_too_many_safetensors_files_is_refused(tmp_path, monkeypatch):
    import vramgui.io.safetensors as st

    monkeypatch.setattr(st, "MAX_FILES", 2)
    for i in range(3):
        write_safetensors(tmp_path / f"part{i}.safetensors", {"w": ("F32", [1])})
    with pytest.raises(InputError, match="more than 2 safetensors files"):
        count_weights(tmp_path)
