"""Config keys as transformers writes them: every supported model_type built with transformers' own configuration
class, saved with ``save_pretrained`` (the config.json a user gets), read back by vramgui and counted against the
model transformers builds from the same config on the meta device.

``python -m bench.validate.config_keys`` measures and writes ``tests/fixtures/hf_configs/transformers_saved.json``
(pinned in ``make test`` by ``tests/core/documents/test_hf_config_saved.py``); ``--check`` only compares. Each
model_type starts from a small base (a few layers, hidden 64) and then changes one key of its configuration class
at a time - every int and bool field (doubled, or +1 from 0, or flipped) and every field that defaults to None -
keeping each variant that changes the parameter count transformers builds: the keys that shape the architecture,
found by transformers itself rather than listed by hand. A key vramgui reads under the wrong name (transformers 5
saves Qwen3-MoE's ``num_experts`` as ``num_local_experts``) or does not read at all then shows as a difference.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "hf_configs" / "transformers_saved.json"

SMALL = dict(vocab_size=512, hidden_size=64, intermediate_size=160, num_attention_heads=4, num_hidden_layers=2,
             max_position_embeddings=512)
_MLA = dict(n_routed_experts=4, num_experts_per_tok=2, moe_intermediate_size=32, kv_lora_rank=16, q_lora_rank=24,
            qk_nope_head_dim=8, qk_rope_head_dim=8, v_head_dim=8, n_group=1, topk_group=1)
# per model_type: what the small base needs beyond SMALL (experts, a head size, a valid pad id)
BASE: dict[str, dict[str, Any]] = {
    "qwen2_moe": dict(num_experts=4, num_experts_per_tok=2, moe_intermediate_size=32,
                      shared_expert_intermediate_size=64),
    "qwen3_moe": dict(num_experts=4, num_experts_per_tok=2, moe_intermediate_size=32),
    "mixtral": dict(num_local_experts=4, num_experts_per_tok=2),
    "gpt_oss": dict(num_local_experts=4, num_experts_per_tok=2, head_dim=16),
    "deepseek_v3": _MLA, "deepseek_v2": _MLA,
    "phi3": dict(pad_token_id=0),
    **{t: dict(head_dim=16) for t in ("gemma", "gemma2", "gemma3_text", "qwen3")},
}
_GPT2 = {"hidden_size": "n_embd", "num_hidden_layers": "n_layer", "num_attention_heads": "n_head",
         "max_position_embeddings": "n_positions"}
GPT2_NAMES = {"gpt2": _GPT2, "gpt_bigcode": _GPT2}  # their attribute_map, reversed
# fields that hold no parameters (token ids, numerics, switches of the forward only) or that h-serve reads
NOT_ARCHITECTURE = frozenset({
    "bos_token_id", "eos_token_id", "pad_token_id", "initializer_range", "rms_norm_eps", "layer_norm_eps",
    "layer_norm_epsilon", "norm_epsilon", "use_cache", "sliding_window", "max_window_layers", "output_router_logits",
    "router_aux_loss_coef", "return_dict", "output_hidden_states", "output_attentions", "torchscript",
    "is_encoder_decoder", "chunk_size_feed_forward", "is_decoder", "add_cross_attention", "tie_encoder_decoder",
    "pruned_heads", "tf_legacy_loss", "use_bfloat16", "num_labels",
})


def _quiet() -> None:
    import transformers

    warnings.simplefilter("ignore")
    transformers.logging.set_verbosity_error()


def built(model_type: str, kwargs: dict[str, Any]) -> tuple[dict[str, Any], int, int]:
    """(config.json as save_pretrained writes it, parameters, parameter tensors) of the model transformers builds."""
    import torch
    import transformers as tf

    config = tf.AutoConfig.for_model(model_type, **kwargs)
    with torch.device("meta"):
        model = tf.AutoModelForCausalLM.from_config(config)
    params = list(model.parameters())
    with tempfile.TemporaryDirectory() as tmp:
        config.save_pretrained(tmp)
        saved = json.loads(Path(tmp, "config.json").read_text())
    return saved, sum(p.numel() for p in params), len(params)


def _candidates(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value * 2 if value > 0 else 1, value + 1]
    if value is None:
        return [32, True]
    return []


def variants(model_type: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """The base, then one changed field at a time: (name, constructor kwargs)."""
    import transformers as tf

    base = {**SMALL, **BASE.get(model_type, {})}
    if model_type in GPT2_NAMES:  # set under the names the class keeps, or a changed n_embd meets hidden_size
        base = {GPT2_NAMES[model_type].get(k, k): v for k, v in base.items() if k != "intermediate_size"}
    yield f"{model_type}:base", base
    cls = tf.CONFIG_MAPPING[model_type]
    config = tf.AutoConfig.for_model(model_type, **base)
    names = [f.name for f in dataclasses.fields(cls)] if dataclasses.is_dataclass(cls) else list(config.to_dict())
    for name in names:
        if name in NOT_ARCHITECTURE or name.startswith("_"):
            continue
        value = getattr(config, name, None)
        for candidate in _candidates(value):
            yield f"{model_type}:{name}={json.dumps(candidate)}", {**base, name: candidate}


def measure(log: Any = print) -> list[dict[str, Any]]:
    from vramgui.core.documents.hf_config import SUPPORTED_MODEL_TYPES

    _quiet()
    out: list[dict[str, Any]] = []
    for model_type in SUPPORTED_MODEL_TYPES:
        base_numel = None
        tried: set[str] = set()
        for name, kwargs in variants(model_type):
            field = name.split(":", 1)[1].split("=", 1)[0]
            if field in tried:  # the first candidate value that builds is the field's variant
                continue
            try:
                saved, numel, tensors = built(model_type, kwargs)
            except Exception:  # noqa: BLE001 - a value the class or the model refuses: try the next candidate
                continue
            if base_numel is None:
                base_numel = numel
            elif numel == base_numel:
                tried.add(field)
                continue  # holds no parameters
            tried.add(field)
            out.append({"name": name, "config": saved, "numel": numel, "tensors": tensors})
        log(f"{model_type}: {sum(1 for e in out if e['name'].startswith(model_type + ':'))} saved configs")
    return out


@dataclasses.dataclass(frozen=True)
class SavedRow:
    name: str
    model_type: str
    measured: int
    tensors: int
    vramgui: int | None
    vramgui_tensors: int | None
    note: str = ""

    @property
    def ok(self) -> bool:
        return (self.measured, self.tensors) == (self.vramgui, self.vramgui_tensors)


def compare(entries: list[dict[str, Any]]) -> list[SavedRow]:
    from vramgui.core.documents.hf_config import architecture_from_config
    from vramgui.core.scenario.architecture import count_param_tensors, count_params
    from vramgui.core.text.errors import InputError

    rows = []
    for e in entries:
        model_type = str(e["config"].get("model_type"))
        try:
            arch = architecture_from_config(e["config"])
            rows.append(SavedRow(e["name"], model_type, e["numel"], e["tensors"], count_params(arch),
                                 count_param_tensors(arch)))
        except InputError as err:
            rows.append(SavedRow(e["name"], model_type, e["numel"], e["tensors"], None, None, str(err)[:160]))
    return rows


def section(rows: list[SavedRow], versions: dict[str, str]) -> str:
    """The report's section: one line per model_type, then every difference."""
    by_type: dict[str, list[SavedRow]] = {}
    for r in rows:
        by_type.setdefault(r.model_type, []).append(r)
    lines = [
        "## Config keys as transformers writes them", "",
        "Each supported `model_type` built with transformers' own configuration class, saved with "
        "`save_pretrained`, read back by vramgui and counted against the model transformers builds (meta "
        "device): a small base, then one key of the class changed at a time, kept where it changes the built "
        f"model's parameter count (`bench/validate/config_keys.py`; {versions.get('transformers', '?')}). "
        "Pinned in `make test` by `tests/core/documents/test_hf_config_saved.py`. A key vramgui does not model "
        "is refused with an error naming it (counted as *refused*), never read as a default.", "",
        "| model_type | saved configs | equal (parameters and tensors) | refused | keys changed |",
        "|---|--:|--:|--:|---|",
    ]
    for model_type, group in sorted(by_type.items()):
        keys = ", ".join(f"`{r.name.split(':', 1)[1].split('=', 1)[0]}`" for r in group if not r.name.endswith(":base"))
        refused = sum(1 for r in group if r.vramgui is None)
        lines.append(f"| {model_type} | {len(group)} | {sum(r.ok for r in group)} | {refused} | {keys} |")
    misses = [r for r in rows if not r.ok]
    if misses:
        lines += ["", "| config | transformers | vramgui | note |", "|---|--:|--:|---|"]
        lines += [f"| {r.name} | {r.measured:,} | {'n/a' if r.vramgui is None else f'{r.vramgui:,}'} | {r.note} |"
                  for r in misses]
    return "\n".join(lines) + "\n"


def failures(rows: list[SavedRow]) -> list[str]:
    """Differences that are not a clear refusal: a count read silently wrong."""
    return [f"saved config {r.name}: vramgui {r.vramgui} != transformers {r.measured}" for r in rows
            if not r.ok and r.vramgui is not None]


def load(path: Path = FIXTURE) -> list[dict[str, Any]]:
    return list(json.loads(path.read_text(encoding="utf-8"))["cases"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.validate.config_keys", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=FIXTURE, help="fixture to write (default %(default)s)")
    parser.add_argument("--check", action="store_true", help="compare the recorded fixture only (no torch)")
    args = parser.parse_args(argv)
    if args.check:
        entries = load(args.out)
    else:
        import torch
        import transformers

        entries = measure()
        doc = {"about": "config.json files as transformers' save_pretrained writes them, with the parameter and "
                        "tensor counts of the model it builds (meta device); regenerate with "
                        "`python -m bench.validate.config_keys`.",
               "transformers": transformers.__version__, "torch": torch.__version__, "cases": entries}
        args.out.write_text("{\n" + ",\n".join(
            f" {json.dumps(k)}: {json.dumps(v)}" for k, v in doc.items() if k != "cases")
            + ',\n "cases": [\n' + ",\n".join("  " + json.dumps(e, sort_keys=True) for e in entries) + "\n ]\n}\n",
            encoding="utf-8")
        print(f"wrote {len(entries)} saved configs to {args.out}")
    rows = compare(entries)
    bad = [r for r in rows if not r.ok]
    for r in bad:
        print(f"  {r.name}: transformers {r.measured:,} ({r.tensors}), vramgui {r.vramgui} ({r.vramgui_tensors}) "
              f"{r.note}")
    print(f"{len(rows)} saved configs, {len(rows) - len(bad)} equal, {len(failures(rows))} read wrong")
    return 1 if failures(rows) else 0


if __name__ == "__main__":
    sys.exit(main())
