"""The window fixtures of the view tests, for the GUI random-action test."""

from tests.views.conftest import (  # noqa: F401 - fixtures
    seed_window,
    seeded_settings,
    settings,
    unsaved_prompt,
    window,
)
