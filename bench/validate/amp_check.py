"""Measure autocast (recipe "amp") and the dropout / use_cache variants against vramgui's ``hf`` profile.

``python -m bench.validate.amp_check`` builds the harness's tiny families (bench/validate/families.py), runs the
forward with loss and lists what autograd keeps (``measure.saved_activations``), and prints measured against
estimated bytes, whole model and per layer (the difference between 2 and 3 layers):

* **amp** - the model in fp32 and its forward (loss included) inside ``torch.autocast("cpu", dtype=bfloat16)``,
  wrapped around ``model.forward`` as accelerate does for HF Trainer's ``bf16=True``; estimated with
  ``estimate_activations(..., "bf16", amp=True)``;
* **dropout variants** - GPT-2 with every dropout probability at 0, GPT-2 with ``use_cache`` false, Llama and
  Qwen2 with ``attention_dropout`` 0.1 (pure bf16).

    .venv-validate/bin/python -m bench.validate.amp_check                  # every case, a table on stdout
    .venv-validate/bin/python -m bench.validate.amp_check --only amp       # the amp cases only
    .venv-validate/bin/python -m bench.validate.amp_check --dump amp llama-gqa sdpa none 2 64  # tensor by tensor

Exit status 1 when a case misses by more than ``TOLERANCE``. Autocast on the CPU differs from CUDA's for a few
ops (docs/activations.md, "Measurement on a CPU versus training on a GPU"); for the models measured here the
saved tensors are the same, because every op that CUDA runs in fp32 and the CPU does not (``pow``, ``rsqrt``,
``softmax``, ``layer_norm``...) already gets an fp32 input under autocast.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import sys
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import MethodType
from typing import Any

import torch
import torch.nn.functional as F  # noqa: N812 - PyTorch's own convention

from bench.validate.compare import ATTENTION, EXTENDED_SHAPES, RECOMPUTE, SHAPES, _set_mode, build, vramgui_spec
from bench.validate.families import BASE_LAYERS, EXTENDED, FAMILIES, Family, family
from bench.validate.measure import saved_activations
from vramgui.core.activations.estimate import estimate_activations
from vramgui.core.scenario.specs import ParallelSpec, TrainingSpec

TOLERANCE = 0.03


@dataclass(frozen=True)
class Variant:
    """One way of running a family: the recipe and the config keys changed."""

    name: str
    family: str
    amp: bool = False
    overrides: tuple[tuple[str, Any], ...] = ()
    attentions: tuple[str, ...] = ("eager", "sdpa")
    shapes: tuple[tuple[int, int], ...] = SHAPES


AMP = tuple(Variant("amp", fam.key, amp=True) for fam in FAMILIES)
# The other code paths, one shape: not part of the acceptance set, reported for what they show.
AMP_EXTENDED = tuple(Variant("amp", fam.key, amp=True, attentions=fam.attentions, shapes=EXTENDED_SHAPES)
                     for fam in EXTENDED)
DROPOUT = (
    Variant("no-dropout", "gpt2", overrides=(("attn_pdrop", 0.0), ("resid_pdrop", 0.0), ("embd_pdrop", 0.0))),
    Variant("no-cache", "gpt2", overrides=(("use_cache", False),)),
    Variant("attn-dropout", "llama-gqa", overrides=(("attention_dropout", 0.1),)),
    Variant("attn-dropout", "qwen2", overrides=(("attention_dropout", 0.1),)),
    Variant("attn-dropout", "mistral", overrides=(("attention_dropout", 0.1),), attentions=("eager",)),
    Variant("resid-only", "gpt2", overrides=(("attn_pdrop", 0.0), ("embd_pdrop", 0.0))),
)
VARIANTS = AMP + DROPOUT


@dataclass(frozen=True)
class Row:
    variant: str
    family: str
    attention: str
    recompute: str
    batch: int
    seq: int
    measured: int
    estimated: int
    measured_layer: int
    estimated_layer: int

    @property
    def error(self) -> float:
        return (self.estimated - self.measured) / self.measured

    @property
    def layer_error(self) -> float:
        return (self.estimated_layer - self.measured_layer) / self.measured_layer

    @property
    def ok(self) -> bool:
        return abs(self.error) <= TOLERANCE and abs(self.layer_error) <= TOLERANCE


def _family(v: Variant) -> Family:
    fam = family(v.family)
    if not v.overrides:
        return fam
    base: Callable[[int], Any] = fam.make_config

    def make(layers: int) -> Any:
        config = base(layers)
        for key, value in v.overrides:
            setattr(config, key, value)
        return config

    return dataclasses.replace(fam, make_config=make)


def _autocast_forward(model: torch.nn.Module) -> None:
    """accelerate's ``autocast`` wrapping of ``model.forward`` (what HF Trainer's bf16=True does): the whole
    forward, loss included, runs under autocast; backward runs outside it."""
    inner = model.forward

    def forward(self: torch.nn.Module, *args: Any, **kwargs: Any) -> Any:
        with torch.autocast("cpu", dtype=torch.bfloat16), cuda_like_autocast():
            return inner(*args, **kwargs)

    model.forward = MethodType(forward, model)  # type: ignore[method-assign]


_CUDA_FP32_FUNCTIONS = ((torch, "pow"), (torch, "rsqrt"), (torch, "exp"), (F, "softmax"), (F, "log_softmax"),
                        (F, "layer_norm"))
_CUDA_FP32_METHODS = ("pow", "rsqrt", "exp", "softmax", "log_softmax")


def _upcast(value: Any) -> Any:
    if isinstance(value, torch.Tensor) and value.dtype in (torch.bfloat16, torch.float16):
        return value.float()
    return value


def _fp32_under_autocast(fn: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        if torch.is_autocast_enabled("cpu"):
            args = tuple(_upcast(a) for a in args)
            kwargs = {k: _upcast(v) for k, v in kwargs.items()}
        return fn(*args, **kwargs)

    return run


@contextlib.contextmanager
def cuda_like_autocast() -> Iterator[None]:
    """Run the ops that CUDA's autocast computes in fp32 and the CPU's does not (``torch._C._dispatch_dump_table``
    shows an AutocastCUDA kernel and an AutocastCPU fallthrough: pow, rsqrt, exp, softmax, log_softmax,
    layer_norm...) in fp32 on the CPU too: their low-precision inputs are cast to fp32 first, as CUDA's autocast
    does. Only GPT-2's ``gelu_new`` (``torch.pow`` of the bf16 c_fc output) is affected in the models measured."""
    saved: list[tuple[Any, str, Any, bool]] = []
    for owner, name in _CUDA_FP32_FUNCTIONS:
        saved.append((owner, name, getattr(owner, name), True))
        setattr(owner, name, _fp32_under_autocast(getattr(owner, name)))
    for name in _CUDA_FP32_METHODS:
        own = name in torch.Tensor.__dict__
        original = getattr(torch.Tensor, name)
        saved.append((torch.Tensor, name, original, own))
        setattr(torch.Tensor, name, _fp32_under_autocast(original))
    try:
        yield
    finally:
        for owner, name, original, own in saved:
            if own:
                setattr(owner, name, original)
            else:
                delattr(owner, name)


def _no_sdpa_attention_dropout(model: torch.nn.Module, attention: str) -> None:
    """Llama-family attention passes ``self.attention_dropout`` to SDPA, which sends the CPU to the math kernel
    (a·s² fp32 tensors); CUDA's flash kernel keeps no mask, so SDPA is measured with it at 0 (as
    compare._set_mode does for GPT-2's attn_dropout)."""
    if attention != "sdpa":
        return
    for module in model.modules():
        if isinstance(getattr(module, "attention_dropout", None), float):
            module.attention_dropout = 0.0


def _model(v: Variant, fam: Family, layers: int, attention: str, recompute: str) -> torch.nn.Module:
    model = build(fam, layers, "fp32" if v.amp else "bf16", attention)
    _set_mode(model, attention, recompute)
    _no_sdpa_attention_dropout(model, attention)
    if v.amp:
        _autocast_forward(model)
    return model


def _estimate(v: Variant, fam: Family, layers: int, attention: str, recompute: str, batch: int, seq: int) -> int:
    arch = vramgui_spec(fam.make_config(layers)).architecture
    assert arch is not None
    training = TrainingSpec(micro_batch=batch, seq_len=seq, recompute=recompute, attention=ATTENTION[attention])
    return estimate_activations(arch, training, ParallelSpec(), "bf16", amp=v.amp).total


def rows(variants: tuple[Variant, ...]) -> Iterator[Row]:
    for v in variants:
        fam = _family(v)
        for attention in v.attentions:
            for recompute in RECOMPUTE:
                models = [_model(v, fam, n, attention, recompute) for n in (BASE_LAYERS, BASE_LAYERS + 1)]
                vocab = models[0].config.vocab_size
                for batch, seq in v.shapes:
                    measured = [saved_activations(m, batch, seq, vocab)[0] for m in models]
                    est = [_estimate(v, fam, n, attention, recompute, batch, seq)
                           for n in (BASE_LAYERS, BASE_LAYERS + 1)]
                    yield Row(v.name, v.family, attention, recompute, batch, seq, measured[0], est[0],
                              measured[1] - measured[0], est[1] - est[0])


def dump(name: str, key: str, attention: str, recompute: str, batch: int, seq: int) -> None:
    v = next(v for v in VARIANTS + AMP_EXTENDED if v.name == name and v.family == key)
    fam = _family(v)
    totals = []
    for layers in (BASE_LAYERS, BASE_LAYERS + 1):
        model = _model(v, fam, layers, attention, recompute)
        total, saved = saved_activations(model, batch, seq, model.config.vocab_size, detail=True)
        totals.append(total)
        est = _estimate(v, fam, layers, attention, recompute, batch, seq)
        print(f"{layers} layers: {total:,} bytes measured, {est:,} estimated")
        grouped = Counter((r.nbytes, r.shape, r.dtype, r.saved_by) for r in saved)
        for (nbytes, shape, dt, by), count in sorted(grouped.items(), key=lambda kv: -kv[0][0] * kv[1]):
            print(f"  {count:3d} x {nbytes:>12,}  {shape!s:22} {dt:9} {', '.join(by)}")
    print(f"one layer: {totals[1] - totals[0]:,} bytes")


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    import transformers as tf

    tf.logging.set_verbosity_error()
    torch.set_num_threads(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.validate.amp_check", description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("amp", "dropout", "amp-extended"), help="one group of cases")
    parser.add_argument("--families", nargs="*", help="family keys (default: all of the group)")
    parser.add_argument("--dump", nargs=6, metavar=("VARIANT", "FAMILY", "ATTN", "RECOMPUTE", "B", "S"))
    args = parser.parse_args(argv)
    with _quiet():
        if args.dump:
            name, key, attention, recompute, batch, seq = args.dump
            dump(name, key, attention, recompute, int(batch), int(seq))
            return 0
        chosen = {"amp": AMP, "dropout": DROPOUT, "amp-extended": AMP_EXTENDED, None: VARIANTS}[args.only]
        if args.families:
            chosen = tuple(v for v in chosen if v.family in args.families)
        print(f"torch {torch.__version__}, transformers {__import__('transformers').__version__}")
        print("| variant | model | attention | recompute | b × s | measured | vramgui | ratio | measured / layer "
              "| vramgui / layer | ratio |")
        print("|---|---|---|---|---|--:|--:|--:|--:|--:|--:|")
        bad = []
        for r in rows(chosen):
            print(f"| {r.variant} | {r.family} | {r.attention} | {r.recompute} | {r.batch} × {r.seq} | "
                  f"{r.measured:,} | {r.estimated:,} | {r.estimated / r.measured:.4f} | {r.measured_layer:,} | "
                  f"{r.estimated_layer:,} | {r.estimated_layer / r.measured_layer:.4f} |", flush=True)
            if not r.ok:
                bad.append(r)
        print(f"{len(bad)} case(s) outside ±{TOLERANCE:.0%}")
        return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
