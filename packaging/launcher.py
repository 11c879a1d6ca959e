"""PyInstaller's entry script: the frozen ``vramgui`` runs exactly what the installed ``vramgui`` command runs."""

import sys

from vramgui.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
