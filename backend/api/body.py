"""Reading a request's JSON body: size, time, content type, syntax, depth, and what PostgreSQL can store.

Every refusal here happens before anything is written: bad input changes nothing. A refusal never
quotes the value it refuses (it may be a password): it names where (a JSON pointer) and which rule.
"""

from __future__ import annotations

import asyncio
from typing import Any

from jsonschema import Draft202012Validator
from starlette.requests import ClientDisconnect, Request

from backend.api.errors import ApiError
from backend.graph.explain import describe, problem
from backend.strict_json import MAX_BYTES, MAX_DEPTH, JsonRefused, text_problem
from backend.strict_json import read_json as read_json_strictly

__all__ = ["MAX_BODY_BYTES", "MAX_DEPTH", "ClientGone", "check", "parse_json", "read_json", "text_problem"]

# The strict reader's limits: a body is as large and as deep as a flow file may be.
MAX_BODY_BYTES = MAX_BYTES


class ClientGone(Exception):
    """The client closed its connection before its body was all sent: there is nobody to answer."""


async def read_json(
    request: Request, schema: dict[str, Any] | None, *, limit: int = MAX_BODY_BYTES, deadline_s: float = 30.0
) -> Any:
    """The body as JSON, checked against `schema` when one is given.

    The body must arrive within `deadline_s` (408 after it): a sender trickling a byte at a time holds
    a task and a socket, never more, and not for long.
    """
    try:
        async with asyncio.timeout(deadline_s):
            raw = await _read(request, limit)
    except TimeoutError:
        raise ApiError(
            408, code="request_body_timeout", detail={"seconds": deadline_s}, seconds=deadline_s
        ) from None
    except ClientDisconnect:
        raise ClientGone from None
    value = parse_json(raw)
    if schema is not None:
        check(value, schema)
    return value


async def _read(request: Request, limit: int) -> bytes:
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json":
        raise ApiError(415, code="request_content_type", detail={"expected": "application/json"})
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ApiError(413, code="request_too_large", detail={"limit": limit}, limit=limit)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, code="request_too_large", detail={"limit": limit}, limit=limit)
        chunks.append(chunk)
    return b"".join(chunks)


def parse_json(raw: bytes) -> Any:
    """JSON as PostgreSQL's jsonb can hold it, read by the one strict reader (`backend.strict_json`).

    Examples:
        >>> parse_json(b'{"a": [1, "x"]}')
        {'a': [1, 'x']}
        >>> parse_json(b'{"a": NaN}')
        Traceback (most recent call last):
        ...
        backend.api.errors.ApiError: request_json_invalid
    """
    try:
        return read_json_strictly(raw, max_bytes=len(raw), max_depth=MAX_DEPTH)
    except JsonRefused as refused:
        if refused.kind == "too_deep":
            raise ApiError(
                400, code="request_json_too_deep", detail={"limit": MAX_DEPTH}, limit=MAX_DEPTH
            ) from None
        raise ApiError(400, code="request_json_invalid", detail={"reason": refused.reason}) from None


def check(value: Any, schema: dict[str, Any]) -> None:
    """Refuse a value that does not match `schema`, naming where and why (the first error by path)."""
    errors = sorted(Draft202012Validator(schema).iter_errors(value), key=lambda e: list(e.absolute_path))
    if not errors:
        return
    first = errors[0]
    # jsonschema's message quotes the value (a password, say): the validator's phrasing never does.
    where, said = next(describe(first), (tuple(first.absolute_path), problem("problem_rule")))
    pointer = "".join(f"/{part}" for part in where) or "/"
    detail = {"pointer": pointer, "rule": str(first.validator), "reason": said.code}
    if first.validator == "additionalProperties":
        raise ApiError(422, code="request_field_unknown", detail=detail)
    raise ApiError(422, code="request_invalid", detail=detail)
