"""Run the CLI in-process and judge what came back: the fuzz tests' one oracle (docs/fuzzing.md).

Allowed outcomes: exit 0 with output whose numbers hold together (with ``--json``: integer bytes, nothing
negative or NaN, totals equal to the sums of their parts, the peak the largest phase); exit 1 from a solve that
found nothing that fits (it says so on stdout); exit 2 with exactly one line on stderr that names the flag or
the field. Anything else — a traceback, an internal error, another exit code, two error lines — fails.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import re
import time
from typing import Any

from vramgui.cli.commands import main

SLOW_SECONDS = 20.0  # one invocation; far above any real one (a hang shows as faulthandler's timeout anyway)
NOTHING_FITS = ("Nothing fits", "nothing fits")
# what an error line must name: a flag, a field path (model.params, config.n_layer), PATH, or a file it read
_NAMES = re.compile(r"--[a-z][a-z-]*|\b[a-z_]+\.[a-z_][a-z_.]*\b|\bPATH\b|\bweights\b|\bconfig\b|/|"
                    r"unrecognized arguments: .|argument [A-Z]+|invalid choice|choose a QUESTION")
COMPONENTS = ("parameters", "gradients", "optimizer_states", "activations", "other")


def run_cli(argv: list[str]) -> tuple[int, str, str, float]:
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exit_:  # --help / --version
            code = exit_.code if isinstance(exit_.code, int) else 0
    return code, out.getvalue(), err.getvalue(), time.perf_counter() - start


def _finite(value: Any, where: str = "$") -> None:
    if isinstance(value, float):
        assert math.isfinite(value), f"{where} is {value}"
    elif isinstance(value, dict):
        for k, v in value.items():
            _finite(v, f"{where}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _finite(v, f"{where}[{i}]")


def _bytes(value: Any, where: str) -> int:
    assert isinstance(value, int) and not isinstance(value, bool), f"{where} = {value!r} is not integer bytes"
    assert value >= 0, f"{where} = {value} is negative"
    return value


def check_peak(peak: dict[str, Any], where: str = "peak") -> None:
    total = _bytes(peak["bytes"], f"{where}.bytes")
    parts = {k: _bytes(v, f"{where}.components.{k}") for k, v in peak["components"].items()}
    assert sum(parts.values()) == total, f"{where}: components sum to {sum(parts.values())}, bytes {total}"
    phases = peak["phases"]
    for i, phase in enumerate(phases):
        got = sum(_bytes(v, f"{where}.phases[{i}].{k}") for k, v in phase["components"].items())
        assert got == _bytes(phase["bytes"], f"{where}.phases[{i}].bytes"), f"{where}.phases[{i}] does not add up"
    assert total == max(p["bytes"] for p in phases), f"{where}.bytes is not the largest phase"


def check_estimate(data: dict[str, Any], where: str = "estimate") -> None:
    per_gpu = data["per_gpu"]
    parts = [per_gpu[k] for k in COMPONENTS]
    for k, v in per_gpu.items():
        if v is not None:
            _bytes(v, f"{where}.per_gpu.{k}")
    assert per_gpu["total"] == sum(p or 0 for p in parts), f"{where}.per_gpu.total is not the sum of its parts"
    assert per_gpu["master_weights"] <= per_gpu["optimizer_states"], f"{where}: master weights beyond optimizer"
    check_peak(data["peak"], f"{where}.peak")
    if data["usable"] is not None:
        assert data["headroom"] == data["usable"] - data["peak"]["bytes"], f"{where}.headroom"
        assert data["fits"] is (data["peak"]["bytes"] <= data["usable"]), f"{where}.fits"
    host = data["per_node_host"]
    if host is not None:
        _bytes(host["total"], f"{where}.per_node_host.total")


def _check_json(command: str, data: Any) -> None:
    _finite(data)
    if command == "estimate":
        check_estimate(data)
    elif command == "solve":
        check_estimate(data["estimate"], "solve.estimate")
        for side in ("next", "previous"):
            if data.get(side):
                _bytes(data[side]["peak"], f"solve.{side}.peak")
    elif command == "max-params":
        assert isinstance(data["max_params"], int) and data["max_params"] >= 0
        assert data["at_bound"] is (data["max_params"] >= data["bound"])
        if data["peak"] is not None:
            check_peak(data["peak"], "max-params.peak")
    elif command == "accumulation":
        steps = data["steps"]
        assert steps >= 1 and steps * data["micro_batch"] * data["data_parallel"] == data["global_batch"]
        if "tokens_per_step" in data:
            assert data["tokens_per_step"] > 0
    elif command == "compare":
        for row in data.get("rows", []):
            assert row["max_params"] >= 0


def judge(argv: list[str], code: int, out: str, err: str, seconds: float) -> str:
    """The outcome's class ("ok", "nothing fits", "bad input"); an AssertionError when it is none of them."""
    shown = " ".join(repr(a) if (not a or " " in a) else a for a in argv)
    assert seconds < SLOW_SECONDS, f"vramgui {shown}: took {seconds:.1f} s"
    assert "Traceback" not in err and "internal error" not in err, f"vramgui {shown}:\n{err}"
    command = argv[0] if argv else ""
    if code == 2:
        lines = err.splitlines()
        assert len(lines) == 1, f"vramgui {shown}: exit 2 with {len(lines)} stderr lines:\n{err}"
        assert out == "", f"vramgui {shown}: exit 2 but stdout has output"
        assert _NAMES.search(lines[0]), f"vramgui {shown}: the error names no flag or field: {lines[0]}"
        return "bad input"
    if code == 1:
        assert (command in ("solve", "max-params") and any(s in out for s in NOTHING_FITS)) or (
            command in ("solve", "max-params") and '"found": false' in out), f"vramgui {shown}: exit 1:\n{err}{out}"
        return "nothing fits"
    assert code == 0, f"vramgui {shown}: exit {code}:\n{err}"
    assert all(line.startswith("vramgui: note: ") for line in err.splitlines()), f"vramgui {shown}: stderr:\n{err}"
    if "--json" in argv and "--help" not in argv and "-h" not in argv:
        _check_json(command, json.loads(out))
    else:
        assert "nan" not in out.lower().split() and " inf " not in out, f"vramgui {shown}: NaN/inf in output"
    return "ok"
