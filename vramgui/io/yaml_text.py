"""YAML text within the JSON reader's limits: PyYAML's safe loader (libyaml's CSafeLoader where PyYAML was built
with it), which builds plain data only (mappings, lists, text, numbers, booleans, null; never a Python object).

Before anything is built, the parser's event stream is counted: nesting deeper than ``max_depth`` or more than
``max_items`` elements is refused, aliases counted at the size of what they repeat (a "billion laughs" document is
refused while it is read, not after it has been built). Duplicate keys are refused as the JSON reader refuses them
(PyYAML would keep the last one silently); a document of several YAML documents is refused. Every failure is a
``YamlError`` naming the file, the line and what was expected.
"""

from __future__ import annotations

from typing import Any

import yaml

from vramgui.core.documents.json_text import DEFAULT_MAX_DEPTH, DEFAULT_MAX_ITEMS, JsonError, collector_paused
from vramgui.core.text.message import Msg

_Base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_MERGE = "tag:yaml.org,2002:merge"


class YamlError(JsonError):
    """Text that is not acceptable YAML; ``what`` names the document, ``reason_msg`` says why."""


class _Loader(_Base):  # type: ignore[misc]
    """The safe loader, refusing duplicate keys (a merge key ``<<`` may still be overridden, as YAML says)."""

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == _MERGE:
                continue
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                raise _RefusedError(Msg.of("error.yaml_key", line=key_node.start_mark.line + 1))
            if key in seen:
                raise _RefusedError(Msg.of("error.json_duplicate_key", key=repr(str(key)[:80])))
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


class _RefusedError(Exception):
    def __init__(self, reason: Msg) -> None:
        self.reason = reason
        super().__init__(str(reason))


def _check_events(text: str, what: str, max_depth: int, max_items: int) -> None:
    depth = items = documents = 0
    sizes: dict[str, int] = {}  # anchor -> elements it holds
    opened: list[tuple[str | None, int]] = []
    aliased = False
    for event in yaml.parse(text, Loader=_Base):
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > max_depth:
                raise YamlError(what, Msg.of("error.json_too_deep", depth=max_depth))
            items += 1
            opened.append((event.anchor, items))
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
            anchor, start = opened.pop()
            if anchor:
                sizes[anchor] = items - start + 1
        elif isinstance(event, yaml.ScalarEvent):
            items += 1
            if event.anchor:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            items += sizes.get(event.anchor or "", 1)
            aliased = True
        elif isinstance(event, yaml.DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise YamlError(what, Msg.of("error.yaml_several"))
        if items > max_items:
            code = "error.yaml_aliases" if aliased else "error.json_too_many_items"
            raise YamlError(what, Msg.of(code, limit=f"{max_items:,}"))


def _problem(exc: yaml.YAMLError) -> Msg:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    words = [str(w) for w in (getattr(exc, "context", None), getattr(exc, "problem", None)) if w]
    problem = ", ".join(words) or type(exc).__name__
    if isinstance(exc, yaml.constructor.ConstructorError) and mark is not None and "tag" in problem:
        tag = problem.rsplit(" ", 1)[-1]
        return Msg.of("error.yaml_not_safe", line=line, tag=tag[:80])
    return Msg.of("error.yaml_syntax", line=line, column=column, problem=" ".join(problem.split())[:200])


def loads_yaml(text: str, *, what: str = "the YAML text", max_depth: int = DEFAULT_MAX_DEPTH,
               max_items: int = DEFAULT_MAX_ITEMS) -> Any:
    """One YAML document as plain data, within the caps; every failure is a YamlError."""
    try:
        _check_events(text, what, max_depth, max_items)
        with collector_paused():
            return yaml.load(text, Loader=_Loader)  # _Loader: PyYAML's safe loader, plain data only
    except YamlError:
        raise
    except _RefusedError as exc:
        raise YamlError(what, exc.reason) from None
    except yaml.YAMLError as exc:
        raise YamlError(what, _problem(exc)) from None
    except RecursionError:
        raise YamlError(what, Msg.of("error.json_nested_too_deeply")) from None
    except ValueError as exc:  # an integer of more than 4300 digits, a timestamp out of range
        raise YamlError(what, Msg.of("error.json_value_unreadable", detail=str(exc)[:100])) from None
