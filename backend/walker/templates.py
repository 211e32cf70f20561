"""Templates: `{{path}}` reads a variable by a dotted path, and that is all a template can do.

A path is names and list indexes separated by dots (`invoice.amount`, `items.0.id`); spaces inside the
braces are allowed (`{{ invoice.id }}`). Anything else between braces (`{{a + 1}}`, `{{f()}}`) is not a
placeholder and stays as literal text: there is no code in a template.

- A template that is exactly one placeholder yields the value with its type.
- A placeholder with text around it yields a string; non-string values appear as their JSON text
  (`true`, `null`, `[1,2]`).
- A path that does not resolve is `MISSING`. `evaluate` reports it (a test or a loop needs to know);
  `render` turns it into `None` for a whole-template value and into empty text inside a string, because
  a request must be JSON.

Examples:
    >>> variables = {"invoice": {"id": "A-7", "amount": 1200}, "items": [{"id": 3}]}
    >>> render("{{invoice.amount}}", variables)
    1200
    >>> render("Pay {{ invoice.id }} ({{items.0.id}})", variables)
    'Pay A-7 (3)'
    >>> render({"url": "/pay/{{invoice.id}}", "retries": 3, "tags": ["{{nope}}", "x"]}, variables)
    {'url': '/pay/A-7', 'retries': 3, 'tags': [None, 'x']}
    >>> evaluate("{{invoice.due}}", variables) is MISSING
    True
"""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Final

from backend.config import DEFAULT_MAX_VALUE_BYTES
from backend.walker.sizes import measure, text_size, too_large

_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\s*\}\}")

# A parsed template: literal text (str) and paths (tuples of keys), in order.
Parsed = tuple[str | tuple[str, ...], ...]


class Missing(enum.Enum):
    """The type of `MISSING`: an enum member, so that mypy can narrow `value is MISSING`."""

    MISSING = "missing"

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Final = Missing.MISSING


@lru_cache(maxsize=4096)
def _parse(template: str) -> Parsed:
    """Split a template into literal text and paths; cached because flows render the same strings a lot."""
    parts: list[str | tuple[str, ...]] = []
    position = 0
    for match in _PLACEHOLDER.finditer(template):
        if match.start() > position:
            parts.append(template[position : match.start()])
        parts.append(tuple(match.group(1).split(".")))
        position = match.end()
    if position < len(template):
        parts.append(template[position:])
    return tuple(parts)


def lookup(path: tuple[str, ...], variables: Mapping[str, Any]) -> Any:
    """The value at `path`, or MISSING; digits index lists, every other key reads an object."""
    value: Any = variables
    for key in path:
        # `type(...) is dict` first: variables are plain JSON, and the ABC check costs more than the lookup.
        if type(value) is dict or isinstance(value, Mapping):
            value = value.get(key, MISSING)
            if value is MISSING:
                return MISSING
        elif isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            return MISSING
    return value


def kind_of(value: Any) -> str:
    """The JSON type of a value, by JSON's names; `bool` is asked first, as Python counts it an int.

    Examples:
        >>> kind_of(True), kind_of(1.5), kind_of(None), kind_of({"a": 1}), kind_of([1])
        ('boolean', 'number', 'null', 'object', 'array')
    """
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    if isinstance(value, Mapping):
        return "object"
    return "array" if isinstance(value, list | tuple) else "other"


def as_text(value: Any) -> str:
    """How a value reads inside a string: itself when text, else its JSON text."""
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def _text(template: str, variables: Mapping[str, Any], missing: str | None, limit: int) -> Any:
    """A string template's value; a missing path gives MISSING, or `missing` text when that is given.

    Text with placeholders is counted as it is built: `{{v}}` written a thousand times fails with
    `value_too_large` before the thousand copies exist.
    """
    if "{{" not in template:
        return template
    parts = _parse(template)
    if len(parts) == 1 and isinstance(parts[0], tuple):
        value = lookup(parts[0], variables)
        return None if value is MISSING and missing is not None else value
    pieces: list[str] = []
    size = 2  # its quotes: a value's size is that of its JSON, as sizes.py counts it
    for part in parts:
        piece = part if isinstance(part, str) else _placeholder(part, variables, missing, limit)
        if piece is None:
            return MISSING
        size += text_size(piece)
        if size > limit:
            raise too_large(limit, what="text")
        pieces.append(piece)
    return "".join(pieces)


def _placeholder(
    path: tuple[str, ...], variables: Mapping[str, Any], missing: str | None, limit: int
) -> str | None:
    """A placeholder's text inside a longer string: its value as text, `missing` when the path is missing,
    or None when it is missing and no `missing` text is given."""
    value = lookup(path, variables)
    if value is MISSING:
        return missing
    if isinstance(value, Mapping | list) and measure(value, limit) > limit:
        raise too_large(limit, what="text")  # before its JSON text is made
    return as_text(value)


def render(template: Any, variables: Mapping[str, Any], limit: int = DEFAULT_MAX_VALUE_BYTES) -> Any:
    """Render every string in `template`, through nested objects and lists; other values pass unchanged.

    A missing path renders as `None` when it is the whole string and as empty text inside one. Nested
    containers are copied with an explicit stack, so a deep config cannot reach the recursion limit.
    A result larger than `limit` bytes of JSON fails the run with `value_too_large` (sizes.py).

    Examples:
        >>> render({"body": {"ids": ["{{a}}", "{{a}}-{{b}}"]}, "n": 2}, {"a": 1})
        {'body': {'ids': [1, '1-']}, 'n': 2}
        >>> render("{{ a.b }}", {"a": {"b": [True]}})
        [True]
        >>> render({"x": "{{a}}", "y": "{{a}}"}, {"a": "z" * 60}, limit=100)
        Traceback (most recent call last):
        ...
        backend.walker.errors.WalkFailure: value_too_large: limit=100, what=value
    """
    if isinstance(template, str):
        whole = _text(template, variables, "", limit)
        if isinstance(whole, Mapping | list) and measure(whole, limit) > limit:
            raise too_large(limit, what="value")
        return whole
    if not isinstance(template, Mapping | list | tuple):
        return template
    root: dict[str, Any] | list[Any] = {} if isinstance(template, Mapping) else []
    stack: list[tuple[Any, dict[str, Any] | list[Any]]] = [(template, root)]
    while stack:
        source, target = stack.pop()
        entries = source.items() if isinstance(source, Mapping) else enumerate(source)
        for key, value in entries:
            rendered: Any
            if isinstance(value, str):
                rendered = _text(value, variables, "", limit)
            elif isinstance(value, Mapping | list | tuple):
                rendered = {} if isinstance(value, Mapping) else []
                stack.append((value, rendered))
            else:
                rendered = value
            if isinstance(target, list):
                target.append(rendered)
            else:
                target[str(key)] = rendered
    # Whole-path values are shared, not copied: counting the result costs at most the limit.
    if measure(root, limit) > limit:
        raise too_large(limit, what="value")
    return root


def evaluate(template: Any, variables: Mapping[str, Any], limit: int = DEFAULT_MAX_VALUE_BYTES) -> Any:
    """A template's value, or MISSING when any path in a string template does not resolve.

    Tests, loop items and `set` use this: they must tell "not there" from "empty". Objects and lists are
    rendered as `render` does.

    Examples:
        >>> evaluate("{{a}} and {{b}}", {"a": 1}) is MISSING
        True
        >>> evaluate("{{a}}", {"a": None}) is None
        True
        >>> evaluate(1000, {})
        1000
    """
    if isinstance(template, str):
        return _text(template, variables, None, limit)
    return render(template, variables, limit)


def render_text(template: Any, variables: Mapping[str, Any], limit: int = DEFAULT_MAX_VALUE_BYTES) -> str:
    """`render`, as text: for titles, messages and principals, which are always strings.

    Examples:
        >>> render_text("{{n}}", {"n": 3}), render_text("{{gone}}", {})
        ('3', '')
    """
    value = (
        _text(template, variables, "", limit)
        if isinstance(template, str)
        else render(template, variables, limit)
    )
    if isinstance(value, Mapping | list) and measure(value, limit) > limit:
        raise too_large(limit, what="text")
    return "" if value is None else as_text(value)
