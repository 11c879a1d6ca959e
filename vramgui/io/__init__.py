"""Everything vramgui reads from or writes to files; the core (``vramgui.core``) does no I/O.

``files`` holds the one capped regular-file reader, the one capped JSON reader and the one atomic writer that
every other module here builds on: ``hf_config`` (config.json), ``safetensors`` (weight headers and index),
``model_folder`` (both counts side by side), ``scenario_files`` (scenario documents), ``comparison_files`` (the
pinned scenarios of the Compare tab) and ``presets`` (the bundled model and GPU presets). ``xcb_libs`` reads the
ELF headers of Qt's xcb plugin before Qt starts, to name the system libraries it lacks.
"""

from vramgui.io.files import (
    FileReadError,
    FileTooLargeError,
    JsonError,
    atomic_write_bytes,
    atomic_write_text,
    read_json,
    read_regular_file,
)

__all__ = [
    "FileReadError",
    "FileTooLargeError",
    "JsonError",
    "atomic_write_bytes",
    "atomic_write_text",
    "read_json",
    "read_regular_file",
]
