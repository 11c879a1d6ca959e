"""One concept per module, files under ~400 lines (docs/architecture.md; issue 10 item 5)."""

from __future__ import annotations

from pathlib import Path

import vramgui

PACKAGE = Path(vramgui.__file__).parent
MAX_LINES = 400


def test_no_module_in_the_package_is_over_400_lines():
    sizes = {
        str(path.relative_to(PACKAGE.parent)): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(PACKAGE.rglob("*.py"))
    }
    assert sizes, "no modules found"
    too_long = {name: lines for name, lines in sizes.items() if lines > MAX_LINES}
    assert too_long == {}, f"split these modules (over {MAX_LINES} lines): {too_long}"
