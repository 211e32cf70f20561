"""Credentials out of what the effects table keeps: it says what was asked, not how to ask it again.

Header values whose names say they carry a credential, a URL's password, and query parameters named
like a credential are replaced with `[redacted]`. The request digest is taken before redaction, so two
requests that differ only in a secret still count as different.

Examples:
    >>> redact_headers({"Authorization": "Bearer s3cr3t", "X-Api-Key": "k", "Accept": "text/plain"})
    {'Authorization': '[redacted]', 'X-Api-Key': '[redacted]', 'Accept': 'text/plain'}
    >>> redact_url("https://ann:pw@api.example/v1?token=abc&page=2")
    'https://ann:[redacted]@api.example/v1?token=%5Bredacted%5D&page=2'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

REDACTED = "[redacted]"
# `Idempotency-Key` names a key but is ours and harmless; every other *key* header is a credential.
_SECRET_NAME = re.compile(r"auth|token|secret|passw|cookie|session|signature|(?<!idempotency-)key", re.I)


def redact_headers(headers: Mapping[str, Any]) -> dict[str, Any]:
    return {name: REDACTED if _SECRET_NAME.search(name) else value for name, value in headers.items()}


def redact_url(url: Any) -> Any:
    """The URL with its password and credential-named query values redacted; anything else unchanged."""
    if not isinstance(url, str):
        return url
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return url
    netloc = parts.netloc
    if password is not None:
        user, _, host = netloc.rpartition("@")
        netloc = f"{user.partition(':')[0]}:{REDACTED}@{host}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        if any(_SECRET_NAME.search(name) for name, _ in pairs):
            query = urlencode([(n, REDACTED if _SECRET_NAME.search(n) else v) for n, v in pairs])
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def redact_values(value: Any) -> Any:
    """Data shown to people (a run's variables) with every value under a credential-like key redacted.

    Examples:
        >>> redact_values({"invoice": "A-7", "api": {"token": "t", "page": 2}, "rows": [{"password": "p"}]})
        {'invoice': 'A-7', 'api': {'token': '[redacted]', 'page': 2}, 'rows': [{'password': '[redacted]'}]}
    """
    # Iterative, as every traversal here: a deep document must not reach Python's recursion limit.
    root: list[Any] = [value]
    stack: list[tuple[Any, Any, Any]] = [(root, 0, value)]
    while stack:
        parent, slot, item = stack.pop()
        if isinstance(item, Mapping):
            copy: dict[str, Any] = {}
            parent[slot] = copy
            for name, inner in item.items():
                if isinstance(name, str) and _SECRET_NAME.search(name):
                    copy[name] = REDACTED
                else:
                    copy[name] = inner
                    stack.append((copy, name, inner))
        elif isinstance(item, list):
            items = list(item)
            parent[slot] = items
            stack.extend((items, index, inner) for index, inner in enumerate(item))
    return root[0]


def redact_request(action_type: str, config: Mapping[str, Any]) -> dict[str, Any]:
    """A rendered action config as the effects table keeps it."""
    kept = dict(config)
    if "headers" in kept and isinstance(kept["headers"], Mapping):
        kept["headers"] = redact_headers(kept["headers"])
    if action_type == "http" or (action_type == "notify" and kept.get("channel") == "webhook"):
        field = "url" if action_type == "http" else "to"
        kept[field] = redact_url(kept.get(field))
    return kept
