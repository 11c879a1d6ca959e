"""The fuzz tests' hypothesis profiles: a few hundred examples in ``make test``, tens of thousands in ``make fuzz``.

``VRAMGUI_FUZZ=N`` (``make fuzz`` sets 20000) selects the "vramgui-fuzz" profile: each fuzz test runs its share of
N examples. Unset, the "vramgui-suite" profile keeps the in-suite run under ~30 s on two shared cores.
See docs/fuzzing.md.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

ENV = "VRAMGUI_FUZZ"
FUZZ_EXAMPLES = int(os.environ.get(ENV, "0") or 0)
PROFILE = "vramgui-fuzz" if FUZZ_EXAMPLES > 0 else "vramgui-suite"

_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large,
                                                        HealthCheck.filter_too_much],
           "print_blob": True}
settings.register_profile("vramgui-suite", max_examples=100, **_COMMON)
settings.register_profile("vramgui-fuzz", max_examples=max(FUZZ_EXAMPLES, 1), **_COMMON)


def fuzz_settings(in_suite: int, share: float) -> settings:
    """``in_suite`` examples in ``make test``; ``share`` of VRAMGUI_FUZZ examples in ``make fuzz``."""
    n = max(1, int(FUZZ_EXAMPLES * share)) if FUZZ_EXAMPLES > 0 else in_suite
    return settings(settings.get_profile(PROFILE), max_examples=n)
