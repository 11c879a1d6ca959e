"""The KV cache as vLLM, llama.cpp and transformers allocate it: their arithmetic, reproduced from their code."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vramgui.core.scenario.choices import Engine, KvDType
from vramgui.core.scenario.specs import HardwareSpec, ModelSpec, ParallelSpec, Scenario, ServeSpec
from vramgui.core.serve import engines
from vramgui.core.serve.estimate import serve_estimate
from vramgui.core.serve.kv import kv_row
from vramgui.io import presets

GiB = 2**30


def _arch(key: str):
    return presets.find_model(key).spec.architecture


def _serve(key: str, **serve: object) -> Scenario:
    return Scenario(model=presets.find_model(key).spec, serve=ServeSpec(**serve))


def test_kv_row_by_attention_kind():
    llama = _arch("llama-3-8b")  # GQA: 8 KV heads of 128
    assert kv_row(llama, Engine.VLLM, KvDType.AUTO).bytes == 2 * 8 * 128 * 2
    assert kv_row(llama, Engine.VLLM, KvDType.FP8).bytes == 2 * 8 * 128
    assert kv_row(_arch("llama-2-7b"), Engine.HF, KvDType.AUTO).bytes == 2 * 32 * 128 * 2  # MHA
    assert kv_row(_arch("gemma-3-1b"), Engine.HF, KvDType.AUTO).bytes == 2 * 1 * 256 * 2  # MQA
    ds = _arch("deepseek-v3")  # MLA: vLLM caches the 512 + 64 latent once; transformers the expanded heads
    assert kv_row(ds, Engine.VLLM, KvDType.AUTO).bytes == (512 + 64) * 2
    assert kv_row(ds, Engine.VLLM, KvDType.AUTO, tp=8).bytes == (512 + 64) * 2  # replicated on every rank
    assert kv_row(ds, Engine.HF, KvDType.AUTO).bytes == 128 * (192 + 128) * 2
    mixtral, mistral = _arch("mixtral-8x7b"), _arch("mistral-7b-v0.1")
    assert kv_row(mixtral, Engine.VLLM, KvDType.AUTO) == kv_row(mistral, Engine.VLLM, KvDType.AUTO)  # MoE: same


def test_kv_heads_split_over_tp_or_replicated():
    llama70 = _arch("llama-3-70b")  # 8 KV heads
    assert kv_row(llama70, Engine.VLLM, KvDType.AUTO, tp=4).heads == 2
    assert kv_row(llama70, Engine.VLLM, KvDType.AUTO, tp=16).heads == 1  # max(1, 8 // 16)


def test_vllm_blocks_from_a_given_pool():
    # page = block 16 × K and V × 8 heads × 128 × 2 bytes = 65,536; num_blocks = pool // page // 32 layers
    s = _serve("llama-3-8b", context=8192, batch=4, kv_cache_memory_bytes=8 * GiB)
    e = serve_estimate(s)
    c = e.vllm
    assert c is not None
    assert (c.page_size_bytes, c.group_size, c.num_blocks) == (65_536, 32, 8 * GiB // 65_536 // 32)
    assert (c.kv_cache_tokens, c.blocks_per_request, c.max_concurrency) == (65_536, 512, 8.0)
    assert e.kv.bytes == 4 * 512 * 65_536 * 32 and e.fits


def test_vllm_hybrid_groups_gemma3_and_gpt_oss():
    size, groups = engines.vllm_groups(_arch("gemma-3-27b-text"))  # 52 sliding + 10 full layers
    assert (size, dict(groups)) == (10, {"full": 1, "sliding": 6})
    size, groups = engines.vllm_groups(_arch("gpt-oss-20b"))  # 12 + 12
    assert (size, dict(groups)) == (12, {"full": 1, "sliding": 1})
    e = serve_estimate(_serve("gemma-3-27b-text", context=32768, batch=1, kv_cache_memory_bytes=10 * GiB))
    c = e.vllm
    assert c is not None
    # page 16 × 2 × 16 × 128 × 2 = 131,072; 10 GiB // page // 10 = 8,192 blocks; 8,192 // 7 groups × 16 tokens
    assert (c.page_size_bytes, c.num_blocks, c.kv_cache_tokens) == (131_072, 8_192, 1_170 * 16)
    # full: ⌈32768/16⌉ = 2048 blocks; each sliding group ⌈min(1023 + 2048, 32768)/16⌉ + 1 = 193 (2048 batched tokens)
    assert c.blocks_per_request == 2048 + 6 * 193


def test_vllm_group_size_takes_the_larger_kind_under_one_and_a_half():
    arch = replace(_arch("gpt-oss-20b"), num_layers=25, layer_types="s" * 12 + "f" * 13)
    assert engines.vllm_groups(arch) == (13, (("full", 1), ("sliding", 1)))


def test_vllm_budget_is_utilization_minus_weights_and_profile():
    s = replace(_serve("llama-3-8b", context=4096, batch=1), hardware=HardwareSpec("H100", 80 * 10**9))
    e = serve_estimate(s)
    assert e.vllm_available == int(80 * 10**9 * 0.9) - e.weights.bytes - e.activations.bytes


def test_llama_cpp_cells_and_the_sliding_window_cache():
    # n_ctx padded to 256; Gemma 2 9B f16: K and V of 8 heads × 256 × 2 bytes per cell and layer; SWA cache
    # GGML_PAD(min(n_ctx, 4096 · 1 + 512), 256) = 4608 cells for the 21 sliding layers
    e = serve_estimate(_serve("gemma-2-9b", context=8000, batch=1, engine=Engine.LLAMA_CPP,
                              weights="gguf-q4_k_m"))
    lc = e.llama_cpp
    assert lc is not None and (lc.cells, lc.swa_cells) == (8192, 4608)
    assert e.kv.bytes == 8192 * 21 * 8192 + 4608 * 21 * 8192  # 1344 MiB + 756 MiB
    q8 = serve_estimate(_serve("llama-3-8b", context=8192, engine=Engine.LLAMA_CPP, kv_dtype=KvDType.Q8_0))
    assert q8.kv.bytes == 2 * 1024 // 32 * 34 * 8192 * 32 == 544 * 2**20  # K (q8_0) 272 MiB + V 272 MiB
    f16 = serve_estimate(_serve("llama-3-8b", context=8192, engine=Engine.LLAMA_CPP))
    assert f16.kv.bytes == 1024 * 2**20  # llama.cpp: "KV self size = 1024.00 MiB" for Llama 3 8B at 8192


def test_transformers_dynamic_cache_holds_the_whole_prompt_at_the_prefill():
    # DynamicSlidingWindowLayer keeps keys[:, :, -window + 1:] as a view of the prompt's K and V: at the prefill
    # every layer still holds all of them (measured, tests/fixtures/measured_serving.json)
    e = serve_estimate(_serve("gemma-2-9b", context=8192, batch=2, engine=Engine.HF))
    row = 2 * 8 * 256 * 2
    assert e.kv.bytes == 2 * row * 42 * 8192


@pytest.mark.parametrize(("serve", "field"), [
    ({"engine": Engine.VLLM, "kv_dtype": KvDType.Q8_0}, "serve.kv_dtype"),
    ({"engine": Engine.HF, "kv_dtype": KvDType.FP8}, "serve.kv_dtype"),
    ({"engine": Engine.LLAMA_CPP, "weights": "awq-int4"}, "serve.weights"),
    ({"engine": Engine.HF, "weights": "gguf-q4_0"}, "serve.weights"),
    ({"engine": Engine.VLLM}, "hardware.gpu_memory"),
])
def test_what_an_engine_does_not_do_is_an_error_naming_the_field(serve, field):
    from vramgui.core.text.errors import InputError

    with pytest.raises(InputError) as err:
        serve_estimate(_serve("llama-3-8b", **serve))
    assert err.value.field == field


def test_tp_must_split_the_heads_and_a_count_alone_cannot_be_served():
    from vramgui.core.text.errors import InputError

    s = replace(_serve("llama-3-8b", kv_cache_memory_bytes=GiB), parallel=ParallelSpec(num_gpus=3, tp=3))
    with pytest.raises(InputError) as err:
        serve_estimate(s)
    assert err.value.field == "parallel.tp"
    with pytest.raises(InputError) as err:
        serve_estimate(Scenario(model=ModelSpec(params=7 * 10**9)))
    assert err.value.field == "model.architecture"


def test_the_sliding_mask_is_built_from_a_prompt_as_long_as_the_window():
    """transformers' ``_ignore_causal_mask_sdpa`` gives up at ``kv_length >= local_attention_size``: s = window
    already gets the (b, 1, s, s) boolean mask (measured in the training harness at s = window)."""
    from vramgui.core.serve.prefill import hf_mask_bytes

    arch = _arch("mistral-7b-v0.1")
    window = arch.sliding_window
    assert hf_mask_bytes(arch, 2, window - 1) == 0
    assert hf_mask_bytes(arch, 2, window) == 2 * window * window
    assert hf_mask_bytes(replace(arch, sliding_window=None), 2, window) == 0
