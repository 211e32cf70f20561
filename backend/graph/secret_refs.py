"""`{{secrets.NAME}}` belongs in the config of an action node only (http, notify, command).

Anywhere else (a log message, a `set`, an approval's title) it would render as nothing, and an author
who wrote it expected a value: a finding, `secret_outside_action`, one per node at the first place.

Examples:
    >>> first_secret_ref({"message": "key {{ secrets.api }}", "level": "info"})
    ('message',)
    >>> first_secret_ref({"values": {"k": ["x", "{{trigger.secrets}}"]}}) is None
    True
"""

from __future__ import annotations

import re
from typing import Any

from backend.graph.findings import Report, pointer
from backend.graph.model import ACTION_TYPES
from backend.graph.outline import NodeEntry

_SECRET_REF = re.compile(r"\{\{\s*secrets\.")


def first_secret_ref(config: Any) -> tuple[str | int, ...] | None:
    """Where the first string naming a secret sits in a config, or None; iterative, any depth."""
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), config)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            if "{{" in value and _SECRET_REF.search(value):
                return path
        elif isinstance(value, dict):
            stack.extend(((*path, str(key)), item) for key, item in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend(((*path, index), item) for index, item in reversed(list(enumerate(value))))
    return None


def first_secret_path(config: Any) -> tuple[str | int, ...] | None:
    """Where the first `show` item of an approval reads a secret by its path (`secrets.api`), or None.

    Examples:
        >>> first_secret_path({"show": [{"value": "invoice.amount"}, {"value": "secrets.api"}]})
        ('show', 1, 'value')
        >>> first_secret_path({"show": [{"value": "secretsauce"}, "secrets"]}) is None
        True
    """
    show = config.get("show") if isinstance(config, dict) else None
    for index, item in enumerate(show if isinstance(show, list) else ()):
        value = item.get("value") if isinstance(item, dict) else None
        if isinstance(value, str) and value.split(".")[0] == "secrets":
            return ("show", index, "value")
    return None


def check_secret_refs(node: NodeEntry, report: Report) -> None:
    if node.type in ACTION_TYPES:
        return
    found = first_secret_ref(node.config)
    if found is None and node.type == "approval":
        found = first_secret_path(node.config)
    if found is not None:
        where = pointer(("nodes", node.place, "config", *found))
        report.add(code="secret_outside_action", node=node.id, detail=where, pointer=where)
