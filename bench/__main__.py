"""``make bench`` / ``python -m bench``: runs every ``bench/bench_*.py`` module found, in name order.

A module provides ``run() -> list[tuple[str, float, str]]`` (name, value, unit); the rows are printed as one
table per module. A module may instead provide ``main()`` that prints its own report.

``--suite`` also times the test suite as ``make test`` runs it (pytest on every core, the PyInstaller build left to
``make test-frozen``; the linters not included): a measurement, not a unit test, so it is opt-in
(``make bench BENCH_ARGS=--suite``; ``--suite`` alone runs only that).
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _print_rows(title: str, rows: list[tuple[str, float, str]]) -> None:
    width = max([len(r[0]) for r in rows] + [len("Benchmark")])
    print(f"\n{title}")
    print(f"{'Benchmark':<{width}}  {'Value':>12}  Unit")
    print(f"{'-' * width}  {'-' * 12}  ----")
    for name, value, unit in rows:
        print(f"{name:<{width}}  {value:>12.3f}  {unit}")


SUITE_COMMAND = ("-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not frozen", "-n", "auto", "--dist", "loadfile")


def _time_suite() -> int:
    """Wall time of `make test`'s pytest run, from this venv; returns pytest's exit code."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["QT_QPA_PLATFORM"] = "offscreen"
    started = time.perf_counter()
    code = subprocess.run([sys.executable, *SUITE_COMMAND], cwd=HERE.parent, env=env, check=False).returncode
    print(f"\ntest suite ({' '.join(SUITE_COMMAND[1:])}): {time.perf_counter() - started:.1f} s on "
          f"{os.cpu_count()} CPU(s), pytest exit code {code}")
    return code


def main(argv: list[str] | None = None) -> int:
    wanted = set(argv if argv is not None else sys.argv[1:])
    suite = "--suite" in wanted
    wanted.discard("--suite")
    if suite and not wanted:
        return 1 if _time_suite() else 0
    sys.path.insert(0, str(HERE.parent))
    failures = 0
    for path in sorted(HERE.glob("bench_*.py")):
        name = path.stem
        if wanted and name not in wanted:
            continue
        started = time.perf_counter()
        try:
            module = importlib.import_module(f"bench.{name}")
            if hasattr(module, "run"):
                _print_rows(f"{name} ({module.__doc__.strip().splitlines()[0] if module.__doc__ else ''})",
                            module.run())
            else:
                module.main()
        except Exception as err:  # noqa: BLE001 - one broken benchmark must not hide the others
            failures += 1
            print(f"\n{name}: FAILED: {type(err).__name__}: {err}", file=sys.stderr)
        print(f"({name} took {time.perf_counter() - started:.1f} s)")
    if suite and _time_suite():
        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
