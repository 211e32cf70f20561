"""Tests: a missing operand is false for every operator, `ne` included; `exists` asks about presence."""

from __future__ import annotations

from typing import Any

import pytest

from backend.walker.conditions import OPERATORS, holds
from backend.walker.errors import WalkFailure

VARIABLES: dict[str, Any] = {
    "amount": 1200,
    "name": "ann",
    "tags": ["urgent", 1],
    "flag": True,
    "nothing": None,
}


def check(left: Any, op: str, right: Any = None) -> bool:
    return holds({"left": left, "op": op, "right": right}, VARIABLES)


@pytest.mark.parametrize("op", [op for op in OPERATORS if op != "exists"])
def test_a_missing_left_operand_is_false_whatever_the_operator(op: str) -> None:
    assert check("{{missing}}", op, 1) is False
    assert check("{{missing}}", op, "{{missing}}") is False
    assert check("x{{missing}}", op, "x") is False


@pytest.mark.parametrize("op", [op for op in OPERATORS if op != "exists"])
def test_a_missing_right_operand_is_false_whatever_the_operator(op: str) -> None:
    assert check("{{amount}}", op, "{{missing}}") is False
    assert holds({"left": "{{amount}}", "op": op}, VARIABLES) is False


def test_exists_is_true_iff_the_left_operand_is_present() -> None:
    assert check("{{amount}}", "exists") is True
    assert check("{{nothing}}", "exists") is True  # present, and null
    assert check("{{missing}}", "exists") is False
    assert holds({"op": "exists"}, VARIABLES) is False


@pytest.mark.parametrize(
    ("left", "op", "right", "expected"),
    [
        ("{{amount}}", "eq", 1200, True),
        ("{{amount}}", "eq", 1200.0, True),
        ("{{amount}}", "eq", "1200", False),
        ("{{flag}}", "eq", True, True),
        ("{{flag}}", "eq", 1, False),
        (1, "eq", True, False),
        ("{{nothing}}", "eq", None, True),
        ("{{name}}", "ne", "bob", True),
        ("{{name}}", "ne", "ann", False),
        ("{{amount}}", "ne", "1200", True),
        ("{{amount}}", "gt", 1000, True),
        ("{{amount}}", "ge", 1200, True),
        ("{{amount}}", "lt", 1200, False),
        ("{{amount}}", "le", 1200.5, True),
        ("{{name}}", "lt", "bob", True),
        ("2024-01-02T00:00:00Z", "gt", "2024-01-01T23:59:59Z", True),
        ("{{name}}", "lt", 1, False),
        ("{{name}}", "gt", 1, False),
        ("{{flag}}", "gt", 0, False),
        ("{{nothing}}", "lt", 1, False),
        ("{{tags}}", "lt", [], False),
        ("{{tags}}", "contains", "urgent", True),
        ("{{tags}}", "contains", 1, True),
        ("{{tags}}", "contains", True, False),
        ("{{tags}}", "contains", "later", False),
        ("{{name}}", "contains", "nn", True),
        ("{{name}}", "contains", 1, False),
        ({"a": 1}, "contains", "a", True),
        ({"a": 1}, "contains", "b", False),
        ("{{amount}}", "contains", 1, False),
        ("{{tags}}", "eq", ["urgent", 1], True),
    ],
)
def test_operators_compare_json_values_without_coercion(
    left: Any, op: str, right: Any, expected: bool
) -> None:
    assert check(left, op, right) is expected


def test_an_unknown_operator_fails_with_node_config_invalid() -> None:
    with pytest.raises(WalkFailure) as raised:
        check(1, "matches", 1)
    assert raised.value.code == "node_config_invalid"
