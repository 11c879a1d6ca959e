"""Run every configuration: measure with PyTorch, estimate with vramgui, and pair the numbers up."""

from __future__ import annotations

import json
import tempfile
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from bench.validate.families import BASE_LAYERS, EXTENDED, FAMILIES, Family
from bench.validate.measure import ModelStates, model_states_after_adamw_step, saved_activations
from vramgui.core.activations.estimate import estimate_activations
from vramgui.core.scenario.architecture import count_param_tensors
from vramgui.core.scenario.specs import ModelSpec, ParallelSpec, PrecisionSpec, Scenario, TrainingSpec
from vramgui.io.hf_config import load_model_spec

DTYPES = {"bf16": torch.bfloat16, "fp32": torch.float32}
ATTENTION = {"eager": "eager", "sdpa": "flash"}  # transformers name -> vramgui name
RECOMPUTE = ("none", "full")
SHAPES = ((1, 256), (2, 128), (4, 64))  # (micro-batch, sequence length)
EXTENDED_SHAPES = ((2, 64),)
EXTENDED_DTYPES = ("bf16",)
TOLERANCE = 0.05  # activation error allowed per configuration


@dataclass(frozen=True)
class ActivationRow:
    family: str
    dtype: str
    attention: str
    recompute: str
    batch: int
    seq: int
    measured: int  # L = BASE_LAYERS layers, whole model
    estimated: int
    measured_layer: int  # one layer: measured(L + 1) - measured(L)
    estimated_layer: int
    korthikanti: int  # fused profile for the same case
    states_measured: int  # parameters + gradients + AdamW states, read off the tensors

    @property
    def error(self) -> float:
        return (self.estimated - self.measured) / self.measured

    @property
    def layer_error(self) -> float:
        return (self.estimated_layer - self.measured_layer) / self.measured_layer

    @property
    def korthikanti_error(self) -> float:
        return (self.korthikanti - self.measured) / self.measured

    @property
    def ok(self) -> bool:
        return abs(self.error) <= TOLERANCE and abs(self.layer_error) <= TOLERANCE


@dataclass(frozen=True)
class StatesRow:
    family: str
    dtype: str
    measured: ModelStates
    parameters: int  # vramgui estimate(), pure recipe, AdamW
    gradients: int
    optimizer_states: int

    @property
    def ok(self) -> bool:
        m = self.measured
        return (m.parameters, m.gradients, m.optimizer_states) == (self.parameters, self.gradients,
                                                                    self.optimizer_states)


@dataclass(frozen=True)
class CountRow:
    name: str  # family key or fixture file name
    model_type: str
    measured: int | None  # sum(p.numel()) on the meta device; None = transformers cannot build it
    vramgui: int | None  # None = vramgui rejects the config
    note: str = ""
    measured_tensors: int | None = None  # len(list(model.parameters())): one AdamW step counter each
    vramgui_tensors: int | None = None  # architecture.count_param_tensors

    @property
    def compared(self) -> bool:
        """Both sides built it (a config one side rejects is outside the supported set, reported as n/a)."""
        return self.measured is not None and self.vramgui is not None

    @property
    def ok(self) -> bool:
        return not self.compared or (self.measured == self.vramgui
                                     and self.measured_tensors == self.vramgui_tensors)


def _quiet() -> Any:
    ctx = warnings.catch_warnings()
    ctx.__enter__()
    warnings.simplefilter("ignore")
    return ctx


def build(fam: Family, layers: int, dtype: str, attention: str = "sdpa", seed: int = 0) -> torch.nn.Module:
    config = fam.make_config(layers)
    config._attn_implementation = attention  # noqa: SLF001 - transformers' switch for the attention kernel
    torch.manual_seed(seed)
    model = fam.model_class()(config).to(DTYPES[dtype])
    model.train()
    return model


def vramgui_spec(config: Any) -> ModelSpec:
    """vramgui's view of a transformers config, through the same config.json import a user would run."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "config.json"
        path.write_text(json.dumps(config.to_dict()))
        return load_model_spec(path)


def _set_mode(model: torch.nn.Module, attention: str, recompute: str) -> None:
    model.set_attn_implementation(attention)
    # CPU's flash kernel has no dropout, so SDPA with attention dropout falls back to the math kernel (a·s²
    # tensors in fp32). CUDA's flash/memory-efficient kernels apply dropout inside the kernel from an RNG seed and
    # keep no mask, so the GPU-equivalent measurement of SDPA runs with the attention dropout at 0.
    for name, module in model.named_modules():
        if name.endswith("attn_dropout") and isinstance(module, torch.nn.Dropout):
            configured = module.__dict__.setdefault("configured_p", module.p)
            module.p = 0.0 if attention == "sdpa" else configured
    if recompute == "full":
        model.activation_checkpointing_enable()
    else:
        model.activation_checkpointing_disable()


def activation_rows(fam: Family, dtype: str, states: ModelStates) -> Iterator[ActivationRow]:
    arch = vramgui_spec(fam.make_config(BASE_LAYERS)).architecture
    arch_deeper = vramgui_spec(fam.make_config(BASE_LAYERS + 1)).architecture
    assert arch is not None and arch_deeper is not None
    for attention in fam.attentions:
        # built with the attention implementation from the start: some models (Falcon) read it only at init
        base = build(fam, BASE_LAYERS, dtype, attention)
        deeper = build(fam, BASE_LAYERS + 1, dtype, attention)
        vocab = base.config.vocab_size
        for recompute in RECOMPUTE:
            for model in (base, deeper):
                _set_mode(model, attention, recompute)
            for batch, seq in EXTENDED_SHAPES if fam.extended else SHAPES:
                measured, _ = saved_activations(base, batch, seq, vocab)
                measured_deeper, _ = saved_activations(deeper, batch, seq, vocab)

                def est(implementation: str, a: Any = arch) -> int:
                    # est is called within this iteration only, so the loop variables are the current ones
                    training = TrainingSpec(micro_batch=batch, seq_len=seq, recompute=recompute,  # noqa: B023
                                            attention=ATTENTION[attention], implementation=implementation)  # noqa: B023
                    return estimate_activations(a, training, ParallelSpec(), dtype).total

                hf = est("hf")
                yield ActivationRow(fam.key, dtype, attention, recompute, batch, seq, measured, hf,
                                    measured_deeper - measured, est("hf", arch_deeper) - hf, est("fused"),
                                    states.parameters + states.gradients + states.optimizer_states)


def states_row(fam: Family, dtype: str) -> StatesRow:
    from vramgui.core.estimate import estimate

    model = build(fam, BASE_LAYERS, dtype, fam.attentions[-1])
    measured = model_states_after_adamw_step(model, model.config.vocab_size)
    spec = vramgui_spec(model.config)
    scenario = Scenario(model=spec, precision=PrecisionSpec(dtype=dtype, recipe="pure", optimizer="adamw"),
                        training=TrainingSpec(micro_batch=1, seq_len=8))
    parts = {c.key: c.bytes for c in estimate(scenario).components}
    return StatesRow(fam.key, dtype, measured, parts["parameters"], parts["gradients"], parts["optimizer_states"])


def meta_count(config: Any, model_class: Any | None = None) -> tuple[int, int]:
    """(parameters, parameter tensors) of the model transformers builds, on the meta device (no memory)."""
    import transformers as tf

    with torch.device("meta"):
        model = model_class(config) if model_class is not None else tf.AutoModelForCausalLM.from_config(config)
    params = list(model.parameters())
    return sum(p.numel() for p in params), len(params)


def _vramgui_count(path: Path) -> tuple[int, int]:
    spec = load_model_spec(path)
    assert spec.architecture is not None and spec.params is not None
    return spec.params, count_param_tensors(spec.architecture)


def count_rows(fixtures: Path | None) -> Iterator[CountRow]:
    import transformers as tf

    for fam in FAMILIES + EXTENDED:
        config = fam.make_config(BASE_LAYERS)
        yield _count_row(tf, fam.key, config.to_dict(), fam.model_class())
    if fixtures is None or not fixtures.is_dir():
        return
    cases: list[tuple[str, dict[str, Any]]] = [
        (path.parent.name, json.loads(path.read_text())) for path in sorted(fixtures.glob("*/config.json"))
    ]
    recorded = fixtures / "transformers_measured.json"  # the catalog's small variants, re-measured here
    if recorded.is_file():
        for name, case in json.loads(recorded.read_text()).get("cases", {}).items():
            if name.startswith("variant:") and isinstance(case.get("config"), dict):
                cases.append((name, case["config"]))
    for name, data in cases:
        yield _count_row(tf, name, data)


def _count_row(tf: Any, name: str, data: dict[str, Any], model_class: Any | None = None) -> CountRow:
    model_type = str(data.get("model_type", "?"))
    note = ""
    vram: tuple[int, int] | None = None
    measured: tuple[int, int] | None = None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "config.json"
        path.write_text(json.dumps(data))
        try:
            vram = _vramgui_count(path)
        except ValueError as err:  # InputError: outside vramgui's supported families
            note = f"vramgui: {err}"
    try:
        config = tf.AutoConfig.for_model(model_type, **{k: v for k, v in data.items() if k != "model_type"})
        measured = meta_count(config, model_class)
    except Exception as err:  # noqa: BLE001 - a config transformers itself cannot build is reported, not fatal
        note = (note + "; " if note else "") + f"transformers: {type(err).__name__}: {str(err)[:80]}"
    return CountRow(name, model_type, measured[0] if measured else None, vram[0] if vram else None, note,
                    measured[1] if measured else None, vram[1] if vram else None)


def all_rows(fixtures: Path | None, families: tuple[Family, ...] = FAMILIES + EXTENDED
             ) -> tuple[list[ActivationRow], list[StatesRow], list[CountRow]]:
    ctx = _quiet()
    try:
        import transformers as tf

        tf.logging.set_verbosity_error()
        torch.set_num_threads(2)
        runs = [(fam, dtype) for fam in families for dtype in (EXTENDED_DTYPES if fam.extended else DTYPES)]
        states = [states_row(fam, dtype) for fam, dtype in runs]
        by_key = {(r.family, r.dtype): r.measured for r in states}
        acts = [row for fam, dtype in runs for row in activation_rows(fam, dtype, by_key[(fam.key, dtype)])]
        counts = list(count_rows(fixtures))
    finally:
        ctx.__exit__(None, None, None)
    return acts, states, counts
