"""Typed, bounded access to the keys of one parsed config.json (``vramgui.core.documents.hf_config`` reads with
it): every error names the key, every name a key has had is read, and every default used is recorded so that the
reader can say which values config.json did not set.
"""

from __future__ import annotations

import json
from typing import Any

from vramgui.core.fields.table import MAX_EXPERTS, MAX_LAYERS, MAX_SEQ, MAX_WIDTH
from vramgui.core.text.errors import InputError
from vramgui.core.text.message import Msg

_LIMITS = {  # the field registry's sanity bounds (vramgui.core.fields.table), so a config and a scenario agree
    "layers": MAX_LAYERS, "width": MAX_WIDTH, "heads": MAX_WIDTH, "vocab": MAX_WIDTH, "experts": MAX_EXPERTS,
    "positions": MAX_SEQ,
}


class ConfigKeys:
    """Typed, bounded access to one config dict; every error names the key, every default used is recorded."""

    def __init__(self, data: dict[str, Any], model_type: str) -> None:
        self.data = data
        self.model_type = model_type
        self.defaults: dict[str, Any] = {}  # key -> the value used because config.json does not set it

    def _fail(self, key: str, problem: Msg, allowed: Msg | str | None = None) -> InputError:
        message = Msg.of("error.config_key", problem=problem, model_type=repr(self.model_type))
        return InputError(f"config.{key}", message, allowed)

    def _given(self, keys: tuple[str, ...]) -> tuple[str, Any] | None:
        """The first of ``keys`` (one key's names) that config.json sets (null counts as not set); two names that
        both hold a value must agree, or which one transformers takes would be a guess."""
        found = [(k, self.data[k]) for k in keys if self.data.get(k) is not None]
        for key, value in found[1:]:
            if value != found[0][1]:
                raise self._fail(key, Msg.of("error.config_names_disagree", other=found[0][0],
                                             value=f"{value!r:.40}", other_value=f"{found[0][1]!r:.40}"))
        return found[0] if found else None

    def used_default(self, key: str, value: Any) -> Any:
        self.defaults.setdefault(key, value)
        return value

    def forget(self, *keys: str) -> None:
        """Keys read by the shared Llama-style reader that this family does not have (no note for them)."""
        for key in keys:
            self.defaults.pop(key, None)

    def int(self, *keys: str, default: int | None = None, limit: str = "width", minimum: int = 1,
            noted: bool = True) -> int:
        given = self._given(keys)
        if given is None:
            if default is None:
                raise self._fail(keys[0], Msg.of("error.config_missing"))
            # null is the class's own "derive it" (GPT-2's n_inner: 4·n_embd), said by the file: no note
            said_null = any(k in self.data for k in keys)
            return self.used_default(" / ".join(keys), default) if noted and not said_null else default
        key, value = given
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                raise self._fail(key, Msg.of("error.config_whole_number", value=f"{value!r:.40}"))
        if not minimum <= value <= _LIMITS[limit]:
            shown = str(value) if len(str(value)) <= 40 else f"{str(value)[:18]}…{str(value)[-18:]}"
            raise self._fail(key, Msg.of("error.out_of_range", value=shown),
                             Msg.of("allowed.span", low=minimum, high=f"{_LIMITS[limit]:,}"))
        return value

    def bool(self, key: str, default: bool, *aliases: str) -> bool:
        given = self._given((key, *aliases))
        if given is None:
            return bool(self.used_default(" / ".join((key, *aliases)), default))
        name, value = given
        if not isinstance(value, bool):
            raise self._fail(name, Msg.of("error.config_true_false", value=f"{value!r:.40}"))
        return value

    def prob(self, key: str, default: float | None = None) -> float | None:
        """A dropout probability, 0 <= p < 1 (the field registry's range); absent: ``default`` (None: the
        configuration classes' 0.0)."""
        value = self.data.get(key)
        if value is None:
            self.used_default(key, 0.0 if default is None else default)
            return default
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            raise self._fail(key, Msg.of("error.number", value=f"{value!r:.40}"), Msg.of("allowed.fraction"))
        if not 0 <= value < 1:
            raise self._fail(key, Msg.of("error.out_of_range", value=f"{value!r:.40}"), Msg.of("allowed.fraction"))
        return float(value) + 0.0

    def empty_list(self, key: str) -> None:
        value = self.data.get(key)
        if value not in (None, []):
            raise self._fail(key, Msg.of("error.config_list"), "[]")

    def unsupported(self, key: str, supported: Any) -> None:
        """A key whose other values build modules vramgui's counter does not model: an error, never a miscount."""
        value = self.data.get(key)
        if value is not None and value != supported:
            raise self._fail(key, Msg.of("error.config_value_unsupported", value=f"{value!r:.40}"),
                             json.dumps(supported))
