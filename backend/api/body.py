"""Reading a request's JSON body: size, time, content type, syntax, depth, and what PostgreSQL can store.

Every refusal here happens before anything is written: bad input changes nothing. A refusal never
quotes the value it refuses (it may be a password): it names where (a JSON pointer) and which rule.
"""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

from jsonschema import Draft202012Validator
from starlette.requests import ClientDisconnect, Request

from backend.api.errors import ApiError
from backend.graph.explain import describe

MAX_BODY_BYTES = 5_000_000  # a flow of 1,000 nodes with room to spare; the same limit as `flowyard check`
# Deeper than any flow document needs (a node's config sits at depth 4), and far below the depth at
# which the json encoder, jsonschema and the walker would hit Python's recursion limit.
MAX_DEPTH = 100


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
    """JSON as PostgreSQL's jsonb can hold it: no NaN or Infinity, no NUL character, no duplicate keys.

    Examples:
        >>> parse_json(b'{"a": [1, "x"]}')
        {'a': [1, 'x']}
        >>> parse_json(b'{"a": NaN}')
        Traceback (most recent call last):
        ...
        backend.api.errors.ApiError: request_json_invalid
    """
    try:
        value = json.loads(
            raw.decode("utf-8"),
            parse_constant=_no_constant,
            parse_float=_finite,
            parse_int=_bounded_int,
            object_pairs_hook=_unique,
        )
    except RecursionError:
        raise ApiError(
            400, code="request_json_too_deep", detail={"limit": MAX_DEPTH}, limit=MAX_DEPTH
        ) from None
    except (UnicodeDecodeError, json.JSONDecodeError, ValueError) as exc:
        raise ApiError(400, code="request_json_invalid", detail={"reason": _reason(exc)}) from None
    problem = _unstorable_text(value)
    if problem == _TOO_DEEP:
        raise ApiError(400, code="request_json_too_deep", detail={"limit": MAX_DEPTH}, limit=MAX_DEPTH)
    if problem:
        raise ApiError(400, code="request_json_invalid", detail={"reason": problem})
    return value


def check(value: Any, schema: dict[str, Any]) -> None:
    """Refuse a value that does not match `schema`, naming where and why (the first error by path)."""
    errors = sorted(Draft202012Validator(schema).iter_errors(value), key=lambda e: list(e.absolute_path))
    if not errors:
        return
    first = errors[0]
    # jsonschema's message quotes the value (a password, say): the validator's phrasing never does.
    where, reason = next(describe(first), (tuple(first.absolute_path), f"does not satisfy {first.validator}"))
    pointer = "".join(f"/{part}" for part in where) or "/"
    detail = {"pointer": pointer, "rule": str(first.validator), "reason": reason}
    if first.validator == "additionalProperties":
        raise ApiError(422, code="request_field_unknown", detail=detail)
    raise ApiError(422, code="request_invalid", detail=detail)


class _Refused(ValueError):
    pass


MAX_DIGITS = 1000  # an integer longer than this is no count or id of ours


def _no_constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise _Refused(f"{text[:20]} is too large a number")
    return number


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(f"an integer has more than {MAX_DIGITS} digits")
    return int(text)


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _Refused(f"the key {key!r} appears twice")
        result[key] = value
    return result


def _reason(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"line {exc.lineno}, column {exc.colno}: {exc.msg}"
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8"
    if not isinstance(exc, _Refused):
        return "a number cannot be read"
    return str(exc)


_TOO_DEEP = "nested too deeply"


def _unstorable_text(value: Any) -> str | None:
    """Why PostgreSQL's jsonb would refuse a string in `value` (NUL, an unpaired surrogate), or None;
    `_TOO_DEEP` for arrays and objects nested deeper than MAX_DEPTH (the encoder that stores it recurses).

    Examples:
        >>> _unstorable_text(json.loads("[" * 101 + "]" * 101)) == _TOO_DEEP, _unstorable_text([[["ok"]]])
        (True, None)
    """
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            problem = text_problem(item)
            if problem:
                return problem
        elif isinstance(item, dict | list):
            if depth >= MAX_DEPTH:
                return _TOO_DEEP
            if isinstance(item, dict):
                stack.extend((key, depth) for key in item)
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return None


def text_problem(text: str) -> str | None:
    r"""Why a string cannot be stored as PostgreSQL text, or None.

    Examples:
        >>> text_problem("ok"), text_problem("a\x00b"), text_problem("\ud800")
        (None, 'a string holds the NUL character', 'a string holds an unpaired surrogate')
    """
    if "\x00" in text:
        return "a string holds the NUL character"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "a string holds an unpaired surrogate"
    return None
