"""Named placeholders in catalog sentences: which ones a sentence has, and filling them without failing.

Sentences use Python's brace syntax (`{node}`, and `{{` for a literal brace), the `python-brace-format`
of gettext tools, so translators' editors check them. Filling never raises: a placeholder the caller did
not pass stays visible as written, because a sentence with `{node}` in it still tells the reader more
than an exception in a log does.

Examples:
    >>> fill("Node {node} cannot be reached from {trigger}.", {"node": "lost"})
    'Node lost cannot be reached from {trigger}.'
    >>> fill("Use {{curly}} braces for {what}.", {"what": "templates"})
    'Use {curly} braces for templates.'
    >>> sorted(placeholders("Loop {node} ran {passes} passes of {limit}."))
    ['limit', 'node', 'passes']
    >>> placeholder_problems("{0} and {a.b} and {c!r} and {d:>4}")
    ['{0}', '{a.b}', '{c!r}', '{d:>4}']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from string import Formatter

_FORMATTER = Formatter()


def placeholders(template: str) -> frozenset[str]:
    """The names of the placeholders in `template`; empty for a template that does not parse."""
    try:
        return frozenset(field for _, field, _, _ in _FORMATTER.parse(template) if field is not None)
    except ValueError:
        return frozenset()


def placeholder_problems(template: str) -> list[str]:
    """The placeholders that are not a plain `{name}`, as written; the whole template if it does not parse.

    Only plain names are allowed: a conversion, a format spec, an index or an attribute would tie the
    sentence to the Python type of a value, and a translator cannot see which one that is.
    """
    try:
        parsed = list(_FORMATTER.parse(template))
    except ValueError:
        return [template]
    return [
        _as_written(field, spec, conversion)
        for _, field, spec, conversion in parsed
        if field is not None and (not field.isidentifier() or spec or conversion)
    ]


def fill(template: str, params: Mapping[str, object], render: Callable[[object], str] = str) -> str:
    """`template` with each `{name}` in `params` replaced by `render(value)`; any other left as written."""
    parsed = _parsed(template)
    if parsed is None:
        return template
    out: list[str] = []
    for literal, field, spec, conversion in parsed:
        out.append(literal)
        if field is None:
            continue
        if field in params and not spec and not conversion:
            out.append(render(params[field]))
        else:
            out.append(_as_written(field, spec, conversion))
    return "".join(out)


Parsed = tuple[tuple[str, str | None, str | None, str | None], ...]


@lru_cache(maxsize=4096)
def _parsed(template: str) -> Parsed | None:
    """A template's pieces, parsed once: a run page renders the same few sentences hundreds of times."""
    try:
        return tuple(_FORMATTER.parse(template))
    except ValueError:
        return None


def _as_written(field: str, spec: str | None, conversion: str | None) -> str:
    return "{" + field + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
