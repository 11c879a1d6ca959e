"""Measure what a real PyTorch model keeps: saved activations and model states after one AdamW step.

Activations: every tensor autograd saves for backward during one forward pass with loss, caught with
``torch.autograd.graph.saved_tensors_hooks``, deduplicated by storage (views and tensors saved by several
nodes count once), parameters and buffers excluded. The hook keeps a reference to each saved tensor until the
measurement ends, so no storage address can be reused by another tensor meanwhile.

CPU versus CUDA: ``torch.nn.functional.dropout`` on CPU multiplies by a noise tensor in the input dtype, while
CUDA runs the fused ``native_dropout`` kernel that keeps a 1-byte bool mask (ATen ``dropout``: the fused kernel
is taken when the input is on CUDA and 0 < p < 1). The harness routes dropout through ``torch.native_dropout``
(which has a CPU kernel) so that what is measured is what a GPU keeps; likewise SDPA's output layout
(``gpu_like_sdpa_layout``).
"""

from __future__ import annotations

import contextlib
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import torch
import torch.nn.functional as F  # noqa: N812 - PyTorch's own convention


@dataclass(frozen=True)
class SavedTensor:
    nbytes: int
    shape: tuple[int, ...]
    dtype: str
    saved_by: tuple[str, ...]


@contextlib.contextmanager
def gpu_like_dropout() -> Iterator[None]:
    """Route F.dropout through native_dropout (bool mask), as CUDA does."""
    original = F.dropout

    def dropout(input: torch.Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> torch.Tensor:
        if not training or p == 0.0:
            return input
        return torch.native_dropout(input, p, True)[0]

    F.dropout = dropout
    try:
        yield
    finally:
        F.dropout = original


@contextlib.contextmanager
def gpu_like_sdpa_layout() -> Iterator[None]:
    """Give SDPA's output the (batch, seq, heads, dim) memory layout that CUDA's flash and memory-efficient
    kernels always allocate. The CPU flash kernel lays its output out like the query instead, so for a query
    contiguous as (batch, heads, seq, dim) the ``transpose(1, 2).contiguous()`` that follows in transformers
    copies the output - a copy a GPU never makes. Such a query (a fresh tensor of its own, e.g. after RoPE) is
    re-laid out first (same size; the original is then not kept), which makes the CPU kernel produce the CUDA
    layout. Queries that are views (GPT-2's slice of the fused QKV output) are left alone: CUDA keeps them as
    they are, and the CPU kernel already returns the (batch, seq, heads, dim) layout for them.

    MLA (DeepSeek: query/key head size 192, value 128): CPU SDPA has no kernel for unequal head sizes and takes
    the math path, which keeps the fp32 attention probabilities (a·s² per sample); CUDA takes its memory-efficient
    kernel (``sdp_utils.cpp``: flash needs equal head sizes, memory-efficient only equal query and key), which
    keeps query, key, value, the output and a float32 log-sum-exp of (b, a, ⌈s/32⌉·32)
    (``_efficient_attention_forward``, ``derivatives.yaml``). Such calls (no mask, no dropout) go through
    ``_MemoryEfficientLike``, which saves exactly that and recomputes in backward."""
    original = F.scaled_dot_product_attention

    def sdpa(query: torch.Tensor, *args: Any, **kwargs: Any) -> torch.Tensor:
        if query.dim() == 4 and query.is_contiguous() and not query.transpose(1, 2).is_contiguous():
            query = query.transpose(1, 2).contiguous().transpose(1, 2)
        plain = (len(args) == 2 and kwargs.get("attn_mask") is None and not kwargs.get("dropout_p")
                 and set(kwargs) <= {"is_causal", "scale", "enable_gqa", "attn_mask", "dropout_p"})
        if plain and query.size(-1) != args[1].size(-1):
            options = {k: v for k, v in kwargs.items() if k in ("is_causal", "scale", "enable_gqa")}
            return _MemoryEfficientLike.apply(query, args[0], args[1], original, options)
        return original(query, *args, **kwargs)

    F.scaled_dot_product_attention = sdpa
    try:
        yield
    finally:
        F.scaled_dot_product_attention = original


class _MemoryEfficientLike(torch.autograd.Function):
    """SDPA that keeps what CUDA's memory-efficient kernel keeps (see ``gpu_like_sdpa_layout``)."""

    @staticmethod
    def forward(ctx: Any, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor, sdpa: Any,
                options: dict[str, Any]) -> torch.Tensor:
        with torch.no_grad():
            out = sdpa(query, key, value, **options)
        out = out.transpose(1, 2).contiguous().transpose(1, 2)  # the kernel's (b, s, a, d) layout
        b, a, s = query.shape[0], query.shape[1], query.shape[2]
        lse = torch.empty((b, a, -(-s // 32) * 32), dtype=torch.float32, device=query.device)
        ctx.save_for_backward(query, key, value, out, lse)
        ctx.sdpa, ctx.options = sdpa, options
        return out

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple[Any, ...]:
        query, key, value, _out, _lse = ctx.saved_tensors
        with torch.enable_grad():
            q, k, v = (t.detach().requires_grad_() for t in (query, key, value))
            out = ctx.sdpa(q, k, v, **ctx.options)
            dq, dk, dv = torch.autograd.grad(out, (q, k, v), grad)
        return dq, dk, dv, None, None


def _model_storages(model: torch.nn.Module) -> set[int]:
    tensors = list(model.parameters()) + list(model.buffers())
    return {t.untyped_storage().data_ptr() for t in tensors}


def forward_with_loss(model: torch.nn.Module, batch: int, seq: int, vocab: int, seed: int = 0) -> Any:
    gen = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, vocab, (batch, seq), generator=gen)
    return model(input_ids=ids, labels=ids)


def saved_activations(model: torch.nn.Module, batch: int, seq: int, vocab: int,
                      detail: bool = False) -> tuple[int, list[SavedTensor]]:
    """Bytes autograd keeps at the end of one forward pass with loss (and, on request, tensor by tensor)."""
    excluded = _model_storages(model)
    keep: list[torch.Tensor] = []
    seen: dict[int, torch.Tensor] = {}

    def pack(t: torch.Tensor) -> torch.Tensor:
        keep.append(t)
        ptr = t.untyped_storage().data_ptr()
        if ptr not in excluded and ptr not in seen:
            seen[ptr] = t
        return t

    closure: dict[int, torch.Tensor] = {}

    def held_by_checkpoint(module: torch.nn.Module, args: tuple, kwargs: dict) -> None:
        # transformers' GradientCheckpointingLayer checkpoints partial(forward, **kwargs): the keyword tensors
        # (causal mask, RoPE cos/sin, position ids) stay referenced by the checkpoint until backward replays it.
        if getattr(module, "gradient_checkpointing", False) and module.training:
            for t in _tensors(kwargs):
                keep.append(t)
                closure.setdefault(t.untyped_storage().data_ptr(), t)

    handles = [m.register_forward_pre_hook(held_by_checkpoint, with_kwargs=True)
               for m in model.modules() if hasattr(m, "gradient_checkpointing")]
    try:
        with gpu_like_dropout(), gpu_like_sdpa_layout(), torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            out = forward_with_loss(model, batch, seq, vocab)
    finally:
        for handle in handles:
            handle.remove()
    for ptr, t in closure.items():
        if ptr not in excluded and ptr not in seen:
            seen[ptr] = t
    total = sum(t.untyped_storage().nbytes() for t in seen.values())
    rows: list[SavedTensor] = []
    if detail:
        names = _saved_by(out.loss)
        for ptr, t in sorted(seen.items(), key=lambda kv: -kv[1].untyped_storage().nbytes()):
            where = "(checkpoint keyword input)" if ptr in closure else "(checkpoint input)"
            rows.append(SavedTensor(t.untyped_storage().nbytes(), tuple(t.shape), str(t.dtype).replace("torch.", ""),
                                    tuple(names.get(ptr, [where]))))
    keep.clear()
    del out
    return total, rows


def _tensors(obj: Any) -> Iterator[torch.Tensor]:
    if isinstance(obj, torch.Tensor):
        yield obj
    elif isinstance(obj, dict):
        for value in obj.values():
            yield from _tensors(value)
    elif isinstance(obj, (tuple, list)):
        for value in obj:
            yield from _tensors(value)


def _saved_by(loss: torch.Tensor) -> dict[int, list[str]]:
    """Which autograd node (and which of its ``_saved_*`` slots) holds each storage - for the detail dump."""
    names: dict[int, list[str]] = defaultdict(list)
    stack, visited = [loss.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or node in visited:
            continue
        visited.add(node)
        for attr in dir(node):
            if not attr.startswith("_saved_"):
                continue
            try:
                value = getattr(node, attr)
            except Exception:  # noqa: BLE001 - some slots raise once freed; irrelevant here
                continue
            for item in value if isinstance(value, (tuple, list)) else [value]:
                if isinstance(item, torch.Tensor):
                    names[item.untyped_storage().data_ptr()].append(f"{node.name()}.{attr[7:]}")
        stack.extend(nxt for nxt, _ in node.next_functions)
    return names


@dataclass(frozen=True)
class ModelStates:
    params: int  # parameter count, sum(p.numel())
    param_tensors: int
    parameters: int  # bytes
    gradients: int
    optimizer_states: int  # exp_avg + exp_avg_sq + step


def model_states_after_adamw_step(model: torch.nn.Module, vocab: int) -> ModelStates:
    """One forward/backward and one AdamW step (PyTorch defaults), then the bytes read off the tensors."""
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    out = forward_with_loss(model, 1, 8, vocab)
    out.loss.backward()
    opt.step()
    params = list(model.parameters())
    opt_bytes = 0
    for state in opt.state.values():
        for value in state.values():
            if isinstance(value, torch.Tensor):
                opt_bytes += value.untyped_storage().nbytes()
    result = ModelStates(
        params=sum(p.numel() for p in params),
        param_tensors=len(params),
        parameters=sum(p.numel() * p.element_size() for p in params),
        gradients=sum(p.grad.numel() * p.grad.element_size() for p in params if p.grad is not None),
        optimizer_states=opt_bytes,
    )
    opt.zero_grad(set_to_none=True)
    return result
