"""Differential run: the CLI's answers for hundreds of varied scenarios, recorded and compared between two trees.

A refactor must not move a number. This records what ``vramgui estimate``, every ``solve`` question,
``max-params`` and ``compare`` print (``--json`` and the text tables, with their exit codes and stderr) for
a fixed, seeded set of scenarios, in-process through ``vramgui.cli.commands.main``. Run it on the commit before a change
and on the change, then compare::

    git worktree add /tmp/before HEAD~1
    PYTHONPATH=/tmp/before .venv/bin/python -m bench.differential record /tmp/before.jsonl
    PYTHONPATH=. .venv/bin/python -m bench.differential record /tmp/after.jsonl
    .venv/bin/python -m bench.differential compare /tmp/before.jsonl /tmp/after.jsonl ['OLD=NEW' ...]

``compare`` prints every call whose exit code, stdout or stderr differs (the JSON parsed, so a difference is
named by its key path) and exits 1 if any does. Each ``OLD=NEW`` names an intended wording change: a call whose
only difference it explains (once runs of spaces and dashes are folded, as table columns move) is counted
apart. The scenarios use only flags that both trees know.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import sys
from collections.abc import Iterator
from typing import Any

PRESETS = (
    "gpt2", "llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3-8b", "llama-3-70b", "llama-3.1-405b",
    "llama-3.2-1b", "mistral-7b-v0.1", "mixtral-8x7b", "qwen2.5-7b", "qwen2.5-72b", "qwen1.5-moe-a2.7b",
    "qwen3-8b", "qwen3-30b-a3b", "gemma-2-9b", "gemma-3-1b", "phi-3-mini", "phi-2", "deepseek-v3",
    "deepseek-v2-lite", "gpt-oss-20b", "falcon-7b", "pythia-1b", "gpt-neox-20b", "starcoder", "gpt3-175b",
)
MOE = {"mixtral-8x7b", "qwen1.5-moe-a2.7b", "qwen3-30b-a3b", "deepseek-v3", "deepseek-v2-lite", "gpt-oss-20b"}
GPUS = ("rtx-4090", "a100-40gb", "a100-80gb", "h100-sxm", "h200", "mi300x", "l4", "b200")
QUESTIONS = ("max-micro-batch", "max-seq-len", "min-gpus", "cheapest-strategy", "max-lora-rank")


def _scenario(rng: random.Random) -> list[str]:
    """One varied scenario as CLI flags: mostly valid layouts, some that the validation refuses."""
    a: list[str] = []
    preset = None
    if rng.random() < 0.12:
        a += ["--params", rng.choice(("124M", "1.3B", "7B", "13B", "70B", "175B"))]
    else:
        preset = rng.choice(PRESETS)
        a += ["--preset", preset]
    if rng.random() < 0.8:
        a += ["--gpu", rng.choice(GPUS)]
    else:
        a += ["--gpu-memory", rng.choice(("24GB", "40GB", "80GB", "80GiB", "192GB"))]
    tp = rng.choice((1, 1, 1, 2, 4, 8))
    pp = rng.choice((1, 1, 1, 2, 4))
    cp = rng.choice((1, 1, 1, 1, 2))
    dp = rng.choice((1, 1, 2, 4, 8, 16))
    gpus = tp * pp * cp * dp
    if rng.random() < 0.05:
        gpus += 1  # a count the layout refuses
    a += ["--gpus", str(gpus)]
    if tp > 1:
        a += ["--tp", str(tp)]
        if rng.random() < 0.5:
            a += ["--sp"]
    if pp > 1:
        a += ["--pp", str(pp)]
        if rng.random() < 0.2:
            a += ["--vpp", "2"]
    if cp > 1:
        a += ["--cp", str(cp)]
    if preset in MOE and rng.random() < 0.4:
        a += ["--ep", str(rng.choice((2, 4, 8)))]
    stage = rng.choice((0, 1, 2, 3))
    a += ["--stage", str(stage)]
    if stage == 3 and rng.random() < 0.3:
        a += ["--offload-optimizer", "cpu"] + (["--offload-params", "cpu"] if rng.random() < 0.5 else [])
    for flag, values, p in (
        ("--dtype", ("fp32", "fp16", "bf16"), 0.4),
        ("--precision", ("mixed", "pure", "amp"), 0.3),
        ("--optimizer", ("adam", "adamw", "adam8bit", "sgd", "sgd_momentum", "adafactor", "lion"), 0.3),
        ("--optimizer-impl", ("foreach", "fused", "for-loop"), 0.2),
        ("--micro-batch", ("1", "2", "4", "8"), 0.5),
        ("--seq-len", ("512", "1024", "2048", "4096", "8192", "32768"), 0.6),
        ("--recompute", ("none", "selective", "full"), 0.5),
        ("--attention", ("eager", "flash"), 0.2),
        ("--implementation", ("hf", "fused"), 0.3),
        ("--loss", ("hf", "chunked"), 0.2),
        ("--convention", ("paper", "deepspeed", "megatron"), 0.4),
        ("--offload-optimizer", ("none", "cpu"), 0.03),
        ("--offload-params", ("none", "cpu"), 0.02),
        ("--reserve", ("0", "0.1", "0.2"), 0.3),
        ("--fp8", ("none", "delayed", "current", "mxfp8"), 0.08),
        ("--moe-capacity-percent", ("100", "125"), 0.05),
        ("--moe-imbalance-percent", ("100", "150"), 0.05),
        ("--cuda-context", ("0GB", "1GB"), 0.05),
        ("--gpus-per-node", ("4", "8"), 0.1),
    ):
        if rng.random() < p:
            a += [flag, rng.choice(values)]
    if rng.random() < 0.25:
        a += ["--global-batch", str(gpus * rng.choice((1, 2, 4, 8)) * rng.choice((1, 2)))]
    if preset is not None and rng.random() < 0.25:
        ft = rng.choice(("lora", "qlora"))
        a += ["--finetune", ft, "--lora-rank", str(rng.choice((8, 16, 64))),
              "--lora-targets", rng.choice(("attention", "all-linear"))]
        if rng.random() < 0.3:
            a += ["--lora-dropout", "0.1"]
    for flag in ("--distributed-optimizer", "--no-distributed-optimizer", "--ddp-bucket-view", "--zero-init"):
        if rng.random() < 0.05:
            a += [flag]
    return a


def calls(n: int = 500, seed: int = 20) -> Iterator[list[str]]:
    """The argv lists of the run: per scenario its estimate (JSON, and text for a quarter), one solve question
    and, for some, max-params; then the seed's compare table in a few variants."""
    rng = random.Random(seed)
    for i in range(n):
        s = _scenario(rng)
        yield ["estimate", *s, "--json"]
        if i % 4 == 0:
            yield ["estimate", *s, *(["--unit", "GiB"] if i % 8 == 0 else [])]
        q = QUESTIONS[i % len(QUESTIONS)]
        extra = ["--max-gpus", "256"] if q == "min-gpus" else []
        if q == "max-lora-rank" and "--finetune" not in s:
            extra = ["--finetune", "lora"]
        yield ["solve", q, *s, *extra, "--json"]
        if i % 3 == 0:
            yield ["max-params", *s, "--json"]
        if i % 10 == 0:
            yield ["solve", q, *s, *extra]
    yield from (["compare", "--json"], ["compare"], ["compare", "--params", "7B", "--json"],
                 ["compare", "--gpus", "16", "--gpu-memory", "40GB", "--params", "13B", "--json"],
                 ["compare", "--finetune", "qlora", "--params", "8B", "--seq-len", "4096", "--json"],
                 ["compare", "--dtype", "bf16", "--optimizer", "sgd", "--reserve", "0.1"])


def _run(argv: list[str]) -> dict[str, Any]:
    try:
        from vramgui.cli.commands import main
    except ImportError:  # a tree from before the CLI became a package
        from vramgui.cli import main  # type: ignore[attr-defined, no-redef]

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(argv)
        except SystemExit as e:  # --help and argparse paths
            rc = int(e.code or 0)
    return {"argv": argv, "rc": rc, "stdout": out.getvalue(), "stderr": err.getvalue()}


def record(path: str, n: int) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(json.dumps(_run(argv), ensure_ascii=False) + "\n" for argv in calls(n))


def _diff(a: Any, b: Any, where: str, out: list[str]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{where}.{k}: {'missing before' if k not in a else 'missing after'}")
            else:
                _diff(a[k], b[k], f"{where}.{k}", out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _diff(x, y, f"{where}[{i}]", out)
    elif a != b or type(a) is not type(b):
        out.append(f"{where}: {a!r} -> {b!r}"[:400])


def _parsed(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _renamed(value: Any, renames: list[tuple[str, str]]) -> Any:
    """``value`` with each old text replaced by its new one and runs of spaces folded (table columns shift when
    a text changes length): what an intended wording change leaves of a difference."""
    if isinstance(value, str):
        for old, new in renames:
            value = value.replace(old, new)
        return re.sub(r"-{2,}", "-", re.sub(r" +", " ", value))
    if isinstance(value, dict):
        return {k: _renamed(v, renames) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, renames) for v in value]
    return value


def compare(before: str, after: str, renames: list[tuple[str, str]] | None = None) -> int:
    """Every call whose answer differs; with ``renames`` (old text, new text), differences that only those
    intended wording changes explain are not counted (and the count of calls they touched is printed)."""
    renames = renames or []
    with open(before, encoding="utf-8") as f:
        old = [json.loads(line) for line in f]
    with open(after, encoding="utf-8") as f:
        new = [json.loads(line) for line in f]
    if [r["argv"] for r in old] != [r["argv"] for r in new]:
        print("the two runs made different calls (record both with the same n and this script)")
        return 1
    changed = reworded = 0
    for o, n in zip(old, new, strict=True):
        diffs: list[str] = []
        a = {"rc": o["rc"], "stderr": o["stderr"], "stdout": _parsed(o["stdout"])}
        b = {"rc": n["rc"], "stderr": n["stderr"], "stdout": _parsed(n["stdout"])}
        if renames and a != b:
            reworded += 1
            a, b = _renamed(a, renames), _renamed(b, renames)
        _diff(a, b, "", diffs)
        if diffs:
            changed += 1
            print("vramgui " + " ".join(o["argv"]))
            for d in diffs[:12]:
                print("   ", d)
    ok = sum(1 for r in old if r["rc"] == 0)
    if renames:
        names = "; ".join(f"{o!r} -> {n!r}" for o, n in renames)
        print(f"{reworded - changed} calls differ only by the renames {names}")
    print(f"{len(old)} calls ({ok} answered with exit 0, {len(old) - ok} refused or nothing fits): "
          f"{changed} differ")
    return 1 if changed else 0


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "record":
        record(argv[1], int(argv[2]) if len(argv) > 2 else 500)
        return 0
    if len(argv) >= 3 and argv[0] == "compare" and all("=" in a for a in argv[3:]):
        return compare(argv[1], argv[2], [tuple(a.split("=", 1)) for a in argv[3:]])  # type: ignore[misc]
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
