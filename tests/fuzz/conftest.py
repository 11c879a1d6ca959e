"""The window fixtures of the view tests, for the GUI random-action test."""

from tests.views.conftest import settings, unsaved_prompt, window  # noqa: F401 - fixtures
