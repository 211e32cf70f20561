"""The `http` node: a rendered config in, the response's status, headers and body out.

A status of 400 or more is an error (`http_status_error`) carrying the whole response, so a flow can
wire `error` and read `{{fetch.status}}` and `{{fetch.body}}` there; 1xx to 3xx are the `out` port's.
The effect key goes out as `Idempotency-Key` unless the node sets that header itself (a business key of
the user's own is stable across tries too, and the user asked for it).

Examples:
    >>> encode_body({"id": 7}, {})
    (b'{"id":7}', 'application/json')
    >>> encode_body("plain words", {"Content-Type": "text/csv"})
    (b'plain words', None)
    >>> encode_body(None, {})
    (None, None)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

from backend.actions.failures import ActionFailure, config_type_refused
from backend.actions.transport import Answer, Exchange, HttpSender, LateAnswer

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


async def send_http(
    config: Mapping[str, Any],
    key: str,
    sender: HttpSender,
    *,
    timeout_s: float,
    max_redirects: int,
    shown_url: str | None = None,
    secret_headers: frozenset[str] = frozenset(),
    late: LateAnswer | None = None,
    late_s: float = 0.0,
) -> dict[str, Any]:
    """Send the request; `shown_url` is the URL as written when a secret went into it (what is reported),
    `secret_headers` the lower-case names of the headers a secret went into (kept from other origins).
    `late`, `late_s`: an answer that comes within `late_s` after the timeout is handed to `late`."""
    method = str(config.get("method", "GET")).upper()
    if method not in METHODS:
        raise ActionFailure(
            code="action_config_invalid",
            field="method",
            detail=method,
            problem="problem_value",
            values=tuple(json.dumps(one) for one in METHODS),
        )
    url = config.get("url")
    if not isinstance(url, str):
        raise ActionFailure(code="action_url_invalid", url=json.dumps(url))
    headers = header_values(config.get("headers"))
    if not any(name.lower() == "idempotency-key" for name in headers):
        headers["Idempotency-Key"] = key
    content, content_type = encode_body(config.get("body"), headers)
    if content_type is not None:
        headers["Content-Type"] = content_type
    exchange = Exchange(
        method=method,
        url=url,
        headers=headers,
        content=content,
        timeout_s=timeout_s,
        follow=max_redirects,
        shown_url=shown_url,
        secret_headers=secret_headers,
        late_s=late_s,
    )
    answer = await sender.send(exchange, late)
    if answer.status >= 400:
        raise ActionFailure(code="http_status_error", **answer.output())
    return answer.output()


def answered(answer: Answer) -> tuple[Literal["out", "error"], dict[str, Any]]:
    """An answer as the effects log keeps it: 400 or more is the error `http_status_error` carrying it."""
    if answer.status >= 400:
        return "error", ActionFailure(code="http_status_error", **answer.output()).output()
    return "out", answer.output()


def header_values(headers: Any) -> dict[str, str]:
    """Rendered header values as text: a number is written out, a missing path sends no header."""
    if headers is None:
        return {}
    if not isinstance(headers, Mapping):
        raise config_type_refused("headers", "object")
    values: dict[str, str] = {}
    for name, value in headers.items():
        if value is None:
            continue
        if isinstance(value, dict | list):
            raise config_type_refused(f"headers.{name}", "string")
        values[str(name)] = value if isinstance(value, str) else json.dumps(value)
    return values


def encode_body(body: Any, headers: Mapping[str, str]) -> tuple[bytes | None, str | None]:
    """The bytes to send and the Content-Type to add (None: none, or the node set its own)."""
    if body is None:
        return None, None
    has_type = any(name.lower() == "content-type" for name in headers)
    if isinstance(body, str):
        return body.encode(), None if has_type else "text/plain; charset=utf-8"
    content = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
    return content, None if has_type else "application/json"
