"""Command-line front end over the core. No Qt import on this path (it must start fast)."""

from __future__ import annotations

SUBCOMMANDS = ("estimate", "max-params", "accumulation", "compare", "presets")


def main(argv: list[str]) -> int:  # replaced by the calculation-core work
    raise SystemExit("vramgui CLI: not built yet")
