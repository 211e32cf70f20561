"""The one strict JSON reader: JSON as PostgreSQL's jsonb can hold it, or a refusal that says why.

Every place that reads JSON a person gives (the API's bodies, `flowyard check` and `walk`'s flow files,
`flowyard run` and `walk`'s `--input`) reads it here, so they accept and refuse the same texts: no NaN or
Infinity, no number too large for a float or longer than 1,000 digits, no key twice in one object, no
nesting deeper than `MAX_DEPTH`, no NUL character or unpaired surrogate in a string, and no more than
`max_bytes`. A refusal is a `JsonRefused`: what is wrong (`kind`), an English `reason` that never
quotes a value (it may be a password) for a program's log or an API answer's detail, and `code` with
`params`, the same said in the reader's language: a caller cites it in its own sentence
(`reason=refused.reason_code, **refused.params`, written by the catalogs as a sentence of its own).

Examples:
    >>> read_json(b'{"a": [1, "x", 2.5]}', max_bytes=100)
    {'a': [1, 'x', 2.5]}
    >>> texts = ['{"a": NaN}', '{"a": 1, "a": 2}', '[1e999]', '{"a": "x\\\\u0000"}', '[' * 101 + ']' * 101]
    >>> for text in texts:
    ...     try:
    ...         read_json(text, max_bytes=1000)
    ...     except JsonRefused as refused:
    ...         print(refused.kind, "|", refused.reason)
    constant | NaN is not a JSON number
    key_duplicate | the key 'a' appears twice
    number | 1e999 is too large a number
    text | a string holds the NUL character
    too_deep | values nested deeper than 100
    >>> read_json(b"[1, 2]", max_bytes=5)
    Traceback (most recent call last):
    ...
    backend.strict_json.JsonRefused: too_large: more than 5 bytes
"""

from __future__ import annotations

import json
import math
from typing import Any, Literal

MAX_BYTES = 5_000_000  # a flow of 1,000 nodes with room to spare: the API's bodies and the flow files
# Deeper than any flow document needs (a node's config sits at depth 4), and far below the depth at
# which the json encoder, jsonschema and the walker would hit Python's recursion limit.
MAX_DEPTH = 100
MAX_DIGITS = 1000  # an integer longer than this is no count or id of ours

Kind = Literal["too_large", "not_utf8", "syntax", "constant", "number", "key_duplicate", "too_deep", "text"]


class JsonRefused(ValueError):
    """Why a text is no JSON we take: the `kind`, an English `reason`, and the reason code (`reason_code`,
    given as `code=`) with the `params` its sentence names (`limit`, `offset`, `key`, `line`, `column`)."""

    def __init__(self, kind: Kind, reason: str, *, code: str, **params: Any) -> None:
        super().__init__(f"{kind}: {reason}")
        self.kind: Kind = kind
        self.reason = reason
        self.reason_code = code  # not `code`: a CodedError's alone (tests/test_errors.py)
        self.params = params


def read_json(
    data: bytes | str, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH, allow_bom: bool = False
) -> Any:
    """The JSON value in `data` (UTF-8 bytes, or text); a `JsonRefused` when it is not one we take.

    `allow_bom` accepts a leading UTF-8 byte order mark, as editors on some systems write in files.
    """
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if len(raw) > max_bytes:
        raise JsonRefused(
            "too_large", f"more than {max_bytes} bytes", code="json_problem_too_large", limit=max_bytes
        )
    try:
        text = raw.decode("utf-8-sig" if allow_bom else "utf-8")
    except UnicodeDecodeError as error:
        raise JsonRefused("not_utf8", "not UTF-8", code="json_problem_not_utf8", offset=error.start) from None
    try:
        value = json.loads(
            text,
            parse_constant=_no_constant,
            parse_float=_finite,
            parse_int=_bounded_int,
            object_pairs_hook=_unique,
        )
    except RecursionError:
        too_deep = f"values nested deeper than {max_depth}"
        raise JsonRefused("too_deep", too_deep, code="json_problem_too_deep", limit=max_depth) from None
    except json.JSONDecodeError as error:
        reason = f"line {error.lineno}, column {error.colno}: {error.msg}"
        raise JsonRefused(
            "syntax", reason, code="json_problem_syntax", line=error.lineno, column=error.colno
        ) from None
    except JsonRefused:
        raise
    except ValueError as error:  # int() past Python's own digit limit
        raise JsonRefused("number", "a number cannot be read", code="json_problem_number") from error
    _check_storable(value, max_depth)
    return value


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


def _no_constant(name: str) -> Any:
    raise JsonRefused("constant", f"{name} is not a JSON number", code="json_problem_constant")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise JsonRefused("number", f"{text[:20]} is too large a number", code="json_problem_number")
    return number


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise JsonRefused(
            "number", f"an integer has more than {MAX_DIGITS} digits", code="json_problem_number"
        )
    return int(text)


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            reason = f"the key {key!r} appears twice"
            raise JsonRefused("key_duplicate", reason, code="json_problem_key_duplicate", key=key)
        result[key] = value
    return result


def _check_storable(value: Any, max_depth: int) -> None:
    """Refuse a string jsonb would refuse, and arrays and objects nested deeper than `max_depth` (the
    encoder that stores them recurses); iteratively, so no depth of input can exhaust the stack."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            problem = text_problem(item)
            if problem:
                raise JsonRefused("text", problem, code="json_problem_text")
        elif isinstance(item, dict | list):
            if depth >= max_depth:
                too_deep = f"values nested deeper than {max_depth}"
                raise JsonRefused("too_deep", too_deep, code="json_problem_too_deep", limit=max_depth)
            if isinstance(item, dict):
                stack.extend((key, depth) for key in item)
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
