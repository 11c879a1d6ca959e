"""The validation harness's model configs (bench/validate/families.py) at 2 layers, as config.json carries them: the
models whose activations bench/validate measured and tests/core/activations pins (test_measured.py, test_amp.py)."""

from __future__ import annotations

from typing import Any

CONFIGS: dict[str, dict[str, Any]] = {
    "llama-mha": {"model_type": "llama", "vocab_size": 2048, "hidden_size": 128, "intermediate_size": 344,
                  "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 4,
                  "max_position_embeddings": 512},
    "llama-gqa": {"model_type": "llama", "vocab_size": 2048, "hidden_size": 128, "intermediate_size": 352,
                  "num_hidden_layers": 2, "num_attention_heads": 8, "num_key_value_heads": 2,
                  "max_position_embeddings": 512},
    "qwen2": {"model_type": "qwen2", "vocab_size": 3000, "hidden_size": 96, "intermediate_size": 256,
              "num_hidden_layers": 2, "num_attention_heads": 6, "num_key_value_heads": 2,
              "tie_word_embeddings": True, "max_position_embeddings": 512},
    "mistral": {"model_type": "mistral", "vocab_size": 1500, "hidden_size": 96, "intermediate_size": 224,
                "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
                "max_position_embeddings": 512, "sliding_window": 4096},
    "mixtral": {"model_type": "mixtral", "vocab_size": 1024, "hidden_size": 64, "intermediate_size": 128,
                "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
                "num_local_experts": 4, "num_experts_per_tok": 2, "max_position_embeddings": 512},
    "gpt2": {"model_type": "gpt2", "vocab_size": 2048, "n_embd": 128, "n_layer": 2, "n_head": 4,
             "n_positions": 512},
}
