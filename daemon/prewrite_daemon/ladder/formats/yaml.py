"""YAML: every document of the stream parses, and no mapping repeats a key.

Composed, never constructed: ``yaml.compose_all`` builds the node graph without turning tags into
Python objects, so an application's tags (CloudFormation's ``!Ref``, Home Assistant's
``!include``, ``!!python/object``) are neither a false red nor ever run. A repeated key is
breakage: YAML requires unique keys, strict readers (go-yaml, ruamel, GitHub Actions) refuse the
file, and lenient ones (PyYAML) silently drop one of the values. Keys are compared as YAML does,
by tag and value (``a`` and ``"a"`` are one key, ``1`` and ``"1"`` two); the merge key ``<<`` is
not a key of the mapping and may repeat.

A template that becomes YAML only when rendered (Helm's ``{{ }}``, Jinja's ``{% %}``) can fail
the parser while being correct, so a file with template delimiters that does not parse proves
nothing: the check says nothing about it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import yaml

from prewrite_daemon.ladder.formats.breakage import breakage

if TYPE_CHECKING:
    from prewrite.protocol import Diagnostic

_LOADER = yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader
_MERGE = "tag:yaml.org,2002:merge"
_TEMPLATE_DELIMITERS = ("{{", "{%")


def check(path: str, text: str) -> Diagnostic | None:
    """The first parse error or repeated key of a YAML file, or None."""
    return check_stream(path, text, text)


def check_stream(path: str, stream: str, shown: str) -> Diagnostic | None:
    """``stream`` checked as YAML; ``shown`` is the file its lines are quoted from (a Markdown
    file's front matter is checked as ``stream`` with the Markdown lines blanked)."""
    try:
        for document in yaml.compose_all(stream, Loader=_LOADER):
            repeated = _first_repeated_key(document)
            if repeated is not None:
                line, column = repeated.start_mark.line + 1, repeated.start_mark.column + 1
                message = f"key {repeated.value!r} appears twice in one mapping"
                return breakage(path, shown, line, column, message, "yaml", "duplicate-key")
    except yaml.MarkedYAMLError as exc:
        if any(d in stream for d in _TEMPLATE_DELIMITERS):
            return None
        return _parse_error(path, shown, exc)
    except yaml.reader.ReaderError as exc:
        return _reader_error(path, stream, shown, exc)
    return None


def _parse_error(path: str, shown: str, exc: yaml.MarkedYAMLError) -> Diagnostic:
    mark = exc.problem_mark or exc.context_mark
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    message = f"YAML does not parse: {exc.problem or exc.context or 'syntax error'}"
    if exc.context and exc.problem and exc.context_mark is not None:
        message += f" ({exc.context} at line {exc.context_mark.line + 1})"
    return breakage(path, shown, line, column, message, "yaml")


def _reader_error(path: str, stream: str, shown: str, exc: yaml.reader.ReaderError) -> Diagnostic:
    """A character YAML forbids (a control character); libyaml counts its position in bytes,
    so the character itself is looked up."""
    code: object = exc.character
    index = max(stream.find(chr(code)), 0) if isinstance(code, int) else 0
    line = stream.count("\n", 0, index) + 1
    column = index - stream.rfind("\n", 0, index)
    shown_code = f"U+{code:04X}" if isinstance(code, int) else repr(code)
    message = f"YAML does not parse: character {shown_code} is not allowed ({exc.reason})"
    return breakage(path, shown, line, column, message, "yaml")


def _first_repeated_key(root: yaml.Node | None) -> yaml.ScalarNode | None:
    """The repeated key earliest in the text; every node once (aliases share nodes)."""
    found: list[yaml.ScalarNode] = []
    seen: set[int] = set()
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            keys: set[tuple[str, str]] = set()
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and key.tag != _MERGE:
                    if (key.tag, key.value) in keys:
                        found.append(key)
                    keys.add((key.tag, key.value))
                stack += (key, value)
        elif isinstance(node, yaml.SequenceNode):
            stack += node.value
    if not found:
        return None
    return min(found, key=lambda k: (k.start_mark.line, k.start_mark.column))
