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


def check_secret_refs(node: NodeEntry, report: Report) -> None:
    if node.type in ACTION_TYPES:
        return
    found = first_secret_ref(node.config)
    if found is not None:
        where = pointer(("nodes", node.place, "config", *found))
        report.add(code="secret_outside_action", node=node.id, detail=where, pointer=where)
