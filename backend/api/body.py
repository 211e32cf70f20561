"""Reading a request's JSON body: size, content type, syntax, and what PostgreSQL can store.

Every refusal here happens before anything is written: bad input changes nothing.
"""

from __future__ import annotations

import json
import math
from typing import Any

from jsonschema import Draft202012Validator
from starlette.requests import Request

from backend.api.errors import ApiError

MAX_BODY_BYTES = 5_000_000  # a flow of 1,000 nodes with room to spare; the same limit as `flowyard check`


async def read_json(request: Request, schema: dict[str, Any] | None, *, limit: int = MAX_BODY_BYTES) -> Any:
    """The body as JSON, checked against `schema` when one is given."""
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
    value = parse_json(b"".join(chunks))
    if schema is not None:
        check(value, schema)
    return value


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
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError) as exc:
        raise ApiError(400, code="request_json_invalid", detail={"reason": _reason(exc)}) from None
    problem = _unstorable_text(value)
    if problem:
        raise ApiError(400, code="request_json_invalid", detail={"reason": problem})
    return value


def check(value: Any, schema: dict[str, Any]) -> None:
    """Refuse a value that does not match `schema`, naming where and why (the first error by path)."""
    errors = sorted(Draft202012Validator(schema).iter_errors(value), key=lambda e: list(e.absolute_path))
    if not errors:
        return
    first = errors[0]
    pointer = "".join(f"/{part}" for part in first.absolute_path)
    if first.validator == "additionalProperties":
        raise ApiError(
            422, code="request_field_unknown", detail={"pointer": pointer or "/", "reason": first.message}
        )
    raise ApiError(422, code="request_invalid", detail={"pointer": pointer or "/", "reason": first.message})


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
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    if not isinstance(exc, _Refused):
        return "a number cannot be read"
    return str(exc)


def _unstorable_text(value: Any) -> str | None:
    """Why PostgreSQL's jsonb would refuse a string in `value` (NUL, an unpaired surrogate), or None."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            problem = text_problem(item)
            if problem:
                return problem
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
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
