"""vramgui's calculation core: pure Python, no Qt. Computes in bytes; every formula cites its source.

The seed tutorial's four functions are importable from here with their original signatures.
"""

from vramgui.core.seed import (
    calculate_accumulation_steps,
    calculate_ddp_memory,
    calculate_zero_memory,
    max_trainable_params,
)
from vramgui.core.text.errors import InputError

__all__ = [
    "InputError",
    "calculate_accumulation_steps",
    "calculate_ddp_memory",
    "calculate_zero_memory",
    "max_trainable_params",
]
