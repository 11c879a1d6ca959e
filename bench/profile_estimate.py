"""Where one estimate spends its time: a sampling profile (``python -m bench.profile_estimate [what] [rounds]``).

cProfile times every call it sees, so it inflates code made of many small calls (most of the core) and hides
what is spent in C (dataclass ``__init__``, dict and tuple building); this samples the stack every 0.5 ms of CPU
time instead and counts, per function, the samples in which it runs (self) or is on the stack (inclusive).
``what``: ``estimate`` (bench_core's "one full estimate": the per-layout activations computed afresh, the model's
own figures kept), ``new-shape`` (a new sequence length each time), ``sweep`` (the 1,024-point GPU sweep, its
estimates kept) or ``peak-sweep`` (the same sweep of the step peak only, what *By GPU count* draws).
The table in docs/architecture.md ("Performance") was made with it.
"""

from __future__ import annotations

import collections
import signal
import sys
import time
from collections.abc import Callable
from types import FrameType

from bench import bench_core

ROOT = str(bench_core.ROOT) + "/"


def _workloads() -> dict[str, Callable[[], object]]:
    return {
        "estimate": lambda: [bench_core.fresh_estimate() for _ in range(1000)],
        "new-shape": lambda: [bench_core.new_shape_estimate() for _ in range(500)],
        "sweep": lambda: bench_core.gpu_sweep(bench_core.LLAMA_7B, 1024),
        "peak-sweep": lambda: bench_core.peak_sweep(bench_core.LLAMA_7B, 1024),
    }


def profile(what: str = "estimate", rounds: int = 20, top: int = 25) -> None:
    fn = _workloads()[what]
    fn()  # warm: what a running window has already computed once
    own: collections.Counter[str] = collections.Counter()
    inclusive: collections.Counter[str] = collections.Counter()

    def sample(_signum: int, frame: FrameType | None) -> None:
        seen: set[str] = set()
        first = True
        while frame is not None:
            code = frame.f_code
            name = f"{code.co_filename.removeprefix(ROOT)}:{code.co_name}"
            if first:
                own[name] += 1
                first = False
            if name not in seen:
                inclusive[name] += 1
                seen.add(name)
            frame = frame.f_back

    signal.signal(signal.SIGPROF, sample)
    signal.setitimer(signal.ITIMER_PROF, 0.0005, 0.0005)
    started = time.process_time()
    for _ in range(rounds):
        fn()
    signal.setitimer(signal.ITIMER_PROF, 0, 0)
    total = max(sum(own.values()), 1)
    print(f"{what}: {total} samples, {time.process_time() - started:.2f} s of CPU")
    for title, counts in (("inclusive", inclusive), ("self", own)):
        print(f"\n{title}")
        for name, n in counts.most_common(top):
            if "bench/" not in name:
                print(f"{100 * n / total:5.1f} %  {name}")


if __name__ == "__main__":
    args = sys.argv[1:]
    profile(args[0] if args else "estimate", int(args[1]) if len(args) > 1 else 20)
