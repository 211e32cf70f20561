"""Tests: `left op right`, as a `condition` node and a `repeat`'s `while` write them.

A missing operand makes the test false whatever the operator, `ne` included: "this field is not `done`"
is false while the field does not exist, so a `repeat` never starts on data that has not arrived.
`exists` is the one operator that asks about presence.

Values compare as JSON values, without coercion: `1` equals `1.0` but not `"1"` nor `true`. Ordering
(`lt le gt ge`) holds between two numbers or two strings (ISO timestamps order as text); anything else,
such as `"a" < 1`, is false, never an exception. `contains` asks whether a string contains a string,
a list contains an equal value, or an object has a key.

Examples:
    >>> holds({"left": "{{invoice.amount}}", "op": "gt", "right": 1000}, {"invoice": {"amount": 1200}})
    True
    >>> holds({"left": "{{status}}", "op": "ne", "right": "done"}, {})
    False
    >>> holds({"left": "{{status}}", "op": "exists"}, {"status": None})
    True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from backend.config import DEFAULT_MAX_VALUE_BYTES
from backend.walker.errors import WalkFailure
from backend.walker.templates import MISSING, evaluate, kind_of


def _equal(left: Any, right: Any) -> bool:
    return kind_of(left) == kind_of(right) and bool(left == right)


def _ordered(compare: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]:
    def check(left: Any, right: Any) -> bool:
        kind = kind_of(left)
        return kind in ("number", "string") and kind == kind_of(right) and compare(left, right)

    return check


def _contains(left: Any, right: Any) -> bool:
    kind = kind_of(left)
    if kind == "string":
        return isinstance(right, str) and right in left
    if kind == "array":
        return any(_equal(item, right) for item in left)
    if kind == "object":
        return isinstance(right, str) and right in left
    return False


_OPERATORS: Mapping[str, Callable[[Any, Any], bool]] = {
    "eq": _equal,
    "ne": lambda left, right: not _equal(left, right),
    "lt": _ordered(lambda left, right: left < right),
    "le": _ordered(lambda left, right: left <= right),
    "gt": _ordered(lambda left, right: left > right),
    "ge": _ordered(lambda left, right: left >= right),
    "contains": _contains,
}
OPERATORS: tuple[str, ...] = (*_OPERATORS, "exists")


def holds(
    config: Mapping[str, Any], variables: Mapping[str, Any], limit: int = DEFAULT_MAX_VALUE_BYTES
) -> bool:
    """Whether the test in `config` (`left`, `op`, `right`) holds for these variables.

    An operand key that is absent counts as missing. An unknown `op` fails the run with
    `node_config_invalid` (the validator refuses it first; this guards a flow that skipped it).

    Examples:
        >>> holds({"left": "{{tags}}", "op": "contains", "right": "urgent"}, {"tags": ["urgent"]})
        True
        >>> holds({"left": "a", "op": "lt", "right": 1}, {})
        False
    """
    op = config.get("op")
    left = evaluate(config.get("left", MISSING), variables, limit)
    if op == "exists":
        return left is not MISSING
    compare = _OPERATORS.get(op) if isinstance(op, str) else None
    if compare is None:
        raise WalkFailure(code="node_config_invalid", field="op")
    right = evaluate(config.get("right", MISSING), variables, limit)
    if left is MISSING or right is MISSING:
        return False
    return compare(left, right)
