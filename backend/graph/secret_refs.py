"""Where `{{secrets.NAME}}` may stand: in an action's config (http, notify, command), and in a URL only
where its value cannot become part of the host or the port.

Anywhere else than an action (a log message, a `set`, an approval's title) a secret would render as
nothing, and an author who wrote it expected a value: `secret_outside_action`, one per node at the first
place.

In a URL (an http node's `url`, a webhook notify's `to`, and the same in their `undo`), a secret is
either the whole URL (a chat webhook is addressed that way) or comes after the URL's authority has ended
(`/`, `?` or `#` after `scheme://`), in the path, a query value or the fragment. Spliced into the host, the
port or the user-info, its value would decide where the request goes, and everything reported about the
host (an unknown name, a refused address) would be read from it: `secret_place_forbidden`, one per node
at the first such URL. The sender holds rendered URLs to the same rule, for versions saved before it.

Examples:
    >>> first_secret_ref({"message": "key {{ secrets.api }}", "level": "info"})
    ('message',)
    >>> first_secret_ref({"values": {"k": ["x", "{{trigger.secrets}}"]}}) is None
    True
    >>> [secret_place_allowed(url) for url in ("{{secrets.hook}}", "https://h.example/{{secrets.p}}",
    ...     "https://h.example?key={{secrets.k}}", "https://{{secrets.h}}.example/x")]
    [True, True, True, False]
    >>> [secret_place_allowed(u) for u in ("https://h.example:{{secrets.port}}/", "{{base}}/{{secrets.p}}")]
    [False, False]
"""

from __future__ import annotations

import re
from typing import Any

from backend.graph.findings import Report, pointer
from backend.graph.model import ACTION_TYPES
from backend.graph.outline import NodeEntry

_SECRET_REF = re.compile(r"\{\{\s*secrets\.")
# A placeholder naming a secret, as the walker's templates read one (backend/walker/templates.py).
_SECRET_PLACEHOLDER = re.compile(r"\{\{\s*secrets(?:\.[A-Za-z0-9_-]+)+\s*\}\}")


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


def authority_ended(prefix: str) -> bool:
    """Whether `prefix`, a URL's text before its first secret, holds the URL's whole authority: a
    `scheme://` and, after it, the `/`, `?` or `#` that ends the host and port. Nothing appended to such
    a prefix can change where the request goes.

    Examples:
        >>> authority_ended("https://h.example/v1/"), authority_ended("https://h.example?k=")
        (True, True)
        >>> authority_ended("https://"), authority_ended("https://u:"), authority_ended("https:/")
        (False, False, False)

    The first `://` starts the authority (a later one is in the path or query), which may be empty; a
    prefix without a scheme before it holds no authority, and nothing but `/`, `?` and `#` ends one:

        >>> authority_ended("https://h.example/go?to=https://"), authority_ended("file:///")
        (True, True)
        >>> authority_ended("://h.example/"), authority_ended("s://h.example/"), authority_ended("https://X")
        (False, True, False)
    """
    start = prefix.find("://")
    return start > 0 and any(mark in prefix[start + 3 :] for mark in "/?#")


def secret_place_allowed(url: str) -> bool:
    """Whether a URL template names its secrets only where they may stand: as the whole URL, or after
    the authority has ended."""
    found = _SECRET_PLACEHOLDER.search(url)
    if found is None:
        return True
    if found.span() == (0, len(url)):
        return True
    return authority_ended(url[: found.start()])


def url_fields(node_type: str, config: dict[str, Any]) -> list[tuple[tuple[str, ...], Any]]:
    """The URLs of an action's config (and of its undo), by where they sit: an http node's `url`, a
    webhook notify's `to`."""
    found: list[tuple[tuple[str, ...], Any]] = []
    parts: list[tuple[tuple[str, ...], dict[str, Any]]] = [((), config)]
    if isinstance(config.get("undo"), dict):
        parts.append((("undo",), config["undo"]))
    for at, part in parts:
        if node_type == "http":
            found.append(((*at, "url"), part.get("url")))
        elif node_type == "notify" and part.get("channel") == "webhook":
            found.append(((*at, "to"), part.get("to")))
    return found


def first_secret_path(config: Any) -> tuple[str | int, ...] | None:
    """Where the first `show` item of an approval reads a secret by its path (`secrets.api`), or None.

    Examples:
        >>> first_secret_path({"show": [{"value": "invoice.amount"}, {"value": "secrets.api"}]})
        ('show', 1, 'value')
        >>> first_secret_path({"show": [{"value": "secretsauce"}, "secrets"]}) is None
        True
        >>> first_secret_path(["secrets"]) is None  # a config that is no object has no show
        True
    """
    show = config.get("show") if isinstance(config, dict) else None
    for index, item in enumerate(show if isinstance(show, list) else ()):
        value = item.get("value") if isinstance(item, dict) else None
        if isinstance(value, str) and value.split(".")[0] == "secrets":
            return ("show", index, "value")
    return None


def check_secret_refs(node: NodeEntry, report: Report) -> None:
    assert isinstance(node.config, dict)
    if node.type in ACTION_TYPES:
        for path, url in url_fields(node.type, node.config):
            if isinstance(url, str) and not secret_place_allowed(url):
                where = pointer(("nodes", node.place, "config", *path))
                report.add(code="secret_place_forbidden", node=node.id, detail=where)
                return
        return
    found = first_secret_ref(node.config)
    if found is None and node.type == "approval":
        found = first_secret_path(node.config)
    if found is not None:
        where = pointer(("nodes", node.place, "config", *found))
        report.add(code="secret_outside_action", node=node.id, detail=where)
