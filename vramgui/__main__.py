"""Entry point: ``vramgui`` with no sub-command opens the GUI; with one it runs the CLI.

The CLI path must never import Qt (it has to start fast and work on machines without a display),
so the GUI module is imported lazily, only when it is needed.
"""

from __future__ import annotations

import sys


def _wants_gui(argv: list[str]) -> bool:
    """No arguments, or only GUI options (``--self-test``, ``--lang``...), opens the window."""
    from vramgui.cli.parser import SUBCOMMANDS

    if not argv:
        return True
    if argv[0] in SUBCOMMANDS or argv[0] in ("-h", "--help", "--version", "-V"):
        return False
    return argv[0].startswith("--")


def gui_main(argv: list[str] | None = None) -> int:
    from vramgui.app import main as app_main

    return app_main(sys.argv[1:] if argv is None else argv)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if _wants_gui(args):
        return gui_main(args)
    from vramgui.cli.commands import main as cli_main

    return cli_main(args)


if __name__ == "__main__":
    sys.exit(main())
