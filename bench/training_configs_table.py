"""The table of docs/training-configs.md: for each real training config of tests/cli/training_config_cases.py, what
``vramgui estimate --training-config FILE`` took, left unresolved and ignored (the test checks that each equals the
estimate of its explicit flags). Run from the repository root::

    python -m bench.training_configs_table > /tmp/table.md
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys

from tests.cli.training_config_cases import CASES, ROOT
from vramgui.cli.commands import main


def report(fixture: str, cwd: str, given: tuple[str, ...]) -> dict:
    here = os.getcwd()
    os.chdir(ROOT / cwd)
    try:
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            path = os.path.relpath(ROOT / fixture, ROOT / cwd)
            assert main(["estimate", "--training-config", path, *given, "--json"]) == 0
        return json.loads(out.getvalue())["imported"]
    finally:
        os.chdir(here)


def _cell(items: list[str]) -> str:
    return "<br>".join(items).replace("|", "\\|") or "—"


def table() -> str:
    rows = ["| file (run from) | beside it | taken | unresolved | ignored |", "| --- | --- | --- | --- | --- |"]
    for fixture, cwd, given, _ in CASES:
        r = report(fixture, cwd, given)
        taken = [f"`{e['field']}` = {e['value']} ← `{e['key']}`" + (" (flag wins)" if e.get("overridden_by") else "")
                 for e in r["taken"]]
        unresolved = [f"`{e['key']}`: {e['reason']}" for e in r["unresolved"]]
        rows.append(f"| `{fixture}` ({cwd}) | `{' '.join(given)}` | {_cell(taken)} | {_cell(unresolved)} | "
                    f"{len(r['ignored'])} |")
    return "\n".join(rows)


if __name__ == "__main__":
    sys.stdout.write(table() + "\n")
