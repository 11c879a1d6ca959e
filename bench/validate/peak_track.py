"""Live storage bytes of a PyTorch program, op by op: the instrument behind the training-step peak cases.

``LiveStorages`` is a ``TorchDispatchMode``: every op's output tensors are looked up by their untyped storage
(one Python object per storage while it lives, so views and in-place results count once) and a
``weakref.finalize`` on the storage subtracts its bytes the moment it dies. Peaks can only grow when an op
returns, so checking after each op finds the exact maximum of what the dispatcher sees. Storages that exist
before tracking starts (parameters, buffers, the input ids, optimizer states) are walked in with ``adopt``.
``UntypedStorage.resize_`` is wrapped as PyTorch's MemTracker does (FSDP2 frees and re-allocates its
all-gathered parameters by resizing storages). DTensor ops return NotImplemented so that what is counted are the
local shards the DTensor dispatch then runs.

Not seen: scratch memory a kernel allocates without a tensor (CPU flash attention's per-thread buffers, a CUDA
kernel's workspace) and allocator rounding/caching - the figures are live tensor bytes, the quantity vramgui's
step-peak model predicts.

Roles for the breakdown are given after the fact to storage *serial numbers* (an id that is never reused):
parameters and buffers at the start, ``.grad`` after each backward, ``optimizer.state`` after each step. A
snapshot {serial: bytes} kept at each new peak is then split into parameters / gradients / optimizer state /
other (activations, temporaries, communication buckets, buffers, FSDP2's gathered parameters).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten


@dataclass
class PhaseRecord:
    phase: str  # forward, backward, optimizer
    step: int
    micro: int | None
    start: int = 0  # live bytes when the phase began
    max: int = 0
    end: int = 0
    first_op: int = 0
    max_op: int = 0
    last_op: int = 0
    max_node: str = ""  # autograd node running at the phase maximum (backward)
    loss_grad_alive: bool = False  # at the maximum: the loss / logits gradient not yet consumed (backward)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"phase": self.phase, "step": self.step, "micro_batch": self.micro,
                               "start": self.start, "max": self.max, "end": self.end}
        if self.phase == "backward":
            span = max(self.last_op - self.first_op, 1)
            fraction = round((self.max_op - self.first_op) / span, 3)
            where = "early" if self.loss_grad_alive else ("late" if fraction >= 0.5 else "middle")
            out.update(max_node=self.max_node, max_fraction=fraction, max_where=where)
        return out


@dataclass
class Peak:
    bytes: int = 0
    phase: str = "setup"
    step: int = 0
    micro: int | None = None
    op: str = ""
    node: str = ""
    snapshot: dict[int, int] = field(default_factory=dict)  # serial -> bytes, everything live at the peak


def storages(obj: Any, skip_fake: bool = False) -> Iterable[torch.UntypedStorage]:
    """Untyped storages of every tensor in obj (DTensor: its local shard); ``skip_fake``: not those of fake tensors
    (they hold no memory)."""
    from torch._subclasses.fake_tensor import is_fake

    flat, _ = tree_flatten(obj)
    for t in flat:
        if isinstance(t, torch.Tensor):
            local = getattr(t, "_local_tensor", None)
            held = local if local is not None else t
            if skip_fake and is_fake(held):
                continue
            yield held.untyped_storage()


class LiveStorages(TorchDispatchMode):
    """``real_only``: a run on real tensors, where a fake tensor is no memory - DTensor's sharding propagation runs
    each op schema it has not seen yet on fake copies of the *global* shapes (``_sharding_prop.py``
    ``_propagate_tensor_meta_non_cached``; in the first optimizer step of FSDP2 about three times the sharded
    parameters' bytes) and FSDPMemTracker does not count them either. It also sets aside what a collective allocates
    inside ``Work.wait()``: gloo's own buffers (its reduce-scatter copies the whole input, an R-sized storage, where
    NCCL writes into the output it is given), counted apart as ``backend_bytes`` and left out of ``live`` and the
    peaks, so that the figures are those of a GPU run; ``backend_peak`` is the largest such total at any moment and
    ``raw_peak`` the peak with them."""

    def __init__(self, real_only: bool = False) -> None:
        super().__init__()
        self.real_only = real_only
        self._serial_of: dict[int, int] = {}  # id(storage) -> serial, while the storage lives
        self.size: dict[int, int] = {}  # serial -> bytes, live storages only
        self.role: dict[int, str] = {}  # serial -> role, kept after death
        self._next = 0
        self.live = 0
        self.ops = 0
        self.record: PhaseRecord | None = None
        self.records: list[PhaseRecord] = []
        self.peak = Peak()
        self._watch: int | None = None  # serial of the logits gradient while backward runs
        self._watched = False
        self._orig_resize = torch.UntypedStorage.resize_
        self._waiting = 0  # inside a collective's Work.wait()
        self.backend: set[int] = set()  # serials born inside Work.wait(): gloo's buffers, not counted in live
        self.backend_bytes = 0
        self.backend_peak = 0
        self.raw_peak = 0

    # -- bookkeeping -------------------------------------------------------------------------------------
    def _free(self, key: int, serial: int) -> None:
        self._serial_of.pop(key, None)
        if serial in self.backend:
            self.backend.discard(serial)
            self.backend_bytes -= self.size.pop(serial, 0)
            return
        self.live -= self.size.pop(serial, 0)

    def track(self, st: torch.UntypedStorage) -> int:
        key = id(st)
        serial = self._serial_of.get(key)
        if serial is None:
            serial = self._next
            self._next += 1
            self._serial_of[key] = serial
            self.size[serial] = st.nbytes()
            if self._waiting and self.real_only:
                self.backend.add(serial)
                self.backend_bytes += st.nbytes()
                self.backend_peak = max(self.backend_peak, self.backend_bytes)
                self.raw_peak = max(self.raw_peak, self.live + self.backend_bytes)
            else:
                self.live += st.nbytes()
            weakref.finalize(st, self._free, key, serial)
        elif serial in self.backend:
            pass
        elif self.size[serial] != st.nbytes():  # resized outside resize_ (should not happen)
            self.live += st.nbytes() - self.size[serial]
            self.size[serial] = st.nbytes()
        return serial

    def adopt(self, obj: Any, role: str | None = None) -> None:
        """Count (and optionally label) storages that already exist: parameters, buffers, inputs, states."""
        for st in storages(obj):
            serial = self.track(st)
            if role is not None and (role != "other" or serial not in self.role):
                self.role[serial] = role
        self._check(op="adopt")

    def label_module(self, model: torch.nn.Module, optimizer: Any = None) -> None:
        for b in model.buffers():
            self.adopt(b, "buffers")
        for p in model.parameters():
            self.adopt(p, "parameters")
            if p.grad is not None:
                self.adopt(p.grad, "gradients")
        if optimizer is not None:
            for state in optimizer.state.values():
                for name, value in state.items():
                    if isinstance(value, torch.Tensor):
                        self.adopt(value, "optimizer_step" if name == "step" else "optimizer_state")

    # -- phases --------------------------------------------------------------------------------------------
    def begin(self, phase: str, step: int, micro: int | None = None) -> None:
        self.record = PhaseRecord(phase, step, micro, start=self.live, max=self.live, first_op=self.ops,
                                  max_op=self.ops)
        self._watch, self._watched = None, False

    def end(self) -> None:
        rec = self.record
        if rec is not None:
            rec.end, rec.last_op = self.live, self.ops
            self.records.append(rec)
        self.record = None

    def watch_loss_grad(self, logits: torch.Tensor) -> None:
        """Mark the logits gradient when backward produces it: the backward maximum is 'early' while the loss
        backward runs or this gradient lives."""
        def hook(grad: torch.Tensor) -> None:
            self._watch = self.track(grad.untyped_storage())
            self._watched = True

        if logits.requires_grad:
            logits.register_hook(hook)

    def _check(self, op: str = "") -> None:
        rec = self.record
        if rec is None:
            return
        if self.live > rec.max:
            rec.max, rec.max_op = self.live, self.ops
            if rec.phase == "backward":
                node = torch._C._current_autograd_node()  # noqa: SLF001 - which backward node is running
                rec.max_node = node.name() if node is not None else ""
                rec.loss_grad_alive = (not self._watched) or (self._watch in self.size)
        self.raw_peak = max(self.raw_peak, self.live + self.backend_bytes)
        if self.live > self.peak.bytes:
            node = torch._C._current_autograd_node() if rec.phase == "backward" else None  # noqa: SLF001
            self.peak = Peak(self.live, rec.phase, rec.step, rec.micro, op, node.name() if node else "",
                             {k: v for k, v in self.size.items() if k not in self.backend})

    # -- the mode ------------------------------------------------------------------------------------------
    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        if any(getattr(t, "__name__", "") == "DTensor" for t in types):
            return NotImplemented
        out = func(*args, **(kwargs or {}))
        self.ops += 1
        for st in storages(out, skip_fake=self.real_only):
            self.track(st)
        self._check(str(func))
        return out

    def __enter__(self) -> LiveStorages:
        tracker = self
        orig = self._orig_resize

        def resize_(st: torch.UntypedStorage, size: int) -> Any:
            result = orig(st, size)
            serial = tracker._serial_of.get(id(st))
            if (serial is not None and serial not in tracker.backend
                    and tracker.size.get(serial) != st.nbytes()):
                tracker.live += st.nbytes() - tracker.size[serial]
                tracker.size[serial] = st.nbytes()
                tracker._check("resize_")
            return result

        torch.UntypedStorage.resize_ = resize_  # type: ignore[method-assign]
        if self.real_only:
            import torch.distributed as dist

            work = dist.distributed_c10d.Work
            self._orig_wait = work.wait

            def wait(w: Any, *args: Any, **kwargs: Any) -> Any:
                tracker._waiting += 1
                try:
                    return tracker._orig_wait(w, *args, **kwargs)
                finally:
                    tracker._waiting -= 1

            work.wait = wait
        return super().__enter__()

    def __exit__(self, *exc: Any) -> None:
        torch.UntypedStorage.resize_ = self._orig_resize  # type: ignore[method-assign]
        if self.real_only:
            import torch.distributed as dist

            dist.distributed_c10d.Work.wait = self._orig_wait
        super().__exit__(*exc)

    # -- results -------------------------------------------------------------------------------------------
    def breakdown(self) -> dict[str, Any]:
        """Split the peak snapshot by role: four parts that sum to the peak, plus the detail of 'other' and the
        AdamW step counters included in optimizer_state."""
        parts = {"parameters": 0, "gradients": 0, "optimizer_state": 0, "other": 0}
        detail = {"buffers": 0, "gathered_parameters": 0, "optimizer_step": 0}
        for serial, nbytes in self.peak.snapshot.items():
            role = self.role.get(serial, "other")
            if role in detail:
                detail[role] += nbytes
            key = {"optimizer_step": "optimizer_state", "buffers": "other", "gathered_parameters": "other"}.get(
                role, role)
            parts[key] += nbytes
        assert sum(parts.values()) == self.peak.bytes, (parts, self.peak.bytes)
        return {**parts, "detail": detail}
